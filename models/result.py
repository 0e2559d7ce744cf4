"""What a planning run reports about itself: the schedule, how good it is, and how sure we are."""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, ConfigDict, Field

from models.metrics import Metrics
from models.schedule import Schedule


class Status(str, Enum):
    OPTIMAL = "optimal"  # repeats equal a proven lower bound
    FEASIBLE = "feasible"  # a checked schedule, not proven best
    INFEASIBLE = "infeasible"  # proven: no schedule meets the hard requests
    UNKNOWN = "unknown"  # no schedule within the time limit


class Bound(BaseModel):
    """A lower bound on repeats and the argument that proves it."""

    model_config = ConfigDict(frozen=True)

    repeats: int = Field(ge=0)
    proof: str


class Comparison(BaseModel):
    """A day beside the fixed rule on the same room (its checked figures) and the lower bound on that room,
    or why they do not describe the day (optimizer.compare)."""

    model_config = ConfigDict(frozen=True)

    fixed: Metrics | None = None
    bound: Bound | None = None
    skipped: str = ""


class PlanResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    status: Status
    repeats: int | None = Field(description="E of the schedule found.")
    bound: Bound = Field(description="The best proven lower bound on E.")
    fixed_repeats: int | None = Field(description="E of the fixed MJMP rotation on the same room.")
    method: str = Field(description="Which way of building produced the schedule.")
    runtime: float = Field(description="Seconds spent.")
    time_to_first: float | None = Field(default=None, description="Seconds to the first schedule.")
    time_to_best: float | None = Field(default=None, description="Seconds to the returned schedule.")
    interrupted: bool = Field(default=False, description="Stopped early by the user (Ctrl-C).")
    schedule: Schedule | None = None
    metrics: Metrics | None = None

    @property
    def optimal(self) -> bool:
        return self.status is Status.OPTIMAL

    @property
    def gap(self) -> int | None:
        return None if self.repeats is None else self.repeats - self.bound.repeats


class Answer(str, Enum):
    EXISTS = "exists"
    IMPOSSIBLE = "impossible"
    UNKNOWN = "unknown"


class Verdict(BaseModel):
    """Does a schedule with no repeat opponents exist? With a certificate or a proof, or 'unknown'."""

    model_config = ConfigDict(frozen=True)

    players: int
    rounds: int
    answer: Answer
    reason: str = Field(description="The certificate's origin, the proof, or what was tried.")
    schedule: Schedule | None = Field(default=None, description="The certificate when the answer is 'exists'.")
    runtime: float = 0.0


class Reseat(str, Enum):
    """Whom a re-plan may move: as few players as it can (then the fewest repeats), or everyone."""

    FEWEST = "fewest"  # fewest moves first, then repeats and the rest
    ALL = "all"  # fewest repeats, moves not counted


class Moves(BaseModel):
    """How far a re-plan departs from the plan it replaces. A move is one player in one round still to
    play whose table or seat letter differs from the old plan (an arrival moves in every round they
    play; players who left count nothing)."""

    model_config = ConfigDict(frozen=True)

    moves: int = Field(ge=0, description="Players moved, counted once per round.")
    players: int = Field(ge=0, description="Players moved in at least one round.")
    bound: int = Field(ge=0, description="Proven: no valid re-plan of these rounds moves fewer.")
    repeats_proven: bool = Field(default=False, description="Proven: no re-plan with these moves has fewer repeats.")

    @property
    def proven(self) -> bool:
        return self.moves <= self.bound


class OtherWay(BaseModel):
    """A short run of the other reseat choice, for comparison: what it would cost or gain."""

    model_config = ConfigDict(frozen=True)

    reseat: Reseat
    repeats: int | None = Field(description="Whole-day repeats it found; None when it found no schedule.")
    moves: Moves | None = None
    runtime: float


class PlayerChange(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    rounds: tuple[int, ...] = Field(description="Rounds (1-based) whose table or seat changed for this player.")


class Replan(BaseModel):
    """A day re-planned after some rounds were played: the new result and what it changed."""

    model_config = ConfigDict(frozen=True)

    played: int = Field(description="Rounds kept exactly as played.")
    dropped: tuple[str, ...]
    added: tuple[str, ...]
    repeats_before: int = Field(description="E of the day as it was planned before.")
    repeats_played: int = Field(description="E of the rounds already played.")
    result: PlanResult
    changes: tuple[PlayerChange, ...] = Field(description="Players whose later rounds changed.")
    reseat: Reseat = Reseat.ALL
    moves: Moves | None = Field(default=None, description="Moves against the old plan (None without a schedule).")
    other_way: OtherWay | None = Field(default=None, description="The other reseat choice, from a short run.")
