"""The desk's stored JSON read as typed records: a version's figures, a run's progress, the kinds of
runs and versions. Rows written by earlier desks read unchanged, and what is written keeps their shape."""

from __future__ import annotations

import json

import pytest

import optimizer
from desk_helpers import names
from models import Event, Moves, PlayerChange, Reseat
from rotation.desk.data import transfer
from rotation.desk.events import service, views
from rotation.desk.storage import Figures, Made, RunKind, RunProgress, Store, VersionKind


def _old_row(store: Store, event_id: int, figures: dict, kind: str = "plan") -> int:
    """A version as an earlier desk stored it: its figures a JSON object built by hand."""
    schedule = optimizer.fixed_schedule(Event(players=tuple(names(8)), rounds=3))
    with store.change() as db:
        cursor = db.execute(
            "INSERT INTO versions (event_id, parent, kind, note, schedule, figures, created) "
            "VALUES (?, NULL, ?, 'old', ?, ?, 'then')",
            (event_id, kind, schedule.model_dump_json(), json.dumps(figures)),
        )
        db.execute("UPDATE events SET current_version = ? WHERE id = ?", (cursor.lastrowid, event_id))
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def _stored(store: Store, version_id: int) -> dict:
    return json.loads(store.db.execute("SELECT figures FROM versions WHERE id = ?", (version_id,)).fetchone()[0])


@pytest.fixture
def planned(tmp_path):
    """A store with one event whose version holds a plan's figures exactly as the desk wrote them before
    they were typed (dicts by string keys)."""
    store = Store(tmp_path / "desk.sqlite3")
    event_id = store.add_event({"names": names(8), "rounds": 3})
    schedule = optimizer.fixed_schedule(Event(players=tuple(names(8)), rounds=3))
    metrics = optimizer.check(schedule).model_dump(mode="json")
    old = {
        "bound": {"repeats": 3, "proof": "a counting argument"},
        "method": "fixed rule, then search",
        "runtime": 1.25,
        "interrupted": False,
        "fixed": {"metrics": metrics},
        "changes": None,
        "metrics": metrics,
    }
    yield store, event_id, _old_row(store, event_id, old), old
    store.close()


def test_an_old_plan_row_reads_as_typed_figures_and_says_the_same(planned):
    store, _, version_id, old = planned
    version = store.version(version_id)
    assert version is not None and version.kind is VersionKind.PLAN
    figures = version.figures
    assert figures.metrics.repeats == old["metrics"]["repeats"] and figures.bound is not None
    assert (figures.bound.repeats, figures.bound.proof) == (3, "a counting argument")
    assert figures.fixed is not None and figures.fixed.metrics == figures.metrics and figures.changes is None
    lines = views.figure_lines(figures, version.schedule())
    assert "Best possible: at least 3 repeats (a counting argument)" in lines
    assert lines[-1] == "Made by: fixed rule, then search, in 1.2 s"


def test_a_change_by_hand_carries_the_plan_part_in_the_shape_stored_before(planned):
    store, event_id, version_id, old = planned
    swapped = service.mark_played(store, event_id, 1)
    stored = _stored(store, swapped)
    carried = {key: old[key] for key in ("bound", "method", "runtime", "interrupted", "fixed")}
    assert {key: value for key, value in stored.items() if key != "metrics"} == carried
    new = store.version(swapped)
    assert new is not None and new.kind is VersionKind.PLAYED and new.parent == version_id
    assert stored["metrics"] == new.figures.metrics.model_dump(mode="json")


def test_a_proposal_is_stored_with_its_choice_moves_and_changes_as_json(tmp_path):
    store = Store(tmp_path / "desk.sqlite3")
    event_id = store.add_event({"names": names(8), "rounds": 3})
    schedule = optimizer.fixed_schedule(Event(players=tuple(names(8)), rounds=3))
    made = Made(
        proposal=7,
        reseat=Reseat.ALL,
        moves=Moves(moves=4, players=2, bound=1),
        changes=[PlayerChange(name=names(8)[0], rounds=(2, 3))],
    )
    with store.change() as db:
        version_id = store.add_version(
            db, event_id, schedule, kind=VersionKind.REPLAN, note="", figures=made, parent=None, current=False
        )
    stored = _stored(store, version_id)
    assert stored["reseat"] == "all" and stored["proposal"] == 7
    assert stored["moves"] == {"moves": 4, "players": 2, "bound": 1, "repeats_proven": False}
    assert stored["changes"] == [{"name": "Player 01", "rounds": [2, 3]}] and "bound" not in stored
    figures = Figures.model_validate_json(json.dumps(stored))
    assert figures.reseat is Reseat.ALL and figures.moves == made.moves
    view = views.proposals_view([store.version(version_id)])[0]
    assert (view.reseat, view.changes) == ("Everyone re-seated", ("Player 01: rounds 2, 3",))
    store.close()


def test_a_run_reads_its_kind_and_progress_typed(tmp_path):
    store = Store(tmp_path / "desk.sqlite3")
    event_id = store.add_event({"names": names(8), "rounds": 3})
    run_id = store.add_run(event_id, RunKind.REPLAN, {"base_version": 1}, 1.0)
    run = store.run(run_id)
    assert run is not None and run.kind is RunKind.REPLAN and run.progress == RunProgress()  # '{}' until reported
    store.set_progress(run_id, RunProgress(repeats=5, bound=2, note="searching"))
    run = store.run(run_id)
    assert run is not None and (run.progress.repeats, run.progress.bound, run.progress.note) == (5, 2, "searching")
    assert f"{run.kind} {run.status}" == "replan running"  # as the pages show them
    store.close()


def test_an_imported_event_with_a_kind_no_desk_writes_is_refused_whole(planned):
    store, event_id, _, _ = planned
    exported = json.loads(transfer.export_event(store, event_id))
    exported["rows"]["versions"][0]["kind"] = "guess"
    with pytest.raises(service.DeskError, match="the file is damaged, nothing was imported"):
        transfer.import_event(store, json.dumps(exported).encode())
    assert len(store.events()) == 1
