"""Changes during the day: a proposal accepted, rounds marked played, the fixes by hand (optimizer.swap, move),
a name's spelling corrected, undo and going back to an earlier version.

Each is one transaction made from the version the director saw (`base`): a change made from a version no
longer current is refused (DayMoved), so two hands never both store one. A change that would touch what the
room has, and any swap or move, is refused until confirmed, with what it would do (Unconfirmed).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import optimizer
from models import Schedule
from models.event import name_key
from optimizer.words import counted
from rotation.desk.core.errors import DeskError, Unconfirmed
from rotation.desk.core.settings import EventSettings
from rotation.desk.events import guards
from rotation.desk.events.service import changing, changing_event, load_version
from rotation.desk.storage import EventRow, RunKind, Store, VersionKind, VersionRow

T = TypeVar("T")


def proposals(store: Store, event: EventRow) -> list[VersionRow]:
    """The last re-plan's proposals, fewest moves first, while the day is still the one they start from."""
    runs = store.runs(event.id)
    if not runs or runs[0].kind is not RunKind.REPLAN or runs[0].running:
        return []
    found = [version for version in store.versions(event.id) if version.figures.proposal == runs[0].id]
    return found[::-1] if found and all(version.parent == event.current_version for version in found) else []


def accept(store: Store, event_id: int, version_id: int, base: int | None = None) -> int:
    """A re-plan's proposal becomes the current schedule; the other stays in the history."""
    with changing(store, event_id, base) as (event, _):
        if version_id not in [version.id for version in proposals(store, event)]:
            load_version(store, event_id, version_id)  # not found, or found and no longer open
            raise DeskError("this re-plan is no longer open: the day changed since it was made; re-plan again")
        store.point_at(event_id, version_id)
    return version_id


def mark_played(store: Store, event_id: int, rounds: int, base: int | None = None) -> int:
    """Rounds 1 to `rounds` are played: kept exactly as they are from now on (optimizer.mark_played)."""
    with changing(store, event_id, base) as (_, version):
        played = _fix(lambda: optimizer.mark_played(version.schedule(), rounds), "played")
        if played.played == version.played:
            raise DeskError(f"rounds 1 to {rounds} are already recorded as played", field="played", status=422)
        first = version.played + 1
        note = f"round {rounds} played" if rounds == first else f"rounds {first}-{rounds} played"
        return _new_version(store, version, played, kind=VersionKind.PLAYED, note=note)


def swap(
    store: Store,
    event_id: int,
    round_number: int,
    first: str,
    second: str,
    confirm: bool = False,
    base: int | None = None,
) -> int:
    """Two players trade places in a round (optimizer.swap): a change to the plan in a round still to
    play, a record of what happened in a played one. Unconfirmed (with its preview) until `confirm`."""
    with changing(store, event_id, base) as (_, version):
        swapped = _fix(lambda: optimizer.swap(version.schedule(), round_number, first, second), "swap")
        correction = swapped.corrections[-1]
        a, b = correction.players
        note = f"round {round_number}: {a} and {b} swapped" + (" (as played)" if correction.played else "")
        _confirmed(store, version, swapped, round_number, note, "swap", confirm)
        return _new_version(store, version, swapped, kind=VersionKind.SWAP, note=note)


def move(
    store: Store,
    event_id: int,
    round_number: int,
    name: str,
    table: int,
    confirm: bool = False,
    base: int | None = None,
) -> int:
    """In a played round, a player sat in the empty seat of a table of three (optimizer.move).
    Unconfirmed (with its preview) until `confirm`."""
    with changing(store, event_id, base) as (_, version):
        moved = _fix(lambda: optimizer.move(version.schedule(), round_number, name, table), "move")
        player = moved.corrections[-1].players[0]
        note = f"round {round_number}: {player} played at table {table} (as played)"
        _confirmed(store, version, moved, round_number, note, "move", confirm)
        return _new_version(store, version, moved, kind=VersionKind.MOVE, note=note)


PREVIEW_FIGURES = (
    ("Repeats", "repeats"),
    ("Most meetings of one pair", "max_meetings"),
    ("Pairs at one table two rounds running", "back_to_back"),
    ("Three players at one table again", "trios_again"),
    ("Players at the same table number more often than needed", "table_visits_above_even"),
)


def _confirmed(
    store: Store, version: VersionRow, after: Schedule, round_number: int, note: str, field: str, confirm: bool
) -> None:
    """A swap or a move is applied only once confirmed: before that, its preview (who moves, from where
    to where, the day's figures before and after, and what it changes for the room) comes back."""
    if confirm:
        return
    before = version.schedule()
    metrics_before, metrics_after = version.figures.metrics, optimizer.check(after)
    moves = [
        f"{name}: {_place_words(was)} \u2192 {_place_words(now)}"
        for name, was, now in optimizer.moved(before, after, round_number)
    ]
    effects = guards.effects(store, version.event_id, before, after)
    preview = {
        "note": note,
        "round": round_number,
        "moves": moves,
        "figures": [
            {"label": label, "before": getattr(metrics_before, key), "after": getattr(metrics_after, key)}
            for label, key in PREVIEW_FIGURES
        ],
        "effects": effects.as_json(),
    }
    moved = len(moves)
    raise Unconfirmed(
        f"not applied yet: {note}; {counted(moved, 'player')} move{'s' if moved == 1 else ''}; confirm to apply it",
        preview,
        field=field,
    )


def _place_words(place) -> str:
    return "sits out" if place is None else f"table {place[0]} seat {place[1]}"


def _fix(fix: Callable[[], T], field: str) -> T:
    """The library's fix, or its refusal beside the form it came from."""
    try:
        return fix()
    except optimizer.FixRefused as error:
        raise DeskError(str(error), field=field, status=422) from None


def _new_version(store: Store, version: VersionRow, schedule: Schedule, *, kind: VersionKind, note: str) -> int:
    with store.change() as db:
        return store.add_version(
            db, version.event_id, schedule, kind=kind, note=note, figures=version.figures.carried(), parent=version.id
        )


def rename(store: Store, event_id: int, old: str, new: str, base: int | None = None) -> tuple[str, str]:
    """Correct a player's spelling at any time, in one transaction (`changing_event`: read and written
    under the file's write lock, from the version `base` when given): the settings (names and requests),
    a new version of the current schedule (optimizer.rename) and, for what the room has, every card and
    released round; the player's history stays one player's. Returns (the name as it was, as it is)."""
    with changing_event(store, event_id, base, field="rename") as (event, version):
        settings = event.settings
        names = version.schedule().players if version else tuple(settings.names)
        was, now = _fix(lambda: optimizer.respelling(names, old, new), "rename")
        store.set_settings(event_id, _renamed_settings(settings, was, now))
        if version is not None:  # a new version: the older ones keep their spelling
            schedule = _fix(lambda: optimizer.rename(version.schedule(), was, now), "rename")
            _new_version(store, version, schedule, kind=VersionKind.RENAME, note=f"{was} renamed {now}")
        store.rename_in_room(store.db, event_id, was, now)
    return was, now


def _renamed_settings(settings: EventSettings, old: str, new: str) -> EventSettings:
    def one(name: str) -> str:
        return new if name_key(name) == name_key(old) else name

    return settings.model_copy(
        update={
            "names": [one(n) for n in settings.names],
            "apart": [[one(n) for n in group] for group in settings.apart],
            "spread": [[one(n) for n in group] for group in settings.spread],
            "stay": {one(n): table for n, table in settings.stay.items()},
            "ids": {one(n): member for n, member in settings.ids.items()},
            "clubs": {one(n): club for n, club in settings.clubs.items()},
            "guests": [one(n) for n in settings.guests],
        }
    )


def undo(store: Store, event_id: int, confirm: bool = False, base: int | None = None) -> int:
    """Back to the version the current one was made from; the current one stays in the history.
    Unconfirmed when that would undo what the room has (guards.effects)."""
    with changing(store, event_id, base) as (_, version):
        if version.parent is None:
            raise DeskError("nothing to undo: this is the first schedule of the event")
        _go_back(store, version, load_version(store, event_id, version.parent), confirm, "undo")
        return version.parent


def restore(store: Store, event_id: int, version_id: int, confirm: bool = False, base: int | None = None) -> int:
    """Make an earlier version current again (the history keeps every version). Unconfirmed when that
    would undo what the room has (guards.effects)."""
    with changing(store, event_id, base) as (_, version):
        _go_back(store, version, load_version(store, event_id, version_id), confirm, "restore")
    return version_id


def _go_back(store: Store, current: VersionRow, target: VersionRow, confirm: bool, field: str) -> None:
    effects = guards.effects(store, current.event_id, current.schedule(), target.schedule())
    if effects and not confirm:
        raise Unconfirmed(
            f"going back to {target.note!r} would undo what the room has: {'; '.join(effects.lines())}; "
            "confirm to go back",
            {"note": target.note, "version": target.id, "effects": effects.as_json()},
            field=field,
        )
    store.point_at(current.event_id, target.id)
