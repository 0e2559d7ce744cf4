"""The printed pages: wall charts, find-your-table lists, player slips, table score sheets, a summary.

Every size that decides what lands on which sheet is worked out in millimetres by the part's own module
(walls, lookup, slips, score_sheets), with the font the page carries and prints in (DejaVu Sans,
rotation.printing.typeface), and can be tested without a browser; here the parts are put in order and handed
to one jinja2 template, so the template stays a layout. Every sheet is one `Sheet`; the page count announced
is the number of sheets.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

import segno

from models import SEAT_LETTERS, Comparison, Metrics, Schedule
from optimizer.words import proof_words
from rotation.files.output import metrics_lines
from rotation.printing.environment import environment
from rotation.printing.lookup import lookup_pages
from rotation.printing.options import Options, event_line, parts_for, round_indexes, seat_legend, title_of
from rotation.printing.paper import PAGE_HEIGHT_MM, PAGE_WIDTH_MM
from rotation.printing.pictures import meetings_svg, repeats_svg
from rotation.printing.score_sheets import GAME_ROW_MM, HOW_CHOICES, RESULT_HEADS, score_sheets
from rotation.printing.slips import slip_sheets
from rotation.printing.typeface import font_face_css
from rotation.printing.walls import day_wall_charts


@dataclass(frozen=True)
class Sheet:
    """One printed sheet: its part and what it holds (a wall chart, a lookup page, slips, score sheets, the
    rules page's lines, or nothing for the summary)."""

    kind: str  # "wall", "lookup", "slips", "scores" or "summary"
    body: object = None
    extra: tuple = field(default=())

    @property
    def landscape(self) -> bool:
        return bool(getattr(self.body, "landscape", False))


def sheets(schedule: Schedule, options: Options = Options()) -> list[Sheet]:
    """Every sheet of the print in the order it comes out of the printer: each round's wall charts and lookup
    pages, then the slips, the rules page and score sheets, then the summary."""
    parts, indexes = parts_for(schedule, options), round_indexes(schedule, options)
    walls = day_wall_charts(schedule, indexes, options.texts) if "walls" in parts else {}
    out: list[Sheet] = []
    for r in indexes:
        out += [Sheet("wall", chart) for chart in walls.get(r, ())]
        if "lookup" in parts:
            out += [Sheet("lookup", page) for page in lookup_pages(schedule, r, options.sort_by, options.texts)]
    if "slips" in parts:
        slips = slip_sheets(schedule, indexes, options.sort_by, options.winds, options.texts)
        out += [Sheet("slips", sheet) for sheet in slips]
    if "sheets" in parts:
        out += [Sheet("rules", options.rules)] if options.rules else []
        event = event_line(options, schedule)
        groups = score_sheets(
            schedule, indexes, options.scoring, options.texts, event, options.results, options.game_rules
        )
        out += [Sheet("scores", group) for group in groups]
    if "summary" in parts:
        out.append(Sheet("summary"))
    return out


def expected_pages(schedule: Schedule, options: Options = Options()) -> int:
    """The number of sheets to print: what the command and the desk announce."""
    return len(sheets(schedule, options))


def _lines(metrics: Metrics) -> list[str]:
    """The checker's report, one figure per bullet; total repeats are in the table above them."""
    return metrics_lines(metrics)[1:]


_FONTS_HERE = "/* fonts: cut to the characters below */"


def qr_svg(url: str) -> str:
    """The QR code of `url` as inline SVG (no text from the director in it: the URL is in the squares)."""
    return segno.make(url, micro=False).svg_inline(omitsize=True, border=0) if url else ""


def render_page(
    schedule: Schedule,
    metrics: Metrics,
    comparison: Comparison,
    options: Options = Options(),
    pages: list[Sheet] | None = None,
) -> str:
    """The whole printable page as one self-contained HTML document, its font inside it; `pages` are
    `sheets(schedule, options)` when the caller has them already."""
    pages = sheets(schedule, options) if pages is None else pages
    summary = any(p.kind == "summary" for p in pages)
    heading, event = title_of(options, schedule), event_line(options, schedule)
    page = (
        environment()
        .get_template("print.html.j2")
        .render(
            title=heading,
            event=event,
            date=options.date,
            schedule=schedule,
            pages=pages,
            page_count=len(pages),
            round_count=len(schedule.rounds),
            legend=seat_legend(options.winds),
            winds=dict(zip(SEAT_LETTERS, options.winds)),
            three_handed_rule=options.texts.three_handed,
            sit_out_rule=options.texts.sit_out_for(schedule),
            metrics=metrics,
            metrics_lines=_lines(metrics),
            comparison=comparison,
            bound_why=proof_words(comparison.bound.proof) if comparison.bound else "",
            meetings_picture=meetings_svg(schedule) if summary else "",
            repeats_picture=repeats_svg(metrics) if summary and metrics.repeats else "",
            page_width=PAGE_WIDTH_MM,
            page_height=PAGE_HEIGHT_MM,
            fonts=_FONTS_HERE,
            qr=qr_svg(options.players_url),
            result_heads=RESULT_HEADS,
            how_choices=HOW_CHOICES,
            game_row_mm=GAME_ROW_MM,
        )
    )
    # The font is cut to the characters the page prints, so it is known only once the page is written.
    body = html.unescape(re.sub(r"<[^>]*>", " ", page.split("<body>", 1)[1]))
    return page.replace(_FONTS_HERE, font_face_css(set(body)), 1)
