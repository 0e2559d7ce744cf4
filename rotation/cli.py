"""`rotation`: a thin command line over the optimizer's library API."""

from __future__ import annotations

import functools
import json
import sys

import click

import optimizer
from models import OddPolicy, Schedule, SitOutScoring, Status
from rotation.inputs import BadInput, make_event, one_line_error, parse_sizes, read_schedule, writable
from rotation.output import (
    EXCEL_BOM,
    metrics_text,
    schedule_csv,
    schedule_csv_long,
    schedule_json,
    seating_text,
    with_provenance,
    write_atomically,
)
from rotation.print_command import print_command
from rotation.progress import progress_display
from rotation.report import (
    COMPARE_HEADER,
    UNFAIR_FIXED_NOTE,
    compare_csv,
    compare_json,
    compare_record,
    compare_row,
    compare_summary,
    guide_claim_note,
    replan_text,
    result_text,
    zero_repeat_answer,
)


def room_options(command):
    """--players/--names, --rounds, --odd and --sit-out-scoring: the room and the day."""
    options = [
        click.option("--players", type=click.IntRange(min=1), help="Number of players (named P01, P02, ...)."),
        click.option("--names", type=str, metavar="FILE", help="File with one player name per line."),
        click.option("--rounds", type=click.IntRange(min=1), required=True, help="Rounds to play."),
        click.option(
            "--odd",
            type=click.Choice([p.value for p in OddPolicy]),
            default=OddPolicy.THREE_HANDED.value,
            show_default=True,
            help="When the count is not a multiple of four: tables of three, or players sitting out.",
        ),
        click.option(
            "--sit-out-scoring",
            "scoring",
            type=click.Choice([s.value for s in SitOutScoring]),
            default=SitOutScoring.ZERO.value,
            show_default=True,
            help="What a sat-out round scores.",
        ),
    ]
    return functools.reduce(lambda cmd, option: option(cmd), reversed(options), command)


def output_options(command):
    options = [
        click.option("--json", "json_path", metavar="FILE", help="Write the schedule as JSON."),
        click.option("--csv", "csv_path", metavar="FILE", help="Write the schedule as CSV: a row per player."),
        click.option("--csv-long", "csv_long", metavar="FILE", help="Write the schedule as CSV: a row per player per round."),
        click.option("--excel", is_flag=True, help="Start the CSV files with a byte-order mark, for Excel."),
        click.option("--quiet", "-q", is_flag=True, help="Print the summary only, not the seating."),
    ]
    return functools.reduce(lambda cmd, option: option(cmd), reversed(options), command)


def emit(schedule: Schedule, json_path: str | None, csv_path: str | None, quiet: bool = False,
         csv_long: str | None = None, excel: bool = False, provenance: dict | None = None, figures: bool = True) -> None:
    """Check, then print and write. Nothing reaches the director unchecked.

    The seating is printed only when nothing is written and --quiet is not given; the figures always.
    """
    metrics = optimizer.check(schedule)
    if not quiet and not (json_path or csv_path or csv_long):
        click.echo(seating_text(schedule))
        click.echo()
    if figures:
        click.echo(metrics_text(metrics, spread=bool(schedule.spread)))
    if json_path:
        stamped = with_provenance(schedule, **provenance) if provenance is not None else schedule
        write_atomically(json_path, schedule_json(stamped))
    bom = EXCEL_BOM if excel else ""
    if csv_path:
        write_atomically(csv_path, bom + schedule_csv(schedule))
    if csv_long:
        write_atomically(csv_long, bom + schedule_csv_long(schedule))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli():
    """Seat a mahjong tournament: the fixed MJMP rotation or a variety rotation."""


@cli.command()
@room_options
@output_options
def fixed(players, names, rounds, odd, scoring, json_path, csv_path, csv_long, excel, quiet):
    """The fixed MJMP rotation: A up 1 table, B down 1, C up 2, D down 2."""
    event = make_event(players, names, rounds, odd, scoring)
    writable(json_path), writable(csv_path), writable(csv_long)
    emit(optimizer.fixed_schedule(event), json_path, csv_path, quiet, csv_long, excel, {"method": "fixed"})


def solver_options(command, seconds: float = 30.0, what: str = "Seconds to search."):
    options = [
        click.option("--time-limit", type=click.FloatRange(min=0.1), default=seconds, show_default=True, help=what),
        click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="Random seed."),
        click.option(
            "--workers", type=click.IntRange(min=1), default=8, show_default=True,
            help="CP-SAT workers; one worker with a seed repeats a run exactly.",
        ),
    ]
    return functools.reduce(lambda cmd, option: option(cmd), reversed(options), command)


@cli.command()
@room_options
@click.option("--apart", metavar="FILE", help="Groups who never share a table: one group per line, names separated by commas.")
@click.option("--stay", metavar="FILE", help="Players who keep one table all day: 'name, table' per line.")
@click.option(
    "--spread", metavar="FILE", help="Club-mates kept apart where it costs no repeat: one club per line, names separated by commas."
)
@solver_options
@output_options
def plan(players, names, rounds, odd, scoring, apart, stay, spread, time_limit, seed, workers, json_path, csv_path,
         csv_long, excel, quiet):
    """A variety rotation: all rounds planned at once for the fewest repeat opponents."""
    event = make_event(players, names, rounds, odd, scoring, apart, stay, spread)
    writable(json_path), writable(csv_path), writable(csv_long)
    with progress_display(time_limit) as show:
        result = optimizer.plan(event, time_limit=time_limit, seed=seed, workers=workers, on_progress=show)
    if result.schedule is None:
        raise no_schedule(result, time_limit)
    made = {"method": "variety", "seed": seed, "time_limit": time_limit, "result": result}
    emit(result.schedule, json_path, csv_path, quiet, csv_long, excel, made)
    click.echo(result_text(result))


def no_schedule(result, time_limit: float) -> click.ClickException:
    if result.status is Status.INFEASIBLE:
        return BadInput("no schedule can meet these requests (proven); loosen --apart or --stay")
    return click.ClickException(f"no schedule found in {time_limit:g} s; try a longer --time-limit")


@cli.command()
@click.argument("schedule_file", metavar="SCHEDULE.json")
@click.option("--played", type=click.IntRange(min=0), required=True, help="Rounds already played; kept exactly.")
@click.option("--drop", multiple=True, metavar="NAME", help="A player who leaves (repeatable).")
@click.option("--add", multiple=True, metavar="NAME", help="A player who arrives (repeatable).")
@solver_options
@output_options
def replan(schedule_file, played, drop, add, time_limit, seed, workers, json_path, csv_path, csv_long, excel, quiet):
    """Plan the rounds still to play again, after people leave or arrive. The input file is not changed."""
    schedule = read_schedule(schedule_file)
    writable(json_path), writable(csv_path), writable(csv_long)
    try:
        optimizer.check(schedule)
        with progress_display(time_limit) as show:
            outcome = optimizer.replan(
                schedule, played, drop=tuple(drop), add=tuple(add), time_limit=time_limit, seed=seed, workers=workers,
                on_progress=show,
            )
    except optimizer.InvalidSchedule as error:
        raise BadInput(f"{schedule_file}: invalid schedule: {error}") from None
    except ValueError as error:
        raise BadInput(one_line_error(error)) from None
    if outcome.result.schedule is None:
        raise no_schedule(outcome.result, time_limit)
    made = {"method": "replan", "seed": seed, "time_limit": time_limit, "result": outcome.result}
    emit(outcome.result.schedule, json_path, csv_path, quiet, csv_long, excel, made)
    click.echo(replan_text(outcome))


@cli.command()
@room_options
@solver_options
@click.option("--json", "json_path", metavar="FILE", help="Write the certificate schedule as JSON.")
def exists(players, names, rounds, odd, scoring, time_limit, seed, workers, json_path):
    """Does a schedule with no repeat opponents exist? Answers exists, impossible or unknown."""
    event = make_event(players, names, rounds, odd, scoring)
    writable(json_path)
    verdict = optimizer.zero_repeat_verdict(event, time_limit=time_limit, seed=seed, workers=workers)
    rounds = f"{verdict.rounds} round{'' if verdict.rounds == 1 else 's'}"
    click.echo(f"{verdict.players} players, {rounds}: {verdict.answer.value} ({verdict.reason})")
    if verdict.schedule is not None and json_path:
        emit(verdict.schedule, json_path, None, quiet=True, figures=False)


@cli.command()
@click.option("--players", "sizes", required=True, metavar="SIZES", help="Room sizes: 16-64, 16-64/4 or 17,20,23.")
@click.option("--rounds", "rounds_list", required=True, metavar="ROUNDS", help="Rounds: 5, 2-8 or 4,6.")
@click.option("--odd", type=click.Choice([p.value for p in OddPolicy]), default=OddPolicy.THREE_HANDED.value, show_default=True)
@functools.partial(solver_options, seconds=10.0, what="Seconds per room.")
@click.option("--csv", "csv_path", metavar="FILE", help="Also write the rows as CSV.")
@click.option("--json", "json_path", metavar="FILE", help="Also write the rows as JSON.")
def compare(sizes, rounds_list, odd, time_limit, seed, workers, csv_path, json_path):
    """One line per room: fixed rule against variety rotation, lower bound and zero-repeat verdict."""
    rows = [(n, r) for n in parse_sizes(sizes, "--players", minimum=4) for r in parse_sizes(rounds_list, "--rounds", minimum=1)]
    writable(csv_path), writable(json_path)
    click.echo(COMPARE_HEADER)
    verdicts, unfair, records, skipped = {}, False, [], 0
    for k, (n, r) in enumerate(rows, start=1):
        try:
            event = make_event(n, None, r, odd, SitOutScoring.ZERO.value)
        except BadInput as error:
            click.echo(f"{n:>7} {r:>6}  {error.format_message()}")
            skipped += 1
            continue
        with progress_display(time_limit, f"room {k} of {len(rows)} ({n} players, {r} rounds)") as show:
            result = optimizer.plan(event, time_limit=time_limit, seed=seed, workers=workers, on_progress=show)
        if result.schedule is not None:
            optimizer.check(result.schedule)
        fixed = optimizer.check(optimizer.fixed_schedule(event))
        fair = fixed.three_handed_fair and fixed.sit_outs_fair
        unfair |= not fair
        verdicts[n, r] = zero_repeat_answer(result)
        click.echo(compare_row(n, r, result, verdicts[n, r], fixed_fair=fair))
        records.append(compare_record(n, r, result, verdicts[n, r], fixed_fair=fair))
    click.echo(compare_summary(records, skipped))
    if csv_path:
        write_atomically(csv_path, compare_csv(records))
    if json_path:
        write_atomically(json_path, compare_json(records))
    for note in (UNFAIR_FIXED_NOTE if unfair else "", guide_claim_note(verdicts)):
        if note:
            click.echo()
            click.echo(note)


@cli.command()
@click.argument("file")
def check(file):
    """Validate a schedule file and report how good it is."""
    schedule = read_schedule(file)
    try:
        metrics = optimizer.check(schedule)
    except optimizer.InvalidSchedule as error:
        raise BadInput(f"{file}: invalid schedule: {error}") from None
    click.echo(f"{file}: valid, {len(schedule.players)} players, {len(schedule.rounds)} rounds")
    click.echo(metrics_text(metrics, spread=bool(schedule.spread)))


@cli.command()
def schema():
    """Print the JSON Schema of a schedule file."""
    click.echo(json.dumps(Schedule.model_json_schema(), indent=2))


cli.add_command(print_command)


def main(argv: list[str] | None = None) -> int:
    try:
        cli.main(args=argv, prog_name="rotation", standalone_mode=False)
    except click.ClickException as error:
        click.echo(f"rotation: error: {error.format_message()}", err=True)
        return 2 if isinstance(error, (click.UsageError, BadInput)) else 1
    except (click.exceptions.Abort, KeyboardInterrupt):
        click.echo("rotation: stopped", err=True)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())


def run() -> None:
    sys.exit(main())
