"""`rotation`: a thin command line over the optimizer's library API."""

from __future__ import annotations

import errno
import functools
import json
import math
import os
import signal
import sys
from dataclasses import dataclass

import click

import optimizer
from models import Answer, OddPolicy, Reseat, Schedule, SitOutScoring, Status
from models.event import MAX_ROUNDS, FixedRule
from optimizer.fix import turns_broken_by
from optimizer.leaving import NameRefused, arriving, leaving
from optimizer.season import HALF_LIFE
from optimizer.words import counted, why_no_schedule
from rotation import stopping, tool_version
from rotation.commands.data_commands import backup_command, export_command, import_command, restore_command
from rotation.commands.print_command import print_command
from rotation.commands.progress import progress_display
from rotation.commands.scores_command import scores_command
from rotation.commands.season_command import season_command
from rotation.desk.serve import serve
from rotation.files.inputs import (
    BadInput,
    check_outputs,
    make_event,
    one_line_error,
    parse_sizes,
    read_schedule,
)
from rotation.files.output import (
    EXCEL_BOM,
    StdoutLost,
    metrics_text,
    say,
    schedule_csv,
    schedule_csv_long,
    schedule_json,
    seating_text,
    with_provenance,
    write_outputs,
)
from rotation.files.report import (
    COMPARE_HEADER,
    COMPARE_LEGEND,
    UNFAIR_FIXED_NOTE,
    compare_csv,
    compare_json,
    compare_record,
    compare_row,
    compare_summary,
    fix_text,
    guide_claim_note,
    played_text,
    replan_text,
    result_text,
    zero_repeat_answer,
)
from rotation.files.season_report import season_text


def room_options(command):
    """--players/--names, --rounds, --odd and --sit-out-scoring: the room and the day."""
    options = [
        click.option("--players", type=click.IntRange(min=1), help="Number of players (named P01, P02, ...)."),
        click.option(
            "--names", type=str, metavar="FILE", help="Names: one per line, or a table with a name column (and club)."
        ),
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


@dataclass(frozen=True)
class ScheduleOutputs:
    """--json, --csv, --csv-long, --excel and --quiet: where a schedule goes and how it is printed."""

    json_path: str | None
    csv_path: str | None
    csv_long: str | None
    excel: bool
    quiet: bool

    def checked(self, inputs: dict) -> list[tuple[str, str]]:
        """(option, path) of every file to write, refused before any work if one would clobber an input."""
        return check_outputs({"--json": self.json_path, "--csv": self.csv_path, "--csv-long": self.csv_long}, inputs)


def output_options(command):
    """The options of ScheduleOutputs, handed to the command as one `output` argument."""

    @functools.wraps(command)
    def with_outputs(*args, json_path, csv_path, csv_long, excel, quiet, **kwargs):
        return command(*args, output=ScheduleOutputs(json_path, csv_path, csv_long, excel, quiet), **kwargs)

    options = [
        click.option("--json", "json_path", metavar="FILE", help="Write the schedule as JSON."),
        click.option("--csv", "csv_path", metavar="FILE", help="Write the schedule as CSV: a row per player."),
        click.option(
            "--csv-long", "csv_long", metavar="FILE", help="Write the schedule as CSV: a row per player per round."
        ),
        click.option("--excel", is_flag=True, help="Start the CSV files with a byte-order mark, for Excel."),
        click.option("--quiet", "-q", is_flag=True, help="Print the summary only, not the seating."),
    ]
    return functools.reduce(lambda cmd, option: option(cmd), reversed(options), with_outputs)


def emit(
    schedule: Schedule,
    files: list[tuple[str, str]],
    output: ScheduleOutputs | None = None,
    *,
    provenance: dict | None = None,
    figures: bool = True,
) -> None:
    """Check, write every output (all or nothing), then print. Nothing reaches the director unchecked,
    and a closed or full stdout cannot lose the files: they are written before the report. The seating
    is printed only when nothing is written and --quiet is not given (`output` None: a certificate, written
    only); the figures unless `figures` is False."""
    metrics = optimizer.check(schedule)
    stamped = with_provenance(schedule, metrics, **provenance) if provenance is not None else schedule
    bom = EXCEL_BOM if output is not None and output.excel else ""
    render = {
        "--json": lambda: schedule_json(stamped),
        "--csv": lambda: bom + schedule_csv(schedule),
        "--csv-long": lambda: bom + schedule_csv_long(schedule),
    }
    write_outputs([(path, render[what]()) for what, path in files])
    if output is not None and not output.quiet and not files:
        say(seating_text(schedule))
        say()
    if figures:
        say(metrics_text(metrics, schedule))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(tool_version(), "--version", "-V", prog_name="rotation", message="%(prog)s %(version)s")
def cli():
    """Seat a mahjong tournament: the fixed MJMP rotation or a variety rotation."""


fixed_rule_option = click.option(
    "--rule",
    "rule",
    type=click.Choice([r.value for r in FixedRule]),
    default=FixedRule.MJMP.value,
    show_default=True,
    help="mjmp: A up 1 table, B down 1, C up 2, D down 2 (MJMP item 23); east-stays: East stays, North up 1, "
    "West up 2, South down 1; a-stays: A stays, B down 1, C down 2, D up 1.",
)


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


MAX_SECONDS = 86_400.0  # a day: no tournament waits longer for its seating
MAX_SEED = 2**31 - 1  # CP-SAT takes a 32-bit seed
MAX_WORKERS = 64  # CP-SAT refuses the model with tens of thousands; a few per core is all that helps


class Seconds(click.ParamType):
    """A finite number of seconds from 0.1 to a day: inf and nan are refused, not run unbounded."""

    name = "seconds"

    def convert(self, value, param, ctx):
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or not 0.1 <= seconds <= MAX_SECONDS:
            self.fail(f"{value!r} is not from 0.1 to {MAX_SECONDS:g} seconds", param, ctx)
        return seconds


SECONDS = Seconds()


@dataclass(frozen=True)
class SolverSettings:
    """--time-limit, --seed and --workers, as optimizer.plan and the verdict take them."""

    time_limit: float
    seed: int
    workers: int


def solver_options(command, seconds: float = 30.0, what: str = "Seconds to search."):
    """The options of SolverSettings, handed to the command as one `solver` argument."""

    @functools.wraps(command)
    def with_solver(*args, time_limit, seed, workers, **kwargs):
        return command(*args, solver=SolverSettings(time_limit, seed, workers), **kwargs)

    options = [
        click.option(
            "--time-limit", type=SECONDS, default=seconds, show_default=True, help=f"{what} 0.1 to {MAX_SECONDS:g}."
        ),
        click.option(
            "--seed",
            type=click.IntRange(min=0, max=MAX_SEED),
            default=0,
            show_default=True,
            help=f"Random seed, 0 to {MAX_SEED} (CP-SAT seeds are 32-bit).",
        ),
        click.option(
            "--workers",
            type=click.IntRange(min=1, max=MAX_WORKERS),
            default=8,
            show_default=True,
            help=f"CP-SAT workers, 1 to {MAX_WORKERS}. One worker repeats a run exactly (same seed and input, same "
            "file, however busy the machine): its --time-limit is then seconds of work (CP-SAT's deterministic "
            "time, search steps at a fixed rate), never the clock's, so a busy machine takes longer.",
        ),
    ]
    return functools.reduce(lambda cmd, option: option(cmd), reversed(options), with_solver)


VERBOSE = click.option(
    "--verbose", "-v", is_flag=True, help="Also say how the schedule was made (the methods; the file records them too)."
)


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
        emit(result.schedule, files, output, provenance=made)
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


def no_schedule(result, time_limit: float, requests: bool) -> click.ClickException:
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


# Fixes by hand (optimizer/fix.py): swap, move and played, and the schedule file they read.


def read_checked(path: str) -> Schedule:
    """A schedule file that passes the checker, or BadInput saying what is wrong."""
    schedule = read_schedule(path)
    try:
        optimizer.check(schedule)
    except optimizer.InvalidSchedule as error:
        raise BadInput(f"{path}: invalid schedule: {error}") from None
    return schedule


def _played_or_recorded(schedule: Schedule, played: int | None) -> int:
    """--played, or the rounds the file records as played; the library refuses fewer than recorded."""
    if played is not None:
        return played
    if not schedule.played:
        raise BadInput("--played is needed: the file records no round as played")
    if schedule.played == len(schedule.rounds):
        raise BadInput(f"all {schedule.played} rounds are recorded as played: there is nothing to re-plan")
    return schedule.played


def fix_options(command):
    """--round, --as-played and --json: which round a fix changes, and where the result goes."""
    options = [
        click.option(
            "--round", "round_number", type=click.IntRange(min=1, max=MAX_ROUNDS), required=True, help="The round."
        ),
        click.option(
            "--as-played",
            is_flag=True,
            help="The round was played this way: record rounds 1 to --round as played first.",
        ),
        click.option("--json", "json_path", metavar="FILE", help="Write the fixed schedule (else only the report)."),
    ]
    return functools.reduce(lambda cmd, option: option(cmd), reversed(options), command)


@cli.command()
@click.argument("schedule_file", metavar="DAY.json")
@click.argument("names", nargs=2, metavar="NAME NAME")
@fix_options
def swap(schedule_file, names, round_number, as_played, json_path):
    """Two players trade places in one round: seats, or a seat and a sit-out. The input file is not changed."""
    _fix(schedule_file, json_path, round_number, as_played, lambda s: optimizer.swap(s, round_number, *names))


@cli.command()
@click.argument("schedule_file", metavar="DAY.json")
@click.argument("name")
@click.option("--table", type=click.IntRange(min=1), required=True, help="The table of three it took a seat at.")
@fix_options
def move(schedule_file, name, table, round_number, as_played, json_path):
    """In a played round, a player took the empty seat at a table of three (their table played three-handed)."""
    _fix(schedule_file, json_path, round_number, as_played, lambda s: optimizer.move(s, round_number, name, table))


def _fix(schedule_file, json_path, round_number: int, as_played: bool, change) -> None:
    """Read, fix, check, write (all or nothing), then report against the day before."""
    files = check_outputs({"--json": json_path}, {"schedule file": schedule_file})
    before = read_checked(schedule_file)
    try:
        start = optimizer.mark_played(before, round_number) if as_played and round_number > before.played else before
        after = change(start)
    except optimizer.FixRefused as error:
        raise BadInput(str(error)) from None
    old = before.provenance
    made = {"method": f"{old.method}, fixed by hand" if old else "fixed by hand"}
    emit(
        after,
        files,
        provenance={**made, "seed": old.seed, "time_limit": old.time_limit} if old else made,
        figures=False,
    )
    notes = [str(b) for b in turns_broken_by(before, after)[:1]]  # where the turns break; later rounds follow
    say(
        fix_text(
            after, optimizer.moved(before, after, round_number), optimizer.check(before), optimizer.check(after), notes
        )
    )
    if not files:
        say("Nothing written: give --json FILE to keep this fix.")


@cli.command("rename")
@click.argument("schedule_file", metavar="DAY.json")
@click.argument("old", metavar="OLD")
@click.argument("new", metavar="NEW")
@click.option("--json", "json_path", metavar="FILE", help="Write the renamed schedule here (default: DAY.json itself).")
def rename_command(schedule_file, old, new, json_path):
    """Correct a player's spelling everywhere in the schedule (seats, requests, arrivals, corrections): the
    same player, nobody moves. Without --json the file is replaced whole, never half-written."""
    files = (
        check_outputs({"--json": json_path}, {"schedule file": schedule_file})
        if json_path
        else check_outputs({"--json": schedule_file}, {})
    )
    before = read_checked(schedule_file)
    try:
        was, now = optimizer.respelling(before.players, old, new)
        after = optimizer.rename(before, was, now)
    except optimizer.FixRefused as error:
        raise BadInput(str(error)) from None
    emit(after, files, figures=False)
    say(f"{was} is now {now} in every round, request and record of the schedule.")


@cli.command("played")
@click.argument("schedule_file", metavar="DAY.json")
@click.option(
    "--round", "round_number", type=click.IntRange(min=1, max=MAX_ROUNDS), required=True, help="The last round played."
)
@click.option("--json", "json_path", metavar="FILE", required=True, help="Write the schedule with the record.")
def played_command(schedule_file, round_number, json_path):
    """Record rounds 1 to --round as played: a re-plan keeps them, and a fix there records what happened."""
    files = check_outputs({"--json": json_path}, {"schedule file": schedule_file})
    before = read_checked(schedule_file)
    try:
        after = optimizer.mark_played(before, round_number)
    except optimizer.FixRefused as error:
        raise BadInput(str(error)) from None
    emit(after, files, figures=False)
    say(played_text(before.played, after.played))


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
            say(f"{n:>7} {r:>6}  {error.format_message()}")
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


cli.add_command(print_command)
cli.add_command(scores_command)
cli.add_command(season_command)
cli.add_command(serve)
for command in (backup_command, restore_command, export_command, import_command):
    cli.add_command(command)


def main(argv: list[str] | None = None) -> int:
    """Run one command; Ctrl-C, SIGTERM and SIGHUP stop it the same way (rotation.stopping)."""
    with stopping.handled():
        try:
            status = _command(argv)
        except KeyboardInterrupt:  # a stop signal ended the command (any set of outputs is whole)
            status = _stopped()
        stop = stopping.received()
        if stop is not None and stop != signal.SIGINT and status in (0, 1):
            # The best was written (the report may be lost with a closed terminal): say it was stopped.
            status = stopping.exit_status(stop)
        return status


def _command(argv: list[str] | None) -> int:
    try:
        status = cli.main(args=argv, prog_name="rotation", standalone_mode=False)
    except click.ClickException as error:
        _error_line(f"rotation: error: {printable(error.format_message())}")
        return 2 if isinstance(error, (click.UsageError, BadInput)) else 1
    except click.exceptions.Abort:
        return _stopped()
    except MemoryError:  # a safety net: the room limits keep every command known to us well inside memory
        _error_line("rotation: error: out of memory: the room is too large for this command on this machine")
        return 2
    except StdoutLost as lost:
        _silence_stdout()
        if lost.error.errno == errno.EPIPE:
            return 0  # the reader stopped reading (`| head`); every output file was already written
        _error_line(f"rotation: error: the report could not be printed: {lost}")
        return 1
    return status if isinstance(status, int) else 0


def _stopped() -> int:
    signum = stopping.received() or signal.SIGINT
    _error_line(f"rotation: stopped by {stopping.stopped_by()}")
    return stopping.exit_status(signum)


def _error_line(text: str) -> None:
    with stopping.held():  # nothing interrupts the last line
        try:
            click.echo(text, err=True)
        except OSError:
            pass  # stderr closed or full: the exit status still says it


def printable(text: str) -> str:
    """The message on one line whatever a file held: characters that would break the line or not show
    (a control character, U+2028) are written as escapes."""
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def _silence_stdout() -> None:
    """After stdout failed, point it at /dev/null so the exit-time flush does not print a traceback."""
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError, AttributeError):
        return  # not a real file (tests capture it)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


if __name__ == "__main__":  # `python -m rotation` is the program (rotation/__main__.py); this runs it too
    sys.exit(main())
