"""What the store hands back: one typed record per row, its JSON columns parsed."""

from __future__ import annotations

import json
import time
from datetime import datetime, timezone
from enum import Enum
from functools import lru_cache
from typing import ClassVar, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_serializer,
)

from models import Bound, Metrics, Moves, PlayerChange, Reseat, Round, Schedule, SeasonRule
from models.scores import Card
from rotation.desk.core.settings import EventSettings

Stored = TypeVar("Stored", bound=BaseModel)


class UnreadableRecord(ValueError):
    """A JSON column of the desk's file that does not read as its record (written by hand, or by a desk
    whose rules were looser): which row, which field and why, in one line."""


def parsed(model: type[Stored], text: str, what: str) -> Stored:
    """The stored JSON `text` as a `model`, or UnreadableRecord naming `what` ('event 3's settings')."""
    try:
        return _validated(model, text)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise UnreadableRecord(
            f"{what} in the desk's file cannot be read{' at ' + where if where else ''}: {first['msg']}"
        ) from None


@lru_cache(maxsize=32)
def _validated(model: type[Stored], text: str) -> Stored:
    """Validation is most of a page's time (a 200-player day's figures hold every player's metrics, and
    every name of the settings is normalised), and the pages read the same rows again and again (the
    projector and the phones poll, a director goes back and forth). The same text always validates to
    the same record, and the records are frozen, so the last ones read are kept by their text: a row
    that changed has another text and is validated afresh. A refusal is not kept (it raises).
    32 records: a 200-player version's schedule or figures take about 0.25 MB read, a 2000-player one
    2.5 MB, so the desk keeps at most some 80 MB for a room of 2000."""
    return model.model_validate_json(text)


def stored_json(record: BaseModel) -> str:
    """A record as its JSON column holds it: the bytes earlier desks wrote (json.dumps of the dump)."""
    return json.dumps(record.model_dump(mode="json"))


class RunStatus(str, Enum):
    """Where a planning run stands."""

    RUNNING = "running"
    FINISHED = "finished"  # the run used its time, or proved its schedule optimal
    STOPPED = "stopped"  # the director pressed Stop: the best so far was kept
    INTERRUPTED = "interrupted"  # the desk stopped while it ran: nothing was kept, it can run again
    FAILED = "failed"  # the library refused the request, or found no schedule

    def __str__(self) -> str:  # as the pages and the JSON show it
        return self.value


class RunKind(str, Enum):
    """What a planning run makes."""

    PLAN = "plan"  # the whole day (or a night of a series), from the event's settings
    REPLAN = "replan"  # the rounds still to play, after players left or arrived: proposals to choose from

    def __str__(self) -> str:
        return self.value


class VersionKind(str, Enum):
    """What made a schedule version: a run (its kind's words) or a change by hand."""

    PLAN = "plan"
    REPLAN = "replan"
    PLAYED = "played"  # rounds marked played (or not)
    SWAP = "swap"  # two players swapped in a round
    MOVE = "move"  # a player moved to an empty seat in a round
    RENAME = "rename"  # a player's spelling corrected

    def __str__(self) -> str:
        return self.value


class FixedFigures(BaseModel):
    """A fixed rule's figures on the same room, or why they do not describe this day."""

    model_config = ConfigDict(frozen=True)

    metrics: Metrics | None = None
    skipped: str | None = None

    @model_serializer(mode="wrap")
    def _one_of_them(self, handler: SerializerFunctionWrapHandler) -> dict:
        """Stored as `{"metrics": ...}` or `{"skipped": ...}`, as it always was."""
        return {key: value for key, value in handler(self).items() if value is not None}


class HowMade(BaseModel):
    """How a version was made, as far as its maker knows it: a plan's bound, method, time and the fixed
    rule beside it; a re-plan's proposal (the run), choice, moves and the players whose seats changed.
    A change by hand carries the plan's part over (`carried`)."""

    model_config = ConfigDict(frozen=True)

    bound: Bound | None = None
    method: str | None = None
    runtime: float | None = None
    interrupted: bool | None = None
    fixed: FixedFigures | None = None
    changes: list[PlayerChange] | None = None  # a run's players whose seats changed (None: a plan)
    proposal: int | None = None  # the re-plan run whose proposal this is, until one is accepted
    reseat: Reseat | None = None
    moves: Moves | None = None

    def carried(self) -> HowMade:
        """What a fixed copy of the schedule keeps: how the plan was made, not what its run changed."""
        return HowMade(
            **self.model_dump(include={"bound", "method", "runtime", "interrupted", "fixed"}, exclude_unset=True)
        )


class Figures(HowMade):
    """The `figures` column of a version (JSON): how it was made, and the checker's metrics of it."""

    metrics: Metrics


class StandingsChoice(BaseModel):
    """The rule the series' standings rank by: the series' setting (the `standings` column of
    `series`, JSON), or a page's or endpoint's query."""

    model_config = ConfigDict(frozen=True)

    rule: SeasonRule = SeasonRule.CUMULATIVE
    min_games: int = Field(default=0, ge=0, le=10_000)
    best: int | None = Field(default=None, ge=1, le=1_000)

    @field_validator("min_games", "best", mode="before")
    @classmethod
    def _blank_is_unset(cls, value: object, info: ValidationInfo) -> object:
        """A box the form sends empty is no limit: 'Best __ nights' blank counts every night, 'at least
        __ games' blank is 0."""
        if isinstance(value, str) and not value.strip():
            return None if info.field_name == "best" else 0
        return value

    def query(self) -> str:
        best = f"&best={self.best}" if self.best else ""
        return f"rule={self.rule.value}&min_games={self.min_games}{best}"


class RosterMember(BaseModel):
    """A member of a series on its roster: their name and their member number (empty: none given)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    id: str = Field(default="", max_length=100)


class Roster(BaseModel):
    """A series' roster (the `roster` column of `series`, JSON): the members added on the series page
    (before they play, or a returning guest made a member), and whether guests are ranked in the series'
    standings. A player on a night's list not as a guest is a member too, roster or not."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    members: tuple[RosterMember, ...] = ()
    guests_ranked: bool = True


class EventRow(BaseModel):
    id: int
    settings: EventSettings
    current_version: int | None
    created: str
    archived: bool = False


class VersionRow(BaseModel):
    id: int
    event_id: int
    parent: int | None
    kind: VersionKind
    note: str
    played: int  # the schedule's own `played`, read by SQLite without parsing the schedule
    figures: Figures
    created: str
    schedule_json: str

    def schedule(self) -> Schedule:
        return parsed(Schedule, self.schedule_json, f"version {self.id}'s schedule")


class RunProgress(BaseModel):
    """A run's live line (the `progress` column, JSON): the best repeats so far, the best lower bound,
    what the solver is doing; none of it until the planner first reports."""

    model_config = ConfigDict(frozen=True)

    repeats: int | None = None
    bound: int | None = None
    note: str = ""


class PlanRequest(BaseModel):
    """A plan's request (the `request` column of a run of kind plan, JSON): the event's settings as the
    run started, and a night of a series' earlier nights (their events) it is planned against."""

    model_config = ConfigDict(frozen=True)

    kind: ClassVar[RunKind] = RunKind.PLAN

    settings: EventSettings
    earlier: list[int] = []  # runs stored before series had none


class ReplanRequest(BaseModel):
    """A re-plan's request (the `request` column of a run of kind replan, JSON): the version it starts
    from, the rounds played before it, who leaves and who arrives (as the library spelled them)."""

    model_config = ConfigDict(frozen=True)

    kind: ClassVar[RunKind] = RunKind.REPLAN

    base_version: int
    played: int
    drop: list[str]
    add: list[str]


RunRequest = PlanRequest | ReplanRequest
REQUESTS: dict[RunKind, type[RunRequest]] = {RunKind.PLAN: PlanRequest, RunKind.REPLAN: ReplanRequest}


def run_request(run_id: int, kind: RunKind, text: str) -> RunRequest:
    """A run's stored request, typed by its kind (the `kind` column says which: the JSON is as it always
    was, without a tag); UnreadableRecord (a ValueError) when it does not read."""
    return parsed(REQUESTS[kind], text, f"run {run_id}'s request")


class RunRow(BaseModel):
    id: int
    event_id: int
    kind: RunKind
    request_json: str  # read by request(): listing runs never depends on what a run asked for
    status: RunStatus
    pid: int | None
    time_limit: float
    started: float
    finished: float | None
    stop_asked: bool
    progress: RunProgress
    message: str
    version_id: int | None
    desk: str  # the desk that started it (rotation.desk.worker.WorkerPlanner.desk)

    @property
    def running(self) -> bool:
        return self.status is RunStatus.RUNNING

    def request(self) -> RunRequest:
        """What the run asked for, typed by its kind; UnreadableRecord (a ValueError) when it does not read."""
        return run_request(self.id, self.kind, self.request_json)

    def elapsed(self) -> float:
        return (self.finished or time.time()) - self.started


class RoomRow(BaseModel):
    event_id: int
    public_id: str
    minutes: float
    pace: float
    started: float | None  # server time the round's clock last started running; None while it stands still
    left: float | None  # seconds left at `started` (None: the whole round)
    standings_at: int | None  # the projector shows the standings while this round is the latest released
    standings_top: int | None = None  # the top places it shows then (None: everyone)
    standings_series: bool = False  # then the standings of the event's series, not the night's


class ReleaseRow(BaseModel):
    round: int
    seating: Round
    released: float


class CardRow(BaseModel):
    id: int
    round: int
    table_number: int
    card: Card
    entered: str


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
