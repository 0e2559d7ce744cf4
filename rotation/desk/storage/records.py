"""What the store hands back: one typed record per row, its JSON columns parsed."""

from __future__ import annotations

import time
from datetime import datetime, timezone
from enum import Enum

from pydantic import BaseModel

from models import Round, Schedule
from models.scores import Card


class RunStatus(str, Enum):
    """Where a planning run stands."""

    RUNNING = "running"
    FINISHED = "finished"  # the run used its time, or proved its schedule optimal
    STOPPED = "stopped"  # the director pressed Stop: the best so far was kept
    INTERRUPTED = "interrupted"  # the desk stopped while it ran: nothing was kept, it can run again
    FAILED = "failed"  # the library refused the request, or found no schedule

    def __str__(self) -> str:  # as the pages and the JSON show it
        return self.value


class EventRow(BaseModel):
    id: int
    settings: dict
    current_version: int | None
    created: str
    archived: bool = False


class VersionRow(BaseModel):
    id: int
    event_id: int
    parent: int | None
    kind: str
    note: str
    played: int  # the schedule's own `played`, read by SQLite without parsing the schedule
    figures: dict
    created: str
    schedule_json: str

    def schedule(self) -> Schedule:
        return Schedule.model_validate_json(self.schedule_json)


class RunRow(BaseModel):
    id: int
    event_id: int
    kind: str
    request: dict
    status: RunStatus
    pid: int | None
    time_limit: float
    started: float
    finished: float | None
    stop_asked: bool
    progress: dict
    message: str
    version_id: int | None
    desk: str  # the desk that started it (rotation.desk.worker.Planner.desk)

    @property
    def running(self) -> bool:
        return self.status is RunStatus.RUNNING

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
