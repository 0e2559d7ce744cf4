"""The program's front door: bare `rotation` shows the help in whole lines, and `rotation --version` and
`--help` answer without importing the commands' libraries (OR-Tools, numpy, pandas, pydantic, matplotlib):
checked by the modules a run has imported, not by its time."""

from __future__ import annotations

import json
import subprocess
import sys

import click
import pytest

from rotation.commands.program import SUMMARIES, cli, main

HEAVY = ("ortools", "numpy", "pandas", "matplotlib", "pydantic", "fastapi", "optimizer", "models")


def test_bare_rotation_shows_the_help_in_whole_lines(capsys):
    status = main([])
    out, err = capsys.readouterr()
    shown = out + err
    assert status in (0, 2)
    assert "rotation: error" not in shown
    assert "\\n" not in shown
    lines = shown.splitlines()
    assert lines[0] == "Usage: rotation [OPTIONS] COMMAND [ARGS]..."
    assert "Commands:" in lines
    assert any(line.split()[:1] == ["serve"] for line in lines)


def test_the_help_lists_each_command_as_the_command_says_itself():
    """The list is written without importing the commands: here every command is imported and compared."""
    import rotation.commands.cli  # noqa: F401  (registers the commands)

    assert sorted(cli.commands) == sorted(SUMMARIES)
    for name, command in cli.commands.items():
        assert click.Command(name, help=SUMMARIES[name]).get_short_help_str(10**6) == command.get_short_help_str(
            10**6
        ), name
    context = click.Context(cli, info_name="rotation")
    ours, clicks = click.HelpFormatter(), click.HelpFormatter()
    cli.format_commands(context, ours)
    click.Group.format_commands(cli, context, clicks)
    assert ours.getvalue() == clicks.getvalue()


PROBE = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.__stderr__))
sys.argv = ["rotation", *sys.argv[1:]]
from rotation.__main__ import run
run()
"""


def imported_by(*args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120)
    return {name.split(".")[0] for name in json.loads(done.stderr.splitlines()[-1])}


@pytest.mark.subprocess
@pytest.mark.parametrize("args", [("--version",), ("--help",), ()])
def test_version_and_help_import_none_of_the_commands_libraries(args):
    assert not imported_by(*args) & set(HEAVY)


@pytest.mark.subprocess
def test_a_command_imports_what_it_needs():
    """The probe above sees imports: a command that reads a schedule's schema brings pydantic and the models."""
    assert {"pydantic", "models", "optimizer"} <= imported_by("schema")
