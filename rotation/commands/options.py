"""The options several commands share: each group is handed to its command as one argument."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import click

from models import OddPolicy, SitOutScoring
from models.event import MAX_ROUNDS, MAX_SECONDS, MIN_SECONDS, FixedRule
from rotation.files.writing import check_outputs


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


fixed_rule_option = click.option(
    "--rule",
    "rule",
    type=click.Choice([r.value for r in FixedRule]),
    default=FixedRule.MJMP.value,
    show_default=True,
    help="mjmp: A up 1 table, B down 1, C up 2, D down 2 (MJMP item 23); east-stays: East stays, North up 1, "
    "West up 2, South down 1; a-stays: A stays, B down 1, C down 2, D up 1.",
)


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
        if not math.isfinite(seconds) or not MIN_SECONDS <= seconds <= MAX_SECONDS:
            self.fail(f"{value!r} is not from {MIN_SECONDS:g} to {MAX_SECONDS:g} seconds", param, ctx)
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
            "--time-limit",
            type=SECONDS,
            default=seconds,
            show_default=True,
            help=f"{what} {MIN_SECONDS:g} to {MAX_SECONDS:g}.",
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
