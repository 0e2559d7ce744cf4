"""A series' roster over HTTP (issue 53): members with their numbers added before they play, a returning
guest made a member in one step, and guests in or out of the series' standings by a series setting."""

from __future__ import annotations

import html
import re

from test_desk_series import API, URL, first_night, score_round_one

from desk_helpers import names, token_of, wait_run


def errors_of(page: str) -> dict[str, str]:
    found = re.findall(r'<p class="error" id="error-([a-z_]+)" role="alert">([^<]*)</p>', page)
    return {field: html.unescape(text) for field, text in found}


def ticks(client) -> list[str]:
    return re.findall(r'name="present" value="([^"]*)"', client.get(URL).text)


def planned(client, made) -> int:
    assert made.status_code in (201, 303), made.text
    event_id = made.json()["event"] if made.status_code == 201 else int(made.headers["location"].rsplit("/", 1)[1])
    assert wait_run(client, client.get(f"/api/events/{event_id}").json()["runs"][0]["id"])["status"] == "finished"
    return event_id


def test_a_member_is_added_with_their_number_before_they_play(client):
    members = names(8)
    first_night(client, members)
    token = token_of(client.get(URL).text)
    added = client.post(
        f"{URL}/members", data={"csrf": token, "members": "name,id\nNora New,77\nOlle Other,"}, follow_redirects=False
    )
    assert added.status_code == 303 and added.headers["location"].endswith("#members")
    assert ticks(client) == sorted([*members, "Nora New", "Olle Other"], key=str.casefold)
    view = {m["name"]: m for m in client.get(API).json()["members"]}
    assert view["Nora New"] == {
        "name": "Nora New",
        "id": "77",
        "guest": False,
        "nights": [False],
        "met": [],
        "not_met": sorted(set(members) | {"Olle Other"}, key=str.casefold),
    }
    assert 'Nora New <span class="quiet member-id">no. 77</span>' in client.get(URL).text
    night = planned(client, client.post(f"{API}/next", json={"present": [*members[:7], "Nora New"], "rounds": 1}))
    settings = client.get(f"/api/events/{night}").json()["settings"]
    assert "Nora New" in settings["names"] and settings["ids"]["Nora New"] == "77" and settings["guests"] == []
    for typed, said in (
        (members[0], "is already a member"),
        ("Pia\npia", "appears twice"),
        ("name,id\nPia,77", "number '77' is Nora New's"),
        ("", "give the new members' names"),
        ("a,b\nc,d", "name"),
    ):
        refused = client.post(f"{URL}/members", data={"csrf": token, "members": typed})
        assert refused.status_code == 422 and said in errors_of(refused.text)["members"], typed
    assert len(client.get(API).json()["members"]) == 10  # nothing refused was kept
    made = client.post(f"{API}/members", json={"members": [{"name": "Pia Park", "id": "90"}]})
    pia = next(m for m in made.json()["members"] if m["name"] == "Pia Park")
    assert made.status_code == 201 and (pia["id"], pia["guest"]) == ("90", False)
    assert client.post(f"{API}/members", json={"members": [{"name": "Pia Park"}]}).status_code == 422
    twice = client.post(f"{API}/members", json={"members": [{"name": "Rae"}, {"name": "RAE"}]})
    assert twice.status_code == 422 and "listed twice" in twice.text
    assert client.post(f"{URL}/members", data={"members": "Quinn"}).status_code == 403  # no CSRF token


def test_a_returning_guest_is_offered_and_made_a_member_in_one_step(client):
    """Issue 53: a guest who came back could not be ticked ('is not a member of the series'), never got
    a number and stayed a guest; now the page offers the earlier nights' guests and one tick makes them a
    member for tonight's night and from now on."""
    members = names(8)
    first_night(client, members)
    planned(client, client.post(f"{API}/next", json={"present": members[:7], "guests": ["Gina Guest"], "rounds": 1}))
    page = client.get(URL).text
    assert re.findall(r'name="join" value="([^"]*)"', page) == ["Gina Guest"] and "Gina Guest" not in ticks(client)
    token = token_of(page)
    refused = client.post(f"{URL}/next", data={"csrf": token, "present": [*members[:7], "Gina Guest"], "rounds": "1"})
    assert refused.status_code == 422 and "tick them under the returning guests" in errors_of(refused.text)["present"]
    stranger = client.post(f"{URL}/next", data={"csrf": token, "present": members, "join": ["Zed"], "rounds": "1"})
    assert stranger.status_code == 422 and "no returning guest" in errors_of(stranger.text)["join"]
    alone = client.post(f"{URL}/next", data={"csrf": token, "join": ["Gina Guest"], "rounds": "1"})
    assert alone.status_code == 422 and "at least 4 players" in alone.text  # one player is no night
    assert next(m for m in client.get(API).json()["members"] if m["name"] == "Gina Guest")["guest"]  # nothing kept
    assert len(client.get("/api/events").json()) == 2
    data = {"csrf": token, "present": members[:7], "join": ["Gina Guest"], "rounds": "1"}
    night = planned(client, client.post(f"{URL}/next", data=data, follow_redirects=False))
    settings = client.get(f"/api/events/{night}").json()["settings"]
    assert "Gina Guest" in settings["names"] and settings["guests"] == []  # tonight a member, not a guest
    gina = next(m for m in client.get(API).json()["members"] if m["name"] == "Gina Guest")
    assert not gina["guest"] and gina["nights"] == [False, True, True]
    assert "Gina Guest" in ticks(client) and 'name="join"' not in client.get(URL).text
    assert len(ticks(client)) == len(client.get(API).json()["members"])  # every member can be ticked


def test_guests_are_ranked_in_the_series_standings_or_left_out_by_a_series_setting(client):
    members = names(7)
    first_night(client, [*members, "Max Member"])
    night = planned(
        client, client.post(f"{API}/next", json={"present": members, "guests": ["Gail Guest"], "rounds": 1})
    )
    score_round_one(client, night)
    ranked = client.get(f"{API}/standings").json()["season"]
    assert "Gail Guest" in [row["player"] for row in ranked["rows"]] and ranked["left_out"] == []
    stamp = client.get(f"/e/{night}/screen/state.json").json()["standings"]  # what the projector polls
    token = token_of(client.get(URL).text)
    saved = client.post(f"{URL}/guests", data={"csrf": token}, follow_redirects=False)  # the box left unticked
    assert saved.status_code == 303 and client.get(API).json()["guests_ranked"] is False
    assert client.get(f"/e/{night}/screen/state.json").json()["standings"] != stamp  # the projector redraws
    assert client.put(f"/api/events/{night}/screen/standings", json={"show": True, "series": True}).is_success
    screen = client.get(f"/e/{night}/screen").text
    assert "Gail Guest" not in screen.split('id="standings-notes"')[0]  # not ranked on the projector
    assert "Guests are not ranked: Gail Guest." in screen  # and it says why
    season = client.get(f"{API}/standings").json()["season"]
    assert [row["player"] for row in season["rows"]] == [
        row["player"] for row in ranked["rows"] if row["player"] != "Gail Guest"
    ]
    assert season["left_out"] == ["Gail Guest"] and [row["rank"] for row in season["rows"]][0] == 1
    page = client.get(URL).text
    assert "Guests are not ranked: Gail Guest." in page
    assert "checked" not in re.search(r'<input [^>]*id="guests-ranked"[^>]*>', page).group(0)
    assert "Gail Guest" not in client.get(f"{URL}/standings/standings.csv").text.split("\n", 1)[1]
    stamp = client.get(f"/e/{night}/screen/state.json").json()["standings"]
    assert client.put(f"{API}/guests", json={"ranked": True}).json()["ranked"] is True
    assert client.get(f"/e/{night}/screen/state.json").json()["standings"] != stamp  # ranked again: redrawn
    assert "Gail Guest" in [row["player"] for row in client.get(f"{API}/standings").json()["season"]["rows"]]
    client.put(f"{API}/rule", json={"rule": "average", "min_games": 4})
    assert client.get(API).json()["guests_ranked"] is True  # the rule and the roster are saved apart


def test_a_correction_to_an_earlier_night_redraws_the_season_on_tonight_s_projector(client):
    """Night 2's projector shows the season; night 1's table 1 card is corrected: the stamp the projector
    polls changes, and the season it then shows adds the corrected card."""
    members = names(8)
    night1 = first_night(client, members)
    score_round_one(client, night1)
    night2 = planned(client, client.post(f"{API}/next", json={"present": members, "rounds": 1}))
    score_round_one(client, night2)
    assert client.put(f"/api/events/{night2}/screen/standings", json={"show": True, "series": True}).is_success
    stamp = client.get(f"/e/{night2}/screen/state.json").json()["standings"]
    table = client.get(f"/api/events/{night1}/schedule").json()["rounds"][0]["tables"][0]
    last = table["players"][3]  # seat D: 10 points on night 1
    season = {row["player"]: row["total"] for row in client.get(f"{API}/standings").json()["season"]["rows"]}
    points = {name: [10 * (4 - seat), 0, 0, 0] for seat, name in enumerate(table["players"])}
    points[last] = [110, 0, 0, -100]  # corrected: still 10 points, one game moved
    assert client.post(f"/api/events/{night1}/cards", json={"round": 1, "table": 1, "points": points}).is_success
    assert client.get(f"/e/{night2}/screen/state.json").json()["standings"] != stamp  # a correction, same totals
    stamp = client.get(f"/e/{night2}/screen/state.json").json()["standings"]
    points[last] = [90, 0, 0, 0]  # corrected again: 80 more points
    assert client.post(f"/api/events/{night1}/cards", json={"round": 1, "table": 1, "points": points}).is_success
    assert client.get(f"/e/{night2}/screen/state.json").json()["standings"] != stamp
    screen = client.get(f"/e/{night2}/screen").text
    shown = re.search(rf'<[^>]*class="name"[^>]*>{re.escape(last)}<.*?class="total[^"]*"[^>]*>(-?\d+)<', screen, re.S)
    assert shown and int(shown.group(1)) == season[last] + 80
