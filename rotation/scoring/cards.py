"""A table's card read against the schedule: every box checked, every problem placed.

A front end hands over what was typed, player by player and game by game; `card` returns a `Card`
or raises `CardRefused`, whose problems each name the round, table, player and game they are about,
in words for people, so the desk can put each message beside its box and the command line can add
the line of its sheet.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from models import Schedule, Table
from models.event import did_you_mean, name_key
from models.scores import GAMES_PER_ROUND, MAX_POINTS, Card

Entry = str | int | None  # a box as typed: text, a number, or nothing
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")


class CardProblem(NamedTuple):
    """One wrong or missing box. `message` is a sentence that stands beside its box (it names the player);
    `player` and `game` say which box, None when it is about the whole card or a player's whole row.
    A game result's problem names its `field` instead of a player ('winner', 'value', 'discarder', ...)."""

    round: int
    table: int | None
    player: str | None
    game: int | None
    message: str
    field: str | None = None

    @property
    def place(self) -> str:
        """'round 2, table 3, game 4' (as far as it is known)."""
        parts = [f"round {self.round}"]
        parts += [f"table {self.table}"] if self.table is not None else []
        parts += [f"game {self.game}"] if self.game is not None else []
        return ", ".join(parts)

    def __str__(self) -> str:
        return f"{self.place}: {self.message}"


class CardRefused(ValueError):
    """A card that does not fit the schedule; `problems` says which boxes and why."""

    def __init__(self, problems: Sequence[CardProblem]):
        self.problems = tuple(problems)
        more = len(self.problems) - 1
        super().__init__(str(self.problems[0]) + (f" (and {more} more)" if more else ""))


def card(
    schedule: Schedule,
    round_number: int,
    table_number: int,
    entries: Mapping[str, Sequence[Entry]],
    games: int = GAMES_PER_ROUND,
) -> Card:
    """The card of one table in one round, from each player's games as typed (name -> games 1 to `games`).

    Names match the schedule's ignoring case ('ann' is 'Ann'); points are whole numbers, '-' or '+'
    allowed (a typographic minus too), up to MAX_POINTS a game."""
    table = table_of(schedule, round_number, table_number)
    problem = _problems(round_number, table_number)
    seated = {name_key(name): name for name in table.players}
    rows: dict[str, list[int | None]] = {}
    problems: list[CardProblem] = []
    for given, boxes in entries.items():
        name = seated.get(name_key(given))
        if name is None:
            problems.append(problem(given, None, _not_here(schedule, round_number, table, given)))
        elif name in rows:
            problems.append(problem(name, None, f"{name!r} is entered twice on this card"))
        else:
            rows[name] = _games(boxes, games, name, problems, problem)
    for name in table.players:
        if name not in rows:
            problems.append(problem(name, None, f"no points entered for {name}"))
            continue
        missing = [g for g, points in enumerate(rows[name], start=1) if points is None]
        problems += [problem(name, game, f"no points entered for {name}") for game in missing]
    if problems:
        raise CardRefused(problems)
    points = tuple(tuple(p for p in rows[name] if p is not None) for name in table.players)
    return Card(round=round_number, table=table_number, players=table.players, points=points)


def _problems(round_number: int, table_number: int):
    return lambda player, game, message: CardProblem(round_number, table_number, player, game, message)


def table_of(schedule: Schedule, round_number: int, table_number: int) -> Table:
    """The schedule's table, or CardRefused saying which rounds or tables there are."""
    if not 1 <= round_number <= len(schedule.rounds):
        raise CardRefused(
            [CardProblem(round_number, None, None, None, f"the day has rounds 1 to {len(schedule.rounds)}")]
        )
    tables = schedule.rounds[round_number - 1].tables
    for table in tables:
        if table.table == table_number:
            return table
    numbers = ", ".join(str(t.table) for t in sorted(tables, key=lambda t: t.table))
    message = f"there is no such table this round (tables {numbers})"
    raise CardRefused([CardProblem(round_number, table_number, None, None, message)])


def _not_here(schedule: Schedule, round_number: int, table: Table, given: str) -> str:
    """Why a name on a card is not one of the table's players, and where that player is."""
    round_ = schedule.rounds[round_number - 1]
    by_key = {name_key(name): name for name in schedule.players}
    name = by_key.get(name_key(given))
    if name is not None:
        where = schedule.seat_of(round_number - 1).get(name)
        if where is not None:
            return f"{name!r} plays at table {where[0]} this round, not at this table"
        return f"{name!r} " + ("sits out this round" if name in round_.sit_outs else "is not at the event this round")
    seats = ", ".join(table.players[:-1]) + f" and {table.players[-1]}"
    return f"{given!r} is not at this table (it seats {seats}){did_you_mean(given, table.players)}"


def _games(typed: Sequence[Entry], games: int, name: str, problems: list[CardProblem], problem) -> list[int | None]:
    """A player's boxes as numbers (None where empty); a wrong box is a problem."""
    boxes = list(typed)
    if len(boxes) > games and any(_typed(box) for box in boxes[games:]):
        problems.append(problem(name, None, f"a round has {games} games; {name} has {len(boxes)} boxes"))
    boxes = (boxes + [None] * games)[:games]
    row: list[int | None] = []
    for game, box in enumerate(boxes, start=1):
        points, wrong = _points(box)
        if wrong:
            problems.append(problem(name, game, f"{wrong} for {name}"))
        row.append(points if not wrong else 0)
    return row


def _typed(box: Entry) -> bool:
    return box is not None and str(box).strip() != ""


def _points(box: Entry) -> tuple[int | None, str]:
    """(points, '') or (None, '') for an empty box, or (None, why) for one that is not a whole number."""
    if isinstance(box, bool):  # True is an int to Python, not a score to anyone
        return None, f"{box!r} is not a whole number of points"
    if isinstance(box, int):
        points = box
    elif not _typed(box):
        return None, ""
    else:
        text = str(box).strip().replace("\u2212", "-")
        if not _WHOLE_NUMBER.fullmatch(text):
            return None, f"{str(box).strip()[:40]!r} is not a whole number of points"
        if len(text.lstrip("+-")) > len(str(MAX_POINTS)):  # before int(): thousands of digits are refused
            return (
                None,
                f"a number of {len(text.lstrip('+-'))} digits is beyond the {MAX_POINTS:,} points a game can score",
            )
        points = int(text)
    if abs(points) > MAX_POINTS:
        return None, f"{points} is beyond the {MAX_POINTS:,} points a game can score"
    return points, ""
