"""What a run does in the planner's process: the library called (`plan_day`: optimizer.plan, `replan_day`:
optimizer.replan, once per reseat choice), and what is stored from it.

A re-plan proposes two schedules, the fewest moves and everyone re-seated, each with its moves and repeats;
both are stored as versions that are not current. Accepting one makes it current (rotation.desk.events.changes);
the other stays in the history, where it can still be looked at or gone back to. Every schedule stored passed
optimizer.check (Store.add_version).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import optimizer
from models import Moves, NightPlan, PlanResult, PlayerChange, Progress, Replan, Reseat, Schedule
from models.event import FixedRule
from optimizer.words import counted, reseat_choice, why_no_schedule
from rotation.desk.core.errors import FieldErrors
from rotation.desk.core.settings import EventSettings
from rotation.desk.events.service import current_version, load_event, load_version
from rotation.desk.storage import (
    FixedFigures,
    HowMade,
    ReplanRequest,
    RunKind,
    RunRow,
    RunStatus,
    Store,
    VersionKind,
    VersionRow,
)


def planchanging(
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


def replanchanging(
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
        planned = planchanging(request.settings, on_progress, earlier)
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
        outcome = replanchanging(
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


def result_figures(result: PlanResult) -> HowMade:
    """What a plan says about itself beyond the schedule: bound, proof, method, time, the fixed rule."""
    assert result.schedule is not None
    return HowMade(
        bound=result.bound,
        method=result.method,
        runtime=result.runtime,
        interrupted=result.interrupted,
        fixed=fixed_figures(result.schedule),
    )


def fixed_figures(schedule: Schedule, rule: FixedRule = FixedRule.MJMP) -> FixedFigures:
    """A fixed rule's metrics on the same room (MJMP item 23, the baseline, unless `rule` says otherwise),
    or why they do not describe this day (optimizer.compare)."""
    compared = optimizer.compare(schedule, rule)
    return FixedFigures(metrics=compared.fixed) if compared.fixed else FixedFigures(skipped=compared.skipped)
