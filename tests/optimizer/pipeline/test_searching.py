"""The plan's search stage (optimizer.pipeline.searching): it returns the bound it proved in its typed result
(SearchOutcome) and reports each raise to the progress line, writing nothing into the run."""

from __future__ import annotations

import numpy as np
import pytest

import optimizer
import optimizer.cpsat
from models import Bound, Event
from optimizer.budget import Budget
from optimizer.constructions.fixed import fixed_seating
from optimizer.pipeline.provenance import Method
from optimizer.pipeline.run import Run
from optimizer.pipeline.searching import Search
from optimizer.pipeline.starts import offer_starts
from optimizer.pipeline.state import History


def _run(players: int, rounds: int, **options) -> Run:
    event = Event.with_count(players, rounds)
    return Run(event=event, history=History(), budget=Budget.of(2.0, repeatable=True), seed=0, workers=1, **options)


@pytest.mark.slow
def test_the_search_returns_its_bound_and_shows_each_raise_on_the_progress_line():
    # 13 x 4: the starts leave 6 repeats over the counting bound of 4; the split probes prove 5, then 6.
    run = _run(13, 4)
    raised: list[Bound] = []
    shown = run.progress.bound_raised
    run.progress.bound_raised = lambda bound: raised.append(bound) or shown(bound)  # type: ignore[method-assign]
    rng = np.random.default_rng(0)
    offer_starts(run, rng)
    outcome = Search(run, rng, warm_start=True)()
    assert run.bound.repeats == 4 and run.bound == optimizer.lower_bound(run.event)  # the run's is as it began
    assert [bound.repeats for bound in raised] == [5, 6] and outcome.bound == raised[-1] == run.progress.bound
    assert "split into" in outcome.bound.proof and not outcome.infeasible


def test_a_better_schedule_is_shown_with_the_bound_last_raised():
    shown = []
    run = _run(16, 4, on_progress=shown.append)
    run.progress.bound_raised(Bound(repeats=5, proof="a proof"))
    run.offer(fixed_seating(run.event), Method.of("fixed rule"))
    assert [line.lower_bound for line in shown] == [5] and run.bound.repeats == 0


@pytest.mark.slow
def test_an_interrupted_search_keeps_the_bound_its_probes_proved(monkeypatch):
    # 14 x 5: the split probes raise the bound from 4 to 5, then the whole-day model runs; Ctrl-C there.
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(optimizer.cpsat, "solve", interrupted)
    result = optimizer.plan(Event.with_count(14, 5), time_limit=2.0, seed=0, workers=1)
    assert result.interrupted and result.bound.repeats == 5 and "split into" in result.bound.proof
