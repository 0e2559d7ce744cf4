"""What a director reads and what a spreadsheet opens: text, CSV and JSON (written by rotation.files.writing)."""

from __future__ import annotations

import csv
import io
import os

from models import SEAT_LETTERS, Metrics, Schedule
from optimizer.words import counted
from rotation import tool_version
from rotation.files.inputs import MAX_SCHEDULE_BYTES, BadInput

# The checker's figures beyond repeats that a schedule file records (issue 11).
BALANCE_FIGURES = ("seat_spread", "table_visits_above_even", "trios_again", "back_to_back")


def seating_text(schedule: Schedule) -> str:
    lines = []
    scoring = schedule.sit_out_scoring.value
    for number, round_ in enumerate(schedule.rounds, start=1):
        lines.append(f"Round {number}")
        for table in round_.tables:
            seats = "  ".join(f"{SEAT_LETTERS[s]} {name}" for s, name in enumerate(table.players))
            mark = "  (three-handed)" if len(table.players) == 3 else ""
            lines.append(f"  Table {table.table:>3}  {seats}{mark}")
        if round_.sit_outs:
            lines.append(f"  Sitting out (scores {scoring}): {', '.join(round_.sit_outs)}")
        if round_.absent:
            lines.append(f"  Not here: {', '.join(round_.absent)}")
    return "\n".join(lines)


def metrics_text(metrics: Metrics, schedule: Schedule | None = None) -> str:
    return "\n".join(metrics_lines(metrics, schedule))


def metrics_lines(metrics: Metrics, schedule: Schedule | None = None) -> list[str]:
    """The checker's figures, one a line, in a director's words; with the schedule, its requests confirmed."""
    lines = [
        f"Repeats: {metrics.repeats} (meetings of a pair after its first); {_most_meetings(metrics.max_meetings)}",
        f"Different opponents per player: at least {metrics.opponents_min}, "
        f"{round(metrics.opponents_mean, 1):g} on average",
        f"Most repeats for one player: {metrics.worst_player_repeats}",
        _seats(metrics.seat_spread),
        f"Players at the same table number more often than needed: {counted(metrics.table_visits_above_even, 'time')}",
        f"Three players at one table again: {counted(metrics.trios_again, 'time')}",
        f"Pairs at one table two rounds running: {counted(metrics.back_to_back, 'time')}",
    ]
    if metrics.indirect_meetings is not None:
        lines.append(_never_meet(metrics.indirect_meetings))
    three = [p.three_handed_rounds for p in metrics.players]
    out = [p.sit_out_rounds for p in metrics.players]
    if any(three):
        lines.append(f"Three-handed rounds per player: {_range(three)}" + _fair(metrics.three_handed_fair))
    if any(out):
        lines.append(f"Sat-out rounds per player: {_range(out)}" + _fair(metrics.sit_outs_fair))
    if schedule is not None:
        lines += _requests(metrics, schedule)
    lines += [f"Request broken in a played round: {line}" for line in metrics.broken_requests]
    return lines


def _most_meetings(most: int) -> str:
    if most <= 1:
        return "no pair meets twice"
    return f"no pair meets more than {'twice' if most == 2 else counted(most, 'time')}"


def _seats(spread: int) -> str:
    if spread == 0:
        return "Seats: every player sits in each seat letter equally often (balanced)"
    balanced = " (balanced)" if spread <= 1 else ""
    return (
        f"Seats: no player sits in one seat letter more than {counted(spread, 'round')} more often "
        f"than in another{balanced}"
    )


def _never_meet(common: int) -> str:
    if common == 0:
        return "Pairs who never meet: some have no opponent in common"
    return f"Pairs who never meet: each has at least {counted(common, 'opponent')} in common"


def _range(counts: list[int]) -> str:
    return f"{min(counts)} each" if min(counts) == max(counts) else f"{min(counts)} to {max(counts)}"


def _fair(fair: bool) -> str:
    return ", taken in turn" if fair else ", not taken in turn"


def _requests(metrics: Metrics, schedule: Schedule) -> list[str]:
    """The requests confirmed as the checker measured them: spread clubs, apart groups, players who stay."""
    lines = []
    if schedule.spread:
        lines.append(f"Club-mates sharing a table (spread request): {counted(metrics.club_meetings, 'time')}")
    if schedule.apart:
        kept = (
            "never at one table"
            if metrics.apart_meetings == 0
            else f"but at one table {counted(metrics.apart_meetings, 'time')}"
        )
        lines.append(f"Kept apart: {counted(len(schedule.apart), 'group')}, {kept}")
    if schedule.stay:
        lines += _stays(metrics, schedule)
    return lines


def _stays(metrics: Metrics, schedule: Schedule) -> list[str]:
    if metrics.stay_moves:
        return [f"Players who stay: away from their table {counted(metrics.stay_moves, 'time')}"]
    played = {p.name: p.rounds_played for p in metrics.players}
    rounds = len(schedule.rounds)
    by_table: dict[int, list[str]] = {}
    for name in schedule.players:
        if name in schedule.stay:
            by_table.setdefault(schedule.stay[name], []).append(name)
    lines = []
    for table, names in sorted(by_table.items()):
        every = [n for n in names if played[n] == rounds]
        parts = [f"{', '.join(every)}, all {counted(rounds, 'round')}"] if every else []
        parts += [f"{n}, every round played ({played[n]} of {rounds})" for n in names if played[n] != rounds]
        lines.append(f"Stays at table {table}: {'; '.join(parts)}")
    return lines


# The same words as the printed pages (rotation.printing.slips and the standings pages import these).
SIT_OUT_WORDS = {"zero": "sits out - scores zero", "average": "sits out - scores the round's average"}
THREE_HANDED_WORD = "three-handed"
NOT_HERE_WORD = "not here"
EXCEL_BOM = "\ufeff"  # only with --excel: spreadsheet programs then read the file as UTF-8


# A text cell starting with one of these is run as a formula by spreadsheet programs (a name like
# =HYPERLINK(...) or -2+3); OWASP's advice against CSV injection is a leading ' , which shows as text.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_cell(cell: str | int) -> str | int:
    """A text cell a spreadsheet would run as a formula, made plain text; numbers stay numbers."""
    return "'" + cell if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell


def csv_text(rows) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")  # RFC 4180's line end, which spreadsheet programs expect
    writer.writerows([spreadsheet_cell(cell) for cell in row] for row in rows)
    return buffer.getvalue()


def schedule_csv(schedule: Schedule) -> str:
    """Wide: one row per player; per round the table (a number), the seat letter and a note.

    The note is empty, "three-handed", the sit-out mark ("sits out - scores zero") or "not here". An `id`
    column (member numbers) follows the player when the names file had one.
    """
    ids = id_column(schedule)
    header = ["player", *ids(None)]
    for r in range(1, len(schedule.rounds) + 1):
        header += [f"round {r} table", f"round {r} seat", f"round {r} note"]
    seats = [schedule.seat_of(r) for r in range(len(schedule.rounds))]
    three_handed = [{t.table for t in round_.tables if len(t.players) == 3} for round_ in schedule.rounds]
    rows = (
        [name, *ids(name)]
        + [
            cell
            for r, round_ in enumerate(schedule.rounds)
            for cell in _cells(schedule, name, seats[r], three_handed[r], round_)
        ]
        for name in schedule.players
    )
    return csv_text([header, *rows])


def id_column(schedule: Schedule):
    """The `id` column's cells when the schedule has member numbers: its header for None, else the
    player's number (empty when they have none); no cells at all when nobody has a number."""
    if not schedule.ids:
        return lambda name: []
    return lambda name: ["id"] if name is None else [schedule.ids.get(name, "")]


def schedule_csv_long(schedule: Schedule) -> str:
    """Long: one row per player per round: round, table, seat, player, three-handed, sits out.

    Players not at the event in a round (after a re-plan) have no row for it.
    """
    ids = id_column(schedule)
    rows: list[list[str | int]] = [["round", "table", "seat", "player", *ids(None), "three-handed", "sits out"]]
    mark = SIT_OUT_WORDS[schedule.sit_out_scoring.value]
    for number, round_ in enumerate(schedule.rounds, start=1):
        for table in sorted(round_.tables, key=lambda t: t.table):
            three = "yes" if len(table.players) == 3 else ""
            rows += [
                [number, table.table, SEAT_LETTERS[seat], name, *ids(name), three, ""]
                for seat, name in enumerate(table.players)
            ]
        rows += [[number, "", "", name, *ids(name), "", mark] for name in round_.sit_outs]
    return csv_text(rows)


def _cells(schedule: Schedule, name: str, seat_of: dict[str, tuple[int, str]], three_handed: set[int], round_) -> list:
    """A player's three cells of one round: table, seat letter and note."""
    if name in seat_of:
        table, letter = seat_of[name]
        return [table, letter, THREE_HANDED_WORD if table in three_handed else ""]
    if name in round_.sit_outs:
        return ["", "", SIT_OUT_WORDS[schedule.sit_out_scoring.value]]
    return ["", "", NOT_HERE_WORD]


def with_provenance(
    schedule: Schedule,
    metrics: Metrics,
    method: str,
    seed: int | None = None,
    time_limit: float | None = None,
    result=None,
) -> Schedule:
    """The schedule with a record of how it was made and the checker's figures, for the JSON file."""
    from models import Provenance

    provenance = Provenance(
        tool_version=tool_version(),
        method=result.method if result is not None else method,
        seed=seed,
        time_limit=time_limit,
        repeats=result.repeats if result is not None else None,
        bound=result.bound.repeats if result is not None else None,
        **{figure: getattr(metrics, figure) for figure in BALANCE_FIGURES},
        created=_created(),
    )
    return schedule.model_copy(update={"provenance": provenance})


def _created() -> str:
    """When the file is written; SOURCE_DATE_EPOCH (the reproducible-builds convention) sets it instead,
    so that a repeatable run's file is the same byte for byte."""
    from datetime import datetime, timezone

    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    when = datetime.fromtimestamp(int(epoch), timezone.utc) if epoch.isdigit() else datetime.now(timezone.utc)
    return when.isoformat(timespec="seconds")


def schedule_json(schedule: Schedule) -> str:
    """The schedule file; refused, before anything is written, when it would be larger than a
    schedule file may be (rotation.files.inputs.MAX_SCHEDULE_BYTES): the tool writes only what it reads."""
    text = schedule.model_dump_json(indent=2) + "\n"
    size = len(text.encode("utf-8"))
    if size > MAX_SCHEDULE_BYTES:
        raise BadInput(
            f"the schedule file would be {size / 2**20:.0f} MB, more than the {MAX_SCHEDULE_BYTES // 2**20} MB "
            "a schedule file may have; shorten the names or plan fewer rounds"
        )
    return text
