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
    context = click.Context(cli, info_name="rotation")
    for name in SUMMARIES:
        assert cli.get_command(context, name) is not None, name
    assert sorted(cli.commands) == sorted(SUMMARIES)
    for name, command in cli.commands.items():
        assert click.Command(name, help=SUMMARIES[name]).get_short_help_str(10**6) == command.get_short_help_str(
            10**6
        ), name
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


def modules_imported_by(*args: str) -> set[str]:
    done = subprocess.run([sys.executable, "-c", PROBE, *args], capture_output=True, text=True, timeout=120)
    return set(json.loads(done.stderr.splitlines()[-1]))


def imported_by(*args: str) -> set[str]:
    return {name.split(".")[0] for name in modules_imported_by(*args)}


@pytest.mark.subprocess
@pytest.mark.parametrize("args", [("--version",), ("--help",), ()])
def test_version_and_help_import_none_of_the_commands_libraries(args):
    assert not imported_by(*args) & set(HEAVY)


@pytest.mark.subprocess
def test_a_command_imports_what_it_needs():
    """The probe above sees imports: a command that reads a schedule's schema brings pydantic and the models."""
    assert {"pydantic", "models", "optimizer"} <= imported_by("schema")


# Rooms whose day a construction gives (a design from the library, a speed rule): no CP-SAT model is built.
NO_MODEL = [
    ("exists", "--players", "16", "--rounds", "5"),
    ("plan", "--players", "16", "--rounds", "5", "--time-limit", "1", "-q"),
    ("plan", "--players", "1000", "--rounds", "12", "--time-limit", "1", "--workers", "1", "-q"),
]


@pytest.mark.subprocess
@pytest.mark.parametrize("args", NO_MODEL)
def test_a_run_that_builds_no_model_imports_no_cp_sat(args):
    """CP-SAT and the pandas it imports are half of the start-up: imported only where a model is built
    (optimizer.budget, "Start-up"). Nor does a day's command import the other commands' libraries (the
    desk, the printing), nor rich for a live line it does not show (the probe's stderr is a pipe)."""
    imported = modules_imported_by(*args)
    assert "optimizer.plan" in imported  # the probe saw the run
    assert not {"ortools.sat.python.cp_model", "pandas", "rotation.desk", "rotation.printing", "rich"} & imported
    assert not {"fastapi", "starlette", "jinja2"} & {name.split(".")[0] for name in imported}


@pytest.mark.subprocess
def test_a_run_that_builds_a_model_imports_cp_sat():
    """20 x 6 has no construction at its bound: the search's CP-SAT model runs (the probe sees imports)."""
    assert "ortools.sat.python.cp_model" in modules_imported_by(
        "plan", "--players", "20", "--rounds", "6", "--time-limit", "1", "--workers", "1", "-q"
    )
