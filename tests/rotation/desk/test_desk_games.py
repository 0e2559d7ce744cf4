"""Game results in the desk over HTTP (TestClient): the round page's game rows, refusals beside their
boxes, the JSON endpoint, the event's rules from the settings form, the rules page."""

from __future__ import annotations

import re

from test_desk_scores import TABLE_1, TABLE_2, played, standings

from desk_helpers import names, seeded_event, token_of
from models.rules import Rules
from rotation.desk.core.settings import EventSettings

# Table 1 (Player 01-04 in seats A-D), hand-computed under the common rules:
#   1 A self-picks 30 jokerless: A 60     2 B wins 25 on D's discard, 3 exposures: B 25, D -25
#   3 wall game, C dead: A, B, D 10       4 unfinished: nothing
TABLE_1_GAMES = {
    1: {"winner": "A", "value": "30", "how": "self", "jokerless": "yes"},
    2: {"winner": "B", "value": "25", "how": "discard", "discarder": "D", "exposures": "3"},
    3: {"how": "wall", "dead": "C"},
    4: {"how": "unfinished"},
}
TABLE_1_TOTALS = [70, 35, 0, -15]
# Table 2: four wall games, 40 each.
TABLE_2_GAMES = {g: {"how": "wall"} for g in range(1, 5)}


def games_day(db, **rules) -> int:
    settings = EventSettings(
        names=names(9), rounds=3, odd="sit-out", score_entry="games", rules=Rules(**rules) if rules else Rules()
    )
    return seeded_event(db, settings)


def errors_of(html: str) -> dict[str, str]:
    return dict(re.findall(r'<p class="error" id="error-([a-z0-9_-]+)" role="alert">([^<]*)</p>', html))


def form_of(games: dict) -> dict:
    return {f"game-{g}-{column}": text for g, cells in games.items() for column, text in cells.items()}


def test_the_round_page_takes_game_results_and_the_server_scores_them(client, db):
    event_id = games_day(db)
    played(client, event_id)
    page = client.get(f"/events/{event_id}/scores/1").text
    assert page.count('name="game-1-winner"') == 2 and 'name="points-0-1"' not in page
    data = {"csrf": token_of(page), **form_of(TABLE_1_GAMES)}
    saved = client.post(f"/events/{event_id}/scores/1/1", data=data, follow_redirects=False)
    assert saved.status_code == 303
    shown = client.get(saved.headers["location"]).text
    assert re.findall(r'aria-label="Player 0\d, round total">(-?\d+)<', shown) == [str(t) for t in TABLE_1_TOTALS]
    assert 'aria-label="game 2 points">A 0 · B 25 · C 0 · D -25<' in shown
    assert 'name="game-3-dead" value="C"' in shown  # the results entered, shown again for a correction
    card = client.get(f"/api/events/{event_id}/cards", params={"round": 1}).json()[0]["tables"][0]["card"]["card"]
    assert [g["how"] for g in card["games"]] == ["self", "discard", "wall", "unfinished"]


def test_a_wrong_game_gets_each_message_beside_its_box_and_nothing_is_saved(client, db):
    event_id = games_day(db)
    played(client, event_id)
    token = token_of(client.get(f"/events/{event_id}/scores/1").text)
    wrong = {
        **TABLE_1_GAMES,
        2: {**TABLE_1_GAMES[2], "discarder": "B"},  # the winner discarded
        3: {"how": "wall", "winner": "A", "dead": "Q"},
        4: {},  # nothing entered
    }
    refused = client.post(f"/events/{event_id}/scores/1/1", data={"csrf": token, **form_of(wrong)})
    assert refused.status_code == 422
    assert errors_of(refused.text) == {
        "t1-g2-discarder": "discarder: seat B won: the winner did not discard the winning tile",
        "t1-g3-dead": "dead hands: &#39;Q&#39; is not a seat letter A, B, C or D",
        "t1-g4-how": "how: no result entered for this game",
    }
    assert 'name="game-3-winner" value="A"' in refused.text  # what was typed is kept
    assert re.search(r'name="game-2-discarder" value="B"[^>]*class="wrong" aria-invalid="true"', refused.text)
    assert client.get(f"/api/events/{event_id}/cards", params={"round": 1}).json()[0]["missing"] == [1, 2]


def test_json_games_and_the_standings_share_ties(client, db):
    event_id = games_day(db)
    played(client, event_id)
    post = lambda table, games: client.post(  # noqa: E731
        f"/api/events/{event_id}/games",
        json={"round": 1, "table": table, "games": [{"game": g, **cells} for g, cells in games.items()]},
    )
    assert post(1, TABLE_1_GAMES).json()["table"]["card"]["totals"] == dict(zip(TABLE_1, TABLE_1_TOTALS))
    bad = post(2, {**TABLE_2_GAMES, 1: {"how": "wall", "value": "30"}})
    assert bad.status_code == 422
    assert bad.json()["problems"][0] | {"round": 1} == {
        "round": 1,
        "table": 2,
        "player": None,
        "game": 1,
        "message": "value: a wall game has no value; clear it, or say how the game was won",
        "field": "value",
    }
    assert post(2, TABLE_2_GAMES).status_code == 200
    data = standings(client, event_id)
    rows = {row["player"]: row for row in data["standings"]["rows"]}
    # Table 2's four players total 40 each, behind Player 01's 70: level, they share second place.
    assert [rows[name]["place"] for name in TABLE_2] == ["=2"] * 4
    assert rows["Player 01"]["place"] == "1" and rows["Player 01"]["games_won"] == 1
    shared = "=2: Player 05, Player 06, Player 07 and Player 08 share places 2 to 3 of the winner's circle (top 3)"
    assert any(note.startswith(shared) for note in data["footnotes"]), data["footnotes"]


def test_the_settings_form_edits_the_rules_and_refuses_wrong_ones_beside_their_box(client, db):
    event_id = games_day(db)
    form = client.get(f"/events/{event_id}/edit").text
    assert 'name="rules_self_pick" value="10"' in form and 'name="rules_discarder_3_exposures" value="25"' in form
    fields = dict(re.findall(r'<(?:input|textarea)[^>]*name="([a-z_0-9]+)"[^>]*value="([^"]*)"', form))
    fields.update(names="\n".join(names(9)), rounds="3", odd="sit-out", score_entry="games", csrf=token_of(form))
    refused = client.post(f"/events/{event_id}/edit", data={**fields, "rules_wall_game": "ten"})
    assert refused.status_code == 422
    assert errors_of(refused.text)["rules_wall_game"] == "&#39;ten&#39; is not a whole number"
    refused = client.post(f"/events/{event_id}/edit", data={**fields, "rules_lowest_value": "150"})
    assert "above the highest 100" in errors_of(refused.text)["rules_lowest_value"]
    saved = client.post(
        f"/events/{event_id}/edit",
        data={**fields, "rules_discarder_3_exposures": "30", "rules_winners_circle": "4; 8 from 30"},
        follow_redirects=False,
    )
    assert saved.status_code == 303
    rules = client.get(f"/api/events/{event_id}").json()["settings"]["rules"]
    assert rules["discarder_3_exposures"] == 30 and rules["winners_circle"] == [[1, 4], [30, 8]]
    played(client, event_id)
    entered = client.post(
        f"/api/events/{event_id}/games",
        json={"round": 1, "table": 1, "games": [{"game": g, **cells} for g, cells in TABLE_1_GAMES.items()]},
    )
    assert entered.json()["table"]["card"]["totals"]["Player 04"] == -20  # -30 + 10: the event's rules, at once


def test_the_rules_page_prints_the_events_rule_sheet(client, db):
    event_id = games_day(db, discarder_3_exposures=30, three_handed="Tables of three: no Charleston.")
    page = client.get(f"/events/{event_id}/rules")
    assert page.status_code == 200
    assert "-10 when the winner has 0-1 exposures, -20 with 2, -30 with 3 or more" in page.text
    assert "Tables of three: no Charleston." in page.text


def test_member_numbers_reach_the_results_and_survive_the_settings_form(client, db):
    listed = [("Player 01", "M-1"), ("Player 02", ""), *((name, f"M-{i}") for i, name in enumerate(names(9)[2:], 3))]
    settings = EventSettings(
        names=names(9), rounds=3, odd="sit-out", score_entry="games", ids={n: i for n, i in listed if i}
    )
    event_id = seeded_event(db, settings)
    form = client.get(f"/events/{event_id}/edit").text
    assert "name,id\nPlayer 01,M-1\nPlayer 02,\nPlayer 03,M-3" in form  # the names box keeps the id column
    played(client, event_id)
    for table, games in ((1, TABLE_1_GAMES), (2, TABLE_2_GAMES)):
        body = {"round": 1, "table": table, "games": [{"game": g, **cells} for g, cells in games.items()]}
        assert client.post(f"/api/events/{event_id}/games", json=body).status_code == 200
    results = client.get(f"/events/{event_id}/standings/download/results.csv").text.splitlines()
    assert results[0] == "place,id,name,total,games played,games won,shared"
    assert results[1] == "1,M-1,Player 01,70,4,1,"
    # Table 2 level on 40; Player 02 (no number) 35; Player 03 (dead in game 3) level on 0 with Player 09, who
    # sat out (zero rule) and played no game.
    assert results[2:] == [
        *(f"2,M-{i},Player 0{i},40,4,0,yes" for i in range(5, 9)),
        "6,,Player 02,35,4,1,",
        "7,M-3,Player 03,0,4,0,yes",
        "7,M-9,Player 09,0,0,0,yes",
        "9,M-4,Player 04,-15,4,0,",
    ]
    games = client.get(f"/events/{event_id}/standings/download/games.csv").text.splitlines()
    assert games[0].startswith("round,table,game,winner,value,how,discarder,exposures,jokerless,dead,error,player A")
    assert games[1] == "1,1,1,A,30,self,,0,yes,,,Player 01,60,Player 02,0,Player 03,0,Player 04,0"
    assert len(games) == 1 + 8
    standings_csv = client.get(f"/events/{event_id}/standings/download/standings.csv").text.splitlines()
    assert standings_csv[0].startswith("rank,shared,player,id,total") and ",Player 01,M-1,70," in standings_csv[1]
    # A respelled player keeps the member number, in the settings and in the results.
    assert client.post(f"/api/events/{event_id}/rename", json={"old": "Player 01", "new": "Ann Lee"}).status_code == 200
    assert client.get(f"/api/events/{event_id}").json()["settings"]["ids"]["Ann Lee"] == "M-1"
    results = client.get(f"/events/{event_id}/standings/download/results.csv").text.splitlines()
    assert results[1] == "1,M-1,Ann Lee,70,4,1,"


def test_the_events_fixed_rule_is_compared_and_its_winds_printed(client, db):
    event_id = seeded_event(
        db, EventSettings(names=names(16), rounds=4, fixed_rule="east-stays", winds=("East", "South", "West", "North"))
    )
    page = client.get(f"/events/{event_id}/compare").text
    assert "the event's own fixed rule: After each round: A (East) stays, B (South) up 1 table, C (West)" in page
    rows = re.findall(r'<tr><th scope="row">Repeats</th><td>(\d+)</td><td>(\d+)</td><td>(\d+)</td></tr>', page)
    assert rows == [("20", "20", "16")]  # this day is the MJMP rule's (20); East stays has 16 on 16 x 4
    form = client.get(f"/events/{event_id}/edit").text
    assert 'value="East, South, West, North"' in form and '<option value="east-stays" selected>' in form
    fields = dict(re.findall(r'<(?:input|textarea)[^>]*name="([a-z_0-9]+)"[^>]*value="([^"]*)"', form))
    fields.update(names="\n".join(names(16)), rounds="4", fixed_rule="east-stays", csrf=token_of(form))
    refused = client.post(f"/events/{event_id}/edit", data={**fields, "winds": "East, South"})
    assert refused.status_code == 422
    assert "give four names for seats A, B, C and D" in errors_of(refused.text)["winds"]


def test_a_plain_card_with_two_winners_points_is_saved_and_flagged_for_a_second_look(client, db):
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=2))  # points entry: the house's own rules
    played(client, event_id)
    slipped = {name: [0, 0, 0, 0] for name in TABLE_1}
    slipped["Player 01"], slipped["Player 02"] = [25, 0, 0, 0], [250, 0, 0, 0]  # a slipped zero
    entered = client.post(f"/api/events/{event_id}/cards", json={"round": 1, "table": 1, "points": slipped})
    assert entered.status_code == 200 and entered.json()["stored"] is True
    page = client.get(f"/events/{event_id}/scores/1").text
    assert page.count('class="note look"') == 1
    assert "Worth a second look: Player 01 and Player 02 each have a winner&#39;s points (25 or more)" in page
