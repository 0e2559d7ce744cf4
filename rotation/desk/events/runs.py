"""Planning runs: started for a plan or a re-plan, stopped, run again, and those a closed desk left behind.

A run is stored with its request and handed to the planner (rotation.desk.worker), which plans in a process
of its own; what the run does there is rotation.desk.events.planning.
"""

from __future__ import annotations

from collections.abc import Iterable

from models.event import normalise_name
from models.schedule import Schedule
from optimizer.leaving import NameRefused, arriving, leaving
from rotation.desk.core.errors import DayMoved, DeskError, FieldErrors, NotFound
from rotation.desk.core.planner import Planner
from rotation.desk.core.settings import EventSettings, check_time_limit
from rotation.desk.events.service import changing, current_version, load_event
from rotation.desk.storage import EventRow, PlanRequest, ReplanRequest, RunKind, RunRow, RunStatus, Store, VersionRow


def start_plan(
    store: Store, planner: Planner, event_id: int, include_released: bool = False, base: int | None = None
) -> int:
    """A plan of the whole day from the event's settings, in a worker process. Returns the run. Once a
    round is released the whole day is planned again only when the director includes the released
    rounds (`include_released`); otherwise the way on is a re-plan of the rounds after them.
    `base`: the version the director saw (None: whatever is current); 0 for an event not planned yet."""
    with store.change():
        event = load_event(store, event_id)
        if any(run.running for run in store.runs(event_id)):
            raise DeskError("a plan is already running for this event")
        if base is not None and base != (event.current_version or 0):
            raise DayMoved(event.current_version)
        version = current_version(store, event)
        if version is not None and version.played:
            raise DeskError(f"{version.played} rounds are played: re-plan the rounds still to play instead")
        released = store.released_rounds(event_id)
        if version is not None and released and not include_released:
            raise DeskError(
                f"{_released_words(released)} the room: planning the whole day again would re-seat "
                f"{'it' if len(released) == 1 else 'them'}; re-plan from round {released[-1] + 1} instead, "
                "or include the released rounds",
                field="plan",
            )
        settings = event.settings
        settings.event()
        request = PlanRequest(settings=settings, earlier=earlier_nights(store, event_id, settings))
        run_id = store.add_run(event_id, request, settings.time_limit, planner.desk)
    return _launch(store, planner, run_id)


def series_nights(store: Store, series: str) -> list[tuple[EventRow, EventSettings]]:
    """The events of a series (its nights), oldest first."""
    nights = [(event, event.settings) for event in store.events()]
    return sorted(((e, s) for e, s in nights if series and s.series == series), key=lambda night: night[0].id)


def earlier_nights(store: Store, event_id: int, settings: EventSettings) -> list[int]:
    """The nights of the event's series before it that have a schedule: what its plan is planned against."""
    nights = series_nights(store, settings.series)
    return [event.id for event, _ in nights if event.id < event_id and event.current_version is not None]


def start_replan(
    store: Store,
    planner: Planner,
    event_id: int,
    from_round: int,
    leave: list[str],
    arrive: list[str],
    time_limit: float,
    include_released: bool = False,
    base: int | None = None,
    confirm: bool = False,
) -> int:
    """Re-plan the rounds from `from_round` on, with who leaves and who arrives then. Returns the run.
    A round released to the room is re-planned only when the director includes the released rounds; and
    someone who leaves while seated in a released round before `from_round`, not played yet, only when the
    director confirms they play it first (LeaverSeated otherwise)."""
    with changing(store, event_id, base) as (_, version):
        request = _replan_request(store, version, from_round, leave, arrive, time_limit, include_released, confirm)
        run_id = store.add_run(event_id, request, time_limit, planner.desk)
    return _launch(store, planner, run_id)


def _replan_request(
    store: Store,
    version: VersionRow,
    from_round: int,
    leave: list[str],
    arrive: list[str],
    time_limit: float,
    include_released: bool,
    confirm: bool,
) -> ReplanRequest:
    event_id = version.event_id
    schedule = version.schedule()
    total = len(schedule.rounds)
    if not version.played + 1 <= from_round <= total:
        first = version.played + 1
        span = f"round {first}" if first == total else f"rounds {first} to {total}"
        raise DeskError(f"re-plan from {span}: rounds before are played", field="from_round", status=422)
    released = [number for number in store.released_rounds(event_id) if number >= from_round]
    if released and not include_released:
        after = released[-1] + 1
        way = f"re-plan from round {after}" if after <= total else "every later round is released too"
        raise DeskError(
            f"{_released_words(released)} the room: {way}, or include the released rounds "
            "(the proposals then name the released tables they change)",
            field="from_round",
        )
    try:  # the library's rule (optimizer.leaving), as the command line's; a blank line of a box names nobody
        drop = leaving(schedule, from_round - 1, [name for name in leave if normalise_name(name)])
        add = arriving(schedule, [name for name in arrive if normalise_name(name)])
    except NameRefused as error:
        raise DeskError(str(error), field=error.side, status=422) from None
    in_room = set(store.released_rounds(event_id))
    seated = seated_before(schedule, version.played, from_round, drop)
    if not confirm and any(number in in_room for _, number in seated):
        raise LeaverSeated([(name, number) for name, number in seated if number in in_room])
    request = ReplanRequest(base_version=version.id, played=from_round - 1, drop=list(drop), add=list(add))
    try:
        check_time_limit(time_limit)
    except FieldErrors as error:
        raise DeskError(error.errors["time_limit"], field="time_limit", status=422) from None
    return request


def seated_before(schedule: Schedule, played: int, from_round: int, leavers: Iterable[str]) -> list[tuple[str, int]]:
    """(player, round) for each of `leavers` seated in a round after the `played` ones and before
    `from_round`: a re-plan from `from_round` has them play it first."""
    return [
        (name, number)
        for name in leavers
        for number in range(played + 1, from_round)
        if any(name in table.players for table in schedule.rounds[number - 1].tables)
    ]


class LeaverSeated(DeskError):
    """Someone who leaves is seated in a released round before the one the re-plan starts at, not played
    yet: the room has them there. The director chooses: re-plan from that round, released rounds included
    (they leave before it), or confirm they play it first."""

    def __init__(self, seated: list[tuple[str, int]]):
        self.seated, self.start = seated, min(number for _, number in seated)
        who = "; ".join(f"{name} is seated in round {number}" for name, number in seated)
        super().__init__(
            f"{who}, released to the room and not played yet: re-plan from round {self.start} with "
            f"include_released (they leave before it), or confirm (they play round {self.start} first)",
            field="leave",
        )

    def state(self) -> dict:
        return {"seated": [{"player": name, "round": number} for name, number in self.seated], "from_round": self.start}


def _released_words(released: list[int]) -> str:
    if len(released) == 1:
        return f"round {released[0]} is released to"
    return f"rounds {released[0]} to {released[-1]} are released to"


def _launch(store: Store, planner: Planner, run_id: int) -> int:
    """The run's worker, started once the run is stored (it reads its request from the file)."""
    store.set_pid(run_id, planner.start(run_id))
    return run_id


def load_run(store: Store, run_id: int, event_id: int | None = None) -> RunRow:
    """The run as it stands (a worker that ends without a word has its run closed by the desk's
    planner, never by a page that reads it)."""
    run = store.run(run_id)
    if run is None or (event_id is not None and run.event_id != event_id):
        raise NotFound(f"plan run {run_id}")
    return run


def stop_run(store: Store, planner: Planner, run_id: int) -> RunRow:
    """Ask a running plan to stop and keep the best schedule found so far: a request in the run's row,
    which its worker reads (rotation.desk.worker)."""
    run = load_run(store, run_id)
    if not run.running:
        raise DeskError(f"this plan is not running (it is {run.status})")
    store.ask_stop(run_id)
    if not planner.running(run_id):
        store.close_run(run_id, RunStatus.INTERRUPTED, "the planning process was not found")
    return load_run(store, run_id)


def run_again(store: Store, planner: Planner, run_id: int) -> int:
    """An interrupted or failed run, started again with the same request."""
    run = load_run(store, run_id)
    if run.status not in (RunStatus.INTERRUPTED, RunStatus.FAILED):
        raise DeskError(f"only an interrupted or failed plan runs again; this one is {run.status}")
    if run.kind is RunKind.PLAN:
        return start_plan(store, planner, run.event_id)
    with store.change():
        if any(other.running for other in store.runs(run.event_id)):
            raise DeskError("a plan is already running for this event")
        again = store.add_run(run.event_id, run.request(), run.time_limit, planner.desk)
    return _launch(store, planner, again)


def interrupt_left_over(store: Store, desk: str) -> int:
    """At start-up, holding the file's lock (so no other desk is serving it): runs that another desk
    left running when it stopped. Their workers are gone, nothing of theirs was stored; each can be run
    again."""
    left = [run for run in store.running() if run.desk != desk]
    for run in left:
        store.close_run(run.id, RunStatus.INTERRUPTED, "the desk was stopped while this plan ran; nothing was kept")
    return len(left)
