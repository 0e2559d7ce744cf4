"""`rotation scores`: the standings from a filled-in games file or score sheet, or the empty form to fill in."""

from __future__ import annotations

import click

import optimizer
from models.event import MAX_ROUNDS
from models.rules import Rules
from rotation import scoring
from rotation.commands.print_command import parse_text
from rotation.files.gamesheet import games_csv, games_template, read_gamesheet
from rotation.files.inputs import MAX_SCHEDULE_BYTES, BadInput, read_rules, read_schedule, read_text
from rotation.files.lists import ListError
from rotation.files.output import EXCEL_BOM
from rotation.files.scoresheet import Scoresheet, read_scoresheet, sheet_kind, template_csv
from rotation.files.writing import check_outputs, say, write_outputs
from rotation.printing.standings_pages import results_csv, standings_csv, standings_html, standings_json, standings_text
from rotation.scoring.games import second_looks


@click.command(name="scores")
@click.argument("schedule_file", metavar="DAY.json")
@click.argument("scores_file", metavar="[GAMES.csv]", required=False)
@click.option("--template", "template_path", metavar="FILE", help="Write the empty games file (or sheet) for DAY.json.")
@click.option(
    "--form",
    type=click.Choice(["games", "points"]),
    default="games",
    show_default=True,
    help="The --template's form: game results (winner, value, how, ...) or each player's points per game.",
)
@click.option(
    "--rules", "rules_path", metavar="FILE", help="The event's scoring rules, JSON or TOML (default: common)."
)
@click.option(
    "--after",
    type=click.IntRange(min=1, max=MAX_ROUNDS),
    metavar="K",
    help="Standings after this round (default: the last round whose every table's card is in).",
)
@click.option(
    "--late-as-sit-out",
    is_flag=True,
    help="A late arrival's missed rounds score as sit-outs (default: they score nothing).",
)
@click.option("--csv", "csv_path", metavar="FILE", help="Also write the standings as CSV.")
@click.option("--json", "json_path", metavar="FILE", help="Also write the standings as JSON.")
@click.option("--html", "html_path", metavar="FILE", help="Also write the standings as a printable page.")
@click.option("--games-csv", "games_path", metavar="FILE", help="Also write every game as entered, with its points.")
@click.option(
    "--results",
    "results_path",
    metavar="FILE",
    help="Also write the results: place, id, name, total, games played, won.",
)
@click.option("--excel", is_flag=True, help="Start the CSV files with a byte-order mark, for Excel.")
@click.option("--title", default="", metavar="TEXT", help="The event's name, on the printable page.")
@click.option("--date", default="", metavar="TEXT", help="The day, on the printable page.")
def scores_command(
    schedule_file,
    scores_file,
    template_path,
    form,
    rules_path,
    after,
    late_as_sit_out,
    csv_path,
    json_path,
    html_path,
    games_path,
    results_path,
    excel,
    title,
    date,
):
    """Standings from GAMES.csv, the games file (winner, value, how, discarder, ... scored by the event's
    rules) or a score sheet of each player's points; sat-out rounds scored by the schedule's rule. With
    --template FILE the empty games file (--form points: the score sheet)."""
    bom = EXCEL_BOM if excel else ""
    title, date = parse_text("--title", title), parse_text("--date", date)
    rules = read_rules(rules_path) if rules_path is not None else Rules()
    if template_path is not None:
        if scores_file is not None or csv_path or json_path or html_path or games_path or results_path:
            raise BadInput("--template writes the empty sheet only: give DAY.json and --template FILE")
        return _write_template(schedule_file, template_path, form, rules, bom)
    if scores_file is None:
        raise BadInput("give the games file GAMES.csv, or --template FILE to write an empty one")
    outputs = {
        "--csv": csv_path,
        "--json": json_path,
        "--html": html_path,
        "--games-csv": games_path,
        "--results": results_path,
    }
    files = check_outputs(outputs, {"schedule file": schedule_file, "scores file": scores_file})
    schedule = _checked(schedule_file)
    sheet, looks = _read(schedule, scores_file, rules)
    games_in = any(card.games for card in sheet.cards)  # scored by the rules: the printable page says them
    if games_path and not games_in:
        raise BadInput("--games-csv writes game results: the scores file holds points, not games")
    try:
        table = scoring.standings(
            schedule, sheet.cards, after=after, late_arrivals_as_sit_outs=late_as_sit_out, rules=rules
        )
    except (scoring.CardRefused, scoring.ScoresIncomplete) as error:
        raise BadInput(f"scores file {scores_file!r}: {error}") from None
    render = {
        "--csv": lambda: bom + standings_csv(table),
        "--json": lambda: standings_json(table),
        "--html": lambda: standings_html(table, title, date, rules if rules_path or games_in else None),
        "--games-csv": lambda: bom + games_csv(list(sheet.cards)),
        "--results": lambda: bom + results_csv(table),
    }
    write_outputs([(path, render[what]()) for what, path in files])
    for note in [*sheet.notes, *looks, *_later_cards(schedule, sheet.cards, table.after)]:
        try:
            click.echo(f"rotation: note: {note}", err=True)
        except OSError:
            pass  # stderr closed: the standings still go to stdout
    say(standings_text(table))


def _write_template(schedule_file: str, template_path: str, form: str, rules: Rules, bom: str) -> None:
    """--template: the empty games file (or, with --form points, the score sheet) for the day's tables."""
    files = check_outputs({"--template": template_path}, {"schedule file": schedule_file})
    schedule = _checked(schedule_file)
    if form == "games":
        write_outputs([(files[0][1], bom + games_template(schedule, rules))])
        say(f"{template_path}: the empty games file; fill in each game and run `rotation scores` on it")
    else:
        write_outputs([(files[0][1], bom + template_csv(schedule, rules.games_per_round))])
        say(f"{template_path}: the empty score sheet; fill in the points column and run `rotation scores` on it")


def _read(schedule, path: str, rules: Rules) -> tuple[Scoresheet, list[str]]:
    """The cards of a games file or a score sheet (told apart by the header), and a second look's notes."""
    text = read_text(path, "scores", MAX_SCHEDULE_BYTES)
    try:
        if sheet_kind(text) == "games":
            return read_gamesheet(schedule, text, rules), []
        sheet = read_scoresheet(schedule, text, rules.games_per_round)
    except ListError as error:
        where = f", {error.where}" if error.lines else ""
        raise BadInput(f"scores file {path!r}{where}: {error.reason}") from None
    return sheet, [str(look) for card in sheet.cards for look in second_looks(card, rules)]


def _checked(path: str):
    schedule = read_schedule(path)
    try:
        optimizer.check(schedule)  # scores are added up only on a schedule that passes the checker
    except optimizer.InvalidSchedule as error:
        raise BadInput(f"{path}: invalid schedule: {error}") from None
    return schedule


def _later_cards(schedule, cards, after: int) -> list[str]:
    """A note for each round past the standings that has some cards in: they are not counted yet."""
    latest = scoring.latest_cards(cards)
    notes = []
    for number in range(after + 1, len(schedule.rounds) + 1):
        missing = scoring.missing_tables(schedule, latest, number)
        entered = len(schedule.rounds[number - 1].tables) - len(missing)
        if entered:
            notes.append(
                f"round {number}: {entered} of {entered + len(missing)} tables' cards are in; "
                f"not counted until every table's card is"
            )
    return notes
