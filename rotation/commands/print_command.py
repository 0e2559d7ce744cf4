"""`rotation print`: wall charts, find-your-table lists, score cards and sheets, a summary, a picture."""

from __future__ import annotations

import re

import click

import optimizer
from models import Comparison, Schedule
from models.rules import Rules
from optimizer.words import counted
from rotation.files.inputs import BadInput, read_rules, read_schedule
from rotation.files.lists import ListError, read_winds
from rotation.files.writing import check_outputs, say, write_outputs
from rotation.printing.options import PARTS, SORTS, options_for


def parse_winds(text: str) -> tuple[str, ...]:
    """Four wind names, for seats A to D: 'East,South,West,North' (rotation.files.lists.read_winds)."""
    try:
        return read_winds(text)
    except ListError as error:
        raise BadInput(f"--winds: {error.reason}") from None


def parse_only(text: str | None) -> tuple[str, ...]:
    if not text:
        return ()
    parts = tuple(p.strip() for p in text.split(",") if p.strip())
    unknown = [p for p in parts if p not in PARTS]
    if unknown or not parts:
        raise BadInput(f"--only: unknown part {', '.join(unknown) or text!r}; choose from {','.join(PARTS)}")
    return parts


_ROUNDS = re.compile(r"\s*([0-9]{1,6})\s*(?:(-)\s*([0-9]{0,6})\s*)?")  # 4, 4-8, or 4- (to the last round)


def parse_rounds(text: str | None, schedule: Schedule) -> tuple[int, int] | None:
    if not text:
        return None
    total = len(schedule.rounds)
    match = _ROUNDS.fullmatch(text)
    if match is None:
        raise BadInput(f"--rounds: expected a round, a range like 4-8 or 4- (to the last round), not {text!r}")
    first, dash, last = match.groups()
    low = int(first)
    high = int(last) if last else (total if dash else low)
    if not 1 <= low <= high <= total:
        raise BadInput(f"--rounds {text}: the schedule has rounds 1 to {total}")
    return low, high


def parse_text(option: str, text: str) -> str:
    """A title or date as given; bytes the terminal could not decode are refused now, not when the
    page is written after all the work."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise BadInput(f"{option}: {text!r} is not text in the terminal's encoding (UTF-8)") from None
    return text


@click.command(name="print")
@click.argument("file", metavar="SCHEDULE.json")
@click.option("--html", "html_path", metavar="FILE", required=True, help="Write the printable page (one HTML file).")
@click.option("--svg", "svg_path", metavar="FILE", help="Also write the summary picture alone as SVG.")
@click.option("--title", default="", metavar="TEXT", help="The event's name, on every page.")
@click.option("--date", default="", metavar="TEXT", help="The day, on every page.")
@click.option(
    "--only",
    metavar="PARTS",
    help=f"Print only these parts, comma-separated: {','.join(PARTS)}. "
    "Default: walls, slips and summary, and lookup for rooms over 24 players.",
)
@click.option(
    "--rounds",
    "rounds_text",
    metavar="K-L",
    help="Print only rounds K to L (e.g. the rounds still to play); K- prints K to the last round.",
)
@click.option(
    "--sort-by",
    type=click.Choice(SORTS),
    default="first",
    show_default=True,
    help="Order of the find-your-table lists and the slips: by first name, or by surname (listed as "
    '"Surname, First names").',
)
@click.option(
    "--players-url",
    default="",
    metavar="URL",
    help="The players' page of the desk (http:// or https://): a QR code of it on wall charts and lookup lists.",
)
@click.option(
    "--winds",
    default="East,North,West,South",
    show_default=True,
    metavar="A,B,C,D",
    help="The wind names of seats A, B, C and D on the prints, as the event calls them.",
)
@click.option(
    "--rules",
    "rules_path",
    metavar="FILE",
    help="The event's scoring rules (JSON or TOML, as `rotation scores --rules`): a rules page before the score "
    "sheets and a line at the foot of each.",
)
@click.option(
    "--form",
    type=click.Choice(["games", "points"]),
    default="games",
    show_default=True,
    help="The score sheets' form, as the event's scores are entered (`rotation scores`): a row per game for its "
    "result (winner, value, how, discarder, exposures, jokerless, dead, Mah Jongg in error), or each player's "
    "points per game.",
)
def print_command(
    file, html_path, svg_path, title, date, only, rounds_text, sort_by, players_url, winds, rules_path, form
):
    """Wall charts, find-your-table lists, score cards and sheets, and a summary page, ready to print."""
    from rotation.printing.pages import render_page, sheets

    outputs = dict(check_outputs({"--html": html_path, "--svg": svg_path}, {"schedule file": file}))
    title, date = parse_text("--title", title), parse_text("--date", date)
    parts = parse_only(only)
    if players_url and not re.fullmatch(r"https?://\S+", players_url):
        raise BadInput(f"--players-url: expected an address starting http:// or https://, not {players_url!r}")
    schedule = read_schedule(file)
    try:
        metrics = optimizer.check(schedule)  # nothing unchecked reaches the wall
    except optimizer.InvalidSchedule as error:
        raise BadInput(f"{file}: invalid schedule: {error}") from None
    rounds = parse_rounds(rounds_text, schedule)
    rules = read_rules(rules_path) if rules_path else None
    options = options_for(
        rules or Rules(),
        schedule.sit_out_scoring,
        rules_printed=rules is not None,
        title=title,
        date=date,
        only=parts,
        rounds=rounds,
        sort_by=sort_by,
        players_url=players_url,
        winds=parse_winds(winds),
        results=form,
    )
    summary = "summary" in (parts or ("summary",))
    comparison = optimizer.compare(schedule) if summary else Comparison(skipped="no summary page printed")
    try:
        pages = sheets(schedule, options)
        page = render_page(schedule, metrics, comparison, options, pages)
    except ValueError as error:  # a name too long to print: said before anything is written
        raise BadInput(f"{file}: {error}") from None
    files: list[tuple[str, str | bytes]] = [(outputs["--html"], page)]
    if "--svg" in outputs:
        from rotation.printing.pictures import summary_svg

        files.append((outputs["--svg"], summary_svg(schedule, metrics)))
    write_outputs(files)  # both or neither
    kinds = {
        "wall": ("wall chart", "wall charts"),
        "lookup": ("find-your-table page", "find-your-table pages"),
        "slips": ("page of slips", "pages of slips"),
        "scores": ("page of score sheets", "pages of score sheets"),
        "summary": ("summary", "summaries"),
    }
    counts = [
        counted(sum(p.kind == k for p in pages), *name) for k, name in kinds.items() if any(p.kind == k for p in pages)
    ]
    say(f"{html_path}: {counted(len(pages), 'page')} to print ({', '.join(counts)})")
