"""Read a printed PDF back as words with their boxes: what overlaps, what runs off the sheet, what broke.

Used by the browser test and by anyone checking a printout by hand:

    python tests/pdf_layout.py OUT.pdf

prints, page by page, the words that overlap another word or leave the sheet's box.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass

from pdfminer.high_level import extract_pages
from pdfminer.layout import LAParams, LTChar, LTPage

MM = 72 / 25.4
MARGIN = 12 * MM  # the page's @page margin
SHEET = (184 * MM, 250 * MM)  # the box every sheet is laid out in (rotation/printing/paper.py), upright


@dataclass(frozen=True)
class Word:
    text: str
    x0: float
    x1: float
    base: float  # the baseline
    size: float

    @property
    def ink(self) -> tuple[float, float, float, float]:
        """Where the glyphs' ink can be: from the descenders to the capitals, a hair inside the advances."""
        pad = 0.03 * self.size
        return self.x0 + pad, self.base - 0.2 * self.size, self.x1 - pad, self.base + 0.72 * self.size


def _chars(item):
    if isinstance(item, LTChar):
        yield item
        return
    for child in getattr(item, "_objs", ()):
        yield from _chars(child)


def words(page: LTPage) -> list[Word]:
    """Upright characters in drawing order joined into words: same baseline and size, touching, no space
    between."""
    out: list[Word] = []
    current: list[LTChar] = []

    def close():
        if current:
            text = "".join(c.get_text() for c in current)
            size = current[0].size
            out.append(Word(text, current[0].x0, current[-1].x1, current[0].matrix[5], size))
            current.clear()

    for char in _chars(page):
        if char.matrix[1] or char.matrix[2]:  # turned text (the summary pictures' standing labels): its boxes
            close()  # are not upright ones, so test_pictures_browser.py checks it in the browser instead
            continue
        if not char.get_text().strip():
            close()
            continue
        if current:
            last = current[-1]
            joined = abs(last.matrix[5] - char.matrix[5]) < 0.2 and abs(last.size - char.size) < 0.1
            if not joined or not -0.15 * char.size < char.x0 - last.x1 < 0.08 * char.size:  # kerning pulls in
                close()
        current.append(char)
    close()
    return out


def read(pdf) -> list[tuple[LTPage, list[Word]]]:
    # No layout analysis needed: the words are built from the characters directly.
    return [(page, words(page)) for page in extract_pages(pdf, laparams=LAParams(all_texts=True))]


def overlaps(found: list[Word]) -> list[tuple[Word, Word]]:
    """Pairs of words whose ink boxes cross, found by sweeping along x."""
    boxes = sorted(found, key=lambda w: w.ink[0])
    pairs, open_ = [], []
    for word in boxes:
        x0, y0, _, y1 = word.ink
        open_ = [w for w in open_ if w.ink[2] > x0]
        pairs += [(w, word) for w in open_ if w.ink[1] < y1 and y0 < w.ink[3]]
        open_.append(word)
    return pairs


def outside(page: LTPage, found: list[Word]) -> list[Word]:
    """Words whose ink leaves the sheet's box (inside the printable area, under the 12 mm margins)."""
    width, height = SHEET if page.width < page.height else SHEET[::-1]
    left, top = MARGIN, page.height - MARGIN
    tol = 0.5
    return [
        w
        for w in found
        if w.ink[0] < left - tol
        or w.ink[2] > left + width + tol
        or w.ink[1] < top - height - tol
        or w.ink[3] > top + tol
    ]


def segmented(word: str, seen: set[str]) -> bool:
    """Whether `word` is on the page whole, or in parts that each end at a hyphen (a break the rules allow)."""
    pieces = [p + "-" for p in word.split("-")]
    pieces[-1] = pieces[-1][:-1]
    pieces = [p for p in pieces if p]
    reach = {0}
    for end in range(1, len(pieces) + 1):
        if any(start in reach and "".join(pieces[start:end]) in seen for start in range(end)):
            reach.add(end)
    return len(pieces) in reach


def main(path: str) -> int:
    bad = 0
    for number, (page, found) in enumerate(read(path), start=1):
        for a, b in overlaps(found):
            print(f"page {number}: {a.text!r} overlaps {b.text!r}")
            bad += 1
        for w in outside(page, found):
            print(f"page {number}: {w.text!r} leaves the sheet")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1]))
