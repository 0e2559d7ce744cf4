"""`rotation compare`: rows, the summary line, and the same rows as CSV and JSON."""

import csv
import json

import pytest

from rotation.commands.cli import main

pytestmark = pytest.mark.slow


def test_compare_writes_its_rows_as_csv_and_json_with_the_balance_figures(tmp_path, capsys):
    table, data = tmp_path / "rooms.csv", tmp_path / "rooms.json"
    # one worker counting work: "proven optimal" and "exists" are the same on any load
    argv = ["compare", "--players", "16,20", "--rounds", "5", "--time-limit", "2", "--workers", "1"]
    assert main([*argv, "--csv", str(table), "--json", str(data)]) == 0
    out = capsys.readouterr().out
    assert "2 rooms: 2 proven optimal" in out and "2 with zero repeats" in out
    header = out.splitlines()[0].split()
    legend = out.split("Columns:", 1)[1]
    assert all(f"  {column}" in legend for column in ("bound", "status", "zero-repeat", "seats", "tables", "b2b"))
    assert header[-4:] == ["seats", "tables", "trios", "b2b"]
    assert "b2b             back to back: pairs at one table two rounds running" in legend
    rows = list(csv.DictReader(table.open(encoding="utf-8")))
    rooms = json.loads(data.read_text(encoding="utf-8"))["rooms"]
    assert [(r["players"], r["variety"], r["zero_repeat"]) for r in rows] == [
        ("16", "0", "exists"),
        ("20", "0", "exists"),
    ]
    assert [(r["players"], r["variety"]) for r in rooms] == [(16, 0), (20, 0)]
    assert all(r["seat_spread"] <= 1 and r["trios_again"] == 0 for r in rooms)


def test_provenance_records_how_the_file_was_made_and_its_figures(tmp_path):
    out = tmp_path / "day.json"
    argv = ["plan", "--players", "16", "--rounds", "6", "--time-limit", "3", "--workers", "1"]  # counts work
    assert main([*argv, "--json", str(out)]) == 0
    made = json.loads(out.read_text(encoding="utf-8"))["provenance"]
    assert made["repeats"] == made["bound"] == 24 and made["seed"] == 0 and made["time_limit"] == 3.0
    assert made["seat_spread"] <= 1 and made["trios_again"] == 0


def test_compare_takes_the_fixed_rule_the_event_prints(tmp_path, capsys):
    import optimizer
    from models import Event
    from models.event import FixedRule

    data = tmp_path / "rooms.json"
    argv = ["compare", "--players", "16", "--rounds", "4", "--time-limit", "1", "--workers", "2"]
    assert main([*argv, "--rule", "east-stays", "--json", str(data)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("fixed: the east-stays rule")
    [room] = json.loads(data.read_text(encoding="utf-8"))["rooms"]
    event = Event.with_count(16, 4)
    east = optimizer.check(optimizer.fixed_schedule(event, FixedRule.EAST_STAYS)).repeats
    mjmp = optimizer.check(optimizer.fixed_schedule(event)).repeats
    assert east != mjmp  # the two rules differ in this room, so the column shows which one it counted
    assert (room["fixed_rule"], room["fixed"]) == ("east-stays", east)
    assert f" {east} " in out.splitlines()[2]  # the room's row, under the note and the header
