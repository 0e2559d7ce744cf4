"""The desk's actions, each a small function that the HTML forms and the JSON endpoints both call.

Every change is one transaction of the store, and every schedule it stores passed optimizer.check
(Store.add_version). Three seams meet the library, each one function, so a new library call
replaces one body: `plan_day` (optimizer.plan), `replan_day` (optimizer.replan) and `swap_players`
(a desk-side swap, checked by the checker, until the library has its own).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import optimizer
from models import Event, PlanResult, Progress, Replan, Round, Schedule, Status, Table
from models.event import name_key, normalise_name
from rotation.desk.settings import EventSettings, FieldErrors, check_time_limit, desk_words
from rotation.desk.storage import FAILED, FINISHED, INTERRUPTED, STOPPED, EventRow, RunRow, Store, VersionRow


class DeskError(Exception):
    """A request the desk refuses, in one line; `field` says which form field it is about."""

    def __init__(self, message: str, field: str | None = None, status: int = 409):
        super().__init__(message)
        self.field, self.status = field, status


class NotFound(DeskError):
    def __init__(self, what: str):
        super().__init__(f"{what} does not exist", status=404)


class Planner(Protocol):
    """Starts and stops planning processes (rotation.desk.worker.Planner)."""

    def start(self, run_id: int) -> int: ...
    def interrupt(self, run_id: int) -> bool: ...
    def exited(self, run_id: int) -> bool: ...


# ---- events ------------------------------------------------------------------------------------


def create_event(store: Store, settings: EventSettings) -> int:
    settings.event()  # FieldErrors beside the fields, before anything is stored
    return store.add_event(settings.model_dump(mode="json"))


def update_event(store: Store, event_id: int, settings: EventSettings) -> None:
    """New settings for the next plan; the schedules already made keep theirs."""
    load_event(store, event_id)
    settings.event()
    store.set_settings(event_id, settings.model_dump(mode="json"))


def load_event(store: Store, event_id: int) -> EventRow:
    event = store.event(event_id)
    if event is None:
        raise NotFound(f"event {event_id}")
    return event


def settings_of(event: EventRow) -> EventSettings:
    return EventSettings.model_validate(event.settings)


def current_version(store: Store, event: EventRow) -> VersionRow | None:
    return None if event.current_version is None else store.version(event.current_version)


def load_version(store: Store, event_id: int, version_id: int) -> VersionRow:
    version = store.version(version_id)
    if version is None or version.event_id != event_id:
        raise NotFound(f"version {version_id} of event {event_id}")
    return version


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


def start_plan(store: Store, planner: Planner, event_id: int) -> int:
    """A plan of the whole day from the event's settings, in a worker process. Returns the run."""
    event = load_event(store, event_id)
    if any(run.running for run in store.runs(event_id)):
        raise DeskError("a plan is already running for this event")
    version = current_version(store, event)
    if version is not None and version.played:
        raise DeskError(f"{version.played} rounds are played: re-plan the rounds still to play instead")
    settings = settings_of(event)
    settings.event()
    return _launch(
        store, planner, event_id, "plan", {"settings": settings.model_dump(mode="json")}, settings.time_limit
    )


def start_replan(
    store: Store,
    planner: Planner,
    event_id: int,
    from_round: int,
    leave: list[str],
    arrive: list[str],
    time_limit: float,
) -> int:
    """Re-plan the rounds from `from_round` on, with who leaves and who arrives then. Returns the run."""
    _, version = _schedule_now(store, event_id)
    schedule = version.schedule()
    total = len(schedule.rounds)
    if not version.played + 1 <= from_round <= total:
        first = version.played + 1
        span = f"round {first}" if first == total else f"rounds {first} to {total}"
        raise DeskError(f"re-plan from {span}: rounds before are played", field="from_round", status=422)
    request = {
        "base_version": version.id,
        "played": from_round - 1,
        "drop": _leavers(schedule, from_round, leave),
        "add": _arrivals(schedule, arrive),
    }
    try:
        check_time_limit(time_limit)
    except FieldErrors as error:
        raise DeskError(error.errors["time_limit"], field="time_limit", status=422) from None
    return _launch(store, planner, event_id, "replan", request, time_limit)


def _leavers(schedule: Schedule, from_round: int, leave: list[str]) -> list[str]:
    """The names who leave, spelled as the schedule spells them ('ann' is 'Ann')."""
    by_key = {name_key(name): name for name in schedule.expected(from_round - 1)}
    names: list[str] = []
    for given in filter(None, map(normalise_name, leave)):
        name = by_key.get(name_key(given))
        if name is None:
            raise DeskError(f"{given!r} does not play round {from_round}", field="leave", status=422)
        if name not in names:
            names.append(name)
    return names


def _arrivals(schedule: Schedule, arrive: list[str]) -> list[str]:
    on_schedule = {name_key(name): name for name in schedule.players}
    names: dict[str, str] = {}
    for name in filter(None, map(normalise_name, arrive)):
        if name_key(name) in on_schedule:
            raise DeskError(
                f"{name!r}: {on_schedule[name_key(name)]!r} is already on the schedule", field="arrive", status=422
            )
        if name_key(name) in names:
            raise DeskError(f"{name!r} is named twice", field="arrive", status=422)
        names[name_key(name)] = name
    return list(names.values())


def _launch(store: Store, planner: Planner, event_id: int, kind: str, request: dict, time_limit: float) -> int:
    run_id = store.add_run(event_id, kind, request, time_limit)
    store.set_pid(run_id, planner.start(run_id))
    return run_id


def load_run(store: Store, planner: Planner, run_id: int, event_id: int | None = None) -> RunRow:
    """The run as it stands; a worker that ended without a word is closed as failed here."""
    run = store.run(run_id)
    if run is None or (event_id is not None and run.event_id != event_id):
        raise NotFound(f"plan run {run_id}")
    if run.running and planner.exited(run_id):
        store.close_run(run_id, FAILED, "the planning process ended without a result")
        run = store.run(run_id)
        assert run is not None
    return run


def stop_run(store: Store, planner: Planner, run_id: int) -> RunRow:
    """Ask a running plan to stop and keep the best schedule found so far (SIGINT to its worker)."""
    run = load_run(store, planner, run_id)
    if not run.running:
        raise DeskError(f"this plan is not running (it is {run.status})")
    store.ask_stop(run_id)
    if not planner.interrupt(run_id):
        store.close_run(run_id, INTERRUPTED, "the planning process was not found")
    return load_run(store, planner, run_id)


def run_again(store: Store, planner: Planner, run_id: int) -> int:
    """An interrupted or failed run, started again with the same request."""
    run = load_run(store, planner, run_id)
    if run.status not in (INTERRUPTED, FAILED):
        raise DeskError(f"only an interrupted or failed plan runs again; this one is {run.status}")
    if any(other.running for other in store.runs(run.event_id)):
        raise DeskError("a plan is already running for this event")
    if run.kind == "plan":
        return start_plan(store, planner, run.event_id)
    return _launch(store, planner, run.event_id, run.kind, run.request, run.time_limit)


def interrupt_left_over(store: Store) -> int:
    """At start-up: runs the desk left running when it stopped. Their workers are gone, nothing of
    theirs was stored; each can be run again."""
    left = store.running()
    for run in left:
        store.close_run(run.id, INTERRUPTED, "the desk was stopped while this plan ran; nothing was kept")
    return len(left)


# ---- the seams with the library ---------------------------------------------------------------


def plan_day(settings: EventSettings, on_progress: Callable[[Progress], None]) -> PlanResult:
    """The variety rotation of the whole day (seam: optimizer.plan)."""
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
    time_limit: float,
    on_progress: Callable[[Progress], None],
) -> Replan:
    """The rounds after `played`, planned again (seam: optimizer.replan; a fewest-moves mode goes here)."""
    return optimizer.replan(
        schedule,
        played,
        drop=tuple(drop),
        add=tuple(add),
        time_limit=time_limit,
        seed=settings.seed,
        workers=settings.workers,
        on_progress=on_progress,
    )


def swap_players(schedule: Schedule, round_number: int, first: str, second: str) -> Schedule:
    """Two players change places in one round: table and seat, or a seat and a sit-out (seam: a desk-side
    swap until the library has one; the caller stores it only after optimizer.check)."""
    round_ = schedule.rounds[round_number - 1]
    where = {name: ("table", t, s) for t, table in enumerate(round_.tables) for s, name in enumerate(table.players)}
    where.update({name: ("out", s, 0) for s, name in enumerate(round_.sit_outs)})
    for name in (first, second):
        if name not in where:
            raise DeskError(f"{name!r} does not play round {round_number}", field="swap", status=422)
    if where[first][0] == where[second][0] == "out":
        raise DeskError(f"{first!r} and {second!r} both sit out round {round_number}", field="swap", status=422)
    other = {first: second, second: first}
    tables = tuple(
        Table(table=table.table, players=tuple(other.get(name, name) for name in table.players))
        for table in round_.tables
    )
    swapped = Round(tables=tables, sit_outs=tuple(other.get(n, n) for n in round_.sit_outs), absent=round_.absent)
    rounds = schedule.rounds[: round_number - 1] + (swapped,) + schedule.rounds[round_number:]
    return schedule.model_copy(update={"rounds": rounds})


# ---- what the worker stores --------------------------------------------------------------------


@dataclass(frozen=True)
class Planned:
    """What a run's planning hands to `keep_run`."""

    result: PlanResult
    base: VersionRow | None  # the version a re-plan started from
    changes: list | None  # a re-plan's players whose seats changed


def plan_run(store: Store, run: RunRow, on_progress: Callable[[Progress], None]) -> Planned | str:
    """In the worker process: the library's plan or re-plan for the run, or its refusal in one line."""
    try:
        if run.kind == "plan":
            settings = EventSettings.model_validate(run.request["settings"])
            return Planned(plan_day(settings, on_progress), None, None)
        base = load_version(store, run.event_id, run.request["base_version"])
        request = run.request
        outcome = replan_day(
            base.schedule(),
            request["played"],
            request["drop"],
            request["add"],
            settings_of(load_event(store, run.event_id)),
            run.time_limit,
            on_progress,
        )
        return Planned(outcome.result, base, [change.model_dump(mode="json") for change in outcome.changes])
    except (ValueError, FieldErrors) as error:
        return desk_words(str(error))


def keep_run(store: Store, run: RunRow, planned: Planned | str | None) -> None:
    """Store the checked schedule and close the run in one transaction, or close it failed. Nothing is
    stored for a run the desk already closed (it restarted meanwhile)."""
    if not isinstance(planned, Planned):
        store.close_run(run.id, FAILED, planned or "the plan ended without a result")
        return
    result = planned.result
    if result.schedule is None:
        store.close_run(run.id, FAILED, _no_schedule(result, run.time_limit))
        return
    figures = {**result_figures(result), "changes": planned.changes}
    try:
        with store.change() as db:
            parent = db.execute("SELECT current_version FROM events WHERE id = ?", (run.event_id,)).fetchone()[0]
            version_id = store.add_version(
                db,
                run.event_id,
                result.schedule,
                kind=run.kind,
                note=_plan_note(run, result, planned.changes),
                played=0 if planned.base is None else planned.base.played,
                figures=figures,
                parent=parent if planned.base is None else planned.base.id,
            )
            if not store.end_run(db, run.id, STOPPED if result.interrupted else FINISHED, version_id=version_id):
                raise _Closed  # rolls the version back: the run was closed while it planned
    except _Closed:
        return
    except optimizer.InvalidSchedule as error:
        store.close_run(run.id, FAILED, f"the checker refused the schedule: {error}")


class _Closed(Exception):
    pass


def _no_schedule(result: PlanResult, time_limit: float) -> str:
    if result.status is Status.INFEASIBLE:
        return "proven infeasible: no schedule meets these requests; loosen keep-apart or stay at one table"
    if result.interrupted:
        return "stopped before a first schedule was found"
    return f"no schedule found in {time_limit:g} s; try a longer time limit"


def _plan_note(run: RunRow, result: PlanResult, changes: list | None) -> str:
    stopped = " (stopped early: the best found so far)" if result.interrupted else ""
    if run.kind == "plan":
        return f"planned: {result.repeats} repeats, {result.runtime:.1f} s{stopped}"
    who = [f"{name} leaves" for name in run.request["drop"]] + [f"{name} arrives" for name in run.request["add"]]
    moved = len(changes or [])
    return (
        f"re-planned from round {run.request['played'] + 1}"
        + (f" ({', '.join(who)})" if who else "")
        + f": {result.repeats} repeats, {moved} players move{stopped}"
    )


def result_figures(result: PlanResult) -> dict:
    """What a plan says about itself beyond the schedule: bound, proof, method, time, the fixed rule."""
    assert result.schedule is not None
    return {
        "bound": result.bound.model_dump(mode="json"),
        "method": result.method,
        "runtime": result.runtime,
        "interrupted": result.interrupted,
        "fixed": fixed_figures(result.schedule),
    }


def fixed_figures(schedule: Schedule) -> dict:
    """The fixed MJMP rule's metrics on the same room, or why they do not describe this day."""
    if schedule.arrivals or schedule.departures or any(round_.absent for round_ in schedule.rounds):
        return {"skipped": "players came and went during the day, so the full room's fixed rotation does not apply"}
    try:
        event = Event(players=schedule.players, rounds=len(schedule.rounds), odd=schedule.odd)
        metrics = optimizer.check(optimizer.fixed_schedule(event))
    except (ValueError, optimizer.InvalidSchedule) as error:
        return {"skipped": f"the fixed rule cannot seat this room: {desk_words(str(error))}"}
    return {"metrics": metrics.model_dump(mode="json")}


# ---- changes during the day --------------------------------------------------------------------


def mark_played(store: Store, event_id: int, rounds: int) -> int:
    """Rounds 1 to `rounds` are played: kept exactly as they are from now on."""
    _, version = _schedule_now(store, event_id)
    total = len(version.schedule().rounds)
    if not version.played < rounds <= total:
        raise DeskError(f"mark a round from {version.played + 1} to {total} as played", field="played", status=422)
    note = f"round {rounds} played" if rounds == version.played + 1 else f"rounds {version.played + 1}-{rounds} played"
    return _new_version(store, version, version.schedule(), kind="played", note=note, played=rounds)


def swap(store: Store, event_id: int, round_number: int, first: str, second: str) -> int:
    """Two players change places in a round still to play; refused if the checker refuses the day."""
    _, version = _schedule_now(store, event_id)
    schedule = version.schedule()
    if not version.played < round_number <= len(schedule.rounds):
        raise DeskError(
            f"swap in a round still to play: {version.played + 1} to {len(schedule.rounds)}", field="swap", status=422
        )
    by_key = {name_key(name): name for name in schedule.players}
    a, b = (by_key.get(name_key(name), normalise_name(name)) for name in (first, second))
    if a == b:
        raise DeskError("choose two different players", field="swap", status=422)
    swapped = swap_players(schedule, round_number, a, b)
    try:
        optimizer.check(swapped)
    except optimizer.InvalidSchedule as error:
        raise DeskError(f"this swap breaks the day: {error}", field="swap", status=422) from None
    note = f"round {round_number}: {a} and {b} swapped"
    return _new_version(store, version, swapped, kind="swap", note=note, played=version.played)


def _new_version(store: Store, version: VersionRow, schedule: Schedule, *, kind: str, note: str, played: int) -> int:
    figures = {key: value for key, value in version.figures.items() if key not in ("metrics", "changes")}
    with store.change() as db:
        return store.add_version(
            db, version.event_id, schedule, kind=kind, note=note, played=played, figures=figures, parent=version.id
        )


def undo(store: Store, event_id: int) -> int:
    """Back to the version the current one was made from; the current one stays in the history."""
    _, version = _schedule_now(store, event_id)
    if version.parent is None:
        raise DeskError("nothing to undo: this is the first schedule of the event")
    store.point_at(event_id, version.parent)
    return version.parent


def restore(store: Store, event_id: int, version_id: int) -> int:
    """Make an earlier version current again (the history keeps every version)."""
    _schedule_now(store, event_id)
    store.point_at(event_id, load_version(store, event_id, version_id).id)
    return version_id
