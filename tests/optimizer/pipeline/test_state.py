"""The typed state of a planning run (optimizer.pipeline.state): History's translation between the whole day
and the planned rounds, and the Incumbent's one way in."""

from __future__ import annotations

import numpy as np
import pytest

from models import Event, OddPolicy, Round, Schedule, Table
from optimizer.budget import Budget
from optimizer.checking.checker import check
from optimizer.constructions.fixed import fixed_seating
from optimizer.pipeline.provenance import Method
from optimizer.pipeline.state import History, Incumbent
from optimizer.seats import EMPTY, repeats, to_schedule

# -- History ---------------------------------------------------------------------------------------


def test_a_fresh_history_translates_nothing():
    history = History()
    assert history.fresh
    assert history.planned_target(7) == 7 and history.day_bound(7) == 7


@pytest.mark.parametrize("day, planned", [(10, 6), (4, 0), (3, 0), (0, 0)])
def test_planned_target_takes_off_the_repeats_the_model_cannot_see(day, planned):
    assert History(met_before=np.zeros((4, 4)), unseen_repeats=4).planned_target(day) == planned


@pytest.mark.parametrize("planned", [0, 1, 9])
def test_day_bound_adds_them_back(planned):
    history = History(met_before=np.zeros((4, 4)), unseen_repeats=4)
    assert not history.fresh
    assert history.day_bound(planned) == planned + 4
    assert history.planned_target(history.day_bound(planned)) == planned  # the two translations invert


def test_whole_day_joins_the_played_rounds():
    event = Event.with_count(8, 1)
    seats = fixed_seating(event)
    played = Round(
        tables=(Table(table=1, players=("P1", "P2", "P3", "P4")), Table(table=2, players=("P5", "P6", "P7", "P8")))
    )

    def join(planned: Schedule) -> Schedule:
        return planned.model_copy(update={"rounds": (played,) + planned.rounds})

    assert len(History().whole_day(event, seats).rounds) == 1
    day = History(met_before=np.zeros((8, 8)), join=join).whole_day(event, seats)
    assert day.rounds[0] == played and len(day.rounds) == 2 and day.rule == "variety"


# -- Incumbent -------------------------------------------------------------------------------------


def incumbent(event: Event) -> tuple[Incumbent, list]:
    better = []
    return Incumbent(event, History(), Budget.of(60), on_better=better.append), better


def test_incumbent_refuses_an_invalid_seating():
    event = Event.with_count(8, 2)
    seats = fixed_seating(event)
    seats[1, 0, 0] = seats[1, 1, 0]  # one player at two tables in round 2, another at none
    run, better = incumbent(event)
    run.offer(seats, Method.of("broken"))
    assert run.best is None and better == [] and run.time_to_first is None


def test_incumbent_refuses_a_seating_that_breaks_a_request():
    event = Event(players=Event.with_count(8, 2).players, rounds=2, apart=(("P1", "P2"),))
    run, _ = incumbent(event)
    run.offer(fixed_seating(event), Method.of("fixed rule"))  # P1 and P2 share table 1 in round 1
    assert run.best is None


def test_incumbent_refuses_an_unfair_seating():
    event = Event.with_count(7, 3, odd=OddPolicy.THREE_HANDED)
    seats = fixed_seating(event)
    seats[1:] = seats[:1]  # the same three players take the table of three every round
    metrics = check(to_schedule(event, seats, rule="variety"))  # valid, but not shared in turn
    assert metrics.three_handed_fair is False
    run, _ = incumbent(event)
    run.offer(seats, Method.of("unfair"))
    assert run.best is None


def test_incumbent_keeps_the_better_rank():
    event = Event.with_count(8, 3)
    good = fixed_seating(event)
    bad = np.stack([good[0]] * 3)  # the same round three times
    assert repeats(good, 8) < repeats(bad, 8)
    run, better = incumbent(event)
    run.offer(bad, Method.of("bad"))
    assert run.best.method == "bad" and run.best.metrics.repeats == repeats(bad, 8)
    first = run.time_to_first
    run.offer(good, Method.of("good"))
    assert run.best.method == "good" and run.best.metrics.repeats == repeats(good, 8)
    run.offer(bad, Method.of("bad again"))
    run.offer(good.copy(), Method.of("good again"))  # an equal rank does not replace the best
    assert run.best.method == "good"
    assert [c.method for c in better] == ["bad", "good"]
    assert run.time_to_first == first


def test_incumbent_breaks_a_tie_in_repeats_by_club_mate_meetings():
    event = Event(players=Event.with_count(8, 1).players, rounds=1, spread=(("P1", "P2"),))
    together = np.array([[[0, 1, 2, 3], [4, 5, 6, 7]]])
    apart = np.array([[[0, 2, 4, 6], [1, 3, 5, 7]]])
    run, _ = incumbent(event)
    run.offer(together, Method.of("club-mates together"))
    assert run.best.rank[:2] == (0, 1)
    run.offer(apart, Method.of("club-mates apart"))
    assert run.best.method == "club-mates apart" and run.best.rank[:2] == (0, 0)


def test_incumbent_keeps_the_schedule_the_checker_judged():
    event = Event.with_count(8, 2)
    seats = fixed_seating(event)
    run, _ = incumbent(event)
    run.offer(seats, "fixed rule", found_at=1.5)
    assert run.best.found_at == 1.5
    assert run.best.schedule.rounds[0].tables[0].players == ("P1", "P2", "P3", "P4")
    assert (run.best.seats == seats).all() and EMPTY not in run.best.seats
