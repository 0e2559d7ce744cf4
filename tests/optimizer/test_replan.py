"""Re-planning helpers (optimizer.replan) on a hand-made day whose counts are worked out by hand."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

import optimizer
from models import OddPolicy, Round, Schedule, Table
from optimizer.replan import (
    _burdens_so_far,
    _changes,
    _meetings_among,
    _pairs_so_far,
    _remaining_event,
    _repeats_of_leavers,
)

pytestmark = pytest.mark.slow


def round_of(four: str, three: str) -> Round:
    return Round(tables=(Table(table=1, players=tuple(four)), Table(table=2, players=tuple(three))))


# Seven players, a table of four and one of three. Three-handed: EFG, then ACD, then BEF.
# A and E never share a table. Pairs by round 3: AC, AD, CD, EF three times; EG, FG, BE, BF twice:
# 4 * 2 + 4 * 1 = 12 repeats.
DAY = Schedule(
    players=tuple("ABCDEFG"),
    rounds=(round_of("ABCD", "EFG"), round_of("EFGB", "CDA"), round_of("ACDG", "BEF"), round_of("ABFG", "CDE")),
    odd=OddPolicy.THREE_HANDED,
    apart=(("A", "E"),),
    spread=(("B", "G"), ("C", "D", "G")),
)


def test_the_hand_made_day_is_valid_with_the_counts_worked_out_by_hand():
    optimizer.check(DAY)
    played = optimizer.check(DAY.model_copy(update={"rounds": DAY.rounds[:3]}))
    assert played.repeats == 12
    assert [p.three_handed_rounds for p in played.players] == [1, 1, 1, 1, 2, 2, 1]


def by_names(so_far) -> Counter[frozenset[str]]:
    return Counter({frozenset(so_far.players[p] for p in pair): int(c) for pair, c in zip(so_far.pairs, so_far.counts)})


def test_pairs_so_far_count_the_played_rounds_only():
    so_far = by_names(_pairs_so_far(DAY, 3))
    assert sum(count - 1 for count in so_far.values() if count > 1) == 12
    assert so_far[frozenset("AC")] == 3 and so_far[frozenset("EG")] == 2 and so_far[frozenset("AB")] == 1
    assert frozenset("AE") not in so_far  # A and E first meet in round 4
    assert by_names(_pairs_so_far(DAY, 0)) == Counter()


def test_repeats_of_leavers_are_the_repeats_of_pairs_with_someone_gone():
    so_far = _pairs_so_far(DAY, 3)
    assert _repeats_of_leavers(so_far, set("ABCDEF")) == 2  # EG and FG, once each
    assert _repeats_of_leavers(so_far, set("ABCDEFG")) == 0
    assert _repeats_of_leavers(so_far, set("BDEFG")) == 2 * 3  # A and C left: AC, AD and CD twice each
    assert _repeats_of_leavers(so_far, set("ABCDE")) == 2 + 1 + 1 + 1  # F and G left: EF, EG, FG, BF


def test_meetings_among_the_players_still_here():
    met = _meetings_among(_pairs_so_far(DAY, 3), ("A", "C", "H"))
    assert met.tolist() == [[0, 3, 0], [3, 0, 0], [0, 0, 0]]


def test_burdens_so_far_count_three_handed_rounds_and_a_late_arrival_level_with_the_least():
    # after 3 rounds: E and F twice, everyone else once; G left, H arrives
    burdens = _burdens_so_far(DAY, 3, ("A", "B", "C", "D", "E", "F", "H"))
    assert burdens.tolist() == [1, 1, 1, 1, 2, 2, 1]
    # after 1 round only E, F, G were three-handed: a newcomer is level with the least (0), not the most
    assert _burdens_so_far(DAY, 1, ("E", "A", "H")).tolist() == [1, 0, 0]
    assert _burdens_so_far(DAY, 1, ("E", "F", "H")).tolist() == [1, 1, 1]


def test_burdens_so_far_count_sit_outs():
    players = tuple("ABCDE")
    day = Schedule(
        players=players,
        rounds=tuple(
            Round(tables=(Table(table=1, players=tuple(p for p in players if p != out)),), sit_outs=(out,))
            for out in "EEA"
        ),
        odd=OddPolicy.SIT_OUT,
    )
    assert _burdens_so_far(day, 3, ("A", "B", "E", "Z")).tolist() == [1, 0, 2, 0]


def test_remaining_event_keeps_the_players_still_here_and_their_requests():
    event = _remaining_event(DAY, 3, drop=("G",), add=("H",))
    assert event.players == tuple("ABCDEF") + ("H",)
    assert event.rounds == 1 and event.odd is OddPolicy.THREE_HANDED
    assert event.apart == (("A", "E"),)
    assert event.spread == (("C", "D"),)  # B and G: a club of one is no request; G left C and D
    assert event.stay == {}


def test_remaining_event_of_nobody_leaving_is_the_same_room():
    event = _remaining_event(DAY.model_copy(update={"stay": {"G": 1, "A": 1}}), 2, drop=(), add=())
    assert event.players == DAY.players and event.rounds == 2
    assert event.stay == {"G": 1, "A": 1} and event.spread == DAY.spread and event.apart == DAY.apart


def test_remaining_event_forgets_the_stay_request_of_a_player_who_left():
    event = _remaining_event(DAY.model_copy(update={"stay": {"G": 1, "A": 1}}), 2, drop=("G",), add=("H",))
    assert event.stay == {"A": 1}  # at table 1 of four: players who stay take no three-handed turn


@pytest.mark.parametrize(
    "played, drop, add, message",
    [
        (4, (), (), "rounds played must be 0 to 3 for a schedule of 4 rounds, got 4"),
        (-1, (), (), "rounds played must be 0 to 3"),
        (2, ("Z",), (), "cannot drop 'Z': not a player of the rounds still to play"),
        (2, (), ("A",), "cannot add 'A': already on the schedule"),
    ],
)
def test_remaining_event_refuses_a_request_that_does_not_fit(played, drop, add, message):
    with pytest.raises(ValueError, match=message):
        _remaining_event(DAY, played, drop, add)


def test_a_player_who_already_left_is_not_in_the_remaining_event_and_cannot_be_dropped_again():
    left = DAY.model_copy(update={"departures": {"G": 4}})
    assert "G" not in _remaining_event(left, 3, (), ()).players
    with pytest.raises(ValueError, match="cannot drop 'G'"):
        _remaining_event(left, 3, ("G",), ())


def test_changes_name_whose_seat_moved_in_which_rounds():
    swapped = DAY.rounds[3].model_copy(
        update={"tables": (Table(table=1, players=tuple("ABFG")), Table(table=2, players=tuple("CED")))}
    )
    new = DAY.model_copy(update={"rounds": DAY.rounds[:3] + (swapped,)})
    changes = _changes(DAY, new, 3)
    assert [(c.name, c.rounds) for c in changes] == [("D", (4,)), ("E", (4,))]  # seats B and C traded
    assert _changes(DAY, new, 4) == ()  # nothing after round 4
    assert _changes(DAY, DAY, 0) == ()


def test_changes_list_a_newcomer_in_every_planned_round():
    arrived = Schedule(
        players=tuple("ABCDEFH"),
        rounds=DAY.rounds[:2]
        + tuple(
            r.model_copy(
                update={
                    "tables": tuple(
                        t.model_copy(update={"players": tuple("H" if n == "G" else n for n in t.players)})
                        for t in r.tables
                    )
                }
            )
            for r in DAY.rounds[2:]
        ),
    )
    changes = {c.name: c.rounds for c in _changes(DAY, arrived, 2)}
    assert changes == {"H": (3, 4)}


def test_replan_keeps_the_played_rounds_and_counts_the_whole_day():
    day = DAY
    result = optimizer.replan(day, 3, drop=("G",), add=("H",), time_limit=2, workers=1, seed=0)
    schedule = result.result.schedule
    assert schedule.rounds[:3] == day.rounds[:3]
    assert schedule.departures == {"G": 4} and schedule.arrivals == {"H": 4}
    assert result.repeats_played == 12
    pairs = Counter(frozenset(p) for r in schedule.rounds for t in r.tables for p in combinations(t.players, 2))
    assert result.result.repeats == sum(c - 1 for c in pairs.values()) == optimizer.check(schedule).repeats
    assert result.result.repeats >= 12
