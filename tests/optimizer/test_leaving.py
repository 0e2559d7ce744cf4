"""Who leaves and who arrives before a re-plan: one rule (optimizer.leaving), and both front ends, the
command line's --drop/--add and the desk's re-plan form and JSON endpoint, answer with it."""

from __future__ import annotations

import contextlib
import html
import io

import pytest
from fastapi.testclient import TestClient

import optimizer
from desk_helpers import LOCAL, errors_beside_fields, token_of
from models import Event, Schedule
from optimizer.leaving import NameRefused, arriving, leaving
from rotation.commands.cli import main
from rotation.desk.app import create_app
from rotation.desk.core.settings import EventSettings
from rotation.desk.storage import HowMade, Store, VersionKind

NAMES = ("Zoë Weiß", "Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


@pytest.fixture(scope="module")
def day() -> Schedule:
    """Nine players over four rounds, two played; Gus left after round 1 (missing round 2 on)."""
    schedule = optimizer.fixed_schedule(Event(players=NAMES, rounds=4, odd="sit-out"))
    replanned = optimizer.replan(schedule, 1, drop=("Gus",), add=(), time_limit=5, seed=0, workers=1).result.schedule
    assert replanned is not None
    return optimizer.mark_played(replanned, 2)


REFUSED = [
    (("Zoe Weiss",), (), "leave", "cannot drop 'Zoe Weiss': not on the schedule; did you mean 'Zoë Weiß'?"),
    (("ann", "ANN"), (), "leave", "cannot drop 'Ann': it is named twice"),
    (("Gus",), (), "leave", "cannot drop 'Gus': not a player of the rounds still to play"),
    ((), ("bo",), "arrive", "cannot add 'bo': 'Bo' is already on the schedule"),
    ((), ("gus",), "arrive", "cannot add 'gus': 'Gus' left the day (missing round 2 on)"),
    ((), ("Ivy", "ivy"), "arrive", "cannot add 'ivy': it is named twice"),
]


@pytest.mark.parametrize(("leave", "arrive", "side", "words"), REFUSED)
def test_the_rule_refuses_each_name_it_cannot_take_in_one_line(day, leave, arrive, side, words):
    with pytest.raises(NameRefused) as refused:
        leaving(day, 2, leave)
        arriving(day, arrive)
    assert refused.value.side == side and str(refused.value).startswith(words) and "\n" not in str(refused.value)


def test_the_rule_refuses_an_empty_name_and_spells_names_as_the_schedule_does(day):
    with pytest.raises(NameRefused, match="cannot drop ' ': the name is empty"):
        leaving(day, 2, [" "])
    assert leaving(day, 2, ["  cy ", "ANN"]) == ("Cy", "Ann")
    assert arriving(day, ["  Ivy   Jones ", "Jo"]) == ("Ivy Jones", "Jo")


@pytest.mark.parametrize(("leave", "arrive", "side", "words"), REFUSED)
def test_the_command_line_refuses_with_the_rule(day, tmp_path, leave, arrive, side, words):
    path = tmp_path / "day.json"
    path.write_text(day.model_dump_json(), encoding="utf-8")
    argv = [arg for name in leave for arg in ("--drop", name)] + [arg for name in arrive for arg in ("--add", name)]
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(["replan", str(path), "--played", "2", *argv, "--time-limit", "1", "--workers", "1"])
    assert status == 2 and words in err.getvalue() and len(err.getvalue().splitlines()) == 1


@pytest.fixture
def desk(day, tmp_path):
    """A desk whose event's current schedule is the day (Gus gone, two rounds played), and its CSRF token."""
    db = tmp_path / "desk.sqlite3"
    store = Store(db)
    event_id = store.add_event(EventSettings(names=list(NAMES), rounds=4, odd="sit-out", workers=1))
    with store.change() as change:
        store.add_version(change, event_id, day, kind=VersionKind.REPLAN, note="", figures=HowMade(), parent=None)
    store.close()
    with TestClient(create_app(db), base_url=LOCAL) as client:
        yield client, event_id, token_of(client.get(f"/events/{event_id}").text)


@pytest.mark.parametrize(("leave", "arrive", "side", "words"), REFUSED)
def test_the_desk_refuses_with_the_rule_beside_its_field_and_in_json(desk, leave, arrive, side, words):
    client, event_id, token = desk
    form = {"csrf": token, "from_round": "3", "leave": "\n".join(leave), "arrive": "\n".join(arrive), "time_limit": "2"}
    page = client.post(f"/events/{event_id}/replan", data=form)
    assert page.status_code == 422 and words in html.unescape(errors_beside_fields(page.text)[side])
    body = {"from_round": 3, "leave": list(leave), "arrive": list(arrive), "time_limit": 2}
    answer = client.post(f"/api/events/{event_id}/replan", json=body)
    assert answer.status_code == 422 and words in answer.json()["detail"]
