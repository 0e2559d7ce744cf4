"""The printed page's font, DejaVu Sans: its widths, the lines a text takes, and the font carried in the page.

A browser lays a line out as the sum of its glyphs' advance widths when kerning and ligatures are off
(the page turns both off), so summing the font's advances measures exactly what prints. The font files
in rotation/printing/fonts are Debian's fonts-dejavu-core DejaVuSans.ttf and DejaVuSans-Bold.ttf cut down to
Latin, Greek and Cyrillic (licence: rotation/printing/fonts/LICENSE, which allows both the copy and the cut);
each page embeds a further cut to the characters it prints, so it looks and measures the same on any
machine. The cut in rotation/printing/fonts was made with

    pyftsubset DejaVuSans.ttf --no-hinting --layout-features='*' --unicodes=U+0020-007E,U+00A0-024F,\
U+0259,U+02B9-02DD,U+0300-036F,U+0370-03FF,U+0400-04FF,U+1E00-1EFF,U+2000-206F,U+20AC,U+2122,\
U+2190-2193,U+2212
"""

from __future__ import annotations

import base64
import io
import math
import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from importlib import resources

from fontTools import subset
from fontTools.ttLib import TTFont

FAMILY = "DejaVu Sans"
_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
# A character the font lacks is drawn from another font; a full em covers the widest (CJK) glyphs.
MISSING_EM = 1.0
SAFETY = 0.97  # a line measured a little short of the real one: browsers round positions


def _font(bold: bool) -> TTFont:
    with resources.as_file(resources.files("rotation.printing") / "fonts" / _FILES[bold]) as path:
        # The file's own timestamp, not the time of the cut: the same day prints the same bytes.
        return TTFont(path, recalcTimestamp=False)


@lru_cache(maxsize=2)
def advances(bold: bool = False) -> dict[str, float]:
    """Each character's advance width in ems."""
    font = _font(bold)
    em = font["head"].unitsPerEm
    metrics = font["hmtx"]
    return {chr(code): metrics[glyph][0] / em for code, glyph in font.getBestCmap().items()}


def width_em(text: str, bold: bool = False) -> float:
    """Width of `text` in ems as the page prints it: linear in its length, no cache to thrash."""
    table = advances(bold)
    return sum(table.get(c, MISSING_EM) for c in text)


def pieces(text: str, bold: bool = False) -> tuple[tuple[float, bool], ...]:
    """What a line may end after, with its width in ems and whether a space comes before it.

    A browser breaks a line at a space or after a hyphen; every word, and every part of a word up to
    and including a hyphen, is one piece.
    """
    return tuple(
        (width_em(piece, bold), i == 0)
        for word in text.split()
        for i, piece in enumerate(re.findall(r"[^-]*-|[^-]+", word))
    )


def longest_em(text: str, bold: bool = False) -> float:
    """The widest piece: a line narrower than this breaks a word in the middle."""
    return max((w for w, _ in pieces(text, bold)), default=0.0)


def widest_word_em(names: Iterable[str]) -> float:
    """The widest piece of any of the names (0 for none): a column narrower breaks one mid-word."""
    return max(map(longest_em, names), default=0.0)


def _fill(parts: Sequence[tuple[float, bool]], room_em: float, space_em: float) -> int:
    """Lines a greedy fill takes, as browsers fill; a piece longer than a line fills whole lines."""
    lines, used = 1, 0.0
    for w, spaced in parts:
        gap = space_em if used and spaced else 0.0
        if used and used + gap + w <= room_em:
            used += gap + w
            continue
        if used:
            lines += 1
        whole = math.ceil(w / room_em) - 1 if w > room_em else 0
        lines += whole
        used = w - whole * room_em
    return lines


def lines_needed(text: str, room_mm: float, size_mm: float, bold: bool = False) -> int:
    """Lines `text` takes when the browser wraps it: at spaces, after hyphens, inside an overlong word."""
    return _fill(pieces(text, bold), SAFETY * room_mm / size_mm, width_em(" ", bold))


class NameLines:
    """Lines each name takes in a line of a given width, each name measured once (linear in names)."""

    def __init__(self, bold: bool = False):
        self.bold = bold
        self.space = width_em(" ", bold)
        self._pieces: dict[str, tuple[tuple[float, bool], ...]] = {}
        self._lines: dict[tuple[str, float], int] = {}
        self._widths: dict[str, float] = {}
        self._widest: dict[str, float] = {}

    def pieces(self, name: str) -> tuple[tuple[float, bool], ...]:
        if name not in self._pieces:
            self._pieces[name] = pieces(name, self.bold)
        return self._pieces[name]

    def longest(self, names) -> float:
        return max(map(self.widest, names), default=0.0)

    def widest(self, name: str) -> float:
        """The name's widest piece: a line narrower breaks it mid-word."""
        if name not in self._widest:
            self._widest[name] = max((w for w, _ in self.pieces(name)), default=0.0)
        return self._widest[name]

    def width(self, name: str) -> float:
        """The name on one line, summed as `_fill` sums it: a line this wide holds it whole."""
        if name not in self._widths:
            used = 0.0
            for w, spaced in self.pieces(name):
                used += (self.space if used and spaced else 0.0) + w
            self._widths[name] = used
        return self._widths[name]

    def __call__(self, name: str, room_em: float) -> int:
        if self.width(name) <= room_em:
            return 1  # most names, in most layouts tried: no fill to count, nothing to remember
        key = (name, room_em)
        if key not in self._lines:
            self._lines[key] = _fill(self.pieces(name), room_em, self.space)
        return self._lines[key]


def font_face_css(characters: set[str]) -> str:
    """@font-face rules carrying both weights, cut to `characters`, as WOFF data URLs."""
    return _font_face_css(frozenset(characters))


@lru_cache(maxsize=16)  # the desk shows the same day's page again and again: cut the font once
def _font_face_css(characters: frozenset[str]) -> str:
    rules = []
    for bold in (False, True):
        font = _font(bold)
        options = subset.Options()
        options.layout_features = ["*"]
        options.hinting = False
        options.flavor = "woff"
        cutter = subset.Subsetter(options)
        cutter.populate(text="".join(sorted(characters)) or " ")
        cutter.subset(font)
        buffer = io.BytesIO()
        font.flavor = "woff"
        font.save(buffer)
        data = base64.b64encode(buffer.getvalue()).decode("ascii")
        rules.append(
            f'@font-face {{ font-family: "{FAMILY}"; font-weight: {700 if bold else 400}; font-style: normal; '
            f'src: url(data:font/woff;base64,{data}) format("woff"); }}'
        )
    return "\n".join(rules)
