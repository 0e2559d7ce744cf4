"""Budgets for tests: one that records which modules asked it, one whose clock ends after so many reads."""

from __future__ import annotations

import math
import sys

from optimizer.budget import Budget, Stop, WallClock, WorkClock


def askers() -> set[str]:
    """The optimizer's modules on the stack below the budget (who asked it)."""
    frame, found = sys._getframe(2), set()
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name.startswith("optimizer.") and name != "optimizer.budget":
            found.add(name)
        frame = frame.f_back
    return found


class AskedWallClock(WallClock):
    """The wall clock, noting every module on the stack at each read."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: set[str] = set()

    def now(self) -> float:
        self.asked |= askers()
        return super().now()


class AskedWorkClock(WorkClock):
    """The work clock, noting every module on the stack at each read."""

    def __init__(self) -> None:
        super().__init__()
        self.asked: set[str] = set()

    def now(self) -> float:
        self.asked |= askers()
        return super().now()


def recording(seconds: float, *, repeatable: bool = False) -> Budget:
    """A run's budget (Budget.of) whose clock records who read it: `budget.clock.asked`."""
    clock = AskedWorkClock() if repeatable else AskedWallClock()
    return Budget(clock, seconds, Stop())


class EndsAfterReads(WallClock):
    """A wall clock at 0 for its first `reads` reads, then at infinity: the end comes after that many polls."""

    def __init__(self, reads: int) -> None:
        super().__init__()
        self.reads, self.count = reads, 0

    def now(self) -> float:
        self.count += 1
        return 0.0 if self.count <= self.reads else math.inf


def ending_after(reads: int, seconds: float = 1.0) -> Budget:
    return Budget(EndsAfterReads(reads), seconds, Stop())


class StopsAfterPolls(Stop):
    """A stop token that is set after it has been polled `polls` times (the stop comes inside the step)."""

    def __init__(self, polls: int) -> None:
        super().__init__()
        self.polls, self.count = polls, 0

    def is_set(self) -> bool:
        self.count += 1
        return self.count > self.polls or super().is_set()
