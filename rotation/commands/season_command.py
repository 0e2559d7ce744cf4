"""`rotation season`: a season's standings from its nights' standings files (`rotation scores --json`)."""

from __future__ import annotations

import click
from pydantic import ValidationError

from models import SeasonRule, Standings
from rotation.commands.print_command import parse_text
from rotation.files.inputs import MAX_SCHEDULE_BYTES, BadInput, json_of, one_line, read_text
from rotation.files.output import EXCEL_BOM
from rotation.files.writing import check_outputs, say, write_outputs
from rotation.printing.season_standings_pages import season_csv, season_html, season_json, season_text
from rotation.scoring import season_standings


@click.command(name="season")
@click.argument("nights", metavar="NIGHT.json...", nargs=-1, required=True)
@click.option(
    "--rule",
    type=click.Choice([r.value for r in SeasonRule]),
    default=SeasonRule.CUMULATIVE.value,
    show_default=True,
    help="cumulative: every night's total added up; average: points per game at a table (with --min-games); "
    "best: the best --best nights' totals.",
)
@click.option(
    "--min-games",
    type=click.IntRange(min=0),
    default=0,
    show_default=True,
    help="With --rule average: members with fewer games are listed unranked.",
)
@click.option("--best", "best_nights", type=click.IntRange(min=1), help="With --rule best: the nights that count.")
@click.option("--csv", "csv_path", metavar="FILE", help="Also write the season's standings as CSV.")
@click.option("--json", "json_path", metavar="FILE", help="Also write the season's standings as JSON.")
@click.option("--html", "html_path", metavar="FILE", help="Also write the season's standings as a printable page.")
@click.option("--excel", is_flag=True, help="Start the CSV file with a byte-order mark, for Excel.")
@click.option("--title", default="", metavar="TEXT", help="The league's name, on the printable page.")
def season_command(nights, rule, min_games, best_nights, csv_path, json_path, html_path, excel, title):
    """A season's standings from each night's standings (NIGHT.json, written by `rotation scores --json`),
    oldest night first; members are matched by name."""
    title = parse_text("--title", title)
    if rule == SeasonRule.BEST.value and best_nights is None:
        raise BadInput("--rule best needs --best N, the number of nights that count")
    inputs = {f"standings file (night {n})": path for n, path in enumerate(nights, 1)}
    files = check_outputs({"--csv": csv_path, "--json": json_path, "--html": html_path}, inputs)
    table = season_standings(
        [_night(path) for path in nights],
        SeasonRule(rule),
        min_games=min_games,
        best_nights=best_nights,
        labels=[f"night {n}" for n in range(1, len(nights) + 1)],
    )
    bom = EXCEL_BOM if excel else ""
    render = {
        "--csv": lambda: bom + season_csv(table),
        "--json": lambda: season_json(table),
        "--html": lambda: season_html(table, title),
    }
    write_outputs([(path, render[what]()) for what, path in files])
    say(season_text(table))


def _night(path: str) -> Standings:
    text = read_text(path, "standings", MAX_SCHEDULE_BYTES)
    try:
        data = json_of(text)
    except ValueError as error:
        raise BadInput(f"{path}: Invalid JSON: {str(error).splitlines()[0]}") from None
    if not isinstance(data, dict) or "standings" not in data:
        raise BadInput(f"{path}: not a standings file (written by `rotation scores --json`)")
    try:
        return Standings.model_validate(data["standings"])
    except ValidationError as error:
        raise BadInput(f"{path}: {one_line(error)}") from None
