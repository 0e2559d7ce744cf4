from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import optimizer
from models import Event, Layout, OddPolicy, Round, Schedule, Table
from seatings import schedule_of


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
                s,
                0,
                Round(
                    tables=(Table(table=1, players=("P1", "P2", "P3")), Table(table=2, players=("P4", "P5", "P6"))),
                    sit_outs=("P7", "P8"),
                ),
            ),
            "tables of four",
        ),
        (
            lambda s: with_round(
                s,
                1,
                Round(
                    tables=(
                        Table(table=1, players=("P1", "P2", "P3", "P4")),
                        Table(table=3, players=("P5", "P6", "P7", "P8")),
                    )
                ),
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
    with pytest.raises(optimizer.InvalidSchedule, match="need 1 table of four and 0 of three"):
        optimizer.check(as_sit_out)


def test_sit_outs_only_for_the_remainder():
    schedule = valid(8, 2, odd=OddPolicy.SIT_OUT)
    half_out = Round(tables=(Table(table=1, players=("P1", "P2", "P3", "P4")),), sit_outs=("P5", "P6", "P7", "P8"))
    with pytest.raises(optimizer.InvalidSchedule, match="tables of four"):
        optimizer.check(with_round(schedule, 0, half_out))


def test_repeats_count_meetings_beyond_the_first():
    # Two tables of four that never change: every pair meets every round.
    round_ = Round(
        tables=(Table(table=1, players=("P1", "P2", "P3", "P4")), Table(table=2, players=("P5", "P6", "P7", "P8")))
    )
    schedule = Schedule(players=tuple(f"P{i}" for i in range(1, 9)), rounds=(round_,) * 3)
    metrics = optimizer.check(schedule)
    assert metrics.repeats == 12 * 2
    assert metrics.max_meetings == 3
    assert metrics.repeats_by_round == (0, 12, 12)


def test_balance_figures_of_a_hand_made_day():
    day = schedule_of(
        [
            [[1, 2, 3, 4], [5, 6, 7, 8]],
            [[2, 1, 5, 6], [4, 3, 7, 8]],
            [[1, 2, 3, 7], [5, 6, 4, 8]],
        ],
        8,
    )
    metrics = optimizer.check(day)
    assert metrics.seat_spread == 3  # P8 sits at D all three rounds
    assert metrics.table_visits_above_even == 3  # P1, P2 at table 1 and P8 at table 2 three times; even is 2
    assert metrics.trios_again == 2  # P1 P2 P3 and P5 P6 P8 share a table in rounds 1 and 3
    assert metrics.back_to_back == 8  # 12 34 56 78 in rounds 1-2; 12 37 56 48 in rounds 2-3
    assert metrics.indirect_meetings == 5  # P1-P8, P2-P8, P3-P5, P3-P6 never meet; each pair has 5 in common


def test_three_handed_seats_count_letters_a_to_c_and_staying_players_are_exempt():
    # Two tables of three, the same trios all day, each player in A, B and C once.
    day = schedule_of([[[1, 2, 3], [4, 5, 6]], [[2, 3, 1], [5, 6, 4]], [[3, 1, 2], [6, 4, 5]]], 6)
    metrics = optimizer.check(day)
    assert metrics.seat_spread == 0  # seat D does not exist at a table of three
    assert metrics.table_visits_above_even == 6  # everyone three times at one table; even is 2
    assert metrics.trios_again == 4
    assert metrics.back_to_back == 12
    assert metrics.indirect_meetings == 0  # P1 and P4 never meet and have nobody in common
    staying = optimizer.check(day.model_copy(update={"stay": {"P1": 1}}))
    assert staying.table_visits_above_even == 5


def test_every_pair_meeting_has_no_indirect_figure():
    day = schedule_of([[[1, 2, 3, 4]]], 4)
    assert optimizer.check(day).indirect_meetings is None


@st.composite
def small_days(draw) -> Schedule:
    """A random valid day: 4 to 11 players, 1 to 4 rounds, either odd policy."""
    players = draw(st.integers(4, 11))
    odd = draw(st.sampled_from([OddPolicy.THREE_HANDED, OddPolicy.SIT_OUT]))
    if players == 5:
        odd = OddPolicy.SIT_OUT  # five cannot be seated three-handed
    layout = Layout.for_room(players, odd)
    rounds = []
    for _ in range(draw(st.integers(1, 4))):
        order = draw(st.permutations(range(1, players + 1)))
        fours = [list(order[4 * t : 4 * t + 4]) for t in range(layout.fours)]
        start = 4 * layout.fours
        threes = [list(order[start + 3 * t : start + 3 * t + 3]) for t in range(layout.threes)]
        rounds.append(fours + threes)
    return schedule_of(rounds, players, odd=odd)


def brute_force(day: Schedule) -> dict:
    """The balance figures counted the slow way: every pair, every triple, every player and table."""
    names = day.players
    table_of = [{n: t.table for t in r.tables for n in t.players} for r in day.rounds]
    sizes = [{n: len(t.players) for t in r.tables for n in t.players} for r in day.rounds]
    letter_of = [{n: s for t in r.tables for s, n in enumerate(t.players)} for r in day.rounds]

    def together(r, *group):
        return all(n in table_of[r] for n in group) and len({table_of[r][n] for n in group}) == 1

    rounds = range(len(day.rounds))
    spread = 0
    for n in names:
        played = [r for r in rounds if n in table_of[r]]
        if played:
            letters = range(4 if any(sizes[r][n] == 4 for r in played) else 3)
            counts = [sum(letter_of[r][n] == s for r in played) for s in letters]
            spread = max(spread, max(counts) - min(counts))
    visits = 0
    for n in names:
        played = [r for r in rounds if n in table_of[r]]
        if played:
            tables = max(len(day.rounds[r].tables) for r in played)
            even = -(-len(played) // tables)
            visits += sum(max(0, sum(table_of[r][n] == t for r in played) - even) for t in range(1, tables + 1))
    trios = sum(max(0, sum(together(r, *trio) for r in rounds) - 1) for trio in combinations(names, 3))
    back = sum(together(r, a, b) and together(r + 1, a, b) for a, b in combinations(names, 2) for r in rounds[:-1])
    met = {(a, b) for a, b in combinations(names, 2) if any(together(r, a, b) for r in rounds)}
    met |= {(b, a) for a, b in met}
    common = [
        sum((a, w) in met and (b, w) in met for w in names) for a, b in combinations(names, 2) if (a, b) not in met
    ]
    return {
        "seat_spread": spread,
        "table_visits_above_even": visits,
        "trios_again": trios,
        "back_to_back": back,
        "indirect_meetings": min(common, default=None),
    }


@settings(max_examples=150, deadline=None)
@given(small_days())
def test_balance_figures_match_a_brute_force_count(day):
    metrics = optimizer.check(day)
    assert {key: getattr(metrics, key) for key in brute_force(day)} == brute_force(day)
