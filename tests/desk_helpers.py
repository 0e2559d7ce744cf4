"""Shared by the desk's tests: a desk over a fresh file, events with a schedule, waiting for a run."""

from __future__ import annotations

import re
import time

import optimizer
from models import Event
from rotation.desk.core.settings import EventSettings
from rotation.desk.events import planning, service
from rotation.desk.storage import HowMade, Store, VersionKind

HOSTILE = "<img src=x onerror=alert(1)>"
LOCAL = "http://127.0.0.1"


def names(count: int, hostile: bool = False) -> list[str]:
    listed = [f"Player {i:02d}" for i in range(1, count + 1)]
    return listed[:-1] + [HOSTILE] if hostile else listed


def token_of(html: str) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', html)
    assert found, "the page carries no CSRF token"
    return found.group(1)


def errors_beside_fields(html: str) -> dict[str, str]:
    """A page's messages beside its fields: field -> message (HTML-escaped, as the page has it)."""
    return dict(re.findall(r'<p class="error" id="error-([a-z_]+)" role="alert">([^<]*)</p>', html))


def seeded_event(db_path, settings: EventSettings) -> int:
    """An event whose first version is the fixed rule's schedule with the keep-apart groups (checked on
    the way in), planned by no worker."""
    store = Store(db_path)
    event_id = service.create_event(store, settings)
    event = settings.event()
    schedule = optimizer.fixed_schedule(Event(players=event.players, rounds=event.rounds, odd=event.odd))
    # checked: the fixed rule must keep the groups apart; a sat-out round scores by the settings' rule
    schedule = schedule.model_copy(update={"apart": event.apart, "sit_out_scoring": event.sit_out_scoring})
    with store.change() as db:
        store.add_version(
            db,
            event_id,
            schedule,
            kind=VersionKind.PLAN,
            note="the fixed rule",
            figures=HowMade(fixed=planning.fixed_figures(schedule)),
            parent=None,
        )
    store.close()
    return event_id


def wait_run(client, run_id: int, seconds: float = 60.0, until=lambda run: run["status"] != "running") -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        run = client.get(f"/api/runs/{run_id}").json()
        if until(run):
            return run
        time.sleep(0.2)
    raise AssertionError(f"run {run_id} did not get there in {seconds} s: {run}")
