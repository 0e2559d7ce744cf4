"""The desk's events: created, changed and read; the errors every desk action refuses with, in one line; and
the one transaction a change of the day is made in (`changing`).

The actions the HTML forms and the JSON endpoints both call are small functions beside this module:
planning runs (runs.py), what a run does in the planner's process (planning.py: the library plans and
re-plans, and what is stored from them) and the changes during the day (changes.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Protocol

from rotation.desk.events.settings import EventSettings
from rotation.desk.storage import EventRow, Store, VersionRow


class DeskError(Exception):
    """A request the desk refuses, in one line; `field` says which form field it is about."""

    def __init__(self, message: str, field: str | None = None, status: int = 409):
        super().__init__(message)
        self.field, self.status = field, status


class Unconfirmed(DeskError):
    """A change that would touch what the room has (or any swap or move): refused until confirmed, with
    what it would do (`preview`) for the director to read first."""

    def __init__(self, message: str, preview: dict, field: str | None = None):
        super().__init__(message, field=field, status=409)
        self.preview = preview


class NotFound(DeskError):
    def __init__(self, what: str):
        super().__init__(f"{what} does not exist", status=404)


class DayMoved(DeskError):
    """The change was made from a version of the day that is no longer the current one (someone else,
    or another tab, changed the day meanwhile): nothing is stored, and the director sees the day as it
    is now. `current` is the current version's id."""

    MESSAGE = "the day changed while you were editing; here it is now: check it, then make your change again"

    def __init__(self, current: int | None):
        super().__init__(self.MESSAGE, status=409)
        self.current = current


class Planner(Protocol):
    """Starts planning processes and ends them at shutdown (rotation.desk.worker.Planner); `desk` is the
    id of the desk it belongs to, stamped on the runs it starts."""

    desk: str

    def start(self, run_id: int) -> int: ...
    def running(self, run_id: int) -> bool: ...
    def shutdown(self) -> list[int]: ...


# ---- events ------------------------------------------------------------------------------------


def create_event(store: Store, settings: EventSettings) -> int:
    settings.event()  # FieldErrors beside the fields, before anything is stored
    return store.add_event(settings)


def update_event(store: Store, event_id: int, settings: EventSettings) -> None:
    """New settings for the next plan; the schedules already made keep theirs."""
    load_event(store, event_id)
    settings.event()
    store.set_settings(event_id, settings)


def load_event(store: Store, event_id: int) -> EventRow:
    event = store.event(event_id)
    if event is None:
        raise NotFound(f"event {event_id}")
    return event


def current_version(store: Store, event: EventRow) -> VersionRow | None:
    return None if event.current_version is None else store.version(event.current_version)


def load_version(store: Store, event_id: int, version_id: int) -> VersionRow:
    version = store.version(version_id)
    if version is None or version.event_id != event_id:
        raise NotFound(f"version {version_id} of event {event_id}")
    return version


@contextmanager
def changing(store: Store, event_id: int, base: int | None) -> Iterator[tuple[EventRow, VersionRow]]:
    """One immediate transaction around a change of the day: the current version is read, compared
    with `base` (the version the change was made from; None: whatever is current) and the change
    written, all while this desk holds the file's write lock. So two changes made from one version
    never both store a version (the second is DayMoved), and none is lost."""
    with store.change():
        event, version = _schedule_now(store, event_id)
        if base is not None and base != version.id:
            raise DayMoved(version.id)
        yield event, version


def _schedule_now(store: Store, event_id: int) -> tuple[EventRow, VersionRow]:
    """The event and its current version, for a change that needs a schedule and no plan running."""
    event = load_event(store, event_id)
    active = [run for run in store.runs(event_id) if run.running]
    if active:
        raise DeskError("a plan is running for this event; wait for it or stop it first")
    version = current_version(store, event)
    if version is None:
        raise DeskError("the event has no schedule yet: plan it first")
    return event, version
