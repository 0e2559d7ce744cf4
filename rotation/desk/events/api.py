"""The JSON endpoints: every action of the desk's pages, for a script or another tool (/openapi.json)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query
from pydantic import BaseModel, Field

from models import Bound, Metrics, Moves, PlayerChange, Reseat, Schedule
from models.text import Name
from rotation.desk.core.errors import DeskError
from rotation.desk.core.settings import EventSettings
from rotation.desk.deps import Id, JsonIn, PlannerDep, QueryId, StoreDep, api_router
from rotation.desk.events import changes, runs, service
from rotation.desk.storage import RunRow, Store, VersionRow

api = api_router(tags=["desk"])


class VersionOut(BaseModel):
    id: int
    parent: int | None
    kind: str = Field(description="plan, replan, swap, move or played")
    note: str
    played: int = Field(description="Rounds played, kept as they are.")
    created: str
    repeats: int
    current: bool
    method: str | None = Field(default=None, description="How the plan was made, in the planner's exact words.")
    bound: Bound | None = Field(default=None, description="The fewest repeats possible, and its exact proof.")


class RunOut(BaseModel):
    id: int
    event_id: Id
    kind: str = Field(description="plan or replan")
    status: str = Field(description="running, finished, stopped, interrupted or failed")
    repeats: int | None = Field(description="The best repeats so far.")
    bound: int | None = Field(description="The best lower bound so far.")
    elapsed: float
    time_limit: float
    note: str
    message: str
    stop_asked: bool
    version_id: int | None


class ProposalOut(BaseModel):
    version: VersionOut
    reseat: Reseat = Field(description="fewest: the fewest moves, then repeats; all: everyone re-seated")
    moves: Moves
    changes: list[PlayerChange]


class EventOut(BaseModel):
    id: int
    settings: EventSettings
    settings_version: str = Field(
        description="The settings as read, named: send it back as `base_settings` when you change them."
    )
    current_version: VersionOut | None
    runs: list[RunOut]
    proposals: list[ProposalOut] = Field(description="The last re-plan's schedules, until one is accepted.")


BASE_VERSION = Field(
    default=None,
    description="The version this change was made from (the current version's id when you read it). If the "
    "day has changed since, nothing is stored and the answer is 409 with the current version's id. Left out: "
    "the change is made to whatever version is current when it arrives.",
)


class BaseIn(JsonIn):
    base_version: int | None = BASE_VERSION


class ReplanIn(JsonIn):
    from_round: int = Field(description="The first round planned again; rounds before it stay as they are.")
    leave: list[Name] = Field(default=[], description="Players who leave before this round.")
    arrive: list[Name] = Field(default=[], description="Players who arrive for this round.")
    time_limit: float = 10.0
    base_version: int | None = BASE_VERSION
    include_released: bool = Field(
        default=False, description="Re-plan rounds already released to the room too (refused otherwise)."
    )
    confirm: bool = Field(
        default=False,
        description="Who leaves is seated in a released round before from_round, not played yet: they play it "
        "first. Without it such a re-plan is refused (409 naming each seat: `seated`, and the round to re-plan "
        "from instead, with include_released: `from_round`).",
    )


CONFIRM = "Apply it. Without it nothing changes: a 409 carries the preview (who moves, figures before and after)."


class SwapIn(JsonIn):
    round: int
    first: Name
    second: Name
    confirm: bool = Field(default=False, description=CONFIRM)
    base_version: int | None = BASE_VERSION


class MoveIn(JsonIn):
    round: int = Field(description="A played round.")
    player: Name
    table: int = Field(description="The table of three whose empty seat the player took.")
    confirm: bool = Field(default=False, description=CONFIRM)
    base_version: int | None = BASE_VERSION


class GoBackIn(JsonIn):
    confirm: bool = Field(
        default=False,
        description="Go back even if that un-plays rounds, detaches score cards, brings players back or "
        "removes them, or re-seats released rounds (a 409 lists which).",
    )
    base_version: int | None = BASE_VERSION


class RenameIn(JsonIn):
    old: Name = Field(description="The player's name as it is now (any case).")
    new: Name = Field(description="The new spelling; not another player's name.")
    base_version: int | None = Field(
        default=None,
        description="The version this rename was made from (0: the event had no schedule yet). If the day has "
        "changed since, nothing is stored and the answer is 409 with the current version's id. Left out: the "
        "rename is made to whatever is current when it arrives.",
    )


class RenamedOut(BaseModel):
    name: str = Field(description="The new spelling, as stored.")
    current_version: VersionOut | None = Field(description="The schedule's new version, once there is a schedule.")


class PlayedIn(JsonIn):
    rounds: int = Field(description="Rounds 1 to this one are played.")
    base_version: int | None = BASE_VERSION


def version_out(version: VersionRow, current: int | None) -> VersionOut:
    return VersionOut(
        id=version.id,
        parent=version.parent,
        kind=version.kind.value,
        note=version.note,
        played=version.played,
        created=version.created,
        repeats=version.figures.metrics.repeats,
        current=version.id == current,
        method=version.figures.method,
        bound=version.figures.bound,
    )


def run_out(run: RunRow) -> RunOut:
    return RunOut(
        id=run.id,
        event_id=run.event_id,
        kind=run.kind.value,
        status=run.status,
        repeats=run.progress.repeats,
        bound=run.progress.bound,
        elapsed=round(run.elapsed(), 1),
        time_limit=run.time_limit,
        note=run.progress.note,
        message=run.message,
        stop_asked=run.stop_asked,
        version_id=run.version_id,
    )


def proposal_out(version: VersionRow, current: int | None) -> ProposalOut:
    assert version.figures.reseat is not None and version.figures.moves is not None, "a proposal says how it re-seats"
    return ProposalOut(
        version=version_out(version, current),
        reseat=version.figures.reseat,
        moves=version.figures.moves,
        changes=list(version.figures.changes or ()),
    )


def event_out(store: Store, event_id: Id) -> EventOut:
    event = service.load_event(store, event_id)
    version = service.current_version(store, event)
    runs = store.runs(event_id)
    return EventOut(
        id=event.id,
        settings=event.settings,
        settings_version=service.settings_tag(event.settings),
        current_version=None if version is None else version_out(version, event.current_version),
        runs=[run_out(run) for run in runs],
        proposals=[proposal_out(p, event.current_version) for p in changes.proposals(store, event)],
    )


@api.get("/events")
def list_events(store: StoreDep) -> list[EventOut]:
    return [event_out(store, event.id) for event in store.events()]


@api.post("/events", status_code=201)
def create_event(store: StoreDep, settings: EventSettings) -> EventOut:
    return event_out(store, service.create_event(store, settings))


@api.get("/events/{event_id:int}")  # digits only, so /events/import is not an event (405, not 422)
def get_event(store: StoreDep, event_id: Id) -> EventOut:
    return event_out(store, event_id)


BaseSettings = Annotated[
    str | None,
    Query(
        max_length=64,
        description="The settings these were made from (the event's `settings_version` when you read it). If "
        "they have changed since (another client saved settings, or renamed a player), nothing is stored and the "
        "answer is 409 with the settings as they are now and their `settings_version`. Left out: the new "
        "settings replace whatever is stored.",
    ),
]


@api.put("/events/{event_id:int}")
def update_event(
    store: StoreDep, event_id: Id, settings: EventSettings, base_settings: BaseSettings = None
) -> EventOut:
    service.update_event(store, event_id, settings, base_settings)
    return event_out(store, event_id)


@api.post("/events/{event_id}/plan", status_code=202)
def plan(
    store: StoreDep, planner: PlannerDep, event_id: Id, include_released: bool = False, body: BaseIn | None = None
) -> RunOut:
    """Plan the whole day; once a round is released, only with `include_released` (409 otherwise).
    base_version 0: the event had no schedule yet."""
    base = body.base_version if body else None
    run_id = runs.start_plan(store, planner, event_id, include_released, base)
    return run_out(runs.load_run(store, run_id))


@api.post("/events/{event_id}/replan", status_code=202)
def replan(store: StoreDep, planner: PlannerDep, event_id: Id, body: ReplanIn) -> RunOut:
    run_id = runs.start_replan(
        store,
        planner,
        event_id,
        body.from_round,
        body.leave,
        body.arrive,
        body.time_limit,
        body.include_released,
        body.base_version,
        body.confirm,
    )
    return run_out(runs.load_run(store, run_id))


@api.get("/runs/{run_id}")
def get_run(store: StoreDep, run_id: Id) -> RunOut:
    return run_out(runs.load_run(store, run_id))


@api.post("/runs/{run_id}/stop")
def stop(store: StoreDep, planner: PlannerDep, run_id: Id) -> RunOut:
    return run_out(runs.stop_run(store, planner, run_id))


@api.post("/runs/{run_id}/again", status_code=202)
def again(store: StoreDep, planner: PlannerDep, run_id: Id) -> RunOut:
    new_run = runs.run_again(store, planner, run_id)
    return run_out(runs.load_run(store, new_run))


@api.post("/events/{event_id}/played")
def played(store: StoreDep, event_id: Id, body: PlayedIn) -> VersionOut:
    return _version(store, event_id, changes.mark_played(store, event_id, body.rounds, body.base_version))


@api.post("/events/{event_id}/swap")
def swap(store: StoreDep, event_id: Id, body: SwapIn) -> VersionOut:
    swapped = changes.swap(store, event_id, body.round, body.first, body.second, body.confirm, body.base_version)
    return _version(store, event_id, swapped)


@api.post("/events/{event_id}/move")
def move(store: StoreDep, event_id: Id, body: MoveIn) -> VersionOut:
    moved = changes.move(store, event_id, body.round, body.player, body.table, body.confirm, body.base_version)
    return _version(store, event_id, moved)


@api.post("/events/{event_id}/rename")
def rename(store: StoreDep, event_id: Id, body: RenameIn) -> RenamedOut:
    """Correct a player's spelling everywhere: settings, a new version of the schedule, cards, the room."""
    _, name = changes.rename(store, event_id, body.old, body.new, body.base_version)
    event = service.load_event(store, event_id)
    version = service.current_version(store, event)
    return RenamedOut(name=name, current_version=None if version is None else version_out(version, version.id))


@api.post("/events/{event_id}/versions/{version_id}/accept")
def accept(store: StoreDep, event_id: Id, version_id: Id, body: BaseIn | None = None) -> VersionOut:
    """Make one of the last re-plan's proposals the current schedule."""
    base = body.base_version if body else None
    return _version(store, event_id, changes.accept(store, event_id, version_id, base))


@api.post("/events/{event_id}/undo")
def undo(store: StoreDep, event_id: Id, body: GoBackIn | None = None) -> VersionOut:
    body = body or GoBackIn()
    return _version(store, event_id, changes.undo(store, event_id, body.confirm, body.base_version))


@api.get("/events/{event_id}/versions")
def versions(store: StoreDep, event_id: Id) -> list[VersionOut]:
    event = service.load_event(store, event_id)
    return [version_out(version, event.current_version) for version in store.versions(event_id)]


@api.post("/events/{event_id}/versions/{version_id}/restore")
def restore(store: StoreDep, event_id: Id, version_id: Id, body: GoBackIn | None = None) -> VersionOut:
    body = body or GoBackIn()
    return _version(store, event_id, changes.restore(store, event_id, version_id, body.confirm, body.base_version))


@api.get("/events/{event_id}/schedule")
def schedule(store: StoreDep, event_id: Id, version: QueryId = None) -> Schedule:
    """The current schedule (or one version of it), as the schedule file's JSON."""
    return _chosen(store, event_id, version).schedule()


@api.get("/events/{event_id}/metrics")
def metrics(store: StoreDep, event_id: Id, version: QueryId = None) -> Metrics:
    return _chosen(store, event_id, version).figures.metrics


def _chosen(store: Store, event_id: Id, version: int | None) -> VersionRow:
    event = service.load_event(store, event_id)
    chosen = version if version is not None else event.current_version
    if chosen is None:
        raise DeskError("the event has no schedule yet: plan it first", status=404)
    return service.load_version(store, event_id, chosen)


def _version(store: Store, event_id: Id, version_id: Id) -> VersionOut:
    event = service.load_event(store, event_id)
    return version_out(service.load_version(store, event_id, version_id), event.current_version)
