"""Two hands on the desk at once (issue 41): each change names the version it was made from and is
checked against the current one inside one immediate transaction, so of two changes made from the same
version one is stored and the other answered 409. Each race is driven many times by two threads that
post at the same moment; afterwards every acknowledged change is the current schedule and the refused
one stored nothing (no two versions share the version they were made from)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from fastapi.testclient import TestClient
from test_desk_layers import FakePlanner

import optimizer
from desk_helpers import LOCAL, names, seeded_event, token_of
from models import Moves, Reseat, Schedule
from rotation.desk.app import create_app
from rotation.desk.core.settings import EventSettings
from rotation.desk.storage import HowMade, ReplanRequest, RunStatus, Store, VersionKind

pytestmark = pytest.mark.slow

TRIES = 12
SETTINGS = EventSettings(names=names(16), rounds=5, time_limit=1)


@pytest.fixture
def desk(tmp_path):
    db = tmp_path / "desk.sqlite3"
    with TestClient(create_app(db, planner=FakePlanner()), base_url=LOCAL) as client:
        yield client, db


def at_once(client, *posts: tuple[str, dict], method: str = "post"):
    """POST (or `method`) each (path, keywords) from a thread of its own, all released together; the
    responses in order."""
    barrier = threading.Barrier(len(posts))

    def go(post: tuple[str, dict]):
        barrier.wait()
        path, keywords = post
        return client.request(method, path, follow_redirects=False, **keywords)

    with ThreadPoolExecutor(len(posts)) as pool:
        return list(pool.map(go, posts))


def current(client, event_id: int) -> dict:
    return client.get(f"/api/events/{event_id}").json()["current_version"]


def children(db, event_id: int, parent: int) -> list[int]:
    store = Store(db)
    try:
        return [version.id for version in store.versions(event_id) if version.parent == parent]
    finally:
        store.close()


def fresh_day(client, db) -> tuple[int, dict]:
    """A new event with a schedule, and one swap made on it (so its current version has a parent)."""
    event_id = seeded_event(db, SETTINGS)
    first = client.post(
        f"/api/events/{event_id}/swap", json={"round": 3, "first": "Player 01", "second": "Player 16", "confirm": True}
    )
    assert first.status_code == 200, first.text
    return event_id, current(client, event_id)


def pairs_apart(client, event_id: int, round_number: int) -> tuple[tuple[str, str], tuple[str, str]]:
    schedule = client.get(f"/api/events/{event_id}/schedule").json()
    one, two = schedule["rounds"][round_number - 1]["tables"][:2]
    return (one["players"][0], two["players"][0]), (one["players"][1], two["players"][1])


def one_stored_one_refused(responses, ok: int) -> int:
    codes = sorted(response.status_code for response in responses)
    assert codes == sorted([ok, 409]), [response.text[:300] for response in responses]
    return next(i for i, response in enumerate(responses) if response.status_code == ok)


def test_two_swaps_for_one_round_from_the_same_version(desk):
    client, db = desk
    for _ in range(TRIES):
        event_id, base = fresh_day(client, db)
        (a, b), (c, d) = pairs_apart(client, event_id, 5)
        path = f"/api/events/{event_id}/swap"
        responses = at_once(
            client,
            (path, {"json": {"round": 5, "first": a, "second": b, "base_version": base["id"], "confirm": True}}),
            (path, {"json": {"round": 5, "first": c, "second": d, "base_version": base["id"], "confirm": True}}),
        )
        winner = one_stored_one_refused(responses, 200)
        refused = responses[1 - winner].json()
        assert refused["current_version"] == responses[winner].json()["id"] == current(client, event_id)["id"]
        assert "the day changed while you were editing" in refused["detail"]
        assert children(db, event_id, base["id"]) == [responses[winner].json()["id"]]


def test_the_same_swap_form_posted_from_two_tabs(desk):
    client, db = desk
    for _ in range(TRIES):
        event_id, base = fresh_day(client, db)
        page = client.get(f"/events/{event_id}").text
        (a, b), _ = pairs_apart(client, event_id, 4)
        form = {"csrf": token_of(page), "base": str(base["id"]), "round": "4", "first": a, "second": b, "confirm": "1"}
        post = (f"/events/{event_id}/swap", {"data": form})
        responses = at_once(client, post, post)
        refused = responses[1 - one_stored_one_refused(responses, 303)]
        assert "the day changed while you were editing" in refused.text
        assert f'value="{a}"' in refused.text and f'value="{b}"' in refused.text  # what was typed, kept
        now = current(client, event_id)
        assert now["parent"] == base["id"] and children(db, event_id, base["id"]) == [now["id"]]
        schedule = client.get(f"/api/events/{event_id}/schedule").json()
        before = Schedule.model_validate(client.get(f"/api/events/{event_id}/schedule?version={base['id']}").json())
        swapped = optimizer.swap(before, 4, a, b)
        assert schedule["rounds"][3] == swapped.model_dump(mode="json")["rounds"][3]  # swapped once, not back


def propose(db, event_id: int) -> int:
    """A finished re-plan's proposal made from the current version (what a worker stores), by hand."""
    store = Store(db)
    try:
        event = store.event(event_id)
        assert event is not None and event.current_version is not None
        version = store.version(event.current_version)
        assert version is not None
        run_id = store.add_run(
            event_id, ReplanRequest(base_version=version.id, played=version.played, drop=[], add=[]), 1
        )
        proposal = optimizer.swap(version.schedule(), 5, *pairs_of(version.schedule()))
        moves = Moves(moves=2, players=2, bound=2)
        with store.change() as db_:
            made = store.add_version(
                db_,
                event_id,
                proposal,
                kind=VersionKind.REPLAN,
                note="proposal",
                figures=HowMade(proposal=run_id, reseat=Reseat.FEWEST, moves=moves, changes=[]),
                parent=version.id,
                current=False,
            )
            assert store.end_run(db_, run_id, RunStatus.FINISHED, version_id=made)
        return made
    finally:
        store.close()


def pairs_of(schedule) -> tuple[str, str]:
    one, two = schedule.rounds[4].tables[:2]
    return one.players[2], two.players[2]


def test_a_swap_against_accepting_a_replan(desk):
    client, db = desk
    for _ in range(TRIES):
        event_id, base = fresh_day(client, db)
        proposal = propose(db, event_id)
        (a, b), _ = pairs_apart(client, event_id, 2)
        responses = at_once(
            client,
            (
                f"/api/events/{event_id}/swap",
                {"json": {"round": 2, "first": a, "second": b, "base_version": base["id"], "confirm": True}},
            ),
            (
                f"/api/events/{event_id}/versions/{proposal}/accept",
                {"json": {"base_version": base["id"], "confirm": True}},
            ),
        )
        winner = one_stored_one_refused(responses, 200)
        assert responses[winner].json()["id"] == current(client, event_id)["id"]
        if winner == 0:  # the swap is current; the proposal stays a proposal of an older day
            assert set(children(db, event_id, base["id"])) == {proposal, current(client, event_id)["id"]}
        else:
            assert children(db, event_id, base["id"]) == [proposal]


def test_undo_against_marking_a_round_played(desk):
    client, db = desk
    for _ in range(TRIES):
        event_id, base = fresh_day(client, db)
        responses = at_once(
            client,
            (f"/api/events/{event_id}/undo", {"json": {"base_version": base["id"], "confirm": True}}),
            (f"/api/events/{event_id}/played", {"json": {"rounds": 1, "base_version": base["id"], "confirm": True}}),
        )
        winner = one_stored_one_refused(responses, 200)
        now = current(client, event_id)
        assert responses[winner].json()["id"] == now["id"]
        if winner == 0:
            assert now["id"] == base["parent"] and children(db, event_id, base["id"]) == []
        else:
            assert now["played"] == 1 and now["parent"] == base["id"]


def test_a_change_without_a_base_applies_to_the_day_as_it_is(desk):
    """A script that names no version changes whatever is current when it arrives: both swaps stored,
    one after the other, neither lost."""
    client, db = desk
    event_id, base = fresh_day(client, db)
    (a, b), (c, d) = pairs_apart(client, event_id, 5)
    responses = at_once(
        client,
        (f"/api/events/{event_id}/swap", {"json": {"round": 5, "first": a, "second": b, "confirm": True}}),
        (f"/api/events/{event_id}/swap", {"json": {"round": 5, "first": c, "second": d, "confirm": True}}),
    )
    assert [response.status_code for response in responses] == [200, 200]
    now = current(client, event_id)
    ids = {response.json()["id"] for response in responses}
    assert now["id"] in ids and now["parent"] in ids | {base["id"]} and len(children(db, event_id, base["id"])) == 1


def test_two_renames_at_once_both_kept(desk):
    """Issue 57: a rename read the day outside its transaction, so of two at once one was lost (both 200)."""
    client, db = desk
    for _ in range(TRIES):
        event_id, _ = fresh_day(client, db)
        path = f"/api/events/{event_id}/rename"
        responses = at_once(
            client,
            (path, {"json": {"old": "Player 02", "new": "Player Two"}}),
            (path, {"json": {"old": "Player 03", "new": "Player Three"}}),
        )
        assert [response.status_code for response in responses] == [200, 200]
        schedule = client.get(f"/api/events/{event_id}/schedule").json()
        settings = client.get(f"/api/events/{event_id}").json()["settings"]
        for listed in (schedule["players"], settings["names"]):
            assert {"Player Two", "Player Three"} <= set(listed) and not {"Player 02", "Player 03"} & set(listed)


def test_a_rename_beside_a_swap_and_a_played_mark_loses_neither(desk):
    client, db = desk
    for _ in range(TRIES):
        event_id, base = fresh_day(client, db)
        (a, b), _ = pairs_apart(client, event_id, 4)
        old = next(name for name in names(16) if name not in (a, b))
        responses = at_once(
            client,
            (f"/api/events/{event_id}/rename", {"json": {"old": old, "new": "Player Five"}}),
            (f"/api/events/{event_id}/swap", {"json": {"round": 4, "first": a, "second": b, "confirm": True}}),
            (f"/api/events/{event_id}/played", {"json": {"rounds": 1}}),
        )
        assert [response.status_code for response in responses] == [200, 200, 200], [r.text for r in responses]
        before = Schedule.model_validate(client.get(f"/api/events/{event_id}/schedule?version={base['id']}").json())
        now = Schedule.model_validate(client.get(f"/api/events/{event_id}/schedule").json())
        expected = optimizer.rename(optimizer.mark_played(optimizer.swap(before, 4, a, b), 1), old, "Player Five")
        assert now.rounds == expected.rounds and now.played == 1 and "Player Five" in now.players


def test_two_renames_from_one_version_one_stored_one_refused(desk):
    client, db = desk
    for _ in range(TRIES):
        event_id, base = fresh_day(client, db)
        path = f"/api/events/{event_id}/rename"
        responses = at_once(
            client,
            (path, {"json": {"old": "Player 02", "new": "Player Two", "base_version": base["id"]}}),
            (path, {"json": {"old": "Player 03", "new": "Player Three", "base_version": base["id"]}}),
        )
        winner = one_stored_one_refused(responses, 200)
        refused = responses[1 - winner].json()
        assert refused["current_version"] == current(client, event_id)["id"]
        assert refused["since"] == [current(client, event_id)["note"]]  # what changed, in the version's words
        assert f"(since: {refused['since'][0]})" in refused["detail"]
        assert children(db, event_id, base["id"]) == [current(client, event_id)["id"]]
        kept = {"Player Two", "Player Three"} & set(client.get(f"/api/events/{event_id}").json()["settings"]["names"])
        assert len(kept) == 1  # the refused one stored nothing, in the settings either


def test_a_rename_form_from_a_day_that_changed_shows_the_day_and_keeps_what_was_typed(desk):
    client, db = desk
    event_id, base = fresh_day(client, db)
    page = client.get(f"/events/{event_id}/edit").text
    assert f'name="base" value="{base["id"]}"' in page
    (a, b), _ = pairs_apart(client, event_id, 4)
    assert client.post(
        f"/api/events/{event_id}/swap", json={"round": 4, "first": a, "second": b, "confirm": True}
    ).is_success
    form = {"csrf": token_of(page), "base": str(base["id"]), "old": "Player 07", "new": "Player Seven"}
    refused = client.post(f"/events/{event_id}/rename", data=form)
    assert refused.status_code == 409 and "the day changed while you were editing" in refused.text
    assert 'value="Player 07"' in refused.text and 'value="Player Seven"' in refused.text
    assert f'name="base" value="{current(client, event_id)["id"]}"' in refused.text  # made from the day as it is now
    assert "Player Seven" not in client.get(f"/api/events/{event_id}/schedule").text
    again = client.post(f"/events/{event_id}/rename", data={**form, "base": str(current(client, event_id)["id"])})
    assert again.status_code == 200 and "Player 07 is now Player Seven" in again.text
