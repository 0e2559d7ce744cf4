"""Every write names its base (issue 57): the settings saved from settings changed since, and a score
card made from an entry changed since (issue 53), are refused with what is stored now; a form keeps what
was typed. The races of the day's versions are test_desk_races.py; the mixed concurrent writes of four
clients, counted in the file afterwards, test_desk_concurrency.py."""

from __future__ import annotations

import re

from test_desk_games import TABLE_1_GAMES, TABLE_1_TOTALS, games_day
from test_desk_games import form_of as games_form
from test_desk_races import at_once
from test_desk_scores import CARD_1, TABLE_1, enter, errors_of, form_of, played, sit_out_day

from desk_helpers import names, seeded_event, token_of
from rotation.desk.core.settings import EventSettings

SETTINGS = EventSettings(title="Spring Open", names=names(16), rounds=4, time_limit=1)


def base_of(html: str) -> str:
    found = re.search(r'name="base_settings" value="([^"]*)"', html)
    assert found, "the settings form names no base"
    return found.group(1)


def settings_form(html: str, **changes: str) -> dict[str, str]:
    """The settings form as the page fills it (its text boxes and chosen options), with `changes` typed."""
    fields = dict(re.findall(r'<input[^>]* name="([a-z_]+)" value="([^"]*)"', html))
    fields |= {
        name: value for name, value in re.findall(r'<textarea[^>]* name="([a-z_]+)"[^>]*>([^<]*)</textarea>', html)
    }
    fields |= dict(re.findall(r'name="([a-z_]+)" value="([^"]*)" checked', html))
    return {
        key: value.replace("&#34;", '"').replace("&#39;", "'").replace("&amp;", "&") for key, value in fields.items()
    } | changes


def test_two_tabs_saving_settings_the_second_is_refused_and_keeps_what_it_typed(client, db):
    event_id = seeded_event(db, SETTINGS)
    first, second = (client.get(f"/events/{event_id}/edit").text for _ in range(2))
    assert base_of(first) == base_of(second) == client.get(f"/api/events/{event_id}").json()["settings_version"]
    saved = client.post(
        f"/events/{event_id}/edit", data=settings_form(first, title="Spring Open A"), follow_redirects=False
    )
    assert saved.status_code == 303
    refused = client.post(f"/events/{event_id}/edit", data=settings_form(second, title="Spring Open B"))
    assert refused.status_code == 409 and "the settings changed while you were editing" in refused.text
    assert 'value="Spring Open B"' in refused.text  # what was typed, kept in the form
    assert re.search(r"<dt>Title, saved now</dt><dd>Spring Open A</dd>", refused.text)  # and what is stored now
    assert client.get(f"/api/events/{event_id}").json()["settings"]["title"] == "Spring Open A"
    again = client.post(f"/events/{event_id}/edit", data=settings_form(refused.text), follow_redirects=False)
    assert again.status_code == 303  # sent again from the page that showed the settings as they are now
    assert client.get(f"/api/events/{event_id}").json()["settings"]["title"] == "Spring Open B"


def test_a_settings_page_opened_before_a_rename_does_not_write_the_old_name_back(client, db):
    event_id = seeded_event(db, SETTINGS)
    opened = client.get(f"/events/{event_id}/edit").text
    assert client.post(f"/api/events/{event_id}/rename", json={"old": "Player 04", "new": "Player Four"}).is_success
    refused = client.post(f"/events/{event_id}/edit", data=settings_form(opened, title="Renamed"))
    assert refused.status_code == 409 and "a player renamed" in refused.text
    settings = client.get(f"/api/events/{event_id}").json()["settings"]
    assert "Player Four" in settings["names"] and "Player 04" not in settings["names"]
    assert settings["title"] == "Spring Open"


def test_json_settings_name_their_base(client, db):
    event_id = seeded_event(db, SETTINGS)
    read = client.get(f"/api/events/{event_id}").json()
    base = read["settings_version"]
    changed = {**read["settings"], "title": "One"}
    done = client.put(f"/api/events/{event_id}", params={"base_settings": base}, json=changed)
    assert done.status_code == 200 and done.json()["settings_version"] != base
    stale = client.put(
        f"/api/events/{event_id}", params={"base_settings": base}, json={**read["settings"], "title": "Two"}
    )
    assert stale.status_code == 409 and stale.json()["field"] == "settings"
    assert (
        stale.json()["settings"]["title"] == "One"
        and stale.json()["settings_version"] == done.json()["settings_version"]
    )
    unnamed = client.put(f"/api/events/{event_id}", json={**read["settings"], "title": "Three"})
    assert unnamed.status_code == 200  # a script that names no base replaces what is stored


def test_two_settings_saves_from_one_base_at_once_one_stored_one_refused(client, db):
    event_id = seeded_event(db, SETTINGS)
    for attempt in range(8):
        read = client.get(f"/api/events/{event_id}").json()
        path, base = f"/api/events/{event_id}?base_settings={read['settings_version']}", read["settings"]
        responses = at_once(
            client,
            (path, {"json": {**base, "title": f"A{attempt}"}}),
            (path, {"json": {**base, "title": f"B{attempt}"}}),
            method="put",
        )
        assert sorted(r.status_code for r in responses) == [200, 409]
        winner = next(r for r in responses if r.status_code == 200).json()["settings"]["title"]
        assert client.get(f"/api/events/{event_id}").json()["settings"]["title"] == winner


# ---- score cards name the entry they were made from (issue 53) -----------------------------------------


def card_json(points: dict, base: int | None) -> dict:
    return {"round": 1, "table": 1, "points": points, **({} if base is None else {"base_entry": base})}


def test_a_json_card_made_from_an_entry_changed_since_is_refused_with_the_card_as_it_is_now(client, db):
    event_id = sit_out_day(db)
    played(client, event_id)
    path = f"/api/events/{event_id}/cards"
    first = client.post(path, json=card_json(CARD_1, 0))
    assert first.status_code == 200 and first.json()["stored"] is True
    entry = first.json()["table"]["card"]["id"]
    other = {**CARD_1, "Player 01": [10, 0, 0, 5]}
    late = client.post(path, json=card_json(other, 0))  # made when no card was in: one is in now
    assert late.status_code == 409 and late.json()["field"] == "t1"
    assert late.json()["table"]["card"]["id"] == entry and late.json()["table"]["card"]["totals"]["Player 01"] == 10
    same = client.post(path, json=card_json(CARD_1, 0))  # what is in already: nothing to lose, nothing stored
    assert same.status_code == 200 and same.json()["stored"] is False
    corrected = client.post(path, json=card_json(other, entry))
    assert corrected.status_code == 200 and corrected.json()["table"]["card"]["totals"]["Player 01"] == 15
    assert client.post(path, json=card_json(CARD_1, entry)).status_code == 409  # the correction is newer
    assert client.post(path, json=card_json(CARD_1, None)).status_code == 200  # no base named: replaces it
    history = client.get(f"/api/events/{event_id}/cards/1/1/history").json()
    assert [h["totals"]["Player 01"] for h in history] == [10, 15, 10]


def test_json_game_results_name_their_entry_too(client, db):
    event_id = games_day(db)
    played(client, event_id)
    games = [{"game": g, **cells} for g, cells in TABLE_1_GAMES.items()]
    path = f"/api/events/{event_id}/games"
    assert client.post(path, json={"round": 1, "table": 1, "games": games, "base_entry": 0}).status_code == 200
    other = [{"game": g, "how": "wall"} for g in range(1, 5)]
    late = client.post(path, json={"round": 1, "table": 1, "games": other, "base_entry": 0})
    assert late.status_code == 409 and late.json()["table"]["card"]["totals"]["Player 01"] == TABLE_1_TOTALS[0]


def test_two_cards_for_one_table_from_one_entry_at_once_one_stored_one_refused(client, db):
    event_id = sit_out_day(db)
    played(client, event_id)
    path = f"/api/events/{event_id}/cards"
    base = 0
    for attempt in range(8):
        one = {**CARD_1, "Player 04": [0, 0, 0, attempt * 2 + 1]}
        two = {**CARD_1, "Player 04": [0, 0, 0, attempt * 2 + 2]}
        responses = at_once(client, (path, {"json": card_json(one, base)}), (path, {"json": card_json(two, base)}))
        assert sorted(r.status_code for r in responses) == [200, 409]
        stored = next(r for r in responses if r.status_code == 200).json()["table"]["card"]
        refused = next(r for r in responses if r.status_code == 409).json()["table"]["card"]
        assert refused == stored  # the refusal carries the card that was stored meanwhile
        base = stored["id"]
    assert len(client.get(f"/api/events/{event_id}/cards/1/1/history").json()) == 8


def test_two_tabs_on_one_card_the_second_sees_the_card_as_it_is_now_and_what_it_typed(client, db):
    event_id = sit_out_day(db)
    played(client, event_id)
    first, second = (client.get(f"/events/{event_id}/scores/1").text for _ in range(2))
    assert 'name="base_entry" value="0"' in first
    saved = client.post(
        f"/events/{event_id}/scores/1/1", data={"csrf": token_of(first), "base_entry": "0", **form_of(CARD_1, TABLE_1)}
    )
    assert saved.status_code == 200 and "Table 1: card saved" in saved.text
    entry = client.get(f"/api/events/{event_id}/cards", params={"round": 1}).json()[0]["tables"][0]["card"]["id"]
    typed = {**CARD_1, "Player 02": [0, 21, 0, 0]}
    data = {"csrf": token_of(second), "base_entry": "0", **form_of(typed, TABLE_1)}
    refused = client.post(f"/events/{event_id}/scores/1/1", data=data)
    assert refused.status_code == 409
    assert "this card changed while you were editing it" in errors_of(refused.text)["t1"]
    assert 'id="not-saved-1"' in refused.text
    assert 'name="points-1-2" value="21"' in refused.text  # what was typed, in the boxes
    now = re.search(r'<table class="card-now" id="card-now-1">(.*?)</table>', refused.text, re.S)
    assert now and re.findall(r"<td[^>]*>(-?\d+)</td>", now.group(1))[5:10] == ["0", "20", "0", "0", "20"]  # now
    assert re.findall(r'<td class="differs"[^>]*>(-?\d+)</td>', now.group(1)) == ["20"]  # where it differs
    assert f'name="base_entry" value="{entry}"' in refused.text  # sent again, it is made from the card as it is now
    totals = client.get(f"/api/events/{event_id}/cards", params={"round": 1}).json()[0]["tables"][0]["card"]["totals"]
    assert totals["Player 02"] == 20
    again = client.post(f"/events/{event_id}/scores/1/1", data={**data, "base_entry": str(entry)})
    assert again.status_code == 200 and "Table 1: card saved" in again.text


def test_two_tabs_on_one_game_result_card_the_second_sees_the_card_as_it_is_now_and_what_it_typed(client, db):
    """Game results too: the second save from a stale base is refused (409), the boxes keep what was typed and
    the card as it is now is shown beside them, game by game, each box that says otherwise marked."""
    event_id = games_day(db)
    played(client, event_id)
    first, second = (client.get(f"/events/{event_id}/scores/1").text for _ in range(2))
    assert 'name="base_entry" value="0"' in second
    data = {"csrf": token_of(first), "base_entry": "0", **games_form(TABLE_1_GAMES)}
    assert client.post(f"/events/{event_id}/scores/1/1", data=data).status_code == 200
    entry = client.get(f"/api/events/{event_id}/cards", params={"round": 1}).json()[0]["tables"][0]["card"]["id"]
    typed = {**TABLE_1_GAMES, 1: {"winner": "A", "value": "35", "how": "self", "jokerless": "yes"}}
    late = {"csrf": token_of(second), "base_entry": "0", **games_form(typed)}
    refused = client.post(f"/events/{event_id}/scores/1/1", data=late)
    assert refused.status_code == 409
    assert "this card changed while you were editing it" in errors_of(refused.text)["t1"]
    assert 'name="game-1-value" value="35"' in refused.text  # what was typed, in the boxes
    now = re.search(r'<table class="card-now" id="card-now-1">(.*?)</table>', refused.text, re.S)
    assert now, "the card as it is now is not shown"
    assert re.findall(r'<td class="differs"[^>]*>([^<]*)</td>', now.group(1)) == ["30"]  # game 1's value differs
    totals = re.findall(r'<td class="total"[^>]*>(-?\d+)</td>', now.group(1))
    assert totals == [str(total) for total in TABLE_1_TOTALS]  # each seat's round total as it is now
    assert f'name="base_entry" value="{entry}"' in refused.text
    stored = client.get(f"/api/events/{event_id}/cards", params={"round": 1}).json()[0]["tables"][0]["card"]
    assert stored["id"] == entry and stored["totals"]["Player 01"] == TABLE_1_TOTALS[0]
    again = client.post(f"/events/{event_id}/scores/1/1", data={**late, "base_entry": str(entry)})
    assert again.status_code == 200 and "Table 1: card saved" in again.text


def test_a_wrong_box_keeps_the_entry_the_form_was_made_from(client, db):
    event_id = sit_out_day(db)
    played(client, event_id)
    page = client.get(f"/events/{event_id}/scores/1").text
    assert enter(client, event_id, 1, 1, CARD_1).status_code == 200  # meanwhile, from elsewhere
    data = {"csrf": token_of(page), "base_entry": "0", **form_of(CARD_1, TABLE_1), "points-1-3": "1O"}
    wrong = client.post(f"/events/{event_id}/scores/1/1", data=data)
    assert wrong.status_code == 422 and 'name="base_entry" value="0"' in wrong.text  # not silently the newer one


def test_a_blank_card_says_so_beside_its_form(client, db):
    event_id = sit_out_day(db)
    played(client, event_id)
    page = client.get(f"/events/{event_id}/scores/1").text
    blank = {"csrf": token_of(page), "base_entry": "0", **form_of({}, TABLE_1)}
    refused = client.post(f"/events/{event_id}/scores/1/1", data=blank)
    assert refused.status_code == 422 and errors_of(refused.text)["t1"].startswith(
        "the card is empty: nothing was saved"
    )
    assert 'id="not-saved-1"' in refused.text
    assert client.get(f"/api/events/{event_id}/cards", params={"round": 1}).json()[0]["missing"] == [1, 2]


def test_a_swap_in_a_played_round_offers_the_cards_entered_before(client, db):
    event_id = games_day(db)
    played(client, event_id)
    games = [{"game": g, **cells} for g, cells in TABLE_1_GAMES.items()]
    assert client.post(f"/api/events/{event_id}/games", json={"round": 1, "table": 1, "games": games}).is_success
    swap = {"round": 1, "first": "Player 02", "second": "Player 06", "confirm": True}
    assert client.post(f"/api/events/{event_id}/swap", json=swap).is_success
    page = client.get(f"/events/{event_id}/scores/1").text
    assert "that card is filled in above, seat by seat" in page
    assert 'name="game-1-value" value="30"' in page and 'name="game-3-dead" value="C"' in page
    form = re.search(r'<form[^>]*id="table-1".*?</form>', page, re.S)
    assert form is not None
    fields = dict(re.findall(r'name="((?:name|game|base)[a-z0-9_-]*)" value="([^"]*)"', form.group(0)))
    fields |= {f"game-{g}-how": cells["how"] for g, cells in TABLE_1_GAMES.items()}  # the selects
    confirmed = client.post(f"/events/{event_id}/scores/1/1", data={"csrf": token_of(page), **fields})
    assert confirmed.status_code == 200 and "Table 1: card saved" in confirmed.text
    table = client.get(f"/api/events/{event_id}/cards", params={"round": 1}).json()[0]["tables"][0]
    assert table["status"] == "in" and table["card"]["totals"]["Player 06"] == TABLE_1_TOTALS[1]


# ---- the room: a release taken back names the round -------------------------------------------------


def test_two_tabs_taking_the_latest_round_back_take_back_one_round(client, db):
    event_id = seeded_event(db, SETTINGS)
    for number in (1, 2):
        assert client.post(f"/api/events/{event_id}/release", json={"round": number}).status_code == 200
    first, second = (client.get(f"/events/{event_id}/room").text for _ in range(2))
    assert 'name="round" value="2"' in first
    form = {"csrf": token_of(first), "round": "2", "confirm": "1"}
    assert client.post(f"/events/{event_id}/release/withdraw", data=form, follow_redirects=False).status_code == 303
    refused = client.post(f"/events/{event_id}/release/withdraw", data={**form, "csrf": token_of(second)})
    assert refused.status_code == 409 and "round 2 is not the latest released round now (round 1 is)" in refused.text
    assert client.get(f"/api/events/{event_id}/room").json()["released"] == [1]
    stale = client.post(f"/api/events/{event_id}/release/withdraw", json={"round": 2})
    assert stale.status_code == 409 and stale.json()["field"] == "release"
    assert client.post(f"/api/events/{event_id}/release/withdraw", json={"round": 1}).status_code == 200
    assert client.get(f"/api/events/{event_id}/room").json()["released"] == []


def test_two_tabs_releasing_the_next_session_release_one_session(client, db):
    event_id = seeded_event(db, EventSettings(names=names(16), rounds=6, session_rounds=2, title="Open"))
    first, second = (client.get(f"/events/{event_id}/room").text for _ in range(2))
    assert 'name="session" value="1"' in first
    form = {"csrf": token_of(first), "session": "1"}
    assert client.post(f"/events/{event_id}/release/session", data=form).status_code == 200
    refused = client.post(f"/events/{event_id}/release/session", data={**form, "csrf": token_of(second)})
    assert refused.status_code == 409 and "session 1 is not the next to release now (session 2 is)" in refused.text
    assert client.get(f"/api/events/{event_id}/room").json()["released"] == [1, 2]
    stale = client.post(f"/api/events/{event_id}/release/session", json={"session": 1})
    assert stale.status_code == 409 and stale.json()["field"] == "release"
    assert client.post(f"/api/events/{event_id}/release/session", json={"session": 2}).status_code == 200
    assert client.post(f"/api/events/{event_id}/release/session").json()["released"] == [1, 2, 3, 4, 5, 6]
    done = client.post(f"/api/events/{event_id}/release/session", json={"session": 3})
    assert done.status_code == 409 and "(every round is released)" in done.json()["detail"]


def test_two_extensions_of_the_timer_at_once_both_count(client, db):
    """The timer is read and written in one transaction: two directors adding five minutes at once add ten."""
    event_id = seeded_event(db, SETTINGS)
    assert client.post(f"/api/events/{event_id}/release", json={"round": 1}).status_code == 200
    path, extend = f"/api/events/{event_id}/timer", {"json": {"action": "extend", "minutes": 5}}
    for attempt in range(1, 9):
        before = client.post(path, json={"action": "pause"}).json()["timer"]["left"]
        responses = at_once(client, (path, extend), (path, extend))
        assert [r.status_code for r in responses] == [200, 200]
        assert client.get(f"/api/events/{event_id}/room").json()["timer"]["left"] == before + 600, attempt
