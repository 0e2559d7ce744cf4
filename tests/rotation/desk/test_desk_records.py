"""The desk's stored JSON read as typed records: an event's settings, a version's figures, a run's
request and progress, the kinds of runs and versions. Rows written by earlier desks read unchanged, what
is written keeps their shape, and a row that does not read is named in one line, never a traceback."""

from __future__ import annotations

import io
import json

import pytest
from fastapi.testclient import TestClient

import optimizer
from desk_helpers import LOCAL, names
from models import Event, Moves, PlayerChange, Reseat, SeasonRule
from rotation.desk.app import create_app
from rotation.desk.core.errors import DeskError
from rotation.desk.core.settings import EventSettings
from rotation.desk.data import transfer
from rotation.desk.events import changes, planning, service, views
from rotation.desk.storage import (
    Figures,
    HowMade,
    PlanRequest,
    ReplanRequest,
    RunKind,
    RunProgress,
    RunStatus,
    StandingsChoice,
    Store,
    UnreadableRecord,
    VersionKind,
)


def _old_row(store: Store, event_id: int, figures: dict, kind: str = "plan") -> int:
    """A version as an earlier desk stored it: its figures a JSON object built by hand."""
    schedule = optimizer.fixed_schedule(Event(players=tuple(names(8)), rounds=3))
    with store.change() as db:
        cursor = db.execute(
            "INSERT INTO versions (event_id, parent, kind, note, schedule, figures, created) "
            "VALUES (?, NULL, ?, 'old', ?, ?, '2026-03-01T09:00:00+00:00')",  # as the desk writes it (ISO)
            (event_id, kind, schedule.model_dump_json(), json.dumps(figures)),
        )
        db.execute("UPDATE events SET current_version = ? WHERE id = ?", (cursor.lastrowid, event_id))
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def exported_file(store: Store, event_id: int) -> bytes:
    out = io.BytesIO()
    transfer.write_event(store, event_id, out)
    return out.getvalue()


def _stored(store: Store, version_id: int) -> dict:
    return json.loads(store.db.execute("SELECT figures FROM versions WHERE id = ?", (version_id,)).fetchone()[0])


@pytest.fixture
def planned(tmp_path):
    """A store with one event whose version holds a plan's figures exactly as the desk wrote them before
    they were typed (dicts by string keys)."""
    store = Store(tmp_path / "desk.sqlite3")
    event_id = store.add_event(EventSettings(names=names(8), rounds=3))
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
    assert "Best possible: at least 3 repeats" in lines  # the old proof's words are kept, in the JSON
    assert lines[-1] == "Made by the fixed rotation, improved by swapping players, in 1.2 s"


def test_a_change_by_hand_carries_the_plan_part_in_the_shape_stored_before(planned):
    store, event_id, version_id, old = planned
    swapped = changes.mark_played(store, event_id, 1)
    stored = _stored(store, swapped)
    carried = {key: old[key] for key in ("bound", "method", "runtime", "interrupted", "fixed")}
    assert {key: value for key, value in stored.items() if key != "metrics"} == carried
    new = store.version(swapped)
    assert new is not None and new.kind is VersionKind.PLAYED and new.parent == version_id
    assert stored["metrics"] == new.figures.metrics.model_dump(mode="json")


def test_a_proposal_is_stored_with_its_choice_moves_and_changes_as_json(tmp_path):
    store = Store(tmp_path / "desk.sqlite3")
    event_id = store.add_event(EventSettings(names=names(8), rounds=3))
    schedule = optimizer.fixed_schedule(Event(players=tuple(names(8)), rounds=3))
    made = HowMade(
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
    event_id = store.add_event(EventSettings(names=names(8), rounds=3))
    run_id = store.add_run(event_id, ReplanRequest(base_version=1, played=0, drop=[], add=[]), 1.0)
    run = store.run(run_id)
    assert run is not None and run.kind is RunKind.REPLAN and run.progress == RunProgress()  # '{}' until reported
    store.set_progress(run_id, RunProgress(repeats=5, bound=2, note="searching"))
    run = store.run(run_id)
    assert run is not None and (run.progress.repeats, run.progress.bound, run.progress.note) == (5, 2, "searching")
    assert f"{run.kind} {run.status}" == "replan running"  # as the pages show them
    store.close()


def test_an_imported_event_with_a_kind_no_desk_writes_is_refused_whole(planned):
    store, event_id, _, _ = planned
    exported = json.loads(exported_file(store, event_id))
    exported["rows"]["versions"][0]["kind"] = "guess"
    with pytest.raises(DeskError, match="the file is damaged, nothing was imported"):
        transfer.import_event(store, json.dumps(exported).encode())
    assert len(store.events()) == 1


# ---- an event's settings and a run's request ----------------------------------------------------

# An event's settings as the first desks wrote them: before series, guests, sessions, rules, score entry.
OLD_SETTINGS = {
    "title": "Spring open",
    "date": "",
    "names": names(8),
    "rounds": 3,
    "odd": "three-handed",
    "sit_out_scoring": "zero",
    "apart": [["Player 01", "Player 02"]],
    "spread": [],
    "stay": {},
    "notes": [],
    "time_limit": 30.0,
    "seed": 0,
    "workers": 8,
}


def _column(store: Store, table: str, column: str, row_id: int) -> str:
    return store.db.execute(f"SELECT {column} FROM {table} WHERE id = ?", (row_id,)).fetchone()[0]


def _set_column(store: Store, table: str, column: str, row_id: int, text: str) -> None:
    with store.change() as db:
        db.execute(f"UPDATE {table} SET {column} = ? WHERE id = ?", (text, row_id))


def test_an_old_event_row_reads_as_settings_and_reading_it_writes_nothing(tmp_path):
    store = Store(tmp_path / "desk.sqlite3")
    event_id = store.add_event(EventSettings(names=names(4), rounds=1))
    old = json.dumps(OLD_SETTINGS)
    _set_column(store, "events", "settings", event_id, old)
    event = store.event(event_id)
    assert event is not None
    settings = event.settings
    assert (settings.title, settings.rounds, settings.apart) == ("Spring open", 3, [["Player 01", "Player 02"]])
    assert (settings.score_entry, settings.guests, settings.series) == ("points", [], "")  # what it meant then
    assert _column(store, "events", "settings", event_id) == old
    store.set_settings(event_id, settings)  # written back: the same keys, in the shape json.dumps gives
    assert _column(store, "events", "settings", event_id) == json.dumps(settings.model_dump(mode="json"))
    store.close()


def test_the_runs_requests_are_stored_as_the_dicts_earlier_desks_wrote_and_read_typed_by_kind(tmp_path):
    store = Store(tmp_path / "desk.sqlite3")
    settings = EventSettings(names=names(8), rounds=3, series="League")
    event_id = store.add_event(settings)
    plan = store.add_run(event_id, PlanRequest(settings=settings, earlier=[4, 5]), 1.0)
    assert _column(store, "runs", "request", plan) == json.dumps(
        {"settings": settings.model_dump(mode="json"), "earlier": [4, 5]}
    )
    replan = store.add_run(event_id, ReplanRequest(base_version=9, played=2, drop=["Player 01"], add=["Zoe"]), 1.0)
    old_replan = {"base_version": 9, "played": 2, "drop": ["Player 01"], "add": ["Zoe"]}
    assert _column(store, "runs", "request", replan) == json.dumps(old_replan)
    run = store.run(replan)
    assert run is not None and run.kind is RunKind.REPLAN and run.request() == ReplanRequest(**old_replan)
    _set_column(store, "runs", "request", plan, json.dumps({"settings": OLD_SETTINGS}))  # before series: no nights
    run = store.run(plan)
    assert run is not None and run.kind is RunKind.PLAN
    request = run.request()
    assert isinstance(request, PlanRequest) and request.earlier == [] and request.settings.title == "Spring open"
    store.close()


@pytest.fixture
def damaged(tmp_path):
    """A desk file whose event's stored settings lost their names (a hand edit, a looser desk)."""
    db = tmp_path / "desk.sqlite3"
    store = Store(db)
    event_id = store.add_event(EventSettings(names=names(8), rounds=3))
    _set_column(store, "events", "settings", event_id, json.dumps({**OLD_SETTINGS, "names": None}))
    store.close()
    return db, event_id


def test_a_bad_stored_settings_row_is_named_in_one_line(damaged):
    db, event_id = damaged
    store = Store(db)
    with pytest.raises(UnreadableRecord) as raised:
        store.event(event_id)
    assert (
        str(raised.value)
        == f"event {event_id}'s settings in the desk's file cannot be read at names: Input should be a valid array"
    )
    store.close()


def test_a_row_read_before_is_read_as_it_is_now_after_a_change_behind_the_store(tmp_path):
    """The store keeps the records it read by their text: a row changed by another hand (another desk
    process, a hand edit) reads as it now is, and one damaged since it last read well is refused."""
    store = Store(tmp_path / "desk.sqlite3")
    event_id = store.add_event(EventSettings(names=names(8), rounds=3))
    first = store.event(event_id)
    assert first is not None and first.settings.title == ""
    _set_column(store, "events", "settings", event_id, json.dumps({**OLD_SETTINGS, "title": "Autumn open"}))
    again = store.event(event_id)
    assert again is not None and again.settings.title == "Autumn open"
    _set_column(store, "events", "settings", event_id, json.dumps({**OLD_SETTINGS, "names": None}))
    with pytest.raises(UnreadableRecord, match="settings in the desk's file cannot be read at names"):
        store.event(event_id)
    store.close()


def test_a_record_read_cannot_be_changed_by_whoever_holds_it(planned):
    """Records read are shared by the pages that read the same row, so none of them may change one."""
    store, event_id, version_id, _ = planned
    event, version = store.event(event_id), store.version(version_id)
    assert event is not None and version is not None
    with pytest.raises(ValueError, match="frozen"):
        event.settings.title = "Changed"
    with pytest.raises(ValueError, match="frozen"):
        version.figures.metrics.repeats = 0
    again = store.event(event_id)
    assert again is not None and again.settings.title == ""


def test_a_page_or_endpoint_reading_a_bad_row_says_which_and_why_not_a_traceback(damaged):
    db, event_id = damaged
    with TestClient(create_app(db), base_url=LOCAL, raise_server_exceptions=False) as client:
        for path in (f"/events/{event_id}", "/"):
            page = client.get(path)
            assert page.status_code == 500 and "text/html" in page.headers["content-type"]
            assert f"event {event_id}&#39;s settings in the desk&#39;s file cannot be read at names" in page.text
            assert "Restore a backup" in page.text and "Traceback" not in page.text
        answer = client.get(f"/api/events/{event_id}")
        assert answer.status_code == 500
        assert answer.json()["detail"].startswith(f"event {event_id}'s settings in the desk's file cannot be read")


def test_a_run_whose_request_does_not_read_fails_with_that_line_and_its_event_still_opens(tmp_path):
    db = tmp_path / "desk.sqlite3"
    store = Store(db)
    event_id = store.add_event(EventSettings(names=names(8), rounds=3))
    run_id = store.add_run(event_id, ReplanRequest(base_version=1, played=0, drop=[], add=[]), 1.0)
    _set_column(store, "runs", "request", run_id, json.dumps({"base_version": 1, "played": "two"}))
    run = store.run(run_id)
    assert run is not None and run.kind is RunKind.REPLAN  # listing runs does not read their requests
    failed = planning.plan_run(store, run, lambda progress: None)
    assert failed == f"run {run_id}'s request in the desk's file cannot be read at played: " + (
        "Input should be a valid integer, unable to parse string as an integer"
    )
    store.close()
    with TestClient(create_app(db), base_url=LOCAL) as client:
        assert client.get(f"/events/{event_id}").status_code == 200


def test_an_imported_event_with_a_run_request_no_desk_writes_is_refused_whole(planned):
    store, event_id, _, _ = planned
    store.add_run(event_id, PlanRequest(settings=store.event(event_id).settings), 1.0)
    exported = json.loads(exported_file(store, event_id))
    exported["rows"]["runs"][0]["request"] = json.dumps({"earlier": []})
    with pytest.raises(DeskError, match="nothing was imported: runs, row 1: request: settings: Field required"):
        transfer.import_event(store, json.dumps(exported).encode())
    assert len(store.events()) == 1


def test_an_imported_re_plan_run_names_the_imported_copy_of_the_version_it_started_from(planned):
    store, event_id, version_id, _ = planned
    store.add_event(EventSettings(names=names(4), rounds=1))  # the copy's ids differ from the original's
    request = ReplanRequest(base_version=version_id, played=1, drop=["Player 08"], add=[])
    store.add_run(event_id, request, 1.0)
    copy = transfer.import_event(store, exported_file(store, event_id), copy=True)
    [run] = store.runs(copy)
    copied = run.request()
    assert isinstance(copied, ReplanRequest) and copied.base_version != version_id
    assert copied == request.model_copy(update={"base_version": copied.base_version})
    base = service.load_version(store, copy, copied.base_version)  # NotFound while it named the original's
    assert base.schedule_json == store.version(version_id).schedule_json and run.status is RunStatus.INTERRUPTED


def test_a_run_whose_progress_does_not_read_is_named_by_its_endpoint(tmp_path):
    db = tmp_path / "desk.sqlite3"
    store = Store(db)
    event_id = store.add_event(EventSettings(names=names(8), rounds=3))
    run_id = store.add_run(event_id, PlanRequest(settings=EventSettings(names=names(8), rounds=3)), 1.0)
    store.close_run(run_id, RunStatus.INTERRUPTED)
    _set_column(store, "runs", "progress", run_id, '{"repeats": "many"')  # cut off mid-write by hand
    store.close()
    with TestClient(create_app(db), base_url=LOCAL, raise_server_exceptions=False) as client:
        answer = client.get(f"/api/runs/{run_id}")
    assert answer.status_code == 500
    assert answer.json()["detail"].startswith(
        f"run {run_id}'s progress in the desk's file cannot be read: Invalid JSON"
    )


def test_a_series_standings_rule_is_stored_as_before_and_read_typed(tmp_path):
    store = Store(tmp_path / "desk.sqlite3")
    choice = StandingsChoice(rule=SeasonRule.BEST, min_games=4, best=3)
    store.set_series_standings_rule("League", choice)
    stored = store.db.execute("SELECT standings FROM series WHERE name = 'League'").fetchone()[0]
    assert stored == json.dumps({"rule": "best", "min_games": 4, "best": 3})  # as the desk wrote the dict
    assert store.series_standings_rule("League") == choice and store.series_standings_rule("Cup") is None
    with store.change() as db:
        db.execute("UPDATE series SET standings = ? WHERE name = 'League'", (json.dumps({"rule": "guess"}),))
    with pytest.raises(UnreadableRecord, match="series 'League'.s standings rule in the desk's file cannot be read"):
        store.series_standings_rule("League")
    store.close()
