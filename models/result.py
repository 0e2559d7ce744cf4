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
