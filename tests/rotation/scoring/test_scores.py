"""The scoring library: cards checked against the schedule, and standings by hand-computed figures."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

import optimizer
from models import RoundMark, Schedule, SitOutScoring
from models.rules import Rules, Ties
from rotation import scoring

BROKEN = Rules(ties=Ties.BROKEN)


def day(rounds, players="ABCDE", **fields) -> Schedule:
    """A schedule from rounds written as ([tables...], [sit-outs]); it must pass the checker."""
    schedule = Schedule.model_validate(
        {
            "players": list(players),
            "rounds": [
                {"tables": [{"table": t, "players": list(p)} for t, p in enumerate(tables, 1)], "sit_outs": list(out)}
                for tables, out in rounds
            ],
            **fields,
        }
    )
    optimizer.check(schedule)
    return schedule


# Five players, one table, one sits out each round: by hand below.
SIT_OUT_DAY = [(["ABCD"], "E"), (["EBCD"], "A")]
ROUND_1 = {"A": [10, -5, 20, 0], "B": [-5, 30, -10, 5], "C": [0, 0, 0, 10], "D": [-5, -5, -5, -5]}
ROUND_2 = {"E": [4, 4, 4, 4], "B": [-1, -1, -1, -1], "C": [-2, -2, -2, -2], "D": [1, 1, 0, 0]}


def test_the_average_rule_by_hand():
    schedule = day(SIT_OUT_DAY, odd="sit-out", sit_out_scoring="average")
    cards = [scoring.card(schedule, 1, 1, ROUND_1), scoring.card(schedule, 2, 1, ROUND_2)]
    result = scoring.standings(schedule, cards)
    # Round 1: totals A 25, B 20, C 10, D -20: sum 35 over 4 players = 8.75 -> 9.
    # Round 2: totals E 16, B -4, C -8, D 2: sum 6 over 4 = 1.5 -> 2 (half away from zero).
    assert result.round_averages == (9, 2)
    rows = {row.player: row for row in result.rows}
    assert [(s.mark, s.points) for s in rows["E"].rounds] == [(RoundMark.SAT_OUT, 9), (RoundMark.PLAYED, 16)]
    assert rows["E"].total == 25 and rows["A"].total == 27 and rows["B"].total == 16
    assert [row.player for row in result.rows] == ["A", "E", "B", "C", "D"]


def test_zero_rule_scores_a_sit_out_nothing():
    schedule = day(SIT_OUT_DAY, odd="sit-out", sit_out_scoring="zero")
    cards = [scoring.card(schedule, 1, 1, ROUND_1), scoring.card(schedule, 2, 1, ROUND_2)]
    rows = {row.player: row for row in scoring.standings(schedule, cards).rows}
    assert rows["E"].rounds[0].points == 0 and rows["E"].total == 16 and rows["A"].total == 25


@pytest.mark.parametrize(
    ("total", "count", "rounded"),
    [(35, 4, 9), (6, 4, 2), (-6, 4, -2), (25, 2, 13), (-25, 2, -13), (22, 5, 4), (-22, 5, -4), (24, 5, 5), (0, 3, 0)],
)
def test_round_half_away_from_zero(total, count, rounded):
    assert scoring.round_half_away(total, count) == rounded


def test_ties_split_by_games_won_then_best_game_and_shared_ranks():
    schedule = day([(["ABCD"], "")], players="ABCD")
    # A and B: total 20; A wins games 1 and 2, B game 3 (B's best game, 20, is not asked: games won come
    # first); game 4 is a wall game, all zero: no winner. C and D are level on everything: =3.
    points = {"A": [10, 10, 0, 0], "B": [0, 0, 20, 0], "C": [-10, -5, -10, 0], "D": [-10, -5, -10, 0]}
    cards = [scoring.card(schedule, 1, 1, points)]
    result = scoring.standings(schedule, cards, rules=BROKEN)
    places = {row.player: (row.place, row.games_won, row.best_game) for row in result.rows}
    assert places == {"A": ("1", 2, 10), "B": ("2", 1, 20), "C": ("=3", 0, 0), "D": ("=3", 0, 0)}
    assert [row.rank for row in result.rows] == [1, 2, 3, 3]
    # By default (MJMP) level totals share the place, listed by games won; the circle's prizes are pooled.
    shared = scoring.standings(schedule, cards)
    assert [(row.player, row.place) for row in shared.rows] == [("A", "=1"), ("B", "=1"), ("C", "=3"), ("D", "=3")]
    assert shared.prizes == (
        "=1: A and B share places 1 to 2: the prizes of those places are added and split equally (2 ways).",
        "=3: C and D share place 3 of the winner's circle (top 3): the prizes of that place are split equally "
        "(2 ways).",
    )


def test_level_totals_and_wins_split_by_best_game_then_competition_ranking():
    schedule = day([(["ABCD", "EFGH"], "")], players="ABCDEFGH")
    # A, B, E and F all total 20. A wins game 1 and B game 2 (games 3 and 4 have shared tops): one win
    # each, A's best game 20 beats B's 10. E and F tie every game: no wins, best 5, level: =3, then 5.
    first = {"A": [20, -5, 5, 0], "B": [-5, 10, 5, 10], "C": [0, 0, 0, 10], "D": [0, 0, 0, -10]}
    second = {"E": [5, 5, 5, 5], "F": [5, 5, 5, 5], "G": [0, 0, 0, 0], "H": [-10, -10, -10, -10]}
    cards = [scoring.card(schedule, 1, 1, first), scoring.card(schedule, 1, 2, second)]
    rows = scoring.standings(schedule, cards, rules=BROKEN).rows
    assert [(r.player, r.place, r.total) for r in rows] == [
        ("A", "1", 20),
        ("B", "2", 20),
        ("E", "=3", 20),
        ("F", "=3", 20),
        ("C", "5", 10),
        ("G", "6", 0),
        ("D", "7", -10),
        ("H", "8", -40),
    ]
    assert [(r.games_won, r.best_game) for r in rows[:4]] == [(1, 20), (1, 10), (0, 5), (0, 5)]


def test_a_card_entered_twice_is_a_correction_not_a_double_count():
    schedule = day(SIT_OUT_DAY, odd="sit-out", sit_out_scoring="average")
    first = scoring.card(schedule, 1, 1, ROUND_1)
    corrected = scoring.card(schedule, 1, 1, {**ROUND_1, "A": [10, -5, 20, 4]})
    result = scoring.standings(schedule, [first, corrected], after=1)
    rows = {row.player: row for row in result.rows}
    assert rows["A"].total == 29  # 25 + the correction's 4, not 25 + 29
    assert result.round_averages == (10,)  # 39 / 4 = 9.75 -> 10


def test_a_player_who_left_keeps_the_rounds_played_and_is_marked():
    # H leaves after round 1: rounds 2 and 3 are seated three-handed at table 2.
    schedule = day(
        [(["ABCD", "EFGH"], ""), (["AEBF", "CGD"], ""), (["AGCE", "BDF"], "")],
        players="ABCDEFGH",
        departures={"H": 2},
    )
    cards = [
        scoring.card(schedule, 1, 1, {p: [1, 1, 1, 1] for p in "ABCD"}),
        scoring.card(schedule, 1, 2, {"E": [0] * 4, "F": [0] * 4, "G": [0] * 4, "H": [30, 0, 0, 0]}),
        scoring.card(schedule, 2, 1, {p: [2, 0, 0, 0] for p in "AEBF"}),
        scoring.card(schedule, 2, 2, {p: [3, 0, 0, 0] for p in "CGD"}),
    ]
    result = scoring.standings(schedule, cards)
    assert result.after == 2  # round 3 has no card yet
    rows = {row.player: row for row in result.rows}
    assert rows["H"].total == 30 and rows["H"].left_after == 1
    assert [s.mark for s in rows["H"].rounds] == [RoundMark.PLAYED, RoundMark.LEFT]
    assert rows["H"].rounds[1].points is None
    assert rows["C"].rounds[1].mark is RoundMark.THREE_HANDED and rows["C"].total == 4 + 3
    assert rows["H"].place == "1" and rows["A"].left_after is None


def test_late_arrival_scores_nothing_unless_the_event_says_so():
    schedule = day(
        [(["ABCD"], ""), (["ABCE"], "D")],
        players="ABCDE",
        odd="sit-out",
        sit_out_scoring=SitOutScoring.AVERAGE,
        arrivals={"E": 2},
    )
    cards = [
        scoring.card(schedule, 1, 1, {p: [2, 2, 2, 2] for p in "ABCD"}),
        scoring.card(schedule, 2, 1, {p: [1, 1, 1, 1] for p in "ABCE"}),
    ]
    rows = {row.player: row for row in scoring.standings(schedule, cards).rows}
    assert rows["E"].total == 4 and rows["E"].rounds[0].mark is RoundMark.ARRIVING and rows["E"].arrived == 2
    assert rows["D"].total == 8 + 4  # sat out round 2: its average, 16 / 4
    late = {row.player: row for row in scoring.standings(schedule, cards, late_arrivals_as_sit_outs=True).rows}
    assert late["E"].total == 8 + 4  # round 1 scored as a sit-out: 32 / 4


def test_card_problems_name_their_box_in_words_for_people():
    schedule = day(SIT_OUT_DAY, odd="sit-out", sit_out_scoring="average")
    with pytest.raises(scoring.CardRefused) as refused:
        scoring.card(
            schedule, 1, 1, {"A": [1, "x", 1, 1], "b": [1, 1, 1], "Cee": [0, 0, 0, 0], "D": ["−3", "+2", " 4 ", 0]}
        )
    problems = {(p.player, p.game): p.message for p in refused.value.problems}
    assert problems == {
        ("A", 2): "'x' is not a whole number of points for A",
        ("B", 4): "no points entered for B",  # 'b' is B, ignoring case
        ("Cee", None): "'Cee' is not at this table (it seats A, B, C and D)",
        ("C", None): "no points entered for C",
    }
    assert str(refused.value).startswith("round 1, table 1, game 2: 'x' is not a whole number of points for A")
    assert "--" not in str(refused.value)
    with pytest.raises(scoring.CardRefused, match="'E' sits out this round"):
        scoring.card(schedule, 1, 1, {**ROUND_1, "E": [0, 0, 0, 0]})
    with pytest.raises(scoring.CardRefused, match=r"round 1, table 2: there is no such table this round \(tables 1\)"):
        scoring.card(schedule, 1, 2, ROUND_1)
    with pytest.raises(scoring.CardRefused, match="round 3: the day has rounds 1 to 2"):
        scoring.card(schedule, 3, 1, ROUND_1)
    with pytest.raises(scoring.CardRefused, match="beyond the 1,000,000 points"):
        scoring.card(schedule, 1, 1, {**ROUND_1, "A": [10**7, 0, 0, 0]})
    assert scoring.card(schedule, 1, 1, {**ROUND_1, "D": ["−3", "+2", " 4 ", 0]}).points[3] == (-3, 2, 4, 0)


def test_standings_refuse_a_round_whose_cards_are_not_all_in():
    schedule = day([(["ABCD", "EFGH"], "")], players="ABCDEFGH")
    card = scoring.card(schedule, 1, 1, {p: [0, 0, 0, 0] for p in "ABCD"})
    with pytest.raises(scoring.ScoresIncomplete, match="round 1: no card yet for table 2"):
        scoring.standings(schedule, [card])
    with pytest.raises(scoring.ScoresIncomplete, match="round 1: no table's card is in yet"):
        scoring.standings(schedule, [])
    assert scoring.complete_rounds(schedule, [card]) == 0


def test_a_card_that_no_longer_fits_the_schedule_is_refused():
    schedule = day(SIT_OUT_DAY, odd="sit-out", sit_out_scoring="average")
    card = scoring.card(schedule, 1, 1, ROUND_1)
    other = day([(["ABCE"], "D"), (["EBCD"], "A")], odd="sit-out", sit_out_scoring="average")
    with pytest.raises(scoring.CardRefused, match="not the ones the schedule seats"):
        scoring.standings(other, [card])


POINTS = st.integers(min_value=-50, max_value=50)


@given(
    st.lists(st.lists(POINTS, min_size=4, max_size=4), min_size=9 * 2, max_size=9 * 2),
    st.booleans(),
    st.sampled_from(list(Ties)),
)
def test_standings_properties(rows, average, ties):
    """Whatever the points: totals add up, ranks follow the documented order (shared ties or tie-breaks),
    entering a card again changes nothing, each round's winners have its best round total."""
    schedule = day(
        [(["ABCD", "EFGH"], "I"), (["IBCD", "EFGA"], "H")],
        players="ABCDEFGHI",
        odd="sit-out",
        sit_out_scoring="average" if average else "zero",
    )
    boxes = iter(rows)
    cards = [
        scoring.card(schedule, number, table.table, {name: next(boxes) for name in table.players})
        for number, round_ in enumerate(schedule.rounds, start=1)
        for table in round_.tables
    ]
    rules = Rules(ties=ties)
    result = scoring.standings(schedule, cards, rules=rules)
    assert scoring.standings(schedule, cards + cards[::-1], rules=rules) == result
    order = [(r.total, r.games_won, r.best_game) for r in result.rows]
    assert order == sorted(order, reverse=True)
    keys = order if ties is Ties.BROKEN else [(r.total,) for r in result.rows]
    for row, key in zip(result.rows, keys):
        assert row.total == sum(score.points or 0 for score in row.rounds)
        assert row.rank == 1 + sum(other > key for other in keys)
        assert row.shared == (keys.count(key) > 1)
    for high in result.highs:
        played = [r.rounds[high.round - 1] for r in result.rows if r.rounds[high.round - 1].table is not None]
        at = [score.points for score in played if high.table in (None, score.table)]
        assert high.points == max(at) and len(high.players) == at.count(high.points)
    games = [game for card in cards for game in zip(*card.points)]
    assert sum(r.games_won for r in result.rows) == sum(game.count(max(game)) == 1 for game in games)
    for number, average_points in enumerate(result.round_averages, start=1):
        sat_out = next(r for r in result.rows if r.rounds[number - 1].mark is RoundMark.SAT_OUT)
        assert sat_out.rounds[number - 1].points == (average_points if average else 0)
