"""Limits that hold at any size (issue 54): the long steps poll the budget, so that a run ends at its end
or at a stop, the best so far kept. No timings: what is asserted is who polled and when."""

from __future__ import annotations

import numpy as np
import pytest

import optimizer
import optimizer.balance.polish  # noqa: F401  (the module, not the function the package exports)
from budget_helpers import StopsAfterPolls, ending_after, recording
from models import Answer, Event
from optimizer.balance.letters import letters_work
from optimizer.balance.order import order_work
from optimizer.budget import EPSILON, Budget, Deadline, Stop
from optimizer.constructions.fixed import fixed_seating
from optimizer.moves import OldPlan, fewest_moves
from optimizer.pipeline.provenance import Method
from optimizer.pipeline.run import Run
from optimizer.pipeline.state import (
    FINISH_SECONDS,
    QUICK_CHECK_SECONDS,
    STOPPED_INDIRECT_SECONDS,
    History,
    Incumbent,
    check_work,
)
from optimizer.replan import _history, _remaining_event
from optimizer.season import plan_night
from optimizer.seats import from_schedule, to_schedule

polish_module = __import__("sys").modules["optimizer.balance.polish"]
state_module = __import__("sys").modules["optimizer.pipeline.state"]


def shuffled_day(players: int, rounds: int, seed: int = 0) -> np.ndarray:
    """A day of random rounds (the fixed rule's seats shuffled in each round): trios again to polish."""
    seats, rng = fixed_seating(Event.with_count(players, rounds)), np.random.default_rng(seed)
    for round_ in seats:
        rng.shuffle(round_.reshape(-1))
    return seats


def test_a_polish_step_is_given_up_between_rounds_when_the_end_comes(monkeypatch):
    seats = shuffled_day(40, 10)
    weighed = []
    round_moves = polish_module._round_moves
    monkeypatch.setattr(
        polish_module, "_round_moves", lambda state, r, limits: weighed.append(r) or round_moves(state, r, limits)
    )
    budget = ending_after(reads=4)
    polished = polish_module.polish(seats, np.random.default_rng(0), budget=budget)
    assert 0 < len(weighed) < len(seats)  # the end came inside the first step, after a round or two
    assert (polished == seats).all()  # no step was taken: the input is the best so far
    assert budget.done()


# One budget, handed down (issue 56): each entry point takes a budget and the stages it composes poll it.
# The budget's clock records which of the optimizer's modules were on the stack at each read.


def test_a_plan_hands_its_budget_to_the_starts_the_search_and_the_balancing():
    budget = recording(2.0)
    result = optimizer.plan(Event.with_count(20, 6), budget=budget, workers=2)
    assert result.schedule is not None
    stages = {"optimizer.pipeline.starts", "optimizer.pipeline.searching", "optimizer.pipeline.balancing"}
    assert stages <= budget.clock.asked
    assert {"optimizer.search.swaps", "optimizer.balance.polish"} <= budget.clock.asked  # their long steps


def test_a_replan_hands_parts_of_its_budget_to_the_fewest_moves_and_to_the_comparison():
    day = optimizer.plan(Event.with_count(16, 5), time_limit=1, workers=1, seed=0).schedule
    assert day is not None
    budget = recording(3.0, repeatable=True)
    replanned = optimizer.replan(day, 2, drop=("P03",), budget=budget, workers=1)
    assert replanned.other_way is not None  # the comparison ran, within the same budget
    assert {"optimizer.moves.solve", "optimizer.plan", "optimizer.pipeline.searching"} <= budget.clock.asked
    assert budget.left() >= 0 and budget.clock.now() <= 3.0 + 0.5  # the parts' work was charged here


def test_the_fewest_moves_polls_the_budget_it_is_handed():
    day = optimizer.plan(Event.with_count(16, 5), time_limit=1, workers=1, seed=0).schedule
    assert day is not None
    event = _remaining_event(day, 2, ("P03",), ())
    history = _history(day, 2, event, ("P03",), (), 0)
    budget = recording(2.0)
    found = fewest_moves(event, history, OldPlan.of(day, 2, event.players), budget=budget, workers=2)
    assert found.result.schedule is not None
    assert "optimizer.moves.solve" in budget.clock.asked


def test_the_verdict_hands_its_budget_to_the_constructions_and_the_model_size_check():
    budget = recording(1.0)
    verdict = optimizer.zero_repeat_verdict(Event.with_count(68, 22), budget=budget, workers=2)
    assert verdict.answer is Answer.UNKNOWN and "too big to build" in verdict.reason  # 851 972 clauses
    assert {"optimizer.constructions.rotational", "optimizer.config"} <= budget.clock.asked


def test_the_verdict_hands_what_the_constructions_leave_to_the_planners_search():
    # 68 x 18: no construction reaches it and its whole-day model is too big for the time, but the planner's
    # local search finds a repeat-free day (one seeded worker counting work: the same on any load)
    budget = recording(10.0, repeatable=True)
    verdict = optimizer.zero_repeat_verdict(Event.with_count(68, 18), budget=budget, seed=0, workers=1)
    assert verdict.answer is Answer.EXISTS and "planner's search" in verdict.reason
    assert verdict.schedule is not None and optimizer.check(verdict.schedule).repeats == 0
    assert {"optimizer.plan", "optimizer.pipeline.searching"} <= budget.clock.asked


def test_the_verdict_hands_its_budget_to_cp_sat():
    budget = recording(3.0)
    verdict = optimizer.zero_repeat_verdict(Event.with_count(41, 10, odd="three-handed"), budget=budget, workers=2)
    assert "CP-SAT" in verdict.reason or verdict.answer is Answer.UNKNOWN
    assert "optimizer.cpsat.solve" in budget.clock.asked


def test_a_night_hands_parts_of_its_budget_to_the_plan_the_descent_and_the_comparison():
    players = tuple(f"P{i:02d}" for i in range(1, 17))
    # three rounds last week: tonight cannot avoid every pair that met, so the descent has work to do (on a
    # night that reaches the season's floor it takes no step, and asks nothing)
    last_week = optimizer.plan(Event(players=players, rounds=3), time_limit=1, workers=1, seed=0).schedule
    assert last_week is not None
    budget = recording(2.0, repeatable=True)
    planned = plan_night(Event(players=players, rounds=3), [last_week], budget=budget, workers=1)
    assert planned.result.schedule is not None and planned.alone is not None
    assert {"optimizer.plan", "optimizer.season.descent", "optimizer.pipeline.balancing"} <= budget.clock.asked


def test_a_repeatable_polish_is_charged_by_the_swaps_it_weighs_and_begins_no_step_it_cannot_pay(monkeypatch):
    seats = shuffled_day(200, 10)
    step = 10 * 200 * 200 * polish_module.SECONDS_PER_SWAP  # past 1 / STEPS_PER_SECOND at this size
    assert step > 1 / polish_module.STEPS_PER_SECOND
    weighed = []
    round_moves = polish_module._round_moves
    monkeypatch.setattr(
        polish_module, "_round_moves", lambda state, r, limits: weighed.append(r) or round_moves(state, r, limits)
    )
    polish_module.polish(seats, np.random.default_rng(0), budget=Budget.of(0.5 * step, repeatable=True))
    assert weighed == []  # half a step's work: none begun
    budget = Budget.of(2.5 * step, repeatable=True)
    polish_module.polish(seats, np.random.default_rng(0), budget=budget)
    assert len(weighed) == 2 * len(seats)  # two whole steps, every round weighed in each
    assert budget.clock.now() == pytest.approx(2 * step)


def test_a_run_stopped_before_balancing_orders_its_best_within_half_a_second_of_the_wall_clock(monkeypatch):
    stage = __import__("sys").modules["optimizer.pipeline.balancing"]
    budgets = []
    order_rounds = stage.order_rounds
    monkeypatch.setattr(
        stage,
        "order_rounds",
        lambda seats, budget, **rest: budgets.append(budget) or order_rounds(seats, budget=budget, **rest),
    )
    stop = Stop()
    stop.set()  # a repeatable run of a minute, stopped at once: the fixed rule is its best
    result = optimizer.plan(Event.with_count(40, 8), time_limit=60, workers=1, seed=0, stop=stop)
    assert result.interrupted and result.schedule is not None
    assert budgets and all(
        not b.repeatable and b.end <= stage.STOPPED_FINISH_SECONDS for b in budgets
    )  # less the letters'
    assert all(b.clock.started == stop.since() for b in budgets)  # counted from the stop, not from the finish


class StoppedLongAgo(Stop):
    """A stop asked `seconds` before it was made: as if the stop came early in a long step (the first check
    of a big day) that ran on after it."""

    def __init__(self, seconds: float) -> None:
        super().__init__()
        self.set()
        self.asked_at = (self.since() or 0.0) - seconds

    def since(self) -> float | None:
        return self.asked_at if hasattr(self, "asked_at") else super().since()


def test_a_stop_inside_a_long_step_leaves_the_finish_only_what_is_left_of_its_seconds(monkeypatch):
    stage = __import__("sys").modules["optimizer.pipeline.balancing"]
    ordered, lettered = [], []
    monkeypatch.setattr(stage, "order_rounds", lambda seats, **rest: ordered.append(1) or seats)
    monkeypatch.setattr(stage, "balance_letters", lambda seats, **rest: lettered.append(1) or seats)
    monkeypatch.setattr(state_module, "STOPPED_FIRST_CHECK_SECONDS", 60.0)  # the first day checked all the same
    stop = StoppedLongAgo(stage.STOPPED_FINISH_SECONDS + 1)  # its finish was over before the run came to it
    result = optimizer.plan(Event.with_count(40, 8), time_limit=60, workers=1, seed=0, stop=stop)
    assert result.interrupted and result.schedule is not None  # the best so far, checked, kept
    assert ordered == [] and lettered == []  # no quick step begun past the stop's finish
    assert result.metrics is not None and result.metrics.indirect_meetings is None  # nor the indirect figure
    fresh = Stop()
    fresh.set()
    assert optimizer.plan(Event.with_count(40, 8), time_limit=60, workers=1, seed=0, stop=fresh).metrics
    assert ordered and lettered  # a stop just now: the quick steps run within its finish


def test_a_finish_after_a_stop_counts_from_the_stop():
    stop = StoppedLongAgo(10.0)
    finish = Budget.after_stop(stop, 0.5)
    assert finish.done() and finish.stopped  # ended 9.5 s ago: its own token is set
    assert not Budget.after_stop(Stop(), 0.5).done()  # no stop yet: from now
    parent = Stop()
    child = Stop(parent)
    parent.set()
    assert child.since() == parent.since() is not None  # a run's token stopped by the process's


# Every long step polls the budget and a repeatable run is charged its work by the size of the room
# (issue 54): counted in rounds numbered, rounds compared, polls and work charged, never in seconds.


def test_table_numbering_is_charged_by_the_size_of_its_rounds_and_begins_no_round_it_cannot_pay(monkeypatch):
    tables_module = __import__("sys").modules["optimizer.balance.tables"]
    seats = shuffled_day(1000, 4)  # 250 tables: a round's assignment is 250 x 250
    work = tables_module.round_work(250)
    assert work > 1 / tables_module.ROUNDS_NUMBERED_PER_SECOND  # charged by its cost matrix, not as a small round
    numbered = []
    number_round = tables_module._number_round
    monkeypatch.setattr(
        tables_module, "_number_round", lambda round_, *rest: numbered.append(1) or number_round(round_, *rest)
    )
    budget = Budget.of(2.5 * work, repeatable=True)
    tables_module.balance_table_numbers(seats, player_count=1000, kicks=0, budget=budget)
    assert len(numbered) == 2  # the third round's work was not left
    assert budget.clock.now() == pytest.approx(2 * work)


def test_the_first_choice_of_rounds_is_numbered_within_the_budget_too(monkeypatch):
    tables_module = __import__("sys").modules["optimizer.balance.tables"]
    design = fixed_seating(Event.with_count(400, 20))
    numbered = []
    number_round = tables_module._number_round
    monkeypatch.setattr(
        tables_module, "_number_round", lambda round_, *rest: numbered.append(1) or number_round(round_, *rest)
    )
    stop = Stop()
    stop.set()
    chosen, seats = tables_module.rounds_for_tables(
        design, 10, np.random.default_rng(0), budget=Budget.of(60, stop=stop)
    )
    assert numbered == [] and chosen == list(range(10)) and (seats == design[:10]).all()


def test_ordering_rounds_is_charged_its_comparisons_and_keeps_the_order_when_stopped_between_rounds(monkeypatch):
    order_module = __import__("sys").modules["optimizer.balance.order"]
    seats = shuffled_day(200, 30)
    budget = Budget.of(60, repeatable=True)
    order_module.order_rounds(seats, player_count=200, budget=budget)
    assert budget.clock.now() >= order_module.order_work(seats, 200)  # and the orders weighed by the local search
    compared = []
    pairs_in_both = order_module._pairs_in_both
    monkeypatch.setattr(order_module, "_pairs_in_both", lambda *args: compared.append(1) or pairs_in_both(*args))
    stop = StopsAfterPolls(3)
    kept = order_module.order_rounds(seats, player_count=200, budget=Budget.of(60, stop=stop))
    assert (kept == seats).all()  # stopped while comparing rounds: the order as given
    assert 0 < len(compared) < 30 * 29 // 2  # a few rounds compared, not the day


def test_lettering_is_charged_its_seats_and_a_stop_inside_the_colouring_keeps_the_letters(monkeypatch):
    letters_module = __import__("sys").modules["optimizer.balance.letters"]
    seats = shuffled_day(1000, 12)
    budget = Budget.of(60, repeatable=True)
    letters_module.balance_letters(seats, player_count=1000, budget=budget)
    assert budget.clock.now() == pytest.approx(letters_module.letters_work(seats))
    assert letters_module.letters_work(seats) == pytest.approx(12_000 / letters_module.SEATS_LETTERED_PER_SECOND)
    stop = StopsAfterPolls(2)
    kept = letters_module.balance_letters(seats, player_count=1000, budget=Budget.of(60, stop=stop))
    assert (kept == seats).all() and stop.count > 2  # polled inside the colouring (12 000 seats), then given up


@pytest.mark.parametrize("players, rounds", [(276, 89), (276, 90), (360, 92)])
def test_a_repeatable_plan_of_a_design_keeps_its_balancing_within_its_work(players, rounds):
    """The frontier's rooms (a design start at the bound, so the balancing has all that is left): the order's
    search and the regroupings leave the seat letters their work, and a regrouping that changes nothing is
    not lettered again; 276 x 90's rounds, chosen from the design's 91 for the tables, leave the chosen day its
    letters and checks (they had charged 1.26, 1.05 and 1.43 s of work for a 1 s limit, their days unlettered)."""
    budget = Budget.of(1.0, repeatable=True)
    metrics = optimizer.plan(Event.with_count(players, rounds), budget=budget, workers=1).metrics
    assert budget.clock.now() <= 1.0 + EPSILON
    assert metrics is not None and metrics.repeats == 0 and metrics.seat_spread <= 1  # lettered and checked in it


def test_a_regrouping_for_tables_that_changes_nothing_is_not_lettered_again(monkeypatch):
    balancing = __import__("sys").modules["optimizer.pipeline.balancing"]
    lettered = []
    letters = balancing.balance_letters
    monkeypatch.setattr(
        balancing, "balance_letters", lambda seats, **rest: lettered.append(1) or letters(seats, **rest)
    )
    monkeypatch.setattr(balancing, "regroup_for_tables", lambda seats, *rest, **named: seats)
    optimizer.plan(Event.with_count(360, 92), budget=Budget.of(1.0, repeatable=True), workers=1)
    assert len(lettered) == 1  # the best day's, once


def test_a_check_polls_round_by_round_and_a_stopped_one_keeps_the_best():
    event = Event.with_count(100, 20)
    polls = []
    optimizer.check(to_schedule(event, fixed_seating(event), rule="variety"), poll=lambda: polls.append(1))
    assert len(polls) >= 20  # a poll each round, and between the figures
    stop = Stop()
    budget = Budget.of(60, repeatable=True, stop=stop)
    incumbent = Incumbent(event, History(), budget)
    incumbent.offer(fixed_seating(event), Method.of("fixed rule"))
    first = incumbent.best
    assert first is not None and budget.clock.now() == pytest.approx(check_work(first.seats))  # charged its seats
    stop.set()
    better = optimizer.plan(event, time_limit=5, workers=1, seed=0).schedule
    assert better is not None
    incumbent.offer(from_schedule(better), Method.of("a better day"))
    assert incumbent.best is first  # the check of the better day was given up: the best so far is kept


def test_a_stopped_runs_finish_ends_by_its_own_stop_token():
    finish = Deadline(0.0)
    assert finish.is_set()  # its end has come: every step of the finish polls this token
    later = Deadline(60.0)
    assert not later.is_set()
    later.set()
    assert later.is_set()


def test_the_search_keeps_back_the_balancing_of_a_day_where_it_is_not_quick():
    def search_end(players: int, rounds: int) -> float:
        event = Event.with_count(players, rounds)
        run = Run(event=event, history=History(), budget=Budget.of(1.0, repeatable=True), seed=0, workers=1)
        run.offer(fixed_seating(event), Method.of("fixed rule"))
        return run.search.end

    assert search_end(20, 6) == pytest.approx(0.95)  # a twentieth kept for balancing; its steps are quick here
    big = fixed_seating(Event.with_count(300, 100))
    steps = 2 * check_work(big) + order_work(big, 300) + letters_work(big)
    assert steps > QUICK_CHECK_SECONDS
    assert search_end(300, 100) == pytest.approx(0.95 - steps)  # a day's check, and its order, letters and check


def test_after_a_stop_the_indirect_figure_is_left_out_where_a_check_took_longer_than_it_may():
    event = Event.with_count(40, 8)
    incumbent = Incumbent(event, History(), Budget.of(60))
    incumbent.offer(fixed_seating(event), Method.of("fixed rule"))
    bound = optimizer.lower_bound(event)
    assert incumbent.result(bound, fixed_repeats=None, infeasible=False, interrupted=True).metrics.indirect_meetings
    incumbent.check_seconds = STOPPED_INDIRECT_SECONDS  # as slow a check as at the room limits on a busy machine
    stopped = incumbent.result(bound, fixed_repeats=None, infeasible=False, interrupted=True)
    assert stopped.metrics is not None and stopped.metrics.indirect_meetings is None and stopped.schedule is not None
    finished = incumbent.result(bound, fixed_repeats=None, infeasible=False, interrupted=False)
    assert finished.metrics is not None and finished.metrics.indirect_meetings is not None


def test_a_wall_clock_run_come_to_balancing_past_its_end_runs_only_the_steps_that_fit_its_finish(monkeypatch):
    stage = __import__("sys").modules["optimizer.pipeline.balancing"]
    ordered = []
    monkeypatch.setattr(stage, "order_rounds", lambda seats, **rest: ordered.append(len(seats)) or seats)
    monkeypatch.setattr(stage, "STOPPED_FINISH_SECONDS", 0.0)  # its finish is over at its end
    big = Event.with_count(800, 100)  # the fixed rule's day has repeats: its rounds are ordered
    assert stage.order_work(fixed_seating(big), 800) > stage.QUICK_CHECK_SECONDS  # not a quick step
    result = optimizer.plan(big, budget=Budget.of(0.0), workers=2)  # past its end from the start
    assert result.schedule is not None and not result.interrupted  # the first day, checked, kept
    assert ordered == []  # its rounds not compared past the end
    small = optimizer.plan(Event.with_count(20, 6), budget=Budget.of(0.0), workers=2)
    assert small.schedule is not None and ordered == [6]  # a quick step runs all the same
    assert small.metrics is not None and small.metrics.seat_spread <= 1  # and the letters are balanced


def test_a_wall_clock_run_past_its_end_leaves_out_the_indirect_figure_where_a_check_took_longer_than_it_may():
    event = Event.with_count(40, 8)
    incumbent = Incumbent(event, History(), Budget.of(0.0))  # on the wall clock, its end come
    incumbent.offer(fixed_seating(event), Method.of("fixed rule"))
    bound = optimizer.lower_bound(event)
    quick = incumbent.result(bound, fixed_repeats=None, infeasible=False, interrupted=False)
    assert quick.metrics is not None and quick.metrics.indirect_meetings is not None  # a small room's: measured
    incumbent.check_seconds = STOPPED_INDIRECT_SECONDS  # as slow a check as at the room limits on a busy machine
    late = incumbent.result(bound, fixed_repeats=None, infeasible=False, interrupted=False)
    assert late.metrics is not None and late.metrics.indirect_meetings is None and late.schedule is not None
    repeatable = Incumbent(event, History(), Budget.of(0.0, repeatable=True))  # the work clock: never late
    repeatable.offer(fixed_seating(event), Method.of("fixed rule"))
    repeatable.check_seconds = STOPPED_INDIRECT_SECONDS
    measured = repeatable.result(bound, fixed_repeats=None, infeasible=False, interrupted=False)
    assert measured.metrics is not None and measured.metrics.indirect_meetings is not None


def test_on_the_wall_clock_a_day_with_fewer_repeats_is_checked_past_the_end_within_the_tidy_up():
    event = Event.with_count(16, 5)
    design = optimizer.constructions.zero_repeat_seating(16, 5, Budget.of(1))
    assert design is not None
    # its end just come, or a tidy-up's time ago: the day is checked in the first alone
    for end, kept in ((0.0, True), (-FINISH_SECONDS, False)):
        incumbent = Incumbent(event, History(), Budget.of(end))
        incumbent.offer(fixed_seating(event), Method.of("fixed rule"))  # the first day: always checked
        assert incumbent.best is not None and incumbent.best.metrics.repeats > 0
        incumbent.check_seconds = 1.0  # as slow a check as at the room limits on a busy machine
        incumbent.offer(fixed_seating(event), Method.of("the same again"))
        assert incumbent.best.method == "fixed rule"  # no fewer repeats: not checked
        incumbent.offer(design.seats, Method.of("design"))
        assert (incumbent.best.metrics.repeats == 0) is kept


def test_a_stop_inside_the_check_of_a_certificate_ends_exists_with_an_honest_unknown():
    event = Event.with_count(16, 5)  # a certificate at once (the library), then its check, round by round
    stop = StopsAfterPolls(2)
    stopped = optimizer.zero_repeat_verdict(event, time_limit=60, workers=1, stop=stop)
    assert stopped.answer == Answer.UNKNOWN and stopped.schedule is None and stop.count > 2
    assert optimizer.zero_repeat_verdict(event, time_limit=60, workers=1).answer == Answer.EXISTS


def test_the_first_days_check_goes_on_after_a_stop_for_a_while_and_no_longer():
    event = Event.with_count(40, 8)
    just_now = Stop()
    just_now.set()
    incumbent = Incumbent(event, History(), Budget.of(60, stop=just_now))
    incumbent.offer(fixed_seating(event), Method.of("fixed rule"))
    assert incumbent.best is not None  # stopped a moment ago: the first day is checked and kept
    long_ago = StoppedLongAgo(state_module.STOPPED_FIRST_CHECK_SECONDS + 1)
    incumbent = Incumbent(event, History(), Budget.of(60, stop=long_ago))
    incumbent.offer(fixed_seating(event), Method.of("fixed rule"))
    assert incumbent.best is None  # stopped past the first check's while: given up, nothing kept


def test_the_best_day_offered_again_is_not_checked_twice():
    """A search with no time to change the best offers it back: no second check is charged (0.09 s of work
    at 300 x 100, a tenth of a one-second run)."""
    event = Event.with_count(300, 100)
    budget = Budget.of(10.0, repeatable=True)
    incumbent = Incumbent(event, History(), budget)
    seats = fixed_seating(event)
    incumbent.offer(seats, Method.of("fixed rule"))
    charged = budget.clock.now()
    incumbent.offer(seats.copy(), Method.of("local search"))
    assert budget.clock.now() == charged
    assert incumbent.best is not None and incumbent.best.method == "fixed rule"


@pytest.mark.slow
def test_a_repeatable_run_at_the_room_limits_keeps_to_its_work():
    """300 x 100 on one worker at 1 s of work: its starts, the checks of its days and the balancing's order,
    letters and check all within the second (1.18 s charged before the search kept the last ones back)."""
    budget = Budget.of(1.0, repeatable=True)
    result = optimizer.plan(Event.with_count(300, 100), budget=budget, workers=1)
    assert result.schedule is not None and result.metrics is not None and result.metrics.seat_spread <= 1
    assert budget.clock.now() <= 1.0 + EPSILON
