"""The games file a director fills in: one line per round, table and game, saying what happened.

Columns `round,table,game,winner,value,how,discarder,exposures,jokerless,dead,error`: `winner`,
`discarder` and `error` are seat letters A-D, `how` one of self, discard, wall, unfinished, `dead` seat
letters separated by spaces, `jokerless` yes/no, empty cells where they do not apply. `games_template`
writes it empty from the schedule; `read_gamesheet` reads it back as a spreadsheet saves it (as
rotation.files.scoresheet does) into the tables' cards, scored by the event's rules; `games_csv` writes every
game as entered, with each seat's player and points, for the records (it reads back as a games file).
"""

from __future__ import annotations

from models import SEAT_LETTERS, Schedule
from models.games import GAME_COLUMNS, Game
from models.rules import Rules
from models.scores import Card
from rotation import scoring
from rotation.files.lists import ListError
from rotation.files.output import csv_text
from rotation.files.scoresheet import Scoresheet, most_lines, place_check, sheet_number, sheet_rows
from rotation.scoring.games import games_card, read_game

RESULT_COLUMNS = GAME_COLUMNS[3:]  # what the director fills in


def games_template(schedule: Schedule, rules: Rules) -> str:
    """The empty games file: every round, table and game, the rest left blank."""
    rows: list[list[str | int]] = [list(GAME_COLUMNS)]
    for number, round_ in enumerate(schedule.rounds, start=1):
        for table in sorted(round_.tables, key=lambda t: t.table):
            rows += [[number, table.table, game] + [""] * len(RESULT_COLUMNS) for game in _games(rules)]
    return csv_text(rows)


def _games(rules: Rules) -> range:
    return range(1, rules.games_per_round + 1)


def game_cells(game: Game) -> dict[str, str]:
    """A game's boxes as the games file writes them."""
    return {
        "round": str(game.round),
        "table": str(game.table),
        "game": str(game.game),
        "winner": " ".join(game.winners),
        "value": " ".join(map(str, game.values)),
        "how": game.how.value,
        "discarder": game.discarder or "",
        "exposures": " ".join(map(str, game.exposures)),
        "jokerless": " ".join("yes" if j else "no" for j in game.jokerless),
        "dead": " ".join(game.dead),
        "error": " ".join(game.error),
    }


def games_csv(cards: list[Card]) -> str:
    """Every game entered as a game result, in round, table and game order, with each seat's player and points."""
    seats = [f"{what} {letter}" for letter in SEAT_LETTERS for what in ("player", "points")]
    rows: list[list[str | int]] = [[*GAME_COLUMNS, *seats]]
    for card in sorted(cards, key=lambda c: (c.round, c.table)):
        for index, game in enumerate(card.games):
            cells = game_cells(game)
            row: list[str | int] = [cells[column] for column in GAME_COLUMNS]
            for seat in range(len(SEAT_LETTERS)):
                row += [card.players[seat], card.points[seat][index]] if seat < len(card.players) else ["", ""]
            rows.append(row)
    return csv_text(rows)


def read_gamesheet(schedule: Schedule, text: str, rules: Rules) -> Scoresheet:
    """The cards of a filled-in games file. A table whose lines are all blank is not entered yet; a later
    line for the same round, table and game is a correction: it replaces the earlier one (a note says so)."""
    header, rows = sheet_rows(text, GAME_COLUMNS, most_lines(schedule, rules.games_per_round))
    on_schedule = place_check(schedule)
    tables: dict[tuple[int, int], dict[int, tuple[int, dict[str, str]]]] = {}
    notes: list[str] = []
    for line, cells in rows:
        where, results = _line(cells, header, line, rules)
        on_schedule(where, line)
        games = tables.setdefault(where[:2], {})
        earlier = games.get(where[2])
        if earlier is not None and _filled(earlier[1]) and not _filled(results):
            continue  # a blank line below a filled one changes nothing
        if earlier is not None and _filled(earlier[1]) and results != earlier[1]:
            notes.append(
                f"line {line} corrects line {earlier[0]} (round {where[0]}, table {where[1]}, game {where[2]})"
            )
        games[where[2]] = (line, results)
    entered = sorted(
        (min(line for line, _ in games.values()), key, games)
        for key, games in tables.items()
        if any(_filled(results) for _, results in games.values())
    )
    cards = [_card(schedule, key, games, rules) for _, key, games in entered]
    return Scoresheet(tuple(sorted(cards, key=lambda c: (c.round, c.table))), tuple(notes))


def _filled(results: dict[str, str]) -> bool:
    return any(results.values())


def _line(cells: list[str], header: dict[str, int], line: int, rules: Rules) -> tuple[tuple[int, int, int], dict]:
    """((round, table, game), the result's boxes) of one line."""
    cell = {column: cells[header[column]].strip() if header[column] < len(cells) else "" for column in GAME_COLUMNS}
    numbers = [sheet_number(cell[column], column, line) for column in ("round", "table", "game")]
    if not 1 <= numbers[2] <= rules.games_per_round:
        raise ListError(f"game {numbers[2]}: a round has games 1 to {rules.games_per_round}", line)
    return (numbers[0], numbers[1], numbers[2]), {column: cell[column] for column in RESULT_COLUMNS}


def _card(schedule: Schedule, key: tuple[int, int], games: dict[int, tuple[int, dict[str, str]]], rules: Rules):
    lines = {number: line for number, (line, _) in games.items()}
    read: list[Game] = []
    try:
        for number, (_, results) in sorted(games.items()):
            if _filled(results):
                read.append(read_game(key[0], key[1], number, results))
        return games_card(schedule, key[0], key[1], read, rules)
    except scoring.CardRefused as refused:
        problem = refused.problems[0]
        at = (lines[problem.game],) if problem.game in lines else (min(lines.values()),)
        raise ListError(str(refused), *at) from None
