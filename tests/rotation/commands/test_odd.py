import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import optimizer
from models import Event, OddPolicy


@settings(max_examples=15)
@given(players=st.integers(6, 30), rounds=st.integers(2, 5), odd=st.sampled_from(list(OddPolicy)))
@pytest.mark.slow
def test_variety_rotation_is_valid_and_fair_for_every_count(players, rounds, odd):
    event = Event.with_count(players, rounds, odd=odd)
    result = optimizer.plan(event, time_limit=0.5, seed=0, workers=1)  # counts work: the same on any load
    metrics = optimizer.check(result.schedule)
    assert metrics.three_handed_fair and metrics.sit_outs_fair
    fixed = optimizer.check(optimizer.fixed_schedule(event))
    if fixed.three_handed_fair and fixed.sit_outs_fair:  # the fixed rule is a fair rival
        assert result.repeats <= fixed.repeats


def test_a_sit_out_meets_nobody_and_a_table_of_three_makes_three_pairs():
    # 9 players sitting out one a round: 8 seated make 12 meetings a round among 36 pairs.
    assert optimizer.lower_bound(Event.with_count(9, 4, odd=OddPolicy.SIT_OUT)).repeats == 12
    # 7 players three-handed: a table of four and one of three make 9 meetings among 21 pairs.
    assert optimizer.lower_bound(Event.with_count(7, 3)).repeats >= 3 * 9 - 21


def test_sat_out_rounds_are_marked_in_the_csv(tmp_path):
    from rotation.files.output import schedule_csv

    event = Event.with_count(9, 2, odd=OddPolicy.SIT_OUT, sit_out_scoring="average")
    rows = schedule_csv(optimizer.fixed_schedule(event)).splitlines()
    assert any("sits out - scores the round's average" in row for row in rows)
