"""The room: rounds released one at a time, the round timer, and each event's public id.

A round is released when the director says the room is ready; from then on the players' phones and
the projector show it, and nothing of a round not released leaves the director's pages. A release
keeps the round's seating as it was then, so a later change to that round (a swap, a re-plan, an
undo) shows: the projector names the tables that changed until the director releases the round
again. Players always see the current schedule's seating of the released rounds.

The timer lives on the server: how many minutes a round lasts, and either when it started running
with the seconds left then, or (paused) the seconds left. Pages count down from the server's clock.
The players' pages are addressed by a random public id, not by the event's number, so nobody finds
another event by counting; its letters are Crockford's base 32 in lower case, so it reads aloud and types
from a wall without look-alikes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from models import Round
from rotation.desk.events.service import DeskError, NotFound, current_version, load_event, one_change
from rotation.desk.storage import Store
from rotation.desk.storage.rooms import PUBLIC_ALPHABET, PUBLIC_LENGTH, new_public_id

__all__ = ["PUBLIC_ALPHABET", "PUBLIC_LENGTH", "new_public_id"]  # made with the event (storage), and by a transfer

WARNING_SECONDS = 5 * 60  # the timer warns in the last five minutes
MINUTES = (1, 600)  # a round's length, in minutes
PACE = (3, 120)  # seconds a projector page stays up
EXTEND = (1, 60)  # minutes added at once


@dataclass(frozen=True)
class Timer:
    minutes: float
    started: float | None  # server time the clock last started running; None while it stands still
    left: float  # seconds left at `started` (or now, while it stands still)

    @property
    def running(self) -> bool:
        return self.started is not None

    def remaining(self, now: float) -> float:
        return self.left - (now - self.started) if self.started is not None else self.left

    def state(self, now: float) -> dict:
        """What a page needs to count down by itself: the server's time and when the round ends."""
        return {
            "minutes": self.minutes,
            "running": self.running,
            "left": max(0.0, self.remaining(now)),
            "ends_at": None if self.started is None else self.started + self.left,
            "now": now,
            "warning": WARNING_SECONDS,
        }


@dataclass(frozen=True)
class Room:
    event_id: int
    public_id: str
    pace: float
    timer: Timer
    released: dict[int, Round]  # round number: its seating when it was (last) released
    times: dict[int, float]  # round number: when it was (last) released; a session's rounds share one time
    stamp: str  # changes whenever what the room sees changes (a release, a new current version)

    @property
    def last(self) -> int:
        """The latest round released, 0 before the first."""
        return max(self.released, default=0)

    @property
    def opened(self) -> int:
        """The first round of the latest release: the latest round when released on its own, a session's
        first round when the session went at once (its rounds share the release's time); 0 before any."""
        return min((n for n, at in self.times.items() if at == self.times[self.last]), default=0)


def room(store: Store, event_id: int) -> Room:
    """The event's room (made with the event: Store.add_event; reading it never writes)."""
    row = store.room_row(event_id)
    if row is None:
        raise NotFound(f"event {event_id}")
    releases = store.releases(event_id)
    return Room(
        event_id=event_id,
        public_id=row.public_id,
        pace=row.pace,
        timer=Timer(row.minutes, row.started, row.minutes * 60 if row.left is None else row.left),
        released={release.round: release.seating for release in releases},
        times={release.round: release.released for release in releases},
        stamp=store.room_stamp(event_id) or "",  # never "": the room's row is there
    )


def showing(seated: Room, played: int, total: int) -> int:
    """The round the room is on: the latest release's first round not yet played. A round released on
    its own is on at once; a session released at once shows its first round, then the next as each is
    played; once all are played, the latest. 0 before the first release; never past the day's last round
    (a re-plan may have made the day shorter)."""
    return min(seated.last, max(seated.opened, played + 1), total)


def stored_id(store: Store, typed: str) -> str | None:
    """The public id as stored, for one typed from a wall or read aloud: any case, and O, I, L read as
    Crockford's base 32 reads them (0, 1, 1). None when no event has it."""
    read = typed.lower().translate(str.maketrans("oil", "011"))
    return next((candidate for candidate in (typed, read) if store.event_of(candidate) is not None), None)


# ---- releasing rounds --------------------------------------------------------------------------


@one_change
def release(store: Store, event_id: int, round_number: int, now: float) -> Room:
    """Round `round_number` goes to the room: the next one, whose timer then starts from the round's full
    length, or a released one again (which takes its current seating as released, so the projector stops
    flagging its changes; its timer runs on)."""
    event = load_event(store, event_id)
    version = current_version(store, event)
    if version is None:
        raise DeskError("the event has no schedule yet: plan it first", field="release")
    rounds = version.schedule().rounds
    seated = room(store, event_id)
    last = seated.last
    if not 1 <= round_number <= min(last + 1, len(rounds)):
        span = f"round {last + 1}" if last < len(rounds) else "a released round"
        raise DeskError(f"release {span} (rounds go to the room in order)", field="release", status=422)
    with store.change():
        # released again: the rest of its release keeps its seating as released but takes the new time,
        # so a session stays one release (Room.opened) and the room stays on the round it was on
        at, before = _later(seated, now), seated.times.get(round_number)
        for number, seating in seated.released.items():
            if number != round_number and seated.times[number] == before:
                store.set_release(event_id, number, seating, at)
        store.set_release(event_id, round_number, rounds[round_number - 1], at)
        if round_number == last + 1:  # a new round: its clock starts from the full length
            store.restart_clock(event_id, now)
    return room(store, event_id)


def _later(seated: Room, now: float) -> float:
    """A release's time, later than every earlier release's even on a clock that stands still or was set
    back: the time tells one release from the next (Room.opened)."""
    latest = max(seated.times.values(), default=None)
    return now if latest is None or now > latest else math.nextafter(latest, math.inf)


def session_of(round_number: int, session_rounds: int, total: int) -> tuple[int, int, int]:
    """(session, its first round, its last round) of a round, in sessions of `session_rounds` rounds."""
    session = (round_number - 1) // session_rounds + 1
    return session, (session - 1) * session_rounds + 1, min(session * session_rounds, total)


@one_change
def release_session(store: Store, event_id: int, now: float, session: int | None = None) -> Room:
    """The next session goes to the room as a unit: every round of it not yet released, in one change
    (a multi-session event: settings' `session_rounds`). With `session` (the next one as the director
    saw it), only while it still is: two tabs releasing session 2 release it once, not sessions 2 and 3."""
    event = load_event(store, event_id)
    size = event.settings.session_rounds
    version = current_version(store, event)
    if not size:
        raise DeskError("the event is not in sessions: release its rounds one at a time", field="release")
    if version is None:
        raise DeskError("the event has no schedule yet: plan it first", field="release")
    rounds = version.schedule().rounds
    seated = room(store, event_id)
    last, at = seated.last, _later(seated, now)
    following = session_of(last + 1, size, len(rounds))[0] if last < len(rounds) else None
    if session is not None and session != following:
        now_next = f"session {following} is" if following else "every round is released"
        raise DeskError(
            f"session {session} is not the next to release now ({now_next}): nothing was released", field="release"
        )
    if last >= len(rounds):
        raise DeskError("every round is released", field="release", status=422)
    _, _, until = session_of(last + 1, size, len(rounds))
    with store.change():
        for number in range(last + 1, until + 1):
            store.set_release(event_id, number, rounds[number - 1], at)
        store.restart_clock(event_id, now)  # the session's first round begins
    return room(store, event_id)


@one_change
def withdraw(store: Store, event_id: int, round_number: int | None = None) -> Room:
    """Take the latest release back (released too early): the room no longer shows that round. With
    `round_number` (the round the director saw as the latest), only while it still is."""
    last = room(store, event_id).last
    if last == 0:
        raise DeskError("no round is released", field="release")
    if round_number is not None and round_number != last:
        raise DeskError(
            f"round {round_number} is not the latest released round now (round {last} is): nothing was taken back",
            field="release",
        )
    store.delete_release(event_id, last)
    return room(store, event_id)


# ---- the timer and the pace --------------------------------------------------------------------


def _in(value: float, limits: tuple[int, int], what: str, field: str) -> float:
    if not limits[0] <= value <= limits[1]:
        raise DeskError(f"{what} from {limits[0]} to {limits[1]}", field=field, status=422)
    return value


@one_change
def set_room(store: Store, event_id: int, minutes: float, pace: float) -> Room:
    """A round's length and the projector's pace. The round under way takes the new length at once: its
    timer, running or not, gains or loses the difference (a round cut from 90 to 75 minutes with 20 left
    has 5 left), with no Reset needed."""
    _in(minutes, MINUTES, "a round lasts", "minutes")
    _in(pace, PACE, "a page stays up for", "pace")
    clock = room(store, event_id).timer
    with store.change():
        store.set_pace(event_id, minutes, pace)
        store.set_clock(event_id, clock.started, clock.left + 60 * (minutes - clock.minutes))
    return room(store, event_id)


@one_change
def timer(store: Store, event_id: int, action: str, now: float, minutes: float = 5) -> Room:
    """start, pause, extend (by `minutes`) or reset the round's timer."""
    seated = room(store, event_id)
    clock, left = seated.timer, seated.timer.remaining(now)
    started: float | None
    if action == "start":
        if clock.running:
            return seated  # already counting down
        started, left = now, (clock.minutes * 60 if left <= 0 else left)
    elif action == "pause":
        started, left = None, max(0.0, left)
    elif action == "extend":
        add = 60 * _in(minutes, EXTEND, "extend by", "extend")
        if clock.running and left > 0:
            started, left = clock.started, clock.left + add
        else:  # standing still, or running past its end: the minutes count from now
            started, left = (now if clock.running else None), max(0.0, left) + add
    elif action == "reset":
        started, left = None, clock.minutes * 60
    else:
        raise DeskError("the timer starts, pauses, extends or resets", field="timer", status=422)
    store.set_clock(event_id, started, left)
    return room(store, event_id)
