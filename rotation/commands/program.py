"""The `rotation` group and the run of one command, light enough to answer `rotation`, `--help` and
`--version` without importing the commands: they bring numpy, pydantic and the optimizer (half a second of
CPU, seconds on a busy laptop). A command's own module alone is imported when the command runs, or its own
`--help` is asked (`plan` imports neither the desk nor the printing); bad input, a lost stdout and a stop
signal are each said in one line."""

from __future__ import annotations

import errno
import importlib
import os
import signal
import sys

import click

from rotation import stopping, tool_version

# Each command's line in `rotation --help`: its docstring's first sentence, written here so the list needs
# no import (tests/rotation/commands/test_startup.py checks each against its command's own).
SUMMARIES = {
    "backup": "A consistent backup of the desk's file at OUT, safe while the desk runs (SQLite's online backup).",
    "check": "Validate a schedule file and report how good it is.",
    "compare": "One line per room: the fixed rule (the one the event prints, --rule) against the variety rotation, "
    "the lower bound and the zero-repeat verdict.",
    "exists": "Does a schedule with no repeat opponents exist? Answers exists, impossible or unknown.",
    "export": "Event number EVENT to one file, with everything, for `rotation import` or a desk's Import.",
    "fixed": "A fixed rotation: by default MJMP item 23, A up 1 table, B down 1, C up 2, D down 2.",
    "import": "An exported event into the desk's file as a new event (all or nothing); refused, naming it, when the "
    "desk has the event already (unless --copy).",
    "move": "In a played round, a player took the empty seat at a table of three (their table played three-handed).",
    "plan": "A variety rotation: all rounds planned at once for the fewest repeat opponents; with --history, the "
    "fewest over the season.",
    "played": "Record rounds 1 to --round as played: a re-plan keeps them, and a fix there records what happened.",
    "print": "Wall charts, find-your-table lists, score cards and sheets, and a summary page, ready to print.",
    "rename": "Correct a player's spelling everywhere in the schedule (seats, requests, arrivals, corrections): the "
    "same player, nobody moves.",
    "replan": "Plan the rounds still to play again, after people leave or arrive.",
    "restore": "Replace the desk's data by a backup; the data as it is now is backed up first (beside the file).",
    "schema": "Print the JSON Schema of a schedule file.",
    "scores": "Standings from GAMES.csv, the games file (winner, value, how, discarder, ... scored by the event's "
    "rules) or a score sheet of each player's points; sat-out rounds scored by the schedule's rule.",
    "season": "A season's standings from each night's standings (NIGHT.json, written by `rotation scores --json`), "
    "oldest night first; members are matched by name.",
    "serve": "The director's desk: a local web page for the whole tournament day.",
    "swap": "Two players trade places in one round: seats, or a seat and a sit-out.",
}


# Where a command is defined, (module, name), for those outside rotation.commands.cli (the day's commands,
# registered on the group by their decorators there).
HOMES = {
    "backup": ("rotation.commands.data_commands", "backup_command"),
    "export": ("rotation.commands.data_commands", "export_command"),
    "import": ("rotation.commands.data_commands", "import_command"),
    "restore": ("rotation.commands.data_commands", "restore_command"),
    "move": ("rotation.commands.fix_commands", "move"),
    "played": ("rotation.commands.fix_commands", "played_command"),
    "rename": ("rotation.commands.fix_commands", "rename_command"),
    "swap": ("rotation.commands.fix_commands", "swap"),
    "print": ("rotation.commands.print_command", "print_command"),
    "scores": ("rotation.commands.scores_command", "scores_command"),
    "season": ("rotation.commands.season_command", "season_command"),
    "serve": ("rotation.desk.serve", "serve"),
}


class InputRefused(click.ClickException):
    """The director's bad input, said in one line: exit status 2, as click's own usage errors."""

    exit_code = 2


class StoppedWhileImporting(BaseException):
    """A stop signal before the command started: nothing to keep, the run ends in one line."""


class Program(click.Group):
    """A command is registered the first time it is looked up, by importing its module (HOMES)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUMMARIES)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in SUMMARIES and cmd_name not in self.commands:
            module, name = HOMES.get(cmd_name, ("rotation.commands.cli", cmd_name))
            try:
                self.add_command(getattr(importlib.import_module(module), name), cmd_name)
            except KeyboardInterrupt:
                # A stop signal while importing: past click, which would print a blank line first, to main's
                # one line. (Inside a compiled module's init it can come out as any error, ImportError or ssl's
                # TypeError "expected a message argument": click lets those through to main.)
                if stopping.received() is None:
                    raise
                raise StoppedWhileImporting from None
        return self.commands.get(cmd_name)

    def invoke(self, ctx: click.Context):
        """Run the command; the director's bad input (rotation.files.inputs.BadInput, a plain ValueError the
        library and the desk share) becomes click's error here, the one place: its line, exit status 2."""
        try:
            return super().invoke(ctx)
        except ValueError as error:
            if not _raised_by(error, "rotation.files.inputs", "BadInput"):
                raise
            raise InputRefused(str(error)) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        limit = formatter.width - 6 - max(map(len, SUMMARIES))
        rows = [(name, click.Command(name, help=SUMMARIES[name]).get_short_help_str(limit)) for name in SUMMARIES]
        with formatter.section("Commands"):
            formatter.write_dl(sorted(rows))


@click.group(cls=Program, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(tool_version(), "--version", "-V", prog_name="rotation", message="%(prog)s %(version)s")
def cli():
    """Seat a mahjong tournament: the fixed MJMP rotation or a variety rotation."""


def main(argv: list[str] | None = None) -> int:
    """Run one command; Ctrl-C, SIGTERM and SIGHUP stop it the same way (rotation.stopping)."""
    with stopping.handled():
        try:
            status = _command(argv)
        except (KeyboardInterrupt, StoppedWhileImporting):  # a stop signal ended the command (any set of
            status = _stopped()  # outputs is whole)
        except Exception:
            if stopping.received() is None:
                raise
            status = _stopped()  # a stop inside a compiled module's import surfaces as any error
        stop = stopping.received()
        if stop is not None and stop != signal.SIGINT and status in (0, 1):
            # The best was written (the report may be lost with a closed terminal): say it was stopped.
            status = stopping.exit_status(stop)
        return status


# click 8.2 and later: bare `rotation` raises this to show the help (click 8.1 prints it itself, status 0).
NO_ARGS = getattr(click.exceptions, "NoArgsIsHelpError", ())


def _command(argv: list[str] | None) -> int:
    try:
        status = cli.main(args=argv, prog_name="rotation", standalone_mode=False)
    except NO_ARGS as error:
        error.show()  # the help, whole lines on stderr
        return 2
    except click.ClickException as error:
        _error_line(f"rotation: error: {printable(error.format_message())}")
        return error.exit_code  # 2 for bad input (InputRefused) and click's usage errors, 1 for a run that failed
    except click.exceptions.Abort:
        return _stopped()
    except MemoryError:  # a safety net: the room limits keep every command known to us well inside memory
        _error_line("rotation: error: out of memory: the room is too large for this command on this machine")
        return 2
    except Exception as lost:
        if not _raised_by(lost, "rotation.files.writing", "StdoutLost"):
            raise
        _silence_stdout()
        if lost.error.errno == errno.EPIPE:  # type: ignore[attr-defined]
            return 0  # the reader stopped reading (`| head`); every output file was already written
        _error_line(f"rotation: error: the report could not be printed: {lost}")
        return 1
    return status if isinstance(status, int) else 0


def _raised_by(error: BaseException, module: str, name: str) -> bool:
    """Whether `error` is that module's exception: a module not imported yet raised nothing."""
    loaded = sys.modules.get(module)
    return loaded is not None and isinstance(error, getattr(loaded, name))


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
