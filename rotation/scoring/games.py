"""Game results into points, by the event's rules: what the director enters, what each seat scores.

`read_game` turns the boxes of one game as typed (a games file's line, the desk's row) into a `Game`;
`game_points` is the pure function from a game and the `Rules` to each seat's points, after the checks a
game must pass; `games_card` makes a table's round of games into the `Card` the standings add up.
Every refusal is a `CardProblem` naming its game and field in words for people.

The points of seat s in one game (`Rules` names each figure):

    base(s) = mah_jongg_in_error   if s called Mah Jongg in error
              dead_hand            else if s has a dead hand
              wall_game            else if the wall ran out
              unfinished           else if time was called
              value + self_pick [self-picked] + jokerless [jokerless]   for each win of s
              0                    otherwise
    points(s) = base(s) - discarder_loses(exposures of the winner)   for each win on s's discard

A dead hand that discards the winning tile still loses as discarder: the penalty is for the discard.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from models import SEAT_LETTERS, Schedule
from models.games import MAX_EXPOSURES, Game, How, Seat
from models.rules import Rules
from models.scores import Card
from rotation.scoring.cards import CardProblem, CardRefused, table_of

_YES, _NO = {"yes", "y", "true", "1", "x"}, {"no", "n", "false", "0", ""}
_SPLIT = re.compile(r"[\s,;/]+")
COLUMN_WORDS = {
    "how": "how",
    "winner": "winner",
    "value": "value",
    "discarder": "discarder",
    "exposures": "exposures",
    "jokerless": "jokerless",
    "dead": "dead hands",
    "error": "Mah Jongg in error",
}


def read_game(round_number: int, table: int, game: int, cells: Mapping[str, str | None]) -> Game:
    """A game from its boxes as typed (column name -> text; a missing or empty box is empty). Raises
    CardRefused naming each box that is not what its column takes."""
    problems: list[CardProblem] = []

    def problem(field: str, message: str) -> None:
        problems.append(CardProblem(round_number, table, None, game, f"{COLUMN_WORDS[field]}: {message}", field))

    text = {column: (cells.get(column) or "").strip() for column in COLUMN_WORDS}
    how = _how(text["how"], problem)
    winners = _seats(text["winner"], "winner", problem)
    values = _numbers(text["value"], "value", problem)
    exposures = _numbers(text["exposures"], "exposures", problem)
    jokerless = _answers(text["jokerless"], problem)
    discarders = _seats(text["discarder"], "discarder", problem)
    if len(discarders) > 1:
        problem("discarder", f"one player discards the winning tile, not {len(discarders)}")
    dead = _seats(text["dead"], "dead", problem)
    error = _seats(text["error"], "error", problem)
    if problems or how is None:
        raise CardRefused(problems or [CardProblem(round_number, table, None, game, "how: say how it ended", "how")])
    if winners and not jokerless:
        jokerless = (False,) * len(winners)
    if how is How.SELF and winners and not exposures:
        exposures = (0,) * len(winners)  # a self-pick's exposures change nothing; an empty box is no exposures
    return Game(
        round=round_number,
        table=table,
        game=game,
        how=how,
        winners=winners,
        values=values,
        exposures=exposures,
        jokerless=jokerless,
        discarder=discarders[0] if discarders else None,
        dead=dead,
        error=error,
    )


def _how(text: str, problem) -> How | None:
    if not text:
        problem("how", "say how the game ended: self, discard, wall or unfinished")
        return None
    try:
        return How(text.casefold())
    except ValueError:
        problem("how", f"{text!r} is not one of self, discard, wall, unfinished")
        return None


def _seats(text: str, field: str, problem) -> tuple[Seat, ...]:
    seats: list[Seat] = []
    for word in filter(None, _SPLIT.split(text)):
        letter = word.upper()
        if len(letter) != 1 or letter not in SEAT_LETTERS:
            problem(field, f"{word!r} is not a seat letter A, B, C or D")
        elif letter in seats:
            problem(field, f"seat {letter} is named twice")
        else:
            seats.append(letter)
    return tuple(seats)


def _numbers(text: str, field: str, problem) -> tuple[int, ...]:
    numbers = []
    for word in filter(None, _SPLIT.split(text)):
        if not (word.isdecimal() and word.isascii()) or len(word) > 6:
            problem(field, f"{word!r} is not a whole number")
        else:
            numbers.append(int(word))
    return tuple(numbers)


def _answers(text: str, problem) -> tuple[bool, ...]:
    answers = []
    for word in filter(None, _SPLIT.split(text.casefold())):
        if word not in _YES | _NO:
            problem("jokerless", f"{word!r} is not yes or no")
        answers.append(word in _YES)
    return tuple(answers)


def game_problems(game: Game, rules: Rules, seats: int) -> list[CardProblem]:
    """Why `game` cannot have happened at a table of `seats` players under `rules` (empty: it can)."""
    problems: list[CardProblem] = []

    def problem(field: str, message: str) -> None:
        problems.append(
            CardProblem(game.round, game.table, None, game.game, f"{COLUMN_WORDS[field]}: {message}", field)
        )

    if game.game > rules.games_per_round:
        problem("how", f"a round has games 1 to {rules.games_per_round}, not game {game.game}")
    letters = SEAT_LETTERS[:seats]
    for field, named in (("winner", game.winners), ("discarder", (game.discarder,)), ("dead", game.dead)):
        for seat in named:
            if seat is not None and seat not in letters:
                problem(field, f"seat {seat}: this table is three-handed, seats A to {letters[-1]}")
    for seat in game.error:
        if seat not in letters:
            problem("error", f"seat {seat}: this table is three-handed, seats A to {letters[-1]}")
    if game.how in (How.SELF, How.DISCARD):
        _win_problems(game, rules, problem)
    else:
        _no_win_problems(game, problem)
    return problems


def _win_problems(game: Game, rules: Rules, problem) -> None:
    won = "a self-picked Mah Jongg" if game.how is How.SELF else "a Mah Jongg on a discard"
    if not game.winners:
        problem("winner", f"{won} needs the winner's seat")
    elif len(game.winners) > 1 and not rules.two_winners:
        problem("winner", f"one winner a game ({', '.join(game.winners)} given): the event's rules allow one")
    elif len(game.winners) > 2 or (len(game.winners) == 2 and game.how is How.SELF):
        problem("winner", "two players may win only on the same discard, never more than two")
    for field, given, what in (
        ("value", game.values, "the hand's value"),
        ("exposures", game.exposures, "the winner's exposures (0 to 4)"),
        ("jokerless", game.jokerless, "yes or no"),
    ):
        if game.winners and len(given) != len(game.winners):
            each = "" if len(game.winners) == 1 else " for each winner, in the winners' order"
            problem(field, f"give {what}{each}" if not given else f"{len(given)} given for {len(game.winners)} winners")
    for value in game.values:
        if not rules.is_hand_value(value):
            problem(
                "value",
                f"{value} is not a hand value: a multiple of {rules.value_step} "
                f"from {rules.lowest_value} to {rules.highest_value}",
            )
    for exposures in game.exposures:
        if exposures > MAX_EXPOSURES:
            problem("exposures", f"{exposures} exposures: a hand has at most {MAX_EXPOSURES}")
    if game.how is How.SELF and game.discarder is not None:
        problem("discarder", "a self-picked Mah Jongg has no discarder")
    if game.how is How.DISCARD and game.discarder is None:
        problem("discarder", "who discarded the winning tile? give the discarder's seat")
    if game.discarder is not None and game.discarder in game.winners:
        problem("discarder", f"seat {game.discarder} won: the winner did not discard the winning tile")
    for seat in game.winners:
        if seat in game.error:
            problem("winner", f"seat {seat} called Mah Jongg in error: that hand is dead and cannot win")
        elif seat in game.dead:
            problem("winner", f"seat {seat} has a dead hand, which cannot win")


def _no_win_problems(game: Game, problem) -> None:
    ended = "a wall game" if game.how is How.WALL else "an unfinished game"
    for field, given in (
        ("winner", game.winners),
        ("value", game.values),
        ("exposures", game.exposures),
        ("discarder", (game.discarder,) if game.discarder else ()),
    ):
        if given:
            problem(field, f"{ended} has no {COLUMN_WORDS[field]}; clear it, or say how the game was won")
    if any(game.jokerless):
        problem("jokerless", f"{ended} has no winning hand to be jokerless")


def game_points(game: Game, rules: Rules, seats: int) -> tuple[int, ...]:
    """Each seat's points (A, B, C[, D]) for one game; raises CardRefused when the game cannot have happened."""
    problems = game_problems(game, rules, seats)
    if problems:
        raise CardRefused(problems)
    won = game.how in (How.SELF, How.DISCARD)
    points = []
    for seat in SEAT_LETTERS[:seats]:
        if seat in game.error:
            base = rules.mah_jongg_in_error
        elif seat in game.dead:
            base = rules.dead_hand
        elif game.how is How.WALL:
            base = rules.wall_game
        elif game.how is How.UNFINISHED:
            base = rules.unfinished
        else:
            base = sum(_won(game, rules, index) for index, winner in enumerate(game.winners) if winner == seat)
        if won and seat == game.discarder:
            base -= sum(rules.discarder_loses(exposures) for exposures in game.exposures)
        points.append(base)
    return tuple(points)


def _won(game: Game, rules: Rules, index: int) -> int:
    self_pick = rules.self_pick if game.how is How.SELF else 0
    return game.values[index] + self_pick + (rules.jokerless if game.jokerless[index] else 0)


def games_card(schedule: Schedule, round_number: int, table_number: int, games: Sequence[Game], rules: Rules) -> Card:
    """The table's card from its round of game results (games 1 to rules.games_per_round, in any order).
    Raises CardRefused naming each game and box that is wrong or missing."""
    table = table_of(schedule, round_number, table_number)
    seats = len(table.players)
    problems: list[CardProblem] = []
    by_number: dict[int, Game] = {}
    for game in games:
        if (game.round, game.table) != (round_number, table_number):
            message = f"how: this game is of round {game.round}, table {game.table}"
            problems.append(CardProblem(round_number, table_number, None, game.game, message, "how"))
        elif game.game in by_number:
            message = "how: this game is entered twice"
            problems.append(CardProblem(round_number, table_number, None, game.game, message, "how"))
        else:
            by_number[game.game] = game
            problems += game_problems(game, rules, seats)
    for number in range(1, rules.games_per_round + 1):
        if number not in by_number:
            message = "how: no result entered for this game"
            problems.append(CardProblem(round_number, table_number, None, number, message, "how"))
    if problems:
        raise CardRefused(sorted(problems, key=lambda p: (p.game or 0, list(COLUMN_WORDS).index(p.field or "how"))))
    ordered = [by_number[number] for number in range(1, rules.games_per_round + 1)]
    per_game = [game_points(game, rules, seats) for game in ordered]
    points = tuple(tuple(game[seat] for game in per_game) for seat in range(seats))
    return Card(round=round_number, table=table_number, players=table.players, points=points, games=tuple(ordered))


def second_looks(card: Card, rules: Rules) -> list[CardProblem]:
    """Games of a plain-points card where more players have a winner's points (the lowest hand value or
    more) than can win: a slipped zero (25 and 250) or points entered on the wrong line. Worth a second
    look, not refused: house rules the desk does not know may allow it."""
    can_win = 2 if rules.two_winners else 1
    looks = []
    for game, row in enumerate(zip(*card.points), start=1):
        winners = [name for name, points in zip(card.players, row) if points >= rules.lowest_value]
        if len(winners) > can_win:
            names = ", ".join(winners[:-1]) + f" and {winners[-1]}"
            message = f"{names} each have a winner's points ({rules.lowest_value} or more): worth a second look"
            looks.append(CardProblem(card.round, card.table, None, game, message))
    return looks
