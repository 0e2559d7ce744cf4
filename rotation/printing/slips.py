"""Player slips: each player's table and seat for every printed round, with room to write the scores."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from models import Schedule, SitOutScoring
from models.event import DEFAULT_WINDS
from optimizer.constructions.fixed import fixed_rule_of, rule_words
from rotation.files.output import NOT_HERE_WORD, SIT_OUT_WORDS, THREE_HANDED_WORD
from rotation.printing.lookup import sort_key
from rotation.printing.options import GUIDE_TEXTS, SEAT_LEGEND, RuleTexts, seat_legend
from rotation.printing.paper import PAGE_HEIGHT_MM, PAGE_WIDTH_MM
from rotation.printing.typeface import SAFETY, lines_needed, width_em

SIT_OUT_MARK = {scoring: SIT_OUT_WORDS[scoring.value] for scoring in SitOutScoring}


@dataclass(frozen=True)
class SlipLine:
    round: int
    table: int | None  # None when the player is not at a table this round
    seat: str
    note: str  # "three-handed", the sit-out mark, or "not here"

    @property
    def three_handed(self) -> bool:
        return self.note == "three-handed"


@dataclass(frozen=True)
class Slip:
    name: str
    lines: tuple[SlipLine, ...]
    rules: tuple[str, ...]


@dataclass(frozen=True)
class SlipSheet:
    slips: tuple[Slip, ...]
    columns: int
    rows: int
    row_mm: float
    widths_mm: tuple[float, ...] = ()  # round, table, seat, the four games, total
    note_mm: float = 2.7  # the words in a row without a table ("sits out", "not here")


def _slip_line(schedule: Schedule, index: int, name: str, seats: dict, three: set) -> SlipLine | None:
    """The player's row for a round (`seats`: the round's seat of each player, `three`: its tables of
    three), or None for a round after they left."""
    round_ = schedule.rounds[index]
    if name in seats:
        table, letter = seats[name]
        return SlipLine(index + 1, table, letter, THREE_HANDED_WORD if table in three else "")
    if name in round_.sit_outs:
        return SlipLine(index + 1, None, "", SIT_OUT_MARK[schedule.sit_out_scoring])
    if schedule.departures.get(name, index + 2) <= index + 1:
        return None
    return SlipLine(index + 1, None, "", NOT_HERE_WORD)


_SLIP_COLUMNS = 2
_SLIP_PT = 3.4  # the slip's text in mm; the headings 0.8 of it
_SLIP_WIDTH = PAGE_WIDTH_MM / _SLIP_COLUMNS - 8.0  # inside its 4 mm padding


def _slip_widths(rounds: Sequence[int]) -> tuple[float, ...]:
    """Round, table, seat, four games and the total, in mm: each label column as wide as its heading."""
    head = 0.8 * _SLIP_PT
    labels = [
        max(head * width_em(word), _SLIP_PT * width_em(widest, bold=True)) + 1.5
        for word, widest in (("Round", str(max(rounds, default=1))), ("Table", "888"), ("Seat", "D"))
    ]
    total = max(head * width_em("Total") + 1.5, 13.0)
    game = (_SLIP_WIDTH - sum(labels) - total) / 4
    return tuple(round(w, 2) for w in (*labels, game, game, game, game, total))


def _slip_fixed_mm(slip: Slip, legend: str = SEAT_LEGEND) -> float:
    """A slip's height less its rows: padding, title line, name, the two heading rows, the rules."""
    name = lines_needed(slip.name, _SLIP_WIDTH, 4.2, bold=True) * 1.2 * 4.2 + 1.3
    rules = lines_needed(" ".join((legend + ".", *slip.rules)), _SLIP_WIDTH, 2.5) * 1.25 * 2.5 + 1.0
    return 8.0 + 3.2 + name + 2 * 3.6 + rules + 2.0


def slip_layout(rounds: int, fixed_mm: float = 42.0, most: int = 5) -> tuple[int, float]:
    """(slips down a sheet, row height in mm) for slips of `rounds` rounds: rows tall enough to write in."""
    for down in range(most, 0, -1):
        row = (PAGE_HEIGHT_MM / down - fixed_mm) / (rounds + 1)
        if row >= 7.0:
            return down, round(min(row, 9.0), 2)
    return 1, round(max(3.5, (PAGE_HEIGHT_MM - fixed_mm) / (rounds + 1)), 2)


def slip_sheets(
    schedule: Schedule,
    indexes: range,
    sort_by: str = "first",
    winds: Sequence[str] = DEFAULT_WINDS,
    texts: RuleTexts = GUIDE_TEXTS,
) -> list[SlipSheet]:
    """One slip per player who plays a printed round, in the find-your-table order; a fixed rotation's
    slips say its rule, with the event's wind names."""
    fixed = fixed_rule_of(schedule)
    moves = (rule_words(fixed, tuple(winds)),) if fixed is not None else ()
    slips = []
    seats = {r: schedule.seat_of(r) for r in indexes}
    three = {r: {t.table for t in schedule.rounds[r].tables if len(t.players) == 3} for r in indexes}
    for name in sorted(schedule.players, key=lambda n: sort_key(n, sort_by)):
        lines = tuple(line for r in indexes if (line := _slip_line(schedule, r, name, seats[r], three[r])) is not None)
        if not lines:
            continue
        rules: tuple[str, ...] = moves
        if any(line.three_handed for line in lines):
            rules += ("Shaded: three-handed table. " + texts.three_handed,)
        if any(line.note.startswith("sits out") for line in lines):
            rules += (texts.sit_out_for(schedule),)
        slips.append(Slip(name, lines, rules))
    if not slips:
        return []
    widths = _slip_widths([r + 1 for r in indexes])
    words = [line.note for s in slips for line in s.lines if line.table is None]
    room = sum(widths[1:7]) - 1.0
    note_mm = round(min([0.8 * _SLIP_PT, *(SAFETY * room / width_em(w, bold=True) for w in words)]), 2)
    heights = [_slip_fixed_mm(s, seat_legend(winds)) for s in slips]
    # Each sheet takes as many slips as their own content leaves room for: a sheet of short names and
    # no rules holds more than one of long names and both rules.
    out: list[SlipSheet] = []
    start = 0
    while start < len(slips):
        down = 5
        while True:
            stop = start + _SLIP_COLUMNS * down
            group = slips[start:stop]
            fits, row_mm = slip_layout(max(len(s.lines) for s in group), max(heights[start:stop]), down)
            if fits == down:
                break
            down = fits
        out.append(SlipSheet(tuple(group), _SLIP_COLUMNS, down, row_mm, widths, note_mm))
        start += len(group)
    return out
