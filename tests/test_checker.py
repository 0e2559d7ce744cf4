import pytest

import optimizer
from models import Event, OddPolicy, Round, Schedule, Table


def valid(players=8, rounds=2, odd=OddPolicy.THREE_HANDED) -> Schedule:
    return optimizer.fixed_schedule(Event.with_count(players, rounds, odd=odd))


def with_round(schedule: Schedule, index: int, round_: Round) -> Schedule:
    rounds = list(schedule.rounds)
    rounds[index] = round_
    return schedule.model_copy(update={"rounds": tuple(rounds)})


def swap_name(schedule: Schedule, old: str, new: str) -> Schedule:
    first = schedule.rounds[0]
    tables = tuple(
        t.model_copy(update={"players": tuple(new if n == old else n for n in t.players)}) for t in first.tables
    )
    return with_round(schedule, 0, first.model_copy(update={"tables": tables}))


def test_valid_schedule_passes_and_is_measured():
    metrics = optimizer.check(valid(16, 5))
    assert metrics.repeats == sum(metrics.repeats_by_round)
    assert metrics.opponents_min >= 3


@pytest.mark.parametrize(
    "broken, message",
    [
        (lambda s: swap_name(s, "P1", "Stranger"), "not a player"),
        (lambda s: swap_name(s, "P1", "P2"), "more than once"),
        (lambda s: s.model_copy(update={"players": s.players + ("Ghost",)}), "neither at a table"),
        (lambda s: s.model_copy(update={"players": ("P1",) + s.players}), "listed twice"),
        (lambda s: s.model_copy(update={"players": s.players[:-1] + (" ",)}), "empty"),
        (
            lambda s: with_round(
                s, 0, Round(tables=(Table(table=1, players=("P1", "P2", "P3")), Table(table=2, players=("P4", "P5", "P6"))), sit_outs=("P7", "P8"))
            ),
            "tables of four",
        ),
        (
            lambda s: with_round(
                s, 1, Round(tables=(Table(table=1, players=("P1", "P2", "P3", "P4")), Table(table=3, players=("P5", "P6", "P7", "P8"))))
            ),
            "numbered 1 to 2",
        ),
    ],
)
def test_checker_rejects_each_kind_of_invalid_schedule(broken, message):
    with pytest.raises(optimizer.InvalidSchedule, match=message):
        optimizer.check(broken(valid()))


def test_three_handed_table_only_where_the_event_allows():
    schedule = valid(7, 2)  # one table of four, one of three
    assert optimizer.check(schedule)
    as_sit_out = schedule.model_copy(update={"odd": OddPolicy.SIT_OUT})
    with pytest.raises(optimizer.InvalidSchedule, match="tables of four"):
        optimizer.check(as_sit_out)


def test_sit_outs_only_for_the_remainder():
    schedule = valid(8, 2, odd=OddPolicy.SIT_OUT)
    half_out = Round(tables=(Table(table=1, players=("P1", "P2", "P3", "P4")),), sit_outs=("P5", "P6", "P7", "P8"))
    with pytest.raises(optimizer.InvalidSchedule, match="tables of four"):
        optimizer.check(with_round(schedule, 0, half_out))


def test_repeats_count_meetings_beyond_the_first():
    # Two tables of four that never change: every pair meets every round.
    round_ = Round(tables=(Table(table=1, players=("P1", "P2", "P3", "P4")), Table(table=2, players=("P5", "P6", "P7", "P8"))))
    schedule = Schedule(players=tuple(f"P{i}" for i in range(1, 9)), rounds=(round_,) * 3)
    metrics = optimizer.check(schedule)
    assert metrics.repeats == 12 * 2
    assert metrics.max_meetings == 3
    assert metrics.repeats_by_round == (0, 12, 12)
