"""The desk's events: created, changed and read; the one transaction a change of the day is made in
(`changing`); and the refusal of settings changed since they were read (`SettingsMoved`; the errors every
desk action shares are rotation.desk.core.errors).

The actions the HTML forms and the JSON endpoints both call are small functions beside this module:
planning runs (runs.py), what a run does in the planner's process (planning.py: the library plans and
re-plans, and what is stored from them) and the changes during the day (changes.py).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Concatenate, ParamSpec, TypeVar

from rotation.desk.core.errors import DayMoved, DeskError, NotFound
from rotation.desk.core.settings import EventSettings
from rotation.desk.storage import EventRow, Store, VersionRow, stored_json

P = ParamSpec("P")
T = TypeVar("T")


class SettingsMoved(DeskError):
    """New settings made from settings that are no longer the stored ones (another tab saved them, or a
    rename respelled a name since): nothing is stored. `settings` are the stored ones, `current` their tag."""

    MESSAGE = (
        "the settings changed while you were editing (saved in another tab, or a player renamed); "
        "what you typed is kept below: check it against the settings as they are now, then save again"
    )

    def __init__(self, settings: EventSettings):
        super().__init__(self.MESSAGE, field="settings", status=409)
        self.settings, self.current = settings, settings_tag(settings)

    def state(self) -> dict:
        return {"settings": self.settings.model_dump(mode="json"), "settings_version": self.current}


# ---- events ------------------------------------------------------------------------------------


def create_event(store: Store, settings: EventSettings) -> int:
    settings.event()  # FieldErrors beside the fields, before anything is stored
    return store.add_event(settings)


def settings_tag(settings: EventSettings) -> str:
    """The settings as stored, named: a digest of their stored JSON. A change of the settings is made
    from the tag its maker read (`base`), so a save made from settings changed since is refused."""
    return hashlib.sha256(stored_json(settings).encode()).hexdigest()[:16]


def update_event(
    store: Store,
    event_id: int,
    settings: EventSettings,
    base: str | None = None,
    kept: Callable[[EventSettings, EventSettings], EventSettings] | None = None,
) -> None:
    """New settings for the next plan; the schedules already made keep theirs. In one transaction: the
    stored settings are read, compared with `base` (the tag of the settings the change was made from;
    None: whatever is stored; SettingsMoved otherwise), and what the form does not hold taken from them
    (`kept(stored, new)`) before the new ones are written."""
    with store.change():
        stored = load_event(store, event_id).settings
        if base is not None and base != settings_tag(stored):
            raise SettingsMoved(stored)
        if kept is not None:
            settings = kept(stored, settings)
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


def one_change(action: Callable[Concatenate[Store, P], T]) -> Callable[Concatenate[Store, P], T]:
    """An action of the desk (its first argument the store) read and written in one immediate
    transaction, so what it read is still so when it writes (two at once follow one another)."""

    @functools.wraps(action)
    def in_one_transaction(store: Store, *args: P.args, **kwargs: P.kwargs) -> T:
        with store.change():
            return action(store, *args, **kwargs)

    return in_one_transaction


@contextmanager
def changing(store: Store, event_id: int, base: int | None) -> Iterator[tuple[EventRow, VersionRow]]:
    """One immediate transaction around a change of the day: the current version is read, compared
    with `base` (the version the change was made from; None: whatever is current) and the change
    written, all while this desk holds the file's write lock. So two changes made from one version
    never both store a version (the second is DayMoved), and none is lost."""
    with changing_event(store, event_id, base) as (event, version):
        if version is None:
            raise DeskError("the event has no schedule yet: plan it first")
        yield event, version


@contextmanager
def changing_event(
    store: Store, event_id: int, base: int | None, field: str | None = None
) -> Iterator[tuple[EventRow, VersionRow | None]]:
    """`changing` for a change that may come before the first plan: the event and its current version
    (None before a plan; `base` 0 names that), read in the change's own transaction, no plan running."""
    with store.change():
        event = load_event(store, event_id)
        if any(run.running for run in store.runs(event_id)):
            raise DeskError("a plan is running for this event; wait for it or stop it first", field=field)
        if base is not None and base != (event.current_version or 0):
            raise DayMoved(event.current_version, field, _since(store, event.current_version, base))
        yield event, current_version(store, event)


def _since(store: Store, current: int | None, base: int, most: int = 3, looked: int = 50) -> tuple[str, ...]:
    """What changed the day since version `base`, oldest first, in the versions' own words: the notes of
    the current version's chain back to `base` (the last `most` of them; none when `base` is not among
    its last `looked`, after an undo say)."""
    notes: list[str] = []
    at = store.version(current) if current is not None else None
    while at is not None and at.id != base and len(notes) < looked:
        notes.append(at.note)
        at = store.version(at.parent) if at.parent is not None else None
    if at is None or at.id != base:
        return ()
    earlier = (f"{len(notes) - most} more before",) if len(notes) > most else ()
    return earlier + tuple(reversed(notes[:most]))
