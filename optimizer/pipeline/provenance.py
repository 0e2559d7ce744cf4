"""How a seating was made, as steps: what built it, then what changed it, in order.

The method a result reports (PlanResult.method, the files' provenance, `--verbose`) is the steps' words
joined by commas, e.g. "affine geometry AG(2,4) (library), extended, tabu search, balanced"; files
written before keep reading the same, so the words of each step are fixed here and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Change(Enum):
    """What a step did to the seating."""

    BUILT = "built"  # the first step: a construction, a search from nothing, a stored day, a model's answer
    ROUNDS_CHOSEN = "rounds chosen"  # some rounds of a longer design, chosen for the table numbers
    EXTENDED = "extended"  # rounds added by local search to a design shorter than the day
    SEARCHED = "searched"  # improved by local search
    COMPUTED_AHEAD = "computed ahead"  # taken from the days stored for the room (optimizer.balance.ahead)
    BALANCED = "balanced"  # regrouped, ordered, numbered and lettered at the same repeats (optimizer.balance)
    NUMBERED_EXACTLY = "numbered exactly"  # its tables renumbered by CP-SAT (optimizer.balance.exact_numbers)


@dataclass(frozen=True)
class Step:
    change: Change
    words: str  # how the step reads in the method

    def __str__(self) -> str:
        return self.words


def built(words: str) -> Step:
    return Step(Change.BUILT, words)


def rounds_chosen(chosen: int, of: int) -> Step:
    return Step(Change.ROUNDS_CHOSEN, f"{chosen} of its {of} rounds chosen for the table numbers")


def searched(tabu: bool) -> Step:
    return Step(Change.SEARCHED, f"{'tabu' if tabu else 'local'} search")


EXTENDED = Step(Change.EXTENDED, "extended")
COMPUTED_AHEAD = Step(Change.COMPUTED_AHEAD, "computed ahead")
BALANCED = Step(Change.BALANCED, "balanced")
NUMBERED_EXACTLY = Step(Change.NUMBERED_EXACTLY, "tables numbered exactly")


@dataclass(frozen=True)
class Method:
    """How a seating was made: its steps, the first what built it; its words are the result's method
    (models.Provenance is the schedule file's record, which carries them)."""

    steps: tuple[Step, ...]

    @classmethod
    def of(cls, words: str) -> Method:
        """A seating built in one step, named by `words`."""
        return cls((built(words),))

    def then(self, *steps: Step) -> Method:
        """The same seating's method after these steps changed it."""
        return Method(self.steps + steps)

    def __str__(self) -> str:
        return ", ".join(str(step) for step in self.steps)
