"""Issue 42's smaller defects in the desk: local times, the event's menu on a page not there yet."""

from __future__ import annotations

import os
import time

import pytest

from desk_helpers import names
from rotation.desk.deps import local_time
from rotation.desk.settings import EventSettings
from test_desk_room import client, clock, db, event  # noqa: F401 (fixtures)

__all__ = ["client", "clock", "db"]


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
