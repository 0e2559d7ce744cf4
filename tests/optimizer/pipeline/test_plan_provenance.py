"""How a seating was made (optimizer.pipeline.provenance): structured steps that read as the method string files and
`--verbose` have always carried."""

import numpy as np

from models import Event
from optimizer import plan
from optimizer.pipeline.provenance import (
    BALANCED,
    COMPUTED_AHEAD,
    EXTENDED,
    NUMBERED_EXACTLY,
    Change,
    Method,
    rounds_chosen,
    searched,
)
from optimizer.pipeline.stages import Start


def test_steps_read_as_the_method_always_read():
    design = Method.of("rotational Z_13 x 3 + 1 fixed, classes turned (library)")
    chosen = design.then(rounds_chosen(8, 13), BALANCED, NUMBERED_EXACTLY)
    assert str(chosen) == (
        "rotational Z_13 x 3 + 1 fixed, classes turned (library), 8 of its 13 rounds chosen for the table numbers,"
        " balanced, tables numbered exactly"
    )
    extended = Method.of("affine geometry AG(2,4) (library)").then(EXTENDED, searched(tabu=True), BALANCED)
    assert str(extended) == "affine geometry AG(2,4) (library), extended, tabu search, balanced"
    assert str(Method.of("greedy round by round").then(searched(tabu=False))) == "greedy round by round, local search"
    stored = Method.of("5 s plan (seed 3, 1 worker)").then(COMPUTED_AHEAD, BALANCED)
    assert str(stored) == "5 s plan (seed 3, 1 worker), computed ahead, balanced"


def test_a_start_keeps_what_built_it_and_adds_what_changed_it():
    seats = np.arange(16).reshape(1, 4, 4)
    start = Start.built(seats, "affine geometry AG(2,4) (library)")
    longer = start.then(np.concatenate([seats, seats]), EXTENDED)
    assert [step.change for step in longer.made.steps] == [Change.BUILT, Change.EXTENDED]
    assert len(longer.seats) == 2 and len(start.seats) == 1 and start.made.steps == longer.made.steps[:1]


def test_a_plans_method_is_its_best_days_steps():
    # 16 x 5: the affine plane's day, balanced, its tables then numbered exactly (a repeatable run)
    result = plan(Event.with_count(16, 5), time_limit=3, seed=0, workers=1)
    assert result.method == "affine geometry AG(2,4) (library), balanced, tables numbered exactly"
