"""The printed page's font, DejaVu Sans: its widths for measuring, and the same font carried in the page.

A browser lays a line out as the sum of its glyphs' advance widths when kerning and ligatures are off
(the page turns both off), so summing the font's advances measures exactly what prints. The font files
in rotation/fonts are Debian's fonts-dejavu-core DejaVuSans.ttf and DejaVuSans-Bold.ttf cut down to
Latin, Greek and Cyrillic (licence: rotation/fonts/LICENSE, which allows both the copy and the cut);
each page embeds a further cut to the characters it prints, so it looks and measures the same on any
machine. The cut in rotation/fonts was made with

    pyftsubset DejaVuSans.ttf --no-hinting --layout-features='*' --unicodes=U+0020-007E,U+00A0-024F,\
U+0259,U+02B9-02DD,U+0300-036F,U+0370-03FF,U+0400-04FF,U+1E00-1EFF,U+2000-206F,U+20AC,U+2122,\
U+2190-2193,U+2212
"""

from __future__ import annotations

import base64
import io
from functools import lru_cache
from importlib import resources

from fontTools import subset
from fontTools.ttLib import TTFont

FAMILY = "DejaVu Sans"
_FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}
# A character the font lacks is drawn from another font; a full em covers the widest (CJK) glyphs.
MISSING_EM = 1.0


def _font(bold: bool) -> TTFont:
    with resources.as_file(resources.files("rotation") / "fonts" / _FILES[bold]) as path:
        return TTFont(path)


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


def font_face_css(characters: set[str]) -> str:
    """@font-face rules carrying both weights, cut to `characters`, as WOFF data URLs."""
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
