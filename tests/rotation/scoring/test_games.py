"""Game results into points by the event's rules: worked examples by hand, every refusal, and properties."""

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import ValidationError
from test_scores import day

from models.games import Game, How
from models.rules import Rules
from rotation.scoring import CardRefused
from rotation.scoring.games import game_points, games_card, read_game, second_looks

RULES = Rules()


def game(number=1, seats=4, rules=RULES, **cells):
    return game_points(read_game(1, 1, number, cells), rules, seats)


def refusals(cells, seats=4, rules=RULES) -> list[tuple[str | None, str]]:
    with pytest.raises(CardRefused) as refused:
        game_points(read_game(1, 1, 1, cells), rules, seats)
    return [(problem.field, problem.message) for problem in refused.value.problems]


def test_self_pick_jokerless_by_hand():
    # 30 on the card, +10 self-picked, +20 jokerless; nobody pays.
    assert game(how="self", winner="A", value="30", jokerless="yes") == (60, 0, 0, 0)
    assert game(how="self", winner="C", value="25") == (0, 0, 35, 0)


def test_the_discarder_loses_by_the_winners_exposures():
    # -10 with 0 or 1 exposures, -20 with 2, -25 with 3 or more; the winner gets the value only.
    for exposures, lost in ((0, 10), (1, 10), (2, 20), (3, 25), (4, 25)):
        points = game(how="discard", winner="B", value="35", exposures=str(exposures), discarder="D")
        assert points == (0, 35, 0, -lost)
    jokerless = game(how="discard", winner="B", value="35", exposures="3", discarder="D", jokerless="yes")
    assert jokerless == (0, 55, 0, -25)
    # Some events take 30 from the discarder of a hand with 3 exposures.
    harsher = Rules(discarder_3_exposures=30)
    assert game(rules=harsher, how="discard", winner="B", value="35", exposures="3", discarder="D") == (0, 35, 0, -30)


def test_a_wall_game_with_a_dead_hand_and_a_mah_jongg_in_error():
    assert game(how="wall") == (10, 10, 10, 10)
    assert game(how="wall", dead="C") == (10, 10, 0, 10)
    assert game(how="wall", dead="C", error="a") == (0, 10, 0, 10)
    assert game(seats=3, how="wall", dead="B") == (10, 0, 10)


def test_an_unfinished_game_scores_nothing():
    assert game(how="unfinished") == (0, 0, 0, 0)
    assert game(rules=Rules(unfinished=5), how="unfinished") == (5, 5, 5, 5)


def test_a_dead_hand_that_discards_the_winning_tile_still_loses():
    assert game(how="discard", winner="A", value="25", exposures="2", discarder="B", dead="B C") == (25, -20, 0, 0)
    penalised = Rules(dead_hand=-10, mah_jongg_in_error=-25)
    assert game(rules=penalised, how="self", winner="A", value="25", dead="B", error="C") == (35, -10, -25, 0)


def test_two_winners_on_one_discard_when_the_rules_allow_it():
    rules = Rules(two_winners=True)
    cells = dict(how="discard", winner="A C", value="25 30", exposures="1 2", discarder="B", jokerless="no yes")
    # A 25; C 30 + 20 jokerless; B loses 10 for A (1 exposure) and 20 for C (2 exposures).
    assert game(rules=rules, **cells) == (25, -30, 50, 0)
    assert refusals(cells)[0] == ("winner", "winner: one winner a game (A, C given): the event's rules allow one")


def test_a_round_of_four_games_makes_the_tables_card():
    schedule = day([(["ABCD"], "")], players="ABCD")
    typed = [
        dict(how="self", winner="A", value="30", jokerless="yes"),
        dict(how="discard", winner="B", value="35", exposures="3", discarder="D", jokerless="yes"),
        dict(how="wall", dead="C"),
        dict(how="unfinished"),
    ]
    games = [read_game(1, 1, number, cells) for number, cells in enumerate(typed, start=1)][::-1]
    card = games_card(schedule, 1, 1, games, RULES)
    assert card.points == ((60, 0, 10, 0), (0, 55, 10, 0), (0, 0, 0, 0), (0, -25, 10, 0))
    assert card.totals() == {"A": 70, "B": 65, "C": 0, "D": -15}
    assert [g.game for g in card.games] == [1, 2, 3, 4]
    with pytest.raises(CardRefused) as refused:
        games_card(schedule, 1, 1, games[:2] + [games[1]], RULES)
    messages = [str(problem) for problem in refused.value.problems]
    assert messages == [
        "round 1, table 1, game 1: how: no result entered for this game",
        "round 1, table 1, game 2: how: no result entered for this game",
        "round 1, table 1, game 3: how: this game is entered twice",
    ]


def test_five_games_a_round_when_the_event_says_so():
    schedule = day([(["ABC"], "")], players="ABC")
    rules = Rules(games_per_round=5)
    games = [read_game(1, 1, number, {"how": "wall"}) for number in range(1, 6)]
    assert games_card(schedule, 1, 1, games, rules).totals() == {"A": 50, "B": 50, "C": 50}
    with pytest.raises(CardRefused, match="game 5: how: a round has games 1 to 4, not game 5"):
        games_card(schedule, 1, 1, games, RULES)


@pytest.mark.parametrize(
    ("cells", "seats", "field", "message"),
    [
        ({}, 4, "how", "say how the game ended: self, discard, wall or unfinished"),
        ({"how": "mahjong"}, 4, "how", "'mahjong' is not one of self, discard, wall, unfinished"),
        ({"how": "self", "value": "30"}, 4, "winner", "a self-picked Mah Jongg needs the winner's seat"),
        ({"how": "self", "winner": "E", "value": "30"}, 4, "winner", "'E' is not a seat letter A, B, C or D"),
        (
            {"how": "self", "winner": "D", "value": "30"},
            3,
            "winner",
            "seat D: this table is three-handed, seats A to C",
        ),
        ({"how": "self", "winner": "A"}, 4, "value", "give the hand's value"),
        ({"how": "self", "winner": "A", "value": "27"}, 4, "value", "27 is not a hand value"),
        ({"how": "self", "winner": "A", "value": "20"}, 4, "value", "a multiple of 5 from 25 to 100"),
        ({"how": "self", "winner": "A", "value": "250"}, 4, "value", "250 is not a hand value"),
        ({"how": "self", "winner": "A", "value": "-30"}, 4, "value", "'-30' is not a whole number"),
        ({"how": "self", "winner": "A", "value": "30", "discarder": "B"}, 4, "discarder", "has no discarder"),
        ({"how": "discard", "winner": "A", "value": "30", "exposures": "1"}, 4, "discarder", "who discarded"),
        ({"how": "discard", "winner": "A", "value": "30", "discarder": "B"}, 4, "exposures", "give the winner's"),
        (
            {"how": "discard", "winner": "A", "value": "30", "exposures": "1", "discarder": "A"},
            4,
            "discarder",
            "seat A won: the winner did not discard the winning tile",
        ),
        (
            {"how": "discard", "winner": "A", "value": "30", "exposures": "5", "discarder": "B"},
            4,
            "exposures",
            "5 exposures: a hand has at most 4",
        ),
        ({"how": "self", "winner": "A", "value": "30", "dead": "A"}, 4, "winner", "seat A has a dead hand"),
        ({"how": "self", "winner": "A", "value": "30", "error": "A"}, 4, "winner", "called Mah Jongg in error"),
        ({"how": "self", "winner": "A", "value": "30", "jokerless": "maybe"}, 4, "jokerless", "'maybe' is not yes"),
        ({"how": "wall", "winner": "A"}, 4, "winner", "a wall game has no winner"),
        ({"how": "wall", "value": "25"}, 4, "value", "a wall game has no value"),
        ({"how": "unfinished", "discarder": "B"}, 4, "discarder", "an unfinished game has no discarder"),
        ({"how": "wall", "jokerless": "yes"}, 4, "jokerless", "no winning hand to be jokerless"),
        ({"how": "wall", "dead": "B b"}, 4, "dead", "seat B is named twice"),
        ({"how": "wall", "dead": "D"}, 3, "dead", "seat D: this table is three-handed"),
        ({"how": "discard", "winner": "A", "value": "30", "exposures": "1", "discarder": "B C"}, 4, "discarder", "one"),
        ({"how": "self", "winner": "A B", "value": "30 30"}, 4, "winner", "the event's rules allow one"),
    ],
)
def test_every_refusal_names_its_field(cells, seats, field, message):
    found = refusals(cells, seats)
    assert any(where == field and message in text for where, text in found), found
    assert all(text.startswith(where_words(where) + ": ") for where, text in found)


def where_words(field):
    return {"dead": "dead hands", "error": "Mah Jongg in error"}.get(field, field)


def test_two_winners_never_on_a_self_pick_nor_three():
    rules = Rules(two_winners=True)
    self_two = {"how": "self", "winner": "A B", "value": "30 30"}
    assert any("only on the same discard" in m for _, m in refusals(self_two, rules=rules))
    three = {"how": "discard", "winner": "A B C", "value": "30 30 30", "exposures": "0 0 0", "discarder": "D"}
    assert any("never more than two" in m for _, m in refusals(three, rules=rules))


def test_rules_refuse_what_cannot_be_a_rule_sheet():
    with pytest.raises(ValidationError, match="lowest hand value 50 is above the highest 40"):
        Rules(lowest_value=50, highest_value=40)
    with pytest.raises(ValidationError, match="multiples of 5"):
        Rules(lowest_value=27)
    with pytest.raises(ValidationError, match="winner's circle starts from 1 player"):
        Rules(winners_circle=((10, 3),))
    assert [Rules().circle(n) for n in (8, 23, 24, 47, 48, 200)] == [3, 3, 6, 6, 12, 12]
    assert Rules().sheet()[3] == (
        "Discarder of the winning tile: -10 when the winner has 0-1 exposures, -20 with 2, -25 with 3 or more."
    )


def test_a_plain_card_with_two_winners_points_gets_a_second_look():
    from rotation import scoring

    schedule = day([(["ABCD"], "")], players="ABCD")
    slipped = {"A": [25, 0, 10, 0], "B": [250, 0, 10, 0], "C": [0, 30, 10, 0], "D": [-10, 0, 10, 0]}
    card = scoring.card(schedule, 1, 1, slipped)
    looks = second_looks(card, RULES)
    assert [str(look) for look in looks] == [
        "round 1, table 1, game 1: A and B each have a winner's points (25 or more): worth a second look"
    ]
    assert second_looks(card, Rules(two_winners=True)) == []


# ---- properties ---------------------------------------------------------------------------------


@st.composite
def valid_games(draw):
    """A game that can have happened at a table of 3 or 4 under the default rules, and its table size."""
    seats = draw(st.sampled_from([3, 4]))
    letters = "ABCD"[:seats]
    how = draw(st.sampled_from(list(How)))
    dead = draw(st.lists(st.sampled_from(letters), unique=True, max_size=seats))
    error = draw(st.lists(st.sampled_from(letters), unique=True, max_size=seats))
    fields: dict = {"how": how, "dead": tuple(dead), "error": tuple(error)}
    if how in (How.SELF, How.DISCARD):
        alive = [s for s in letters if s not in dead and s not in error]
        if not alive:
            return draw(st.nothing())
        winner = draw(st.sampled_from(alive))
        fields |= {
            "winners": (winner,),
            "values": (draw(st.integers(5, 20)) * 5,),
            "exposures": (draw(st.integers(0, 4)),),
            "jokerless": (draw(st.booleans()),),
        }
        if how is How.DISCARD:
            fields["discarder"] = draw(st.sampled_from([s for s in letters if s != winner]))
    return Game(round=1, table=1, game=1, **fields), seats


@given(valid_games())
def test_a_won_game_pays_the_winner_and_charges_only_the_discarder(case):
    played, seats = case
    points = dict(zip("ABCD", game_points(played, RULES, seats)))
    if played.how not in (How.SELF, How.DISCARD):
        expected = RULES.wall_game if played.how is How.WALL else RULES.unfinished
        for seat, got in points.items():
            assert got == (0 if seat in played.dead or seat in played.error else expected)
        return
    (winner,) = played.winners
    bonus = (RULES.self_pick if played.how is How.SELF else 0) + (RULES.jokerless if played.jokerless[0] else 0)
    assert points[winner] == played.values[0] + bonus
    lost = RULES.discarder_loses(played.exposures[0]) if played.how is How.DISCARD else 0
    assert sum(points.values()) == points[winner] - lost
    assert all(got >= 0 or seat == played.discarder for seat, got in points.items())
    assert [s for s, got in points.items() if got >= RULES.lowest_value] == [winner]


@given(valid_games())
def test_a_game_written_as_its_boxes_reads_back_the_same(case):
    from rotation.files.gamesheet import game_cells

    played, _ = case
    assert read_game(1, 1, 1, game_cells(played)) == played
