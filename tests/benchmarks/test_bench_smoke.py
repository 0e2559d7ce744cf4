import json

import pytest

from benchmarks import run

pytestmark = pytest.mark.slow


def test_benchmark_runner_writes_results(tmp_path):
    """A tiny run of the benchmark runner: it completes and writes its tables (times are not asserted)."""
    argv = ["--quick", "--time-limit", "0.5", "--only", "past", "--code", "worktree", "--out", str(tmp_path)]
    assert run.main(argv) == 0
    data = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert data["complete"] and len(data["past_frontier"]) == 2
    summary = data["past_frontier"][0]["measured"]["summary"]
    assert all(
        summary[name] is not None for name in ("seat_spread", "table_visits_above_even", "trios_again", "back_to_back")
    )
    assert (tmp_path / "results.md").exists()


def test_odd_seats_measures_a_room_against_its_seatings_bound():
    from benchmarks import odd_seats

    row = odd_seats.measure(45, 3, time_limit=1.0)
    assert row["allowed"] in (1, 2) and row["seat_spread"] >= 0
    assert row["proven"] is None or row["proven"] <= row["seat_spread"]  # asked only above the bound


def test_frontier_every_plans_each_round_count_of_a_room(tmp_path, monkeypatch):
    from benchmarks import frontier

    monkeypatch.setattr(frontier, "RESULTS", tmp_path)
    frontier.main(["--players", "16", "--every", "--time-limit", "0.5", "--name", "every"])
    written = json.loads((tmp_path / "every.json").read_text(encoding="utf-8"))
    (row,) = written["rooms"]
    assert row["rounds"] == 5 and [p.get("repeats") for p in row["plans"]] == [0] * 5
    assert len(written["machine"]["load after"]) == 3
    text = (tmp_path / "every.md").read_text(encoding="utf-8")
    assert text.startswith("Machine: ") and "| 16 | 1-5 |" in text
