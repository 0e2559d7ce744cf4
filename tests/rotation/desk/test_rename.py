"""A player renamed at any time: one player under the new spelling everywhere (library, CLI, desk)."""

from __future__ import annotations

import json

import pytest
from test_desk_room import JSON, client, clock, event, public_id, release  # noqa: F401 (fixtures)

import optimizer
from desk_helpers import token_of
from models import Event, Schedule
from rotation.commands.cli import main

__all__ = ["client", "clock"]


def day(players: int = 13, rounds: int = 4) -> Schedule:
    return optimizer.fixed_schedule(Event(players=tuple(f"P{i}" for i in range(1, players + 1)), rounds=rounds))


def test_the_library_renames_one_player_everywhere_and_changes_nothing_else():
    before = optimizer.mark_played(optimizer.swap(day(), 1, "P1", "P13"), 1)
    before = before.model_copy(update={"spread": (("P2", "P13"),)})
    after = optimizer.rename(before, "p13", "Zoë Weiß")
    text = after.model_dump_json()
    assert "P13" not in text.replace("P1,", "") and '"P13"' not in text
    assert after.corrections[0].players == ("P1", "Zoë Weiß")
    assert after.spread == (("P2", "Zoë Weiß"),) and after.played == 1
    swap_back = {"Zoë Weiß": "P13"}
    assert [[tuple(swap_back.get(n, n) for n in t.players) for t in r.tables] for r in after.rounds] == [
        [t.players for t in r.tables] for r in before.rounds
    ]
    assert optimizer.check(after).repeats == optimizer.check(before).repeats
    assert optimizer.rename(after, "zoë weiß", "ZOË WEISS").players[12] == "ZOË WEISS"  # a case change is allowed


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("Nobody", "X", "'Nobody' is not on the schedule"),
        ("P 12", "X", "did you mean 'P12'"),
        ("P1", "  ", "the new name is empty"),
        ("P1", "p2", "P2 is another player on the schedule"),
        ("P1", "P1", "already spelled so"),
    ],
)
def test_a_rename_that_cannot_be_done_says_why(old, new, words):
    with pytest.raises(optimizer.FixRefused, match=words):
        optimizer.rename(day(), old, new)


def test_the_cli_renames_in_place_all_or_nothing(tmp_path, capsys):
    path = tmp_path / "day.json"
    path.write_text(day().model_dump_json(), encoding="utf-8")
    assert main(["rename", str(path), "p3", "Ann Lee"]) == 0
    assert "P3 is now Ann Lee" in capsys.readouterr().out
    renamed = Schedule.model_validate_json(path.read_text(encoding="utf-8"))
    assert "Ann Lee" in renamed.players and "P3" not in renamed.players
    text = path.read_text(encoding="utf-8")
    assert main(["rename", str(path), "Ann Le", "P4"]) == 2
    assert "did you mean 'Ann Lee'" in capsys.readouterr().err
    assert main(["rename", str(path), "Ann Lee", "P4"]) == 2
    assert path.read_text(encoding="utf-8") == text  # refused: the file is as it was
    out = tmp_path / "out.json"
    assert main(["rename", str(path), "Ann Lee", "Anne Lee", "--json", str(out)]) == 0
    assert (
        json.loads(out.read_text(encoding="utf-8"))["players"][2] == "Anne Lee"
        and path.read_text(encoding="utf-8") == text
    )


def test_the_desk_renames_after_rounds_are_played_and_the_history_stays_one_players(client, db):
    event_id = event(db, rounds=3)
    pid = public_id(client, event_id)
    release(client, event_id, 1)
    assert client.post(f"/api/events/{event_id}/played", json={"rounds": 1}).status_code == 200
    tables = client.get(f"/api/events/{event_id}/schedule").json()["rounds"][0]["tables"]
    table, old = tables[0], tables[0]["players"][1]
    for each in tables:
        points = {name: [5, 0, 0, -5] if name == old else [0, 0, 0, 0] for name in each["players"]}
        card = {"round": 1, "table": each["table"], "points": points}
        assert client.post(f"/api/events/{event_id}/cards", json=card).status_code == 200
    renamed = client.post(f"/api/events/{event_id}/rename", json={"old": old.lower(), "new": "Zoë  Weiß"})
    assert renamed.status_code == 200, renamed.text
    assert renamed.json()["name"] == "Zoë Weiß" and renamed.json()["current_version"]["kind"] == "rename"
    schedule = Schedule.model_validate(client.get(f"/api/events/{event_id}/schedule").json())
    assert "Zoë Weiß" in schedule.players and old not in schedule.players and schedule.played == 1
    settings = client.get(f"/api/events/{event_id}").json()["settings"]
    assert "Zoë Weiß" in settings["names"] and old not in settings["names"]
    # Scores and standings under the new name: the card entered before still counts, for the same player.
    cards = client.get(f"/api/events/{event_id}/cards", params={"round": 1}).json()[0]["tables"][0]
    assert cards["status"] == "in" and "Zoë Weiß" in cards["players"]
    standings = client.get(f"/api/events/{event_id}/standings").json()["standings"]
    row = next(r for r in standings["rows"] if r["player"] == "Zoë Weiß")
    assert row["total"] == 0 and all(r["player"] != old for r in standings["rows"])
    # The room: the released round is not flagged as changed, phones and prints have the new spelling.
    assert client.get(f"/api/events/{event_id}/room").json()["changed"] == {}
    assert "Zoë Weiß" in client.get(f"/e/{pid}/me", params={"player": "zoë weiß"}).text
    assert "Zoë Weiß" in client.get(f"/events/{event_id}/print").text
    assert old not in client.get(f"/events/{event_id}/print").text
    # Older versions keep the old spelling (the history is what was), and a rename is one undoable version.
    versions = client.get(f"/api/events/{event_id}/versions").json()
    assert [v["kind"] for v in versions[:2]] == ["rename", "played"]
    refused = client.post(f"/api/events/{event_id}/rename", json={"old": "Zoë Weiß", "new": table["players"][0]})
    assert refused.status_code == 422 and "another player" in refused.json()["detail"]


def test_settings_show_the_players_as_they_are_and_a_rename_form(client, db):
    event_id = event(db, count=8, rounds=3)
    page = client.get(f"/events/{event_id}/edit").text
    assert 'id="players-now"' in page and 'id="rename"' in page and "8 players" in page
    done = client.post(
        f"/events/{event_id}/rename", data={"csrf": token_of(page), "old": "Player 08", "new": "Player Eight"}
    )
    assert done.status_code == 200 and "Player 08 is now Player Eight, everywhere." in done.text  # after a redirect
    assert "Player Eight" in client.get(f"/events/{event_id}").text
    unknown = client.post(f"/events/{event_id}/rename", data={"csrf": token_of(page), "old": "Player 8", "new": "X"})
    assert unknown.status_code == 422 and "did you mean" in unknown.text and 'id="error-rename"' in unknown.text
