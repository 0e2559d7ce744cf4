"""Issue 42's smaller defects in the desk: local times, the event's menu on a page not there yet."""

from __future__ import annotations

import os
import time

import pytest
from test_desk_room import client, clock, event  # noqa: F401 (fixtures)

from desk_helpers import names
from rotation.desk.core.settings import EventSettings
from rotation.desk.deps import local_time
from rotation.desk.storage import PlanRequest

__all__ = ["client", "clock"]


@pytest.fixture
def kolkata():
    """The desk's computer in India (UTC+5:30, no summer time)."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "Asia/Kolkata"
    time.tzset()
    yield
    if before is None:
        del os.environ["TZ"]
    else:
        os.environ["TZ"] = before
    time.tzset()


def test_times_are_the_computers_own_not_utc(kolkata, client, db):
    assert local_time("2026-06-12T18:40:00+00:00") == "00:10"
    assert local_time("2026-06-12T18:40:00+00:00", with_date=True) == "2026-06-13 00:10:00"
    event_id = event(db)
    page = client.get(f"/events/{event_id}/history").text
    assert "<th>UTC</th>" not in page and "<th>Time</th>" in page


def test_a_page_not_there_before_planning_keeps_the_events_menu(client, db):
    created = client.post("/api/events", json=EventSettings(names=names(8), rounds=3).model_dump(mode="json"))
    event_id = created.json()["id"]
    for path in ("compare", "print-options", "scores", "standings"):
        page = client.get(f"/events/{event_id}/{path}")
        assert page.status_code == 404, path
        assert 'class="event-nav"' in page.text and "plan it first" in page.text, path
    assert 'class="event-nav"' not in client.get("/events/999/compare").text  # no such event: no menu


def test_the_desk_takes_names_written_surname_first(client):
    from desk_helpers import token_of

    token = token_of(client.get("/events/new").text)
    pasted = "\n".join(["Katz, Ann", "Nowak, Łukasz", *names(6)])
    form = {"csrf": token, "names": pasted, "rounds": "3", "time_limit": "5", "odd": "three-handed"}
    created = client.post("/events", data={**form, "sit_out_scoring": "zero"}, follow_redirects=False)
    assert created.status_code == 303, created.text
    settings = client.get(created.headers["location"].replace("/events/", "/api/events/")).json()["settings"]
    assert settings["names"][:2] == ["Katz, Ann", "Nowak, Łukasz"]


def test_a_plan_stopped_by_the_director_is_marked_stopped_whatever_stage_it_was_in(db):
    import optimizer
    from models import Event
    from rotation.desk.events import planning, service
    from rotation.desk.storage import Store

    store = Store(db)
    event_id = service.create_event(store, EventSettings(names=names(8), rounds=2))
    result = optimizer.plan(Event(players=tuple(names(8)), rounds=2), time_limit=1, seed=1)
    assert result.schedule is not None and not result.interrupted  # it ended by itself
    for asked in (False, True):
        run_id = store.add_run(event_id, PlanRequest(settings=EventSettings(names=names(8), rounds=2)), 1)
        if asked:
            store.ask_stop(run_id)
        run = store.run(run_id)
        assert run is not None
        planning.keep_run(store, run, [planning.Planned(result, None, None)])
        kept = store.run(run_id)
        assert kept is not None and kept.status == ("stopped" if asked else "finished")
        note = store.versions(event_id)[0].note
        assert ("stopped" in note) is asked
    store.close()


def test_the_stay_and_swap_boxes_say_did_you_mean_for_a_near_miss(client, db):
    from desk_helpers import token_of

    event_id = event(db, count=8)
    token = token_of(client.get(f"/events/{event_id}").text)
    swap = client.post(
        f"/events/{event_id}/swap", data={"csrf": token, "round": "1", "first": "Player 1", "second": "Player 02"}
    )
    assert swap.status_code == 422 and "did you mean &#39;Player 01&#39;" in swap.text
    form = {"csrf": token, "names": "\n".join(names(8)), "rounds": "3", "time_limit": "5", "stay": "Player 7, 1"}
    stay = client.post(f"/events/{event_id}/edit", data={**form, "odd": "three-handed", "sit_out_scoring": "zero"})
    assert stay.status_code == 422 and "did you mean &#39;Player 07&#39;" in stay.text
