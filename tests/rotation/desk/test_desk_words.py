"""The director's pages in the director's words (TestClient, issue 53): what the day asks for folded away
when it is long, the names box saying which files it takes, and the plan's method and proof in plain
sentences with the exact terms kept in the JSON."""

from __future__ import annotations

import re

from desk_helpers import names, seeded_event, token_of
from rotation.desk.core.settings import EventSettings


def test_a_club_list_is_folded_away_on_the_day_page(client, db):
    """The Day page opened with a ten-line 'clubs to spread' list above the plan."""
    players = names(40)
    clubs = [players[number::10] for number in range(10)]
    event_id = seeded_event(db, EventSettings(names=players, rounds=3, spread=clubs))
    page = client.get(f"/events/{event_id}").text
    summary = re.search(r'<details class="quiet requests" id="spread"><summary>([^<]*)</summary>', page)
    assert summary is not None and summary.group(1) == "Clubs to spread: 10 (40 players)"
    assert "Requests: clubs to spread" not in page and page.count(f"<li>{', '.join(clubs[0])}</li>") == 1


def test_the_names_box_says_it_takes_a_csv(client):
    form = client.get("/events/new").text
    assert "or CSV with a header line: name, and club and id" in form and token_of(form)


def planned_version(db, settings: EventSettings, method: str, proof: str) -> int:
    """An event whose current version was made by `method`, its bound proven by `proof`."""
    import optimizer
    from models import Bound, Event
    from rotation.desk.events import planning
    from rotation.desk.storage import HowMade, Store, VersionKind

    event_id = seeded_event(db, settings)
    store = Store(db)
    row = store.event(event_id)
    assert row is not None and row.current_version is not None
    schedule = store.version(row.current_version).schedule()
    fixed = planning.fixed_figures(optimizer.fixed_schedule(Event.with_count(len(settings.names), settings.rounds)))
    figures = HowMade(bound=Bound(repeats=0, proof=proof), method=method, runtime=2.0, fixed=fixed)
    with store.change() as change:
        store.add_version(
            change,
            event_id,
            schedule,
            kind=VersionKind.PLAN,
            note="planned",
            figures=figures,
            parent=row.current_version,
        )
    store.close()
    return event_id


METHOD = "signed doubling of two affine planes AG(2,4), seed 3, tabu search, balanced"
PROOF = "counting: 2 rounds make 48 meetings among 120 pairs"


def test_how_a_plan_was_made_is_said_plainly_and_exactly_in_the_json(client, db):
    """Issue 53: the Day page said 'signed doubling of two affine planes AG(2,4)' and the counting proof's
    formula; a director reads a sentence, a researcher the exact words in the JSON."""
    event_id = planned_version(db, EventSettings(names=names(16), rounds=2), METHOD, PROOF)
    page = client.get(f"/events/{event_id}").text
    assert "AG(2,4)" not in page and "counting:" not in page and "tabu" not in page
    assert (
        "Made by a ready-made seating pattern for a room of this size, improved by swapping players, seats and "
        "table numbers evened out, in 2.0 s" in page
    )
    assert "Best possible: at least 0 repeats, because the day has more meetings than there are pairs" in page
    assert re.search(r"the fixed rule on the same room: \d+ repeats?<", page)  # a day of its own: it compares
    current = next(v for v in client.get(f"/api/events/{event_id}/versions").json() if v["current"])
    assert current["method"] == METHOD and current["bound"] == {"repeats": 0, "proof": PROOF}


def test_a_night_of_a_series_is_not_compared_with_the_fixed_rule(client, db):
    """Issue 53: a league night said 'the fixed rule on the same room: 0 repeats', a figure about tonight's
    room alone beside repeats that count the earlier nights' meetings."""
    settings = EventSettings(names=names(16), rounds=2, series="Thursday league")
    event_id = planned_version(db, settings, "CP-SAT, spread over the season", "CP-SAT search proof: none fewer")
    page = client.get(f"/events/{event_id}").text
    assert "fixed rule on the same room" not in page
    assert "Made by the solver, which tries seatings until its time is up or none can be better, against the " in page
    assert "Best possible: at least 0 repeats, because the solver proved it" in page


def test_the_printed_summary_says_repeats_in_words(client, db):
    event_id = seeded_event(db, EventSettings(names=names(16), rounds=2))
    summary = client.get(f"/events/{event_id}/print", params={"parts": ["summary"]}).text
    assert "Repeats (E)" not in summary and "Repeats in this schedule (meetings of a pair after its first)" in summary


def test_the_printed_summary_of_a_series_night_compares_with_no_fixed_rule(client, db):
    event_id = seeded_event(db, EventSettings(names=names(16), rounds=2, series="Thursday league"))
    summary = client.get(f"/events/{event_id}/print", params={"parts": ["summary"]}).text
    assert "Repeats of the fixed MJMP rule" not in summary and "No comparison: a night of a series" in summary
    day = seeded_event(db, EventSettings(names=names(16), rounds=2))
    printed = client.get(f"/events/{day}/print", params={"parts": ["summary"]}).text
    assert "Repeats of the fixed MJMP rule" in printed
    assert "No schedule can have fewer: " in printed and "counting:" not in printed  # the bound in plain words


def test_a_name_club_id_list_keeps_its_clubs(client):
    """Issue 53: a `name,club,id` upload kept the ids but lost the clubs: the settings form gave back
    `name,id` and the Day page listed the clubs' players without their clubs."""
    players = names(12)
    listed = "name,club,id\n" + "".join(
        f"{p},{'North East'[i % 2 * 6 :][:5].strip()},{100 + i}\n" for i, p in enumerate(players)
    )
    form = client.get("/events/new").text
    data = {"csrf": token_of(form), "title": "Open", "names": listed, "rounds": "2", "time_limit": "2"}
    created = client.post("/events", data=data, follow_redirects=False)
    assert created.status_code == 303, created.text
    event_id = int(created.headers["location"].rsplit("/", 1)[1])
    settings = client.get(f"/api/events/{event_id}").json()["settings"]
    assert settings["clubs"][players[0]] == "North" and settings["clubs"][players[1]] == "East"
    edit = client.get(f"/events/{event_id}/edit").text
    assert f"name,club,id\n{players[0]},North,100\n{players[1]},East,101" in edit
    day = client.get(f"/events/{event_id}").text
    assert f"<li><b>North</b>: {', '.join(players[0::2])}</li>" in day
