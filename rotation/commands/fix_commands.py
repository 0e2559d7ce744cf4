"""Fixes by hand (optimizer/fix.py) on a day's file: swap, move, rename, and recording rounds as played."""

from __future__ import annotations

import click

import optimizer
from models.event import MAX_ROUNDS
from optimizer.fix import turns_broken_by
from rotation.commands.day_files import emit, read_checked
from rotation.commands.options import fix_options
from rotation.files.inputs import BadInput
from rotation.files.report import fix_text, played_text
from rotation.files.writing import check_outputs, say


@click.command()
@click.argument("schedule_file", metavar="DAY.json")
@click.argument("names", nargs=2, metavar="NAME NAME")
@fix_options
def swap(schedule_file, names, round_number, as_played, json_path):
    """Two players trade places in one round: seats, or a seat and a sit-out. The input file is not changed."""
    _fix(schedule_file, json_path, round_number, as_played, lambda s: optimizer.swap(s, round_number, *names))


@click.command()
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


@click.command("rename")
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


@click.command("played")
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
