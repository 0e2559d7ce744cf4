"""What a director reads and what a spreadsheet opens: text, CSV and JSON, written atomically."""

from __future__ import annotations

import csv
import io
import os
import tempfile
from pathlib import Path

from models import SEAT_LETTERS, Metrics, Schedule


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


def metrics_text(metrics: Metrics, spread: bool = False) -> str:
    three = [p.three_handed_rounds for p in metrics.players]
    out = [p.sit_out_rounds for p in metrics.players]
    lines = [
        f"Repeats (E): {metrics.repeats}   most meetings of one pair: {metrics.max_meetings}",
        f"Distinct opponents per player: min {metrics.opponents_min}, mean {metrics.opponents_mean:g}",
        f"Worst-off player's repeats: {metrics.worst_player_repeats}",
        f"Seat spread (worst player's most - fewest rounds in one seat letter): {metrics.seat_spread}"
        + (" (balanced)" if metrics.seat_spread <= 1 else ""),
        (
            f"Table visits above even: {metrics.table_visits_above_even}   trios again: {metrics.trios_again}   "
            f"back-to-back rematches: {metrics.back_to_back}"
        ),
    ]
    if metrics.indirect_meetings is not None:
        lines.append(f"Pairs who never meet: at least {metrics.indirect_meetings} opponents in common")
    if any(three):
        lines.append(f"Three-handed rounds per player: {min(three)}-{max(three)}" + _fair(metrics.three_handed_fair))
    if any(out):
        lines.append(f"Sat-out rounds per player: {min(out)}-{max(out)}" + _fair(metrics.sit_outs_fair))
    if spread:
        lines.append(f"Club-mates sharing a table (spread request): {metrics.club_meetings} times")
    return "\n".join(lines)


def _fair(fair: bool) -> str:
    return " (shared in turn)" if fair else " (not shared in turn)"


def schedule_csv(schedule: Schedule) -> str:
    """One row per player, one column per round: table and seat like '3A', or the sit-out mark."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["player"] + [f"round {r}" for r in range(1, len(schedule.rounds) + 1)])
    seats = [schedule.seat_of(r) for r in range(len(schedule.rounds))]
    scoring = schedule.sit_out_scoring.value
    for name in schedule.players:
        writer.writerow([name] + [_cell(name, seats[r], schedule.rounds[r], scoring) for r in range(len(seats))])
    return buffer.getvalue()


def _cell(name: str, seat_of: dict[str, tuple[int, str]], round_, scoring: str) -> str:
    if name in seat_of:
        table, letter = seat_of[name]
        return f"{table}{letter}"
    return f"sit out (scores {scoring})" if name in round_.sit_outs else "not here"


def schedule_json(schedule: Schedule) -> str:
    return schedule.model_dump_json(indent=2) + "\n"


def write_atomically(path: Path, text: str | bytes) -> None:
    """Write beside the target and rename, so a reader never sees half a file."""
    path = Path(path)
    mode = "wb" if isinstance(text, bytes) else "w"
    fd, temporary = tempfile.mkstemp(dir=path.parent or Path("."), prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, mode, **({} if mode == "wb" else {"encoding": "utf-8", "newline": ""})) as handle:
            handle.write(text)
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes files private; outputs are for sharing
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
