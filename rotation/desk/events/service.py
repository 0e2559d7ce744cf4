"""The desk's actions, each a small function that the HTML forms and the JSON endpoints both call.

Every change is one transaction of the store, and every schedule it stores passed optimizer.check
(Store.add_version). The library does the work: `plan_day` (optimizer.plan), `replan_day`
(optimizer.replan, once per reseat choice), and the fixes by hand (optimizer.swap, move, mark_played).

A re-plan proposes two schedules, the fewest moves and everyone re-seated, each with its moves and
repeats; both are stored as versions that are not current. Accepting one makes it current; the other
stays in the history, where it can still be looked at or gone back to.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

import optimizer
from models import Event, Moves, NightPlan, PlanResult, PlayerChange, Progress, Replan, Reseat, Schedule
from models.event import FixedRule, name_key, normalise_name
from optimizer.leaving import NameRefused, arriving, leaving
from optimizer.words import counted, reseat_choice, why_no_schedule
from rotation.desk.events import guards
from rotation.desk.events.settings import EventSettings, FieldErrors, check_time_limit
from rotation.desk.storage import (
    EventRow,
    FixedFigures,
    Made,
    PlanRequest,
    ReplanRequest,
    RunKind,
    RunRow,
    RunStatus,
    Store,
    VersionKind,
    VersionRow,
)

T = TypeVar("T")


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
def _day(store: Store, event_id: int, base: int | None) -> Iterator[tuple[EventRow, VersionRow]]:
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


# ---- planning runs -----------------------------------------------------------------------------


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
) -> int:
    """Re-plan the rounds from `from_round` on, with who leaves and who arrives then. Returns the run.
    A round released to the room is re-planned only when the director includes the released rounds."""
    with _day(store, event_id, base) as (_, version):
        request = _replan_request(store, version, from_round, leave, arrive, time_limit, include_released)
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
    request = ReplanRequest(base_version=version.id, played=from_round - 1, drop=list(drop), add=list(add))
    try:
        check_time_limit(time_limit)
    except FieldErrors as error:
        raise DeskError(error.errors["time_limit"], field="time_limit", status=422) from None
    return request


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


# ---- the seams with the library ---------------------------------------------------------------


def plan_day(
    settings: EventSettings, on_progress: Callable[[Progress], None], earlier: list[Schedule] | None = None
) -> PlanResult | NightPlan:
    """The variety rotation of the whole day (seam: optimizer.plan), or a night of a series planned against
    its earlier nights (seam: optimizer.plan_night, with no run of tonight alone: the desk shows the
    series page instead)."""
    if earlier:
        return optimizer.plan_night(
            settings.event(),
            earlier,
            time_limit=settings.time_limit,
            seed=settings.seed,
            workers=settings.workers,
            on_progress=on_progress,
            alone=False,
        )
    return optimizer.plan(
        settings.event(),
        time_limit=settings.time_limit,
        seed=settings.seed,
        workers=settings.workers,
        on_progress=on_progress,
    )


def replan_day(
    schedule: Schedule,
    played: int,
    drop: list[str],
    add: list[str],
    settings: EventSettings,
    reseat: Reseat,
    time_limit: float,
    on_progress: Callable[[Progress], None],
) -> Replan:
    """The rounds after `played`, planned again under one reseat choice (seam: optimizer.replan)."""
    return optimizer.replan(
        schedule,
        played,
        drop=tuple(drop),
        add=tuple(add),
        reseat=reseat,
        other_way=False,  # the desk runs the other choice in full, so the director can accept either
        time_limit=time_limit,
        seed=settings.seed,
        workers=settings.workers,
        on_progress=on_progress,
    )


# ---- what the worker stores --------------------------------------------------------------------


@dataclass(frozen=True)
class Planned:
    """What a run's planning hands to `keep_run`."""

    result: PlanResult
    base: VersionRow | None  # the version a re-plan started from
    changes: list[PlayerChange] | None  # a re-plan's players whose seats changed
    reseat: Reseat | None = None  # a re-plan's choice: the fewest moves, or everyone re-seated
    moves: Moves | None = None  # a re-plan's moves against the plan it replaces
    season: str = ""  # a night of a series: what it adds to the nights before


def plan_run(store: Store, run: RunRow, on_progress: Callable[[Progress], None]) -> list[Planned] | str:
    """In the worker process: the library's plan, or a re-plan's two proposals, or its refusal in one line."""
    try:
        request = run.request()
        if isinstance(request, ReplanRequest):
            return _proposals(store, run, request, on_progress)
        earlier = [_schedule_of(store, event_id) for event_id in request.earlier]
        planned = plan_day(request.settings, on_progress, earlier)
        if isinstance(planned, NightPlan):
            return [Planned(planned.result, None, None, season=_season_words(planned))]
        return [Planned(planned, None, None)]
    except (ValueError, FieldErrors) as error:
        return str(error)


def _schedule_of(store: Store, event_id: int) -> Schedule:
    version = current_version(store, load_event(store, event_id))
    if version is None:
        raise ValueError(f"event {event_id} of the series has no schedule any more")
    return version.schedule()


def _season_words(night: NightPlan) -> str:
    """'against 3 earlier nights: 12 of tonight's 180 pairs met before'."""
    met = (
        ""
        if night.season is None
        else f": {night.season.met_before} of tonight's {night.season.pairs} pairs met before"
    )
    return f"against {counted(night.nights, 'earlier night')} of the series{met}"


def _proposals(
    store: Store, run: RunRow, request: ReplanRequest, on_progress: Callable[[Progress], None]
) -> list[Planned]:
    """The re-plan with the fewest moves, then with everyone re-seated, each with half the time. After
    Stop the second is not started: the director gets what was found, at once."""
    base = load_version(store, run.event_id, request.base_version)
    settings = load_event(store, run.event_id).settings
    proposals = []
    for reseat in (Reseat.FEWEST, Reseat.ALL):
        outcome = replan_day(
            base.schedule(),
            request.played,
            request.drop,
            request.add,
            settings,
            reseat,
            run.time_limit / 2,
            on_progress,
        )
        proposals.append(Planned(outcome.result, base, list(outcome.changes), reseat, outcome.moves))
        if outcome.result.interrupted:
            break
    return proposals


def keep_run(store: Store, run: RunRow, planned: list[Planned] | str | None) -> None:
    """Store the checked schedules and close the run in one transaction, or close it failed. A plan's
    schedule becomes current; a re-plan's are proposals. Nothing is stored for a run the desk already
    closed (it restarted meanwhile)."""
    if not isinstance(planned, list):
        store.close_run(run.id, RunStatus.FAILED, planned or "the plan ended without a result")
        return
    if (store.run(run.id) or run).stop_asked:  # Stop was pressed: what is kept is marked stopped, whatever stage
        planned = [replace(one, result=one.result.model_copy(update={"interrupted": True})) for one in planned]
    found = [one for one in planned if one.result.schedule is not None]
    if not found:
        settings = load_event(store, run.event_id).settings
        requests = "keep-apart or stay at one table" if settings.apart or settings.stay else None
        why = why_no_schedule(planned[0].result, run.time_limit, requests, "time limit")
        store.close_run(run.id, RunStatus.FAILED, why)
        return
    stopped = any(one.result.interrupted for one in planned)
    try:
        with store.change() as db:
            ids = [_keep_one(store, db, run, one) for one in found]
            # The run's figures are those of the schedule kept: the live line may lag the last stage.
            final = run.progress.model_copy(
                update={"repeats": found[0].result.repeats, "bound": found[0].result.bound.repeats}
            )
            status = RunStatus.STOPPED if stopped else RunStatus.FINISHED
            if not store.end_run(db, run.id, status, version_id=ids[0], progress=final):
                raise _Closed  # rolls the versions back: the run was closed while it planned
    except _Closed:
        return
    except optimizer.InvalidSchedule as error:
        store.close_run(run.id, RunStatus.FAILED, f"the checker refused the schedule: {error}")


def _keep_one(store: Store, db, run: RunRow, planned: Planned) -> int:
    result = planned.result
    assert result.schedule is not None
    figures = result_figures(result).model_copy(update={"changes": planned.changes})
    if planned.reseat is not None:
        figures = figures.model_copy(update={"proposal": run.id, "reseat": planned.reseat, "moves": planned.moves})
    parent = load_event(store, run.event_id).current_version
    return store.add_version(
        db,
        run.event_id,
        result.schedule,
        kind=VersionKind(run.kind.value),
        note=_plan_note(run, planned),
        figures=figures,
        parent=parent if planned.base is None else planned.base.id,
        current=planned.base is None,
    )


class _Closed(Exception):
    pass


def _plan_note(run: RunRow, planned: Planned) -> str:
    result = planned.result
    stopped = " (stopped early: the best found so far)" if result.interrupted else ""
    if planned.season:
        return f"planned {planned.season}, {result.runtime:.1f} s{stopped}"
    if run.kind is RunKind.PLAN or planned.reseat is None:
        return f"planned: {counted(result.repeats or 0, 'repeat')}, {result.runtime:.1f} s{stopped}"
    request = run.request()
    assert isinstance(request, ReplanRequest), "a re-plan run's request is read as one (storage.REQUESTS)"
    who = [f"{name} leaves" for name in request.drop] + [f"{name} arrives" for name in request.add]
    moved = len(planned.changes or [])
    return (
        f"re-planned from round {request.played + 1}"
        + (f" ({', '.join(who)})" if who else "")
        + f", {reseat_choice(planned.reseat)}: {counted(result.repeats or 0, 'repeat')}, "
        + f"{counted(moved, 'player')} move{'s' if moved == 1 else ''}{stopped}"
    )


def result_figures(result: PlanResult) -> Made:
    """What a plan says about itself beyond the schedule: bound, proof, method, time, the fixed rule."""
    assert result.schedule is not None
    return Made(
        bound=result.bound,
        method=result.method,
        runtime=result.runtime,
        interrupted=result.interrupted,
        fixed=fixed_figures(result.schedule),
    )


def fixed_figures(schedule: Schedule, rule: FixedRule = FixedRule.MJMP) -> FixedFigures:
    """A fixed rule's metrics on the same room (MJMP item 23, the baseline, unless `rule` says otherwise),
    or why they do not describe this day."""
    if schedule.arrivals or schedule.departures or any(round_.absent for round_ in schedule.rounds):
        return FixedFigures(
            skipped="players came and went during the day, so the full room's fixed rotation does not apply"
        )
    try:
        event = Event(players=schedule.players, rounds=len(schedule.rounds), odd=schedule.odd)
        metrics = optimizer.check(optimizer.fixed_schedule(event, rule))
    except (ValueError, optimizer.InvalidSchedule) as error:
        return FixedFigures(skipped=f"the fixed rule cannot seat this room: {error}")
    return FixedFigures(metrics=metrics)


# ---- changes during the day --------------------------------------------------------------------


def proposals(store: Store, event: EventRow) -> list[VersionRow]:
    """The last re-plan's proposals, fewest moves first, while the day is still the one they start from."""
    runs = store.runs(event.id)
    if not runs or runs[0].kind is not RunKind.REPLAN or runs[0].running:
        return []
    found = [version for version in store.versions(event.id) if version.figures.proposal == runs[0].id]
    return found[::-1] if found and all(version.parent == event.current_version for version in found) else []


def accept(store: Store, event_id: int, version_id: int, base: int | None = None) -> int:
    """A re-plan's proposal becomes the current schedule; the other stays in the history."""
    with _day(store, event_id, base) as (event, _):
        if version_id not in [version.id for version in proposals(store, event)]:
            load_version(store, event_id, version_id)  # not found, or found and no longer open
            raise DeskError("this re-plan is no longer open: the day changed since it was made; re-plan again")
        store.point_at(event_id, version_id)
    return version_id


def mark_played(store: Store, event_id: int, rounds: int, base: int | None = None) -> int:
    """Rounds 1 to `rounds` are played: kept exactly as they are from now on (optimizer.mark_played)."""
    with _day(store, event_id, base) as (_, version):
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
    with _day(store, event_id, base) as (_, version):
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
    with _day(store, event_id, base) as (_, version):
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


def rename(store: Store, event_id: int, old: str, new: str) -> tuple[str, str]:
    """Correct a player's spelling at any time, in one transaction: the settings (names and requests),
    a new version of the current schedule (optimizer.rename) and, for what the room has, every card and
    released round; the player's history stays one player's. Returns (the name as it was, as it is)."""
    event = load_event(store, event_id)
    if any(run.running for run in store.runs(event_id)):
        raise DeskError("a plan is running for this event; wait for it or stop it first", field="rename")
    settings = event.settings
    version = current_version(store, event)
    names = version.schedule().players if version else tuple(settings.names)
    was, now = _fix(lambda: optimizer.respelling(names, old, new), "rename")
    schedule = _fix(lambda: optimizer.rename(version.schedule(), was, now), "rename") if version else None
    renamed = _renamed_settings(settings, was, now)
    with store.change() as db:
        store.set_settings(event_id, renamed)
        if version is not None and schedule is not None:  # a new version: the older ones keep their spelling
            store.add_version(
                db,
                event_id,
                schedule,
                kind=VersionKind.RENAME,
                note=f"{was} renamed {now}",
                figures=version.figures.carried(),
                parent=version.id,
            )
        store.rename_in_room(db, event_id, was, now)
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
            "guests": [one(n) for n in settings.guests],
        }
    )


def undo(store: Store, event_id: int, confirm: bool = False, base: int | None = None) -> int:
    """Back to the version the current one was made from; the current one stays in the history.
    Unconfirmed when that would undo what the room has (guards.effects)."""
    with _day(store, event_id, base) as (_, version):
        if version.parent is None:
            raise DeskError("nothing to undo: this is the first schedule of the event")
        _go_back(store, version, load_version(store, event_id, version.parent), confirm, "undo")
        return version.parent


def restore(store: Store, event_id: int, version_id: int, confirm: bool = False, base: int | None = None) -> int:
    """Make an earlier version current again (the history keeps every version). Unconfirmed when that
    would undo what the room has (guards.effects)."""
    with _day(store, event_id, base) as (_, version):
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
