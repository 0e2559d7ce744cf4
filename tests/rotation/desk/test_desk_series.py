"""A series in the desk over HTTP: nights grouped by their series, the next night from tonight's
attendance planned against the series so far, the series page and its standings, and refusals."""

from __future__ import annotations

import re
from itertools import combinations
from unittest.mock import ANY
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from desk_helpers import HOSTILE, LOCAL, names, token_of, wait_run
from rotation.desk.app import create_app

pytestmark = pytest.mark.slow

SERIES = "Thursday league / spring"  # a slash: the name is one segment of the page's address
URL = f"/series/{quote(SERIES, safe='')}"
API = f"/api/series/{quote(SERIES, safe='')}"
FORM = {"date": "", "rounds": "1", "time_limit": "2", "odd": "three-handed", "series": SERIES}


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "desk.sqlite3"), base_url=LOCAL) as client:
        yield client


def first_night(client, players: list[str]) -> int:
    token = token_of(client.get("/events/new").text)
    data = {"csrf": token, **FORM, "title": "Night 1", "names": "\n".join(players)}
    created = client.post("/events", data=data, follow_redirects=False)
    assert created.status_code == 303
    event_id = int(created.headers["location"].rsplit("/", 1)[1])
    run = client.post(f"/api/events/{event_id}/plan", json={}).json()
    assert wait_run(client, run["id"])["status"] == "finished"
    return event_id


def pairs(client, event_id: int) -> set[frozenset[str]]:
    schedule = client.get(f"/api/events/{event_id}/schedule").json()
    return {frozenset(p) for r in schedule["rounds"] for t in r["tables"] for p in combinations(t["players"], 2)}


def test_the_next_night_is_planned_against_the_series(client):
    members = names(16)
    night1 = first_night(client, members)
    page = client.get(URL)
    assert page.status_code == 200 and "Thursday league / spring" in page.text
    assert page.text.count('name="present"') == 16
    index = client.get("/").text
    assert f'href="{URL}"' in index and "1 night" in index
    present = members[:14]
    data = {"csrf": token_of(page.text), "present": present, "guests": "Gail Guest\nHal Guest", "rounds": "2"}
    made = client.post(f"{URL}/next", data=data, follow_redirects=False)
    assert made.status_code == 303
    night2 = int(made.headers["location"].rsplit("/", 1)[1])
    event = client.get(f"/api/events/{night2}").json()
    assert wait_run(client, event["runs"][0]["id"])["status"] == "finished"
    settings = event["settings"]
    assert settings["names"] == [*present, "Gail Guest", "Hal Guest"] and settings["series"] == SERIES
    assert settings["rounds"] == 2
    history = client.get(f"/api/events/{night2}/versions").json()
    assert "against 1 earlier night of the series" in history[0]["note"]
    assert not pairs(client, night2) & pairs(client, night1)  # nobody meets last week's table again
    view = client.get(API).json()
    assert [night["event"] for night in view["nights"]] == [night1, night2]
    ann = next(m for m in view["members"] if m["name"] == members[0])
    assert ann["nights"] == [True, True] and len(ann["met"]) == 3 + 6
    met_guests = sum(guest in ann["met"] for guest in ("Gail Guest", "Hal Guest"))  # guests: met, never "not met"
    assert len(ann["met"]) - met_guests + len(ann["not_met"]) == len(view["members"]) - 2 - 1
    gail = next(m for m in view["members"] if m["name"] == "Gail Guest")
    assert gail["nights"] == [False, True]
    event_page = client.get(f"/events/{night2}").text
    assert f'href="{URL}"' in event_page  # the event's nav leads to its series


def test_attendance_refusals_stay_beside_their_fields(client):
    members = names(8)
    first_night(client, members)
    token = token_of(client.get(URL).text)

    def errors(**fields) -> dict[str, str]:
        response = client.post(f"{URL}/next", data={"csrf": token, **fields})
        assert response.status_code == 422
        return dict(re.findall(r'<p class="error" id="error-([a-z_]+)" role="alert">([^<]*)</p>', response.text))

    assert "tick the members" in errors(guests="", rounds="1")["present"]
    assert "not a member" in errors(present=["Nobody"], rounds="1")["present"]
    assert "not a whole number" in errors(present=members, rounds="x")["rounds"]
    assert "appears twice" in errors(present=members, guests="Gail\ngail", rounds="1")["guests"]
    refused = client.post(f"{URL}/next", data={"csrf": token, "present": members[:2], "rounds": "1"})
    assert refused.status_code == 422 and "at least 4 players" in refused.text
    kept = client.post(f"{URL}/next", data={"csrf": token, "present": members[:3], "guests": "Zed", "rounds": "x"})
    assert 'value="Zed"' in kept.text or ">Zed</textarea>" in kept.text  # what was typed stays in the form
    assert len(client.get("/api/events").json()) == 1  # nothing was half-saved
    assert client.post(f"{URL}/next", data={"present": members, "rounds": "1"}).status_code == 403
    assert client.get("/series/nothing-here").status_code == 404


def test_member_numbers_follow_the_members(client):
    members = names(8)
    token = token_of(client.get("/events/new").text)
    listed = "name,id\n" + "".join(f"{name},{number}\n" for number, name in enumerate(members, start=101))
    data = {"csrf": token, **FORM, "title": "Night 1", "names": listed}
    assert client.post("/events", data=data, follow_redirects=False).status_code == 303
    made = client.post(f"{API}/next", json={"present": members[2:], "guests": ["Guest"], "rounds": 1})
    assert made.status_code == 201, made.text
    ids = client.get(f"/api/events/{made.json()['event']}").json()["settings"]["ids"]
    assert ids == {name: str(number) for number, name in enumerate(members, start=101) if name in members[2:]}


def test_json_next_night_and_a_hostile_name(client):
    members = names(8, hostile=True)
    first_night(client, members)
    page = client.get(URL).text
    assert HOSTILE not in page  # escaped
    made = client.post(f"{API}/next", json={"present": members[:7], "guests": ["Guest"], "rounds": 1})
    assert made.status_code == 201
    assert client.post(f"{API}/next", json={"present": ["Nobody"]}).status_code == 422


def score_round_one(client, event_id: int) -> None:
    """Round 1 played, every table's card in: seat A 40 points in game 1, B 30, C 20, D 10."""
    assert client.post(f"/api/events/{event_id}/played", json={"rounds": 1}).status_code == 200
    schedule = client.get(f"/api/events/{event_id}/schedule").json()
    for table in schedule["rounds"][0]["tables"]:
        points = {name: [10 * (4 - seat), 0, 0, 0] for seat, name in enumerate(table["players"])}
        entered = client.post(
            f"/api/events/{event_id}/cards", json={"round": 1, "table": table["table"], "points": points}
        )
        assert entered.status_code == 200, entered.text


def test_series_standings_by_rule(client):
    members = names(8)
    night1 = first_night(client, members)
    assert client.get(f"{API}/standings").json() == {"season": None, "left_out": ["Night 1"]}
    score_round_one(client, night1)
    season = client.get(f"{API}/standings", params={"rule": "average", "min_games": 4}).json()["season"]
    assert season["rule"] == "average" and season["rows"][0]["score"] == pytest.approx(10.0)
    assert len(season["rows"]) == 8 and all(row["games"] == 4 for row in season["rows"])
    page = client.get(URL, params={"rule": "best", "best": 1}).text
    assert "the best 1 nights" in page and 'id="season-table"' in page
    csv_text = client.get(f"{URL}/standings/standings.csv", params={"rule": "cumulative"}).text
    assert csv_text.startswith("rank,shared,player,score")
    printed = client.get(f"{URL}/standings/print", params={"rule": "cumulative"}).text
    assert "<table" in printed and SERIES in printed
    missing_best = client.get(URL, params={"rule": "best"})
    assert missing_best.status_code == 200 and "number of nights that count" in missing_best.text


def test_the_standings_form_shows_with_its_defaults(client):
    """Issue 53: 'Show' with the form's defaults sent best= (blank) and was refused with a 422; blank is no
    limit (every night counts) and an empty minimum is 0."""
    score_round_one(client, first_night(client, names(8)))
    shown = client.get(URL, params={"rule": "cumulative", "min_games": "0", "best": ""})
    assert shown.status_code == 200 and 'id="season-table"' in shown.text
    assert client.get(URL, params={"rule": "average", "min_games": "", "best": " "}).status_code == 200
    assert client.get(f"{API}/standings", params={"rule": "cumulative", "best": ""}).status_code == 200
    assert client.get(f"{URL}/standings/print", params={"rule": "cumulative", "best": ""}).status_code == 200
    assert client.get(URL, params={"rule": "cumulative", "best": "x"}).status_code == 422  # not a number: refused


def test_guests_are_not_members_but_stay_in_opponents(client):
    members = names(8)
    first_night(client, members)
    made = client.post(f"{API}/next", json={"present": members[:7], "guests": ["Gail Guest"], "rounds": 1})
    assert made.status_code == 201, made.text
    assert wait_run(client, client.get(f"/api/events/{made.json()['event']}").json()["runs"][0]["id"])
    page = client.get(URL).text
    ticks = re.findall(r'name="present" value="([^"]*)"', page)
    assert ticks == members  # the guest is not on the tick list for the next night
    assert "Gail Guest" in page and "(guest)" in page  # still in the table, marked
    view = {m["name"]: m for m in client.get(API).json()["members"]}
    assert view["Gail Guest"]["guest"] and not view[members[0]]["guest"]
    met_gail = [name for name in members[:7] if "Gail Guest" in view[name]["met"]]
    assert len(met_gail) == 3  # her table's three members met her
    assert all("Gail Guest" not in m["not_met"] for m in view.values())  # a guest is no member left to meet
    refused = client.post(f"{API}/next", json={"present": ["Gail Guest"], "guests": [], "rounds": 1})
    assert refused.status_code == 422  # not a member: she comes again as a guest
    again = client.post(f"{API}/next", json={"present": members[:7], "guests": ["Gail Guest"], "rounds": 1})
    assert again.status_code == 201, again.text


def test_editing_or_renaming_a_night_keeps_its_guests(client):
    members = names(8)
    first_night(client, members)
    night = client.post(f"{API}/next", json={"present": members[:7], "guests": ["Gail"], "rounds": 1}).json()["event"]
    assert wait_run(client, client.get(f"/api/events/{night}").json()["runs"][0]["id"])["status"] == "finished"
    token = token_of(client.get(f"/events/{night}/edit").text)
    listed = "\n".join([*members[:7], "Gail"])
    data = {"csrf": token, **FORM, "title": "Night 2", "names": listed}
    assert client.post(f"/events/{night}/edit", data=data, follow_redirects=False).status_code in (200, 303)
    assert client.get(f"/api/events/{night}").json()["settings"]["guests"] == ["Gail"]
    renamed = client.post(f"/api/events/{night}/rename", json={"old": "Gail", "new": "Gail Guest"})
    assert renamed.status_code == 200, renamed.text
    assert client.get(f"/api/events/{night}").json()["settings"]["guests"] == ["Gail Guest"]
    assert "Gail Guest" not in re.findall(r'name="present" value="([^"]*)"', client.get(URL).text)


def test_the_series_rule_is_saved_and_the_projector_shows_the_series(client):
    """The rule saved on the series page ranks the series everywhere a rule is not asked for; a night's
    standings page puts the series' standings (its top places, ties included) on the projector."""
    members = names(8)
    night1 = first_night(client, members)
    score_round_one(client, night1)
    assert client.get(f"{API}/rule").json() == {"rule": "cumulative", "min_games": 0, "best": None, "rule_version": ANY}
    token = token_of(client.get(URL).text)
    refused = client.post(f"{URL}/rule", data={"csrf": token, "rule": "best", "min_games": "0"})
    assert refused.status_code == 422 and 'id="error-rule"' in refused.text
    assert "number of nights that count" in refused.text
    for data, said in (
        ({"rule": "average", "min_games": "abc"}, "whole number of games"),
        ({"rule": "x"}, "not a rule"),
    ):
        refused = client.post(f"{URL}/rule", data={"csrf": token, **data})
        assert refused.status_code == 422 and said in refused.text and 'id="error-rule"' in refused.text
    assert client.get(f"{API}/rule").json()["rule"] == "cumulative"  # nothing saved
    saved = client.post(
        f"{URL}/rule", data={"csrf": token, "rule": "average", "min_games": "4"}, follow_redirects=False
    )
    assert saved.status_code == 303 and saved.headers["location"] == URL
    assert client.get(f"{API}/rule").json() == {"rule": "average", "min_games": 4, "best": None, "rule_version": ANY}
    assert client.get(f"{API}/standings").json()["season"]["rule"] == "average"  # no query: the saved rule
    assert "The series ranks by points per game, at least 4 games" in client.get(URL).text
    assert client.put(f"{API}/rule", json={"rule": "best"}).status_code == 422  # best without its number

    screen = f"/e/{night1}/screen"
    assert "standing season" not in client.get(screen).text
    stamp = client.get(f"{screen}/state.json").json()["standings"]
    page = client.get(f"/events/{night1}/standings").text
    assert 'id="series-screen-form"' in page and "ranked by points per game" in page
    shown = client.post(
        f"/events/{night1}/standings/screen",
        data={"csrf": token_of(page), "show": "yes", "what": "series", "top": "3"},
        follow_redirects=False,
    )
    assert shown.status_code == 303
    assert client.get(f"{screen}/state.json").json()["standings"] != stamp  # the projector reloads
    projected = client.get(screen).text
    assert "Season standings after 1 night: points per game, at least 4 games to be ranked" in projected
    ranks = [row["rank"] for row in client.get(f"{API}/standings").json()["season"]["rows"]]
    rows = re.findall(r'<div class="standing season"><span class="place">([^<]*)</span>', projected)
    assert len(rows) == sum(rank is not None and rank <= 3 for rank in ranks) < len(members)  # =1, =1, =3, =3
    assert rows[0] == "=1" and "The projector shows the standings of" in client.get(f"/events/{night1}/standings").text

    night = client.put(f"/api/events/{night1}/screen/standings", json={"show": True}).json()
    assert night == {"show": True, "top": None, "series": False}  # the night's standings instead
    assert "standing season" not in client.get(screen).text and 'class="standing"' in client.get(screen).text
    back = client.put(f"/api/events/{night1}/screen/standings", json={"show": True, "series": True, "top": 1}).json()
    assert back == {"show": True, "top": 1, "series": True}
    stamp = client.get(f"{screen}/state.json").json()["standings"]
    assert client.put(f"{API}/rule", json={"rule": "cumulative"}).status_code == 200
    assert client.get(f"{screen}/state.json").json()["standings"] != stamp  # a new rule: the projector reloads
    assert "Season standings after 1 night: every night" in client.get(screen).text
    off = client.put(f"/api/events/{night1}/screen/standings", json={"show": False}).json()
    assert off == {"show": False, "top": None, "series": False} and 'id="standings"' not in client.get(screen).text


def test_only_a_night_of_a_series_shows_a_series(client):
    token = token_of(client.get("/events/new").text)
    data = {"csrf": token, **FORM, "series": "", "title": "A day", "names": "\n".join(names(8))}
    event_id = int(client.post("/events", data=data, follow_redirects=False).headers["location"].rsplit("/", 1)[1])
    refused = client.put(f"/api/events/{event_id}/screen/standings", json={"show": True, "series": True})
    assert refused.status_code == 409 and "not a night of a series" in refused.text
    assert 'id="series-screen-form"' not in client.get(f"/events/{event_id}/standings").text
    night1 = first_night(client, names(8))  # a series, but no card in yet
    refused = client.put(f"/api/events/{night1}/screen/standings", json={"show": True, "series": True})
    assert refused.status_code == 409 and "no night of the series has a complete round" in refused.text
    assert client.get(f"{API}/rule", params={}).status_code == 200
    assert client.get("/api/series/Nobody/rule").status_code == 404


def test_two_next_nights_from_one_night_plan_one_the_other_409_with_the_series_now(client):
    """A next night names the night it was planned from; a second tab's, from the same page, is refused
    with the series as it is now (it created a duplicate night before), what it ticked kept."""
    members = names(8)
    night1 = first_night(client, members)
    page = client.get(URL).text
    assert f'name="base_night" value="{night1}"' in page
    data = {"csrf": token_of(page), "present": members, "rounds": "1", "base_night": str(night1)}
    assert client.post(f"{URL}/next", data=data, follow_redirects=False).status_code == 303
    late = client.post(f"{URL}/next", data={**data, "guests": "Gail Guest"})
    assert late.status_code == 409 and "newer night" in late.text and "Gail Guest" in late.text
    night2 = client.get(API).json()["nights"][-1]["event"]
    assert f'name="base_night" value="{night2}"' in late.text  # sent again, it is planned
    stale = client.post(f"{API}/next", json={"present": members, "base_night": night1})
    assert stale.status_code == 409 and stale.json()["last_night"] == night2
    assert len(client.get(API).json()["nights"]) == 2
    assert client.post(f"{API}/next", json={"present": members, "base_night": night2}).status_code == 201


def test_a_rule_saved_from_a_rule_saved_over_since_is_409_with_the_rule_now(client):
    first_night(client, names(8))
    read = client.get(f"{API}/rule").json()["rule_version"]
    saved = client.put(f"{API}/rule", params={"base_rule": read}, json={"rule": "average", "min_games": 2})
    assert saved.status_code == 200 and saved.json()["rule_version"] != read
    stale = client.put(f"{API}/rule", params={"base_rule": read}, json={"rule": "best", "best": 2})
    assert stale.status_code == 409 and stale.json()["rule"]["rule"] == "average"
    assert stale.json()["rule_version"] == saved.json()["rule_version"]
    form = {"csrf": token_of(client.get(URL).text), "rule": "best", "best": "2", "base_rule": read}
    refused = client.post(f"{URL}/rule", data=form)
    assert refused.status_code == 409 and "saved in another tab" in refused.text
    assert client.get(f"{API}/rule").json()["rule"] == "average"


def test_series_forms_take_ascii_digits_only(client):
    """int() read '٣' as 3 and '1_0' as 10 for the night's rounds; pydantic '1_0' and '3.0' for the rule."""
    members = names(8)
    first_night(client, members)
    token = token_of(client.get(URL).text)
    for rounds in ("٣", "1_0", "9" * 5000):
        refused = client.post(f"{URL}/next", data={"csrf": token, "present": members, "rounds": rounds})
        assert refused.status_code == 422 and "is not a whole number of rounds" in refused.text
    for data in ({"rule": "average", "min_games": "1_0"}, {"rule": "best", "best": "3.0"}):
        refused = client.post(f"{URL}/rule", data={"csrf": token, **data})
        assert refused.status_code == 422 and 'id="error-rule"' in refused.text
    assert len(client.get(API).json()["nights"]) == 1 and client.get(f"{API}/rule").json()["rule"] == "cumulative"


def test_roster_changes_from_a_roster_changed_since_are_409_with_the_roster_now(client):
    """Adding members and ranking guests name the roster they were made from (roster_version); a second
    tab's, from the page as it was, is refused with the roster as it is now, what it typed or ticked kept
    (it overwrote the first tab's 'guests ranked' before, unseen)."""
    first_night(client, names(8))
    page = client.get(URL).text
    read = client.get(API).json()["roster_version"]
    assert f'name="base_roster" value="{read}"' in page
    token = token_of(page)
    added = client.post(f"{API}/members", json={"members": [{"name": "Nell New"}], "base_roster": read})
    assert added.status_code == 201 and added.json()["roster_version"] != read
    assert client.get(API).json()["guests_ranked"] is True  # the default
    stale = client.put(f"{API}/guests", json={"ranked": False, "base_roster": read})
    assert stale.status_code == 409 and stale.json()["field"] == "guests_ranked"
    assert "Nell New" in stale.json()["members"] and stale.json()["roster_version"] == added.json()["roster_version"]
    assert client.get(API).json()["guests_ranked"] is True
    unticked = client.post(f"{URL}/guests", data={"csrf": token, "base_roster": read})
    assert unticked.status_code == 409 and 'id="error-guests_ranked"' in unticked.text
    assert re.search(r'id="guests-ranked"\s+>', unticked.text)  # the box as the director left it: not ticked
    typed = client.post(f"{URL}/members", data={"csrf": token, "members": "Olga Other", "base_roster": read})
    assert typed.status_code == 409 and "changed in another tab" in typed.text and "Olga Other" in typed.text
    now = added.json()["roster_version"]
    assert f'name="base_roster" value="{now}"' in typed.text  # sent again, it is saved
    assert [m["name"] for m in client.get(API).json()["members"]].count("Olga Other") == 0
    ranked = client.put(f"{API}/guests", json={"ranked": False, "base_roster": now})
    assert ranked.status_code == 200 and ranked.json()["ranked"] is False
    stale = client.post(f"{API}/members", json={"members": [{"name": "Olga Other"}], "base_roster": now})
    assert stale.status_code == 409 and stale.json()["guests_ranked"] is False
    assert client.post(f"{API}/members", json={"members": [{"name": "Olga Other"}]}).status_code == 201
