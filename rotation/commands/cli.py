"""`rotation`'s commands for the day (fixed, plan, replan, exists, compare, check, schema): a thin command line
over the optimizer's library API, registered on the group of rotation.commands.program (which imports this
module when one of them runs; the other commands' modules are named in its HOMES)."""

from __future__ import annotations

import functools
import json
import sys

import click

import optimizer
from models import Answer, OddPolicy, Reseat, Schedule, SitOutScoring, Status
from models.event import MAX_ROUNDS, FixedRule
from optimizer.leaving import NameRefused, arriving, leaving
from optimizer.season import HALF_LIFE
from optimizer.words import counted, why_no_schedule
from rotation import stopping
from rotation.commands.day_files import emit, read_checked
from rotation.commands.options import (
    VERBOSE,
    ScheduleOutputs,
    SolverSettings,
    fixed_rule_option,
    output_options,
    room_options,
    solver_options,
)
from rotation.commands.program import cli, main
from rotation.commands.progress import progress_display
from rotation.files.inputs import BadInput, make_event, one_line_error, parse_sizes, read_schedule
from rotation.files.output import metrics_text
from rotation.files.report import (
    COMPARE_HEADER,
    COMPARE_LEGEND,
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
from rotation.files.season_report import season_text
from rotation.files.writing import check_outputs, say, write_outputs


@cli.command()
@room_options
@output_options
@fixed_rule_option
def fixed(players, names, rounds, odd, scoring, output: ScheduleOutputs, rule):
    """A fixed rotation: by default MJMP item 23, A up 1 table, B down 1, C up 2, D down 2."""
    files = output.checked({"names file": names})
    event = make_event(players, names, rounds, odd, scoring)
    chosen = FixedRule(rule)
    schedule = optimizer.fixed_schedule(event, chosen)
    emit(schedule, files, output, provenance={"method": schedule.rule})
    if chosen is not FixedRule.MJMP:
        baseline = optimizer.check(optimizer.fixed_schedule(event), indirect=False)
        say(f"The MJMP rule (item 23) on the same room: {baseline.repeats} repeats.")


@cli.command()
@room_options
@click.option(
    "--apart", metavar="FILE", help="Groups who never share a table: one group per line, names separated by commas."
)
@click.option("--stay", metavar="FILE", help="Players who keep one table all day: 'name, table' per line.")
@click.option(
    "--spread",
    metavar="FILE",
    help="Club-mates kept apart where it costs no repeat: one club per line, names separated by commas.",
)
@click.option(
    "--history",
    "earlier",
    multiple=True,
    metavar="EARLIER.json",
    help="A schedule file of an earlier night of the season (repeatable, oldest first): pairs who met count as "
    "met, earlier three-handed rounds and sit-outs count toward taking turns, seat letters balance over the "
    "season. Players are matched by the names file's id column where both nights have one, else by name.",
)
@click.option(
    "--half-life",
    type=click.FloatRange(min=0.1, min_open=False),
    default=HALF_LIFE,
    show_default=True,
    metavar="NIGHTS",
    help="With --history: every earlier meeting counts, and a recent one counts more: a meeting last week "
    "weighs 2, after this many further nights 1.5, after twice as many 1.25 (a pair that met last week "
    "matters more than one that met ten weeks ago); 'inf' counts every meeting alike.",
)
@solver_options
@output_options
@VERBOSE
def plan(
    players,
    names,
    rounds,
    odd,
    scoring,
    apart,
    stay,
    spread,
    earlier,
    half_life,
    solver: SolverSettings,
    output: ScheduleOutputs,
    verbose,
):
    """A variety rotation: all rounds planned at once for the fewest repeat opponents; with --history, the
    fewest over the season."""
    inputs = {"names file": names, "apart file": apart, "stay file": stay, "spread file": spread}
    files = output.checked({**inputs, **{f"history file (night {i})": path for i, path in enumerate(earlier, 1)}})
    event = make_event(players, names, rounds, odd, scoring, apart, stay, spread)
    if earlier:
        return plan_season_night(event, earlier, half_life, solver, files, output, verbose)
    with stopping.polled(), progress_display(solver.time_limit) as show:
        result = optimizer.plan(
            event, time_limit=solver.time_limit, seed=solver.seed, workers=solver.workers, on_progress=show
        )
    if result.schedule is None:
        raise no_schedule(result, solver.time_limit, requests=bool(event.apart or event.stay))
    made = {"method": "variety", "seed": solver.seed, "time_limit": solver.time_limit, "result": result}
    with stopping.held():  # the search is over: a stop signal now waits until the best is written
        emit(result.schedule, files, output, provenance=made, checked=result.metrics)
        say(result_text(result, verbose))


def plan_season_night(event, earlier, half_life: float, solver: SolverSettings, files, output, verbose):
    """`plan --history`: tonight planned against the earlier nights, and what the season gains by it."""
    nights = [read_checked(path) for path in earlier]
    try:
        with stopping.polled(), progress_display(solver.time_limit) as show:
            night = optimizer.plan_night(
                event,
                nights,
                half_life=half_life,
                time_limit=solver.time_limit,
                seed=solver.seed,
                workers=solver.workers,
                on_progress=show,
            )
    except ValueError as error:
        raise BadInput(one_line_error(error)) from None
    result = night.result
    if result.schedule is None:
        raise no_schedule(result, solver.time_limit, requests=bool(event.apart or event.stay))
    made = {"method": "variety, planned against the season", "seed": solver.seed, "time_limit": solver.time_limit}
    with stopping.held():
        emit(result.schedule, files, output, provenance={**made, "result": result})
        say(season_text(night, verbose))


def no_schedule(result, time_limit: float, requests: bool) -> Exception:
    """Bad input (exit 2) when no schedule can exist, else the run's failure (exit 1)."""
    why = why_no_schedule(result, time_limit, "--apart or --stay" if requests else None, "--time-limit")
    return BadInput(why) if result.status is Status.INFEASIBLE else click.ClickException(why)


@cli.command()
@click.argument("schedule_file", metavar="SCHEDULE.json")
@click.option(
    "--played",
    type=click.IntRange(min=0, max=MAX_ROUNDS),
    default=None,
    help="Rounds already played; kept exactly (default: the rounds the file records as played).",
)
@click.option("--drop", multiple=True, metavar="NAME", help="A player who leaves (repeatable).")
@click.option("--add", multiple=True, metavar="NAME", help="A player who arrives (repeatable).")
@click.option(
    "--odd",
    type=click.Choice([p.value for p in OddPolicy]),
    default=None,
    help="Seat an odd count of the rounds still to play this way (default: as the file says).",
)
@click.option(
    "--sit-out-scoring",
    "scoring",
    type=click.Choice([s.value for s in SitOutScoring]),
    default=None,
    help="What a sat-out round scores (default: as the file says).",
)
@click.option(
    "--reseat",
    type=click.Choice([r.value for r in Reseat]),
    default=Reseat.FEWEST.value,
    show_default=True,
    help="fewest: move as few players as possible, then the fewest repeats; all: re-seat anyone for the "
    "fewest repeats. The report shows the other choice from a short run.",
)
@solver_options
@output_options
@VERBOSE
def replan(
    schedule_file, played, drop, add, odd, scoring, reseat, solver: SolverSettings, output: ScheduleOutputs, verbose
):
    """Plan the rounds still to play again, after people leave or arrive. The input file is not changed."""
    files = output.checked({"schedule file": schedule_file})
    schedule = read_checked(schedule_file)
    played = _played_or_recorded(schedule, played)
    try:
        drop, add = leaving(schedule, played, drop), arriving(schedule, add)
    except NameRefused as error:
        raise BadInput(str(error)) from None
    policy = _policy_change(schedule, odd, scoring)
    try:
        with stopping.polled(), progress_display(solver.time_limit) as show:
            outcome = optimizer.replan(
                schedule,
                played,
                drop=drop,
                add=add,
                reseat=Reseat(reseat),
                time_limit=solver.time_limit,
                seed=solver.seed,
                workers=solver.workers,
                on_progress=show,
                **policy,
            )
    except optimizer.InvalidSchedule as error:
        raise BadInput(f"{schedule_file}: invalid schedule: {error}") from None
    except ValueError as error:
        raise BadInput(one_line_error(error)) from None
    if outcome.result.schedule is None:
        raise no_schedule(outcome.result, solver.time_limit, requests=bool(schedule.apart or schedule.stay))
    made = {"method": "replan", "seed": solver.seed, "time_limit": solver.time_limit, "result": outcome.result}
    with stopping.held():  # the search is over: a stop signal now waits until the best is written
        emit(outcome.result.schedule, files, output, provenance=made)
        say(replan_text(outcome, verbose))


def _policy_change(schedule: Schedule, odd: str | None, scoring: str | None) -> dict:
    """--odd and --sit-out-scoring for the rounds still to play, passed on only when they change."""
    change: dict[str, OddPolicy | SitOutScoring] = {}
    if odd is not None and OddPolicy(odd) is not schedule.odd:
        change["odd"] = OddPolicy(odd)
    if scoring is not None and SitOutScoring(scoring) is not schedule.sit_out_scoring:
        change["sit_out_scoring"] = SitOutScoring(scoring)
    return change


def _played_or_recorded(schedule: Schedule, played: int | None) -> int:
    """--played, or the rounds the file records as played; the library refuses fewer than recorded."""
    if played is not None:
        return played
    if not schedule.played:
        raise BadInput("--played is needed: the file records no round as played")
    if schedule.played == len(schedule.rounds):
        raise BadInput(f"all {schedule.played} rounds are recorded as played: there is nothing to re-plan")
    return schedule.played


@cli.command()
@room_options
@solver_options
@click.option("--json", "json_path", metavar="FILE", help="Write the certificate schedule as JSON.")
def exists(players, names, rounds, odd, scoring, solver: SolverSettings, json_path) -> int:
    """Does a schedule with no repeat opponents exist? Answers exists, impossible or unknown.

    Exit status: 0 exists, 1 impossible, 3 unknown (2 is bad input), so scripts can branch on it."""
    files = check_outputs({"--json": json_path}, {"names file": names})
    event = make_event(players, names, rounds, odd, scoring)
    with stopping.polled():
        verdict = optimizer.zero_repeat_verdict(
            event, time_limit=solver.time_limit, seed=solver.seed, workers=solver.workers
        )
    rounds = counted(verdict.rounds, "round")
    if verdict.schedule is not None and files:
        emit(verdict.schedule, files, figures=False)
    say(f"{verdict.players} players, {rounds}: {verdict.answer.value} ({verdict.reason})")
    return EXISTS_STATUS[verdict.answer]


EXISTS_STATUS = {Answer.EXISTS: 0, Answer.IMPOSSIBLE: 1, Answer.UNKNOWN: 3}


@cli.command()
@click.option("--players", "sizes", required=True, metavar="SIZES", help="Room sizes: 16-64, 16-64/4 or 17,20,23.")
@click.option("--rounds", "rounds_list", required=True, metavar="ROUNDS", help="Rounds: 5, 2-8 or 4,6.")
@click.option(
    "--odd", type=click.Choice([p.value for p in OddPolicy]), default=OddPolicy.THREE_HANDED.value, show_default=True
)
@functools.partial(solver_options, seconds=10.0, what="Seconds per room.")
@click.option("--csv", "csv_path", metavar="FILE", help="Also write the rows as CSV.")
@click.option("--json", "json_path", metavar="FILE", help="Also write the rows as JSON.")
@fixed_rule_option
def compare(sizes, rounds_list, odd, solver: SolverSettings, csv_path, json_path, rule):
    """One line per room: the fixed rule (the one the event prints, --rule) against the variety rotation, the
    lower bound and the zero-repeat verdict."""
    chosen = FixedRule(rule)
    files = check_outputs({"--csv": csv_path, "--json": json_path}, {})
    counts = parse_sizes(sizes, "--players", minimum=4)
    rows = [(n, r) for n in counts for r in parse_sizes(rounds_list, "--rounds", minimum=1, maximum=MAX_ROUNDS)]
    if chosen is not FixedRule.MJMP:
        say(f"fixed: the {chosen.value} rule, as the event prints it (the variety rotation's start stays MJMP item 23)")
    say(COMPARE_HEADER)
    verdicts, unfair, records, skipped, stopped = {}, False, [], 0, ""
    for k, (n, r) in enumerate(rows, start=1):
        try:
            event = make_event(n, None, r, odd, SitOutScoring.ZERO.value)
        except BadInput as error:
            say(f"{n:>7} {r:>6}  {error}")
            skipped += 1
            continue
        with (
            stopping.polled(),
            progress_display(
                solver.time_limit, f"room {k} of {len(rows)} ({n} players, {counted(r, 'round')})"
            ) as show,
        ):
            result = optimizer.plan(
                event, time_limit=solver.time_limit, seed=solver.seed, workers=solver.workers, on_progress=show
            )
        if result.schedule is not None:
            optimizer.check(result.schedule)
        fixed = optimizer.check(optimizer.fixed_schedule(event, chosen))
        unfair |= not fixed.turns_fair
        verdicts[n, r] = zero_repeat_answer(result)
        say(compare_row(n, r, result, verdicts[n, r], fixed))
        records.append(compare_record(n, r, result, verdicts[n, r], fixed, chosen))
        if result.interrupted:  # a stop signal ends the comparison; the rows so far are written
            stopped = f"stopped by {stopping.stopped_by()} in room {k} of {len(rows)}"
            break
    render = {"--csv": lambda: compare_csv(records), "--json": lambda: compare_json(records)}
    write_outputs([(path, render[what]()) for what, path in files])
    say(compare_summary(records, skipped) + (f"; {stopped}" if stopped else ""))
    for note in (COMPARE_LEGEND, UNFAIR_FIXED_NOTE if unfair else "", guide_claim_note(verdicts)):
        if note:
            say()
            say(note)


@cli.command()
@click.argument("file")
def check(file):
    """Validate a schedule file and report how good it is."""
    schedule = read_schedule(file)
    try:
        metrics = optimizer.check(schedule)
    except optimizer.InvalidSchedule as error:
        raise BadInput(f"{file}: invalid schedule: {error}") from None
    say(f"{file}: valid, {len(schedule.players)} players, {counted(len(schedule.rounds), 'round')}")
    say(metrics_text(metrics, schedule))


@cli.command()
def schema():
    """Print the JSON Schema of a schedule file."""
    say(json.dumps(Schedule.model_json_schema(), indent=2))


if __name__ == "__main__":  # `python -m rotation` is the program (rotation/__main__.py); this runs it too
    sys.exit(main())
