"""What the planner's stages hand each other (optimizer.plan), typed.

Start          a seating offered as a start, with how it was made (optimizer.pipeline.provenance)
Starts         what the starts stage hands the balancing beside the starts it offered: the day as built
ProbeResult    what 'at most bound repeats?' ended with: a day, a proof that none exists, or neither
SearchOutcome  what the search for fewer repeats proved beside the best day, which the incumbent holds: the
               bound, and whether the event has no schedule
"""

from __future__ import annotations

from dataclasses import dataclass

from models import Bound
from optimizer.pipeline.provenance import Method, Step
from optimizer.seats import Seats


@dataclass(frozen=True)
class Start:
    seats: Seats
    made: Method

    @classmethod
    def built(cls, seats: Seats, words: str) -> Start:
        """Seats built in one step, named by `words` (a construction's answer, optimizer.constructions)."""
        return cls(seats, Method.of(words))

    def then(self, seats: Seats, *steps: Step) -> Start:
        """The start these steps made of this one."""
        return Start(seats, self.made.then(*steps))


@dataclass(frozen=True)
class Starts:
    """What the starts found beside what they offered: a repeat-free day as built, where the rounds offered
    instead were chosen for the table numbers (balanced too, as before the choice, so that the choice can
    only gain)."""

    as_built: Start | None = None


@dataclass(frozen=True)
class ProbeResult:
    """What a probe ('at most bound repeats?') ended with: a day within the bound, or a proof that none
    exists (named by `how`), or neither (out of time, or stopped)."""

    seats: Seats | None
    made: Method  # how the day was found
    proven: bool
    how: str  # how the proof was reached, for the bound's text
    found_at: float | None = None


@dataclass(frozen=True)
class SearchOutcome:
    """What the search proved beside the best day: the lower bound on repeats (the run's, raised by its
    proofs) and whether the event has no schedule at all."""

    bound: Bound
    infeasible: bool = False
