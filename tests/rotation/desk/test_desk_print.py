"""The desk's print (TestClient): score sheets that record what the event's score page takes, and the
print options' choices."""

from __future__ import annotations

import re

from desk_helpers import names, seeded_event
from models.rules import Rules
from rotation.desk.core.settings import EventSettings

GAME_HEADS = "<th>Game</th><th>Winner</th><th>Value</th><th>How</th><th>Discarder</th><th>Exposures</th>"


def sheets_of(client, event_id: int) -> str:
    printed = client.get(f"/events/{event_id}/print", params={"parts": ["sheets"], "first": 1, "last": 1})
    assert printed.status_code == 200, printed.text
    return printed.text


def test_an_event_taking_game_results_prints_a_row_per_game_with_the_games_file_s_columns(client, db):
    """Issue 53: the sheets had boxes 'Game 1 ... Game 4, Total' while the score page asked for winner,
    value, how, discarder, exposures, jokerless, dead and Mah Jongg in error."""
    rules = Rules(games_per_round=3, two_winners=True, lowest_value=20)
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=2, score_entry="games", rules=rules))
    page = sheets_of(client, event_id)
    assert page.count(GAME_HEADS) == 2  # both tables of round 1
    games = re.findall(r'<table class="games">(.*?)</table>', page, re.S)
    assert [len(re.findall(r"<tr style", table)) for table in games] == [3, 3]  # the event's games a round
    assert "<th>Game 1</th>" not in page and "<th>Total</th>" not in page
    assert "winner, or two on one discard" in page and "Value: the hand&#39;s, 20 to 100" in page
    assert "Scoring: the winner scores" in page  # the event's rules at the foot


def test_an_event_taking_points_prints_each_player_s_points_per_game(client, db):
    rules = Rules(games_per_round=3)
    event_id = seeded_event(db, EventSettings(names=names(8), rounds=2, score_entry="points", rules=rules))
    page = sheets_of(client, event_id)
    assert GAME_HEADS not in page and 'class="games"' not in page
    assert page.count("<th>Game 1</th><th>Game 2</th><th>Game 3</th><th>Total</th>") == 2


def test_a_change_of_score_entry_prints_anew(client, db):
    """The desk keeps printed pages; a page kept from before the event changed how it takes scores is not
    the one printed after."""
    from rotation.desk.storage import Store

    event_id = seeded_event(db, EventSettings(names=names(8), rounds=2, score_entry="games"))
    assert GAME_HEADS in sheets_of(client, event_id)
    store = Store(db)
    event = store.event(event_id)
    assert event is not None
    store.set_settings(event_id, event.settings.model_copy(update={"score_entry": "points"}))
    store.close()
    assert GAME_HEADS not in sheets_of(client, event_id)


def test_find_your_table_by_surname_from_the_print_options(client, db):
    """Issue 53: the command line printed the lookup lists by surname (--sort-by surname); the desk could not."""
    players = [f"{first} {last}" for first, last in zip("Ann Bob Cy Di Ed Flo Gus Hal".split(), "ZYXWVUTS")]
    event_id = seeded_event(db, EventSettings(names=players, rounds=2))
    options = client.get(f"/events/{event_id}/print-options").text
    assert '<select name="sort_by" id="sort-by">' in options and 'value="surname"' in options
    query = {"parts": ["lookup"], "first": 1, "last": 1}
    by_surname = client.get(f"/events/{event_id}/print", params={**query, "sort_by": "surname"}).text
    shown = re.findall(r"(?:[A-Z], )?(?:Ann|Bob|Cy|Di|Ed|Flo|Gus|Hal)(?: [A-Z])?(?=<)", by_surname)
    assert shown == [f"{last}, {first}" for first, last in zip("Hal Gus Flo Ed Di Cy Bob Ann".split(), "STUVWXYZ")]
    by_first = client.get(f"/events/{event_id}/print", params=query).text
    assert "Z, Ann" not in by_first and by_first.index(">Ann Z<") < by_first.index(">Hal S<")
    refused = client.get(f"/events/{event_id}/print", params={**query, "sort_by": "shoe size"})
    assert refused.status_code == 422 and "an order from first, surname" in refused.text
