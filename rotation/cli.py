"""`rotation`: a thin command line over the optimizer's library API."""

from __future__ import annotations

import functools
import json
import sys

import click

import optimizer
from models import OddPolicy, Schedule, SitOutScoring, Status
from rotation.inputs import BadInput, make_event, one_line_error, parse_sizes, read_schedule, writable
from rotation.output import metrics_text, schedule_csv, schedule_json, seating_text, write_atomically
from rotation.print_command import print_command
from rotation.progress import progress_display
from rotation.report import (
    COMPARE_HEADER,
    UNFAIR_FIXED_NOTE,
    compare_row,
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
    command = click.option("--csv", "csv_path", metavar="FILE", help="Write the schedule as CSV.")(command)
    return click.option("--json", "json_path", metavar="FILE", help="Write the schedule as JSON.")(command)


def emit(schedule: Schedule, json_path: str | None, csv_path: str | None, quiet: bool = False) -> None:
    """Check, then print and write. Nothing reaches the director unchecked."""
    metrics = optimizer.check(schedule)
    if not quiet:
        click.echo(seating_text(schedule))
        click.echo()
        click.echo(metrics_text(metrics, spread=bool(schedule.spread)))
    if json_path:
        write_atomically(json_path, schedule_json(schedule))
    if csv_path:
        # A byte-order mark tells spreadsheet programs the file is UTF-8, so accented names open cleanly.
        write_atomically(csv_path, "\ufeff" + schedule_csv(schedule))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli():
    """Seat a mahjong tournament: the fixed MJMP rotation or a variety rotation."""


@cli.command()
@room_options
@output_options
def fixed(players, names, rounds, odd, scoring, json_path, csv_path):
    """The fixed MJMP rotation: A up 1 table, B down 1, C up 2, D down 2."""
    event = make_event(players, names, rounds, odd, scoring)
    writable(json_path), writable(csv_path)
    emit(optimizer.fixed_schedule(event), json_path, csv_path)


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
def plan(players, names, rounds, odd, scoring, apart, stay, spread, time_limit, seed, workers, json_path, csv_path):
    """A variety rotation: all rounds planned at once for the fewest repeat opponents."""
    event = make_event(players, names, rounds, odd, scoring, apart, stay, spread)
    writable(json_path), writable(csv_path)
    with progress_display() as show:
        result = optimizer.plan(event, time_limit=time_limit, seed=seed, workers=workers, on_progress=show)
    if result.schedule is None:
        raise no_schedule(result, time_limit)
    emit(result.schedule, json_path, csv_path)
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
def replan(schedule_file, played, drop, add, time_limit, seed, workers, json_path, csv_path):
    """Plan the rounds still to play again, after people leave or arrive. The input file is not changed."""
    schedule = read_schedule(schedule_file)
    writable(json_path), writable(csv_path)
    try:
        optimizer.check(schedule)
        with progress_display() as show:
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
    emit(outcome.result.schedule, json_path, csv_path)
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
        emit(verdict.schedule, json_path, None, quiet=True)


@cli.command()
@click.option("--players", "sizes", required=True, metavar="SIZES", help="Room sizes: 16-64, 16-64/4 or 17,20,23.")
@click.option("--rounds", "rounds_list", required=True, metavar="ROUNDS", help="Rounds: 5, 2-8 or 4,6.")
@click.option("--odd", type=click.Choice([p.value for p in OddPolicy]), default=OddPolicy.THREE_HANDED.value, show_default=True)
@functools.partial(solver_options, seconds=10.0, what="Seconds per room.")
def compare(sizes, rounds_list, odd, time_limit, seed, workers):
    """One line per room: fixed rule against variety rotation, lower bound and zero-repeat verdict."""
    rows = [(n, r) for n in parse_sizes(sizes, "--players", minimum=4) for r in parse_sizes(rounds_list, "--rounds", minimum=1)]
    click.echo(COMPARE_HEADER)
    verdicts, unfair = {}, False
    for n, r in rows:
        try:
            event = make_event(n, None, r, odd, SitOutScoring.ZERO.value)
        except BadInput as error:
            click.echo(f"{n:>7} {r:>6}  {error.format_message()}")
            continue
        with progress_display() as show:
            result = optimizer.plan(event, time_limit=time_limit, seed=seed, workers=workers, on_progress=show)
        if result.schedule is not None:
            optimizer.check(result.schedule)
        fixed = optimizer.check(optimizer.fixed_schedule(event))
        fair = fixed.three_handed_fair and fixed.sit_outs_fair
        unfair |= not fair
        verdicts[n, r] = zero_repeat_answer(result)
        click.echo(compare_row(n, r, result, verdicts[n, r], fixed_fair=fair))
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
