"""The planner's tuning figures (optimizer.config.PlanConfig): the default is the run as measured, and a
changed figure changes what the run does where that figure decides."""

import dataclasses
import importlib

import pytest

from models import Event
from optimizer import PlanConfig, plan

REPEATABLE = dict(seed=0, workers=1)  # counts work: the same input gives the same run


def test_the_default_config_is_the_run_without_one():
    event = Event.with_count(12, 3)
    assert (
        plan(event, time_limit=1, **REPEATABLE).schedule
        == plan(event, time_limit=1, config=PlanConfig(), **REPEATABLE).schedule
    )


def test_a_config_is_immutable_and_changed_by_copy():
    config = PlanConfig()
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.probe_share = 0.5  # type: ignore[misc]
    assert dataclasses.replace(config, probe_share=0.5).probe_share == 0.5 and config.probe_share == 0.2


@pytest.mark.parametrize("tabu_max_players, searched", [(None, "tabu_search"), (0, "improve")])
def test_the_tabu_search_size_decides_which_local_search_runs(monkeypatch, tabu_max_players, searched):
    # 20 x 6: the starts leave repeats above the bound, so the local search runs before CP-SAT; tabu search
    # up to tabu_max_players, the round-by-round search past it.
    searching = importlib.import_module("optimizer.pipeline.searching")
    called = []
    for name in ("tabu_search", "improve"):
        original = getattr(searching, name)
        monkeypatch.setattr(searching, name, lambda *a, _f=original, _n=name, **k: called.append(_n) or _f(*a, **k))
    config = PlanConfig() if tabu_max_players is None else PlanConfig(tabu_max_players=tabu_max_players)
    result = plan(Event.with_count(20, 6), time_limit=1, config=config, **REPEATABLE)
    assert called == [searched] and result.schedule is not None


@pytest.mark.parametrize(
    "changed, skipped",
    [({"polish_max_players": 15}, "polish"), ({"numbering_max_cells": 15 * 4 - 1}, "balance_table_numbers")],
)
def test_the_balancing_figures_decide_which_steps_run(monkeypatch, changed, skipped):
    # 16 x 5 has 16 players and 4 tables: regrouped up to polish_max_players, numbered while players x tables
    # stays within numbering_max_cells; one below either and that step never runs.
    stage = importlib.import_module("optimizer.pipeline.balancing")
    called = []
    original = getattr(stage, skipped)
    monkeypatch.setattr(stage, skipped, lambda *a, **k: called.append(skipped) or original(*a, **k))
    event = Event.with_count(16, 5)
    plan(event, time_limit=1, **REPEATABLE)
    assert called  # by default the step runs
    called.clear()
    result = plan(event, time_limit=1, config=PlanConfig(**changed), **REPEATABLE)
    assert not called and result.schedule is not None
