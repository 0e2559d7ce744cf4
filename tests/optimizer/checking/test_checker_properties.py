"""Properties of the independent checker (optimizer.checking.checker) on schedules built from random
permutations, never by the optimizer: valid ones pass with a brute-force count of repeats, single
changes are rejected with their own message, unfair burdens are flagged, and names or table numbers
change no metric."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from models import Layout, OddPolicy, Round, Schedule, Table
from optimizer.checking.checker import InvalidSchedule, check, measure
from seatings import names_of, schedules

# -- brute force, from names only -----------------------------------------------------------------


def together(round_: Round, a: str, b: str) -> bool:
    return any(a in t.players and b in t.players for t in round_.tables)


def brute_repeats(schedule: Schedule) -> int:
    total = 0
    for a, b in combinations(schedule.players, 2):
        met = sum(together(r, a, b) for r in schedule.rounds)
        total += max(0, met - 1)
    return total


def brute_fair(schedule: Schedule, burdened) -> bool:
    counts = dict.fromkeys(schedule.players, 0)
    for round_ in schedule.rounds:
        for name in burdened(round_):
            counts[name] += 1
        if max(counts.values()) - min(counts.values()) > 1:
            return False
    return True


def three_handed(round_: Round) -> list[str]:
    return [n for t in round_.tables if len(t.players) == 3 for n in t.players]


def sitting_out(round_: Round) -> list[str]:
    return list(round_.sit_outs)


# -- valid schedules ------------------------------------------------------------------------------


@given(schedules())
def test_random_valid_schedules_pass_with_brute_force_repeats(schedule):
    metrics = check(schedule)
    assert metrics.repeats == brute_repeats(schedule)
    most = max(
        (sum(together(r, a, b) for r in schedule.rounds) for a, b in combinations(schedule.players, 2)), default=0
    )
    assert metrics.max_meetings == most
    assert sum(p.repeats for p in metrics.players) == 2 * metrics.repeats  # each repeat has two players
    assert sum(metrics.repeats_by_round) == metrics.repeats


@given(schedules())
def test_fair_flags_match_a_brute_force_count_of_turns(schedule):
    metrics = check(schedule)
    assert metrics.three_handed_fair == brute_fair(schedule, three_handed)
    assert metrics.sit_outs_fair == brute_fair(schedule, sitting_out)


def test_repeats_of_one_table_kept_all_day_are_counted_per_pair():
    players = names_of(4)
    round_ = Round(tables=(Table(table=1, players=players),))
    metrics = check(Schedule(players=players, rounds=(round_,) * 4))
    assert metrics.repeats == 6 * 3 and metrics.max_meetings == 4 and metrics.repeats_by_round == (0, 6, 6, 6)


# -- single changes are rejected -----------------------------------------------------------------


def with_round(schedule: Schedule, index: int, round_: Round) -> Schedule:
    rounds = list(schedule.rounds)
    rounds[index] = round_
    return schedule.model_copy(update={"rounds": tuple(rounds)})


def with_tables(schedule: Schedule, index: int, tables) -> Schedule:
    round_ = schedule.rounds[index]
    return with_round(schedule, index, round_.model_copy(update={"tables": tuple(tables)}))


def rejected(schedule: Schedule, message: str) -> None:
    with pytest.raises(InvalidSchedule, match=message):
        check(schedule)


@given(schedules(min_players=8), st.data())
def test_a_player_placed_twice_is_rejected(schedule, data):
    r = data.draw(st.integers(0, len(schedule.rounds) - 1))
    tables = list(schedule.rounds[r].tables)
    i, j = data.draw(st.lists(st.integers(0, len(tables) - 1), min_size=2, max_size=2, unique=True))
    copied = tables[j].players[0]
    tables[i] = tables[i].model_copy(update={"players": (copied,) + tables[i].players[1:]})
    rejected(with_tables(schedule, r, tables), f"round {r + 1}: '{copied}' is placed more than once")


@given(schedules(), st.data())
def test_a_player_missing_from_a_round_is_rejected(schedule, data):
    r = data.draw(st.integers(0, len(schedule.rounds) - 1))
    tables = list(schedule.rounds[r].tables)
    i = data.draw(st.integers(0, len(tables) - 1))
    gone = tables[i].players[-1]
    tables[i] = tables[i].model_copy(update={"players": tables[i].players[:-1]})
    rejected(with_tables(schedule, r, tables), f"round {r + 1}: '{gone}' is neither at a table nor sitting out")


@given(schedules(), st.data())
def test_an_unknown_name_is_rejected(schedule, data):
    r = data.draw(st.integers(0, len(schedule.rounds) - 1))
    tables = list(schedule.rounds[r].tables)
    i = data.draw(st.integers(0, len(tables) - 1))
    tables[i] = tables[i].model_copy(update={"players": ("Stranger",) + tables[i].players[1:]})
    rejected(with_tables(schedule, r, tables), f"round {r + 1}: 'Stranger' is not a player of this schedule")


@given(schedules(), st.data())
def test_a_table_numbered_outside_one_to_the_count_is_rejected(schedule, data):
    r = data.draw(st.integers(0, len(schedule.rounds) - 1))
    tables = list(schedule.rounds[r].tables)
    i = data.draw(st.integers(0, len(tables) - 1))
    tables[i] = tables[i].model_copy(update={"table": len(tables) + 1})
    rejected(with_tables(schedule, r, tables), f"round {r + 1}: tables must be numbered 1 to {len(tables)}")


@given(schedules(odd=OddPolicy.THREE_HANDED, need=lambda layout: layout.fours and layout.threes), st.data())
def test_a_three_handed_table_numbered_before_a_table_of_four_is_rejected(schedule, data):
    r = data.draw(st.integers(0, len(schedule.rounds) - 1))
    tables = list(schedule.rounds[r].tables)
    three = data.draw(st.sampled_from([i for i, t in enumerate(tables) if len(t.players) == 3]))
    four = data.draw(st.sampled_from([i for i, t in enumerate(tables) if len(t.players) == 4]))
    a, b = tables[three].table, tables[four].table
    tables[three] = tables[three].model_copy(update={"table": b})
    tables[four] = tables[four].model_copy(update={"table": a})
    rejected(with_tables(schedule, r, tables), f"round {r + 1}: three-handed tables must be numbered after")


@given(schedules(odd=OddPolicy.SIT_OUT, need=lambda layout: layout.sit_outs and layout.fours), st.data())
def test_a_sit_out_player_seated_at_a_table_is_rejected(schedule, data):
    """One sit-out too few: the player sits at a table of four instead, which then seats five."""
    r = data.draw(st.integers(0, len(schedule.rounds) - 1))
    round_ = schedule.rounds[r]
    tables = list(round_.tables)
    back = round_.sit_outs[0]
    tables[0] = tables[0].model_copy(update={"players": tables[0].players + (back,)})  # bypasses max_length
    broken = with_round(
        schedule, r, round_.model_copy(update={"tables": tuple(tables), "sit_outs": round_.sit_outs[1:]})
    )
    rejected(broken, f"round {r + 1}: .* need {len(tables)} tables? of four and 0 of three, got 1 of 5")


@given(schedules(odd=OddPolicy.SIT_OUT, need=lambda layout: layout.fours >= 2), st.data())
def test_an_extra_sit_out_breaking_a_table_is_rejected(schedule, data):
    """One sit-out too many: a player leaves a table of four to sit out, leaving three."""
    r = data.draw(st.integers(0, len(schedule.rounds) - 1))
    round_ = schedule.rounds[r]
    tables = list(round_.tables)
    out = tables[0].players[-1]
    tables[0] = tables[0].model_copy(update={"players": tables[0].players[:-1]})
    broken = with_round(
        schedule, r, round_.model_copy(update={"tables": tuple(tables), "sit_outs": round_.sit_outs + (out,)})
    )
    rejected(broken, f"round {r + 1}: .* under the sit-out rule need")


def test_five_players_under_the_three_handed_rule_cannot_be_seated():
    players = names_of(5)
    round_ = Round(tables=(Table(table=1, players=players[:4]),), sit_outs=players[4:])
    schedule = Schedule(players=players, rounds=(round_,), odd=OddPolicy.SIT_OUT)
    assert check(schedule).repeats == 0
    rejected(schedule.model_copy(update={"odd": OddPolicy.THREE_HANDED}), "round 1: 5 players cannot be seated")


def test_a_player_seated_after_departing_is_rejected():
    players = names_of(8)
    round_ = Round(tables=(Table(table=1, players=players[:4]), Table(table=2, players=players[4:])))
    schedule = Schedule(players=players, rounds=(round_, round_))
    rejected(schedule.model_copy(update={"departures": {"N0": 2}}), "round 2: 'N0' is seated while not at the event")
    rejected(schedule.model_copy(update={"arrivals": {"N7": 2}}), "round 1: 'N7' is seated while not at the event")


def test_a_request_naming_a_stranger_is_rejected():
    players = names_of(8)
    round_ = Round(tables=(Table(table=1, players=players[:4]), Table(table=2, players=players[4:])))
    schedule = Schedule(players=players, rounds=(round_,))
    for request in ({"apart": (("N0", "Ghost"),)}, {"spread": (("Ghost", "N1"),)}, {"stay": {"Ghost": 1}}):
        rejected(schedule.model_copy(update=request), "a request names 'Ghost', who is not a player")
    rejected(schedule.model_copy(update={"departures": {"Ghost": 2}}), "a request names 'Ghost'")


def test_an_empty_or_doubled_name_in_the_player_list_is_rejected():
    schedule = Schedule(players=names_of(4), rounds=(Round(tables=(Table(table=1, players=names_of(4)),)),))
    rejected(schedule.model_copy(update={"players": names_of(4) + (" ",)}), "a player name is empty")
    rejected(schedule.model_copy(update={"players": names_of(4) + ("N2",)}), "the name 'N2' is listed twice in players")


@given(schedules(min_players=8), st.data())
def test_a_broken_keep_apart_request_is_rejected(schedule, data):
    r = data.draw(st.integers(0, len(schedule.rounds) - 1))
    table = data.draw(st.sampled_from(schedule.rounds[r].tables))
    pair = tuple(data.draw(st.permutations(table.players))[:2])
    broken = schedule.model_copy(update={"apart": (pair,)})
    with pytest.raises(
        InvalidSchedule, match=r"broken request in round \d+: .* are to be kept apart but share table \d+"
    ):
        check(broken)


@given(schedules(min_players=8), st.data())
def test_a_broken_stay_request_is_rejected(schedule, data):
    r = data.draw(st.integers(0, len(schedule.rounds) - 1))
    table = data.draw(st.sampled_from(schedule.rounds[r].tables))
    name = data.draw(st.sampled_from(table.players))
    elsewhere = data.draw(st.sampled_from([t.table for t in schedule.rounds[r].tables if t.table != table.table]))
    with pytest.raises(
        InvalidSchedule,
        match=rf"broken request in round \d+: {name} is to stay at table {elsewhere} but is at table \d+",
    ):
        check(schedule.model_copy(update={"stay": {name: elsewhere}}))


@given(schedules(min_players=8), st.data())
def test_requests_kept_in_every_round_pass(schedule, data):
    """The counterpart of the two above: a pair that never shares a table may be kept apart."""
    pairs = [
        (a, b) for a, b in combinations(schedule.players, 2) if not any(together(r, a, b) for r in schedule.rounds)
    ]
    assume(pairs)
    pair = data.draw(st.sampled_from(pairs))
    assert check(schedule.model_copy(update={"apart": (pair,)})).repeats == brute_repeats(schedule)


# -- unfair burdens -------------------------------------------------------------------------------


def twice_in_a_row(schedule: Schedule) -> Schedule:
    """Round 2 seats the same players at the burdened places as round 1: they take it twice."""
    return with_round(schedule, 1, schedule.rounds[0])


@given(schedules(odd=OddPolicy.THREE_HANDED, min_rounds=2, need=lambda layout: layout.fours and layout.threes))
def test_three_handed_twice_while_another_never_is_unfair(schedule):
    metrics = check(twice_in_a_row(schedule))
    assert metrics.three_handed_fair is False
    assert metrics.sit_outs_fair is True


@given(schedules(odd=OddPolicy.SIT_OUT, min_rounds=2, need=lambda layout: layout.sit_outs))
def test_sitting_out_twice_while_another_never_has_is_unfair(schedule):
    metrics = check(twice_in_a_row(schedule))
    assert metrics.sit_outs_fair is False
    assert metrics.three_handed_fair is True
    first = set(schedule.rounds[0].sit_outs)
    assert {p.name for p in metrics.players if p.sit_out_rounds >= 2} >= first


def test_burdens_taken_in_turn_are_fair():
    # 5 players, one sits out a round, in list order: after every round counts differ by at most one.
    players = names_of(5)
    rounds = tuple(
        Round(tables=(Table(table=1, players=tuple(n for n in players if n != out)),), sit_outs=(out,))
        for out in players
    )
    metrics = check(Schedule(players=players, rounds=rounds, odd=OddPolicy.SIT_OUT))
    assert metrics.sit_outs_fair is True and all(p.sit_out_rounds == 1 for p in metrics.players)


# -- invariance -----------------------------------------------------------------------------------


def rename(schedule: Schedule, new: dict[str, str]) -> Schedule:
    def table(t: Table) -> Table:
        return Table(table=t.table, players=tuple(new[n] for n in t.players))

    rounds = tuple(
        Round(tables=tuple(table(t) for t in r.tables), sit_outs=tuple(new[n] for n in r.sit_outs))
        for r in schedule.rounds
    )
    return Schedule(
        players=tuple(new[n] for n in schedule.players),
        rounds=rounds,
        odd=schedule.odd,
        apart=tuple(tuple(new[n] for n in g) for g in schedule.apart),
        spread=tuple(tuple(new[n] for n in g) for g in schedule.spread),
    )


def without_names(metrics):
    return metrics.model_copy(update={"players": tuple(p.model_copy(update={"name": ""}) for p in metrics.players)})


@given(schedules(min_players=8), st.data())
def test_renaming_players_changes_no_metric(schedule, data):
    fresh = data.draw(
        st.lists(
            st.text("abcdefgh XYZ", min_size=1, max_size=5).filter(str.strip),
            min_size=len(schedule.players),
            max_size=len(schedule.players),
            unique_by=str.strip,
        )
    )
    new = dict(zip(schedule.players, (name.strip() for name in fresh)))
    club = tuple(data.draw(st.permutations(schedule.players))[:3])
    schedule = schedule.model_copy(update={"spread": (club,)})
    before, after = measure(schedule), check(rename(schedule, new))
    assert without_names(after) == without_names(before)
    assert [p.name for p in after.players] == [new[p.name] for p in before.players]


@given(schedules(), st.data())
def test_renumbering_tables_within_a_round_changes_no_metric_but_table_visits(schedule, data):
    layout = Layout.for_room(len(schedule.players), schedule.odd)
    rounds = []
    for round_ in schedule.rounds:
        fours = data.draw(st.permutations(range(1, layout.fours + 1)))
        threes = data.draw(st.permutations(range(layout.fours + 1, layout.tables + 1)))
        number = dict(zip(range(1, layout.tables + 1), list(fours) + list(threes)))
        tables = tuple(t.model_copy(update={"table": number[t.table]}) for t in reversed(round_.tables))
        rounds.append(round_.model_copy(update={"tables": tables}))
    renumbered = schedule.model_copy(update={"rounds": tuple(rounds)})
    by_number = {"table_visits_above_even"}  # the one figure about table numbers
    assert check(renumbered).model_dump(exclude=by_number) == check(schedule).model_dump(exclude=by_number)
