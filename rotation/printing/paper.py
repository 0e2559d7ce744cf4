"""The sheet every part is laid out in, and the sizes the parts share, in millimetres.

The printable area of both A4 and Letter with 12 mm margins is at least 186 x 255 mm upright and 255 x 186 mm
on its side; every sheet is laid out inside a slightly smaller box so either paper prints one section per sheet.
"""

from __future__ import annotations

from rotation.printing.typeface import SAFETY, lines_needed, width_em

PAGE_WIDTH_MM = 184.0
PAGE_HEIGHT_MM = 250.0
PT_MM = 25.4 / 72
MIN_WALL_PT = 14.0  # names on anything pinned to a wall: readable from a few steps
GAP_MM = 4.0
TOP_MM = 7.0  # the title and date line on every sheet
HEAD_MM = 29.0  # "Round 3 of 8 rounds", the seat legend under it, the rule and the gap below
PART_MM = 8.5  # the line under "Round 3" that says which part of the round a sheet holds
PART_PT = 7.0  # its size in mm, when it fits the line
RULE_MM = 3.9  # the three-handed and sit-out rules under a round's tables


def page_size(landscape: bool) -> tuple[float, float]:
    """(width, height) of a sheet's box in mm."""
    return (PAGE_HEIGHT_MM, PAGE_WIDTH_MM) if landscape else (PAGE_WIDTH_MM, PAGE_HEIGHT_MM)


def part_mm(text: str, width_mm: float) -> float:
    """The size of the line saying which part of a round a sheet holds: 7 mm, or smaller to stay one line."""
    return round(min(PART_PT, SAFETY * width_mm / max(width_em(text, bold=True), 1.0)), 2)


def head_mm(parted: bool) -> float:
    """The head of a round's sheet: the title line, the round and seat legend, and the part line if it has one."""
    return TOP_MM + HEAD_MM + (PART_MM if parted else 0.0)


def note_height(line: str, size_mm: float, width_mm: float = PAGE_WIDTH_MM, bold: bool = True) -> float:
    """A note's height in mm: its lines at 1.3 times its size, and 1 mm below."""
    return lines_needed(line, width_mm, size_mm, bold=bold) * 1.3 * size_mm + 1.0
