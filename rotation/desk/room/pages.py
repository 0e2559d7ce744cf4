"""The room's pages: the director's room panel (release, timer, pace), the projector, the players' phones.

The players' pages (`/e/<public id>/me` and its polling endpoint) are the desk's only routes open
without its key (rotation.desk.security.PUBLIC); they read, never change, and show released rounds only.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import Form, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse, Response
from pydantic import BaseModel, Field

from models.event import loose_key, name_key
from models.schedule import Round, Schedule
from rotation.desk.core.errors import DeskError, NotFound
from rotation.desk.deps import (
    HERE,
    TEMPLATES,
    FormNumber,
    Id,
    JsonIn,
    StoreDep,
    Text,
    api_router,
    desk_of,
    form_id,
    page,
    pages_router,
    players_url,
)
from rotation.desk.events import guards, service, views
from rotation.desk.room import service as room
from rotation.desk.scores.service import screen_stamp
from rotation.desk.scores.standings_pages import screen_context
from rotation.desk.storage import Store
from rotation.files.output import SIT_OUT_WORDS

router = pages_router()
api = api_router(tags=["room"])
MATCHES = 12  # names listed at most for the letters typed


def _seen(request: Request, store: Store, event_id: Id):
    """The event's room, its current schedule (if any) and the changes to its released rounds."""
    event = service.load_event(store, event_id)
    seated = room.room(store, event_id)
    version = service.current_version(store, event)
    schedule = desk_of(request).schedules.get((version.id,), version.schedule) if version else None
    changed = {
        number: guards.changed_tables(seating, schedule.rounds[number - 1])
        for number, seating in seated.released.items()
        if schedule is not None and number <= len(schedule.rounds)
    }
    return event, seated, version, schedule, {number: what for number, what in changed.items() if what}


# ---- the director's room panel -----------------------------------------------------------------


@router.get("/events/{event_id}/room", response_class=HTMLResponse)
def room_page(request: Request, store: StoreDep, event_id: Id, errors=None, status: int = 200):
    event, seated, version, schedule, changed = _seen(request, store, event_id)
    return page(
        request,
        "room.html.j2",
        status,
        event_id=event_id,
        settings=event.settings,
        room=seated,
        rounds=len(schedule.rounds) if schedule else 0,
        played=version.played if version else 0,
        showing=room.showing(seated, version.played, len(schedule.rounds)) if version and schedule else 0,
        changed=changed,
        players_url=players_url(request, seated.public_id),
        local_only=desk_of(request).local_only,
        timer=seated.timer.state(desk_of(request).clock()),
        session=_next_session(event.settings, seated.last, len(schedule.rounds) if schedule else 0),
        errors=errors or {},
    )


def _next_session(settings, last: int, total: int) -> tuple[int, int, int] | None:
    """(session, first round, last round) of the next session to release, for an event in sessions."""
    if not settings.session_rounds or last >= total:
        return None
    return room.session_of(last + 1, settings.session_rounds, total)


def _room_action(request: Request, store: Store, event_id: Id, action) -> Response:
    try:
        action()
    except DeskError as error:
        if isinstance(error, NotFound):
            raise
        return room_page(request, store, event_id, errors={error.field or "release": str(error)}, status=error.status)
    return RedirectResponse(f"/events/{event_id}/room", status_code=303)


@router.post("/events/{event_id}/release")
def release(request: Request, store: StoreDep, event_id: Id, round: FormNumber):
    clock = desk_of(request).clock
    return _room_action(request, store, event_id, lambda: room.release(store, event_id, round, clock()))


@router.post("/events/{event_id}/release/session")
def release_session(request: Request, store: StoreDep, event_id: Id, session: Text = ""):
    named, clock = form_id(session), desk_of(request).clock
    return _room_action(request, store, event_id, lambda: room.release_session(store, event_id, clock(), named))


def _asked(
    request: Request, store: Store, event_id: Id, heading: str, note: str, button: str, fields: dict
) -> Response:
    """The page that asks before an action the room would notice and nobody can redo by a click
    (confirm.html.j2, as the day's changes ask): the same post again, confirmed, or back."""
    settings = service.load_event(store, event_id).settings
    return page(
        request,
        "confirm.html.j2",
        event_id=event_id,
        settings=settings,
        heading=heading,
        button=button,
        preview={"note": note, "effects": {"lines": []}},
        action=request.url.path,
        fields=fields,
        back=f"/events/{event_id}/room",
    )


@router.post("/events/{event_id}/release/withdraw")
def withdraw(request: Request, store: StoreDep, event_id: Id, round: Text = "", confirm: Text = ""):
    asked = form_id(round) or room.room(store, event_id).last
    if asked and not confirm:  # the round is checked when confirmed: it must still be the latest released
        note = f"The projector and the players' phones stop showing round {asked} until it is released again."
        fields = {"round": round}
        return _asked(request, store, event_id, f"Take round {asked} back?", note, f"Take round {asked} back", fields)
    return _room_action(request, store, event_id, lambda: room.withdraw(store, event_id, form_id(round)))


@router.post("/events/{event_id}/timer")
def timer(
    request: Request,
    store: StoreDep,
    event_id: Id,
    action: Text = "",
    minutes: Annotated[float, Form()] = 5,
    confirm: Text = "",
):
    now = desk_of(request).clock
    if action == "reset" and not confirm:
        clock = room.room(store, event_id).timer
        left = max(0.0, clock.remaining(now()))
        note = (
            f"The round's timer goes back to {clock.minutes:g}:00 and stands still; "
            f"the {int(left // 60)}:{int(left % 60):02d} it has left now is forgotten."
        )
        return _asked(
            request, store, event_id, "Reset the round's timer?", note, "Reset the timer", {"action": "reset"}
        )
    return _room_action(request, store, event_id, lambda: room.timer(store, event_id, action, now(), minutes))


@router.post("/events/{event_id}/room")
def room_settings(
    request: Request,
    store: StoreDep,
    event_id: Id,
    minutes: Annotated[float, Form()],
    pace: Annotated[float, Form()],
):
    return _room_action(request, store, event_id, lambda: room.set_room(store, event_id, minutes, pace))


# ---- the projector (a director's page, on the laptop driving it) -------------------------------


@router.get("/e/{event_id}/screen", response_class=HTMLResponse)
def screen(request: Request, store: StoreDep, event_id: Id):
    from rotation.printing.lookup import lookup_entries
    from rotation.printing.pages import qr_svg
    from rotation.printing.typeface import longest_em, widest_word_em, width_em

    event, seated, version, schedule, changed = _seen(request, store, event_id)
    shown = room.showing(seated, version.played, len(schedule.rounds)) if version and schedule else 0
    url = players_url(request, seated.public_id)
    return page(
        request,
        "screen.html.j2",
        settings=event.settings,
        event_id=event_id,
        room=seated,
        number=shown,
        round=views.rounds_view(schedule, 0)[shown - 1] if shown else None,
        find=lookup_entries(schedule, shown - 1) if shown else [],
        sit_out_word=SIT_OUT_WORDS[schedule.sit_out_scoring.value] if schedule else "",
        changed=changed.get(shown, []),
        qr=desk_of(request).rendered.get(("qr", url), lambda: qr_svg(url)),
        players_url=url,
        # the widest piece of a name, in em: columns hold it at the smallest readable size (room.css), so
        # fewer columns rather than a name broken mid-word; each name's own widest piece (--piece) lets a
        # long name shrink alone, down to that size, where the column is narrower than it at full size
        word_em=widest_word_em(schedule.players) if schedule else 0.0,
        piece_em=longest_em,
        # a card's longest name on one line, in em: a wide card lists its names two a row when they fit
        line_em=lambda seats: max((width_em(seat.name) for seat in seats), default=0.0),
        **screen_context(store, event_id),  # the standings, when the director shows them
    )


@router.get("/e/{event_id}/screen/state.json")
def screen_state(request: Request, store: StoreDep, event_id: Id) -> dict:
    seated = room.room(store, event_id)
    state = {"stamp": seated.stamp, "pace": seated.pace, "timer": seated.timer.state(desk_of(request).clock())}
    return {**state, "standings": screen_stamp(store, event_id)}


# ---- the players' phones (public: no key, read only, released rounds only) ---------------------


@router.get("/favicon.ico")
def favicon() -> FileResponse:
    """The desk's icon where a browser asks for it by default (a print page, a tool's own request): the
    pages name it (/static/favicon.svg); neither is ever a 404."""
    return FileResponse(HERE / "static" / "favicon.svg", media_type="image/svg+xml")


def _public(store: Store, public_id: str) -> int:
    event_id = store.event_of(public_id)
    if event_id is None:
        raise HTTPException(404, "no such page")
    return event_id


@router.get("/e/{public_id}/me", response_class=HTMLResponse)
def phone(request: Request, store: StoreDep, public_id: str, q: str = "", player: str = ""):
    stored = room.stored_id(store, public_id)
    if stored is not None and stored != public_id:  # typed in capitals, or with an O for a 0
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(f"/e/{stored}/me{query}", status_code=307)
    event, seated, version, schedule, _ = _seen(request, store, _public(store, public_id))
    players = schedule.players if schedule else ()
    typed = loose_key(q)
    matches = [name for name in players if len(typed) >= 2 and typed in loose_key(name)] if q else []
    name = next((n for n in players if name_key(n) == name_key(player)), None) if player else None
    day = views.player_day(schedule, name)[: seated.last] if version and schedule and name else []
    now = room.showing(seated, version.played, len(schedule.rounds)) if version and schedule else 0
    return TEMPLATES.TemplateResponse(
        request,
        "phone.html.j2",
        {
            "settings": event.settings,
            "public_id": public_id,
            "q": q,
            "typed": typed,
            "matches": matches[:MATCHES],
            "more": max(0, len(matches) - MATCHES),
            "player": player,
            "name": name,
            "now": day[now - 1] if day else None,
            "now_changed": bool(day) and _place_changed(seated, schedule, now, name),
            "coming": day[now:],  # released, not yet played: the rest of a session released at once
            "earlier": list(reversed(day[: now - 1])),
            "released": seated.last,
            "stamp": seated.stamp,
        },
    )


def _place_changed(seated: room.Room, schedule: Schedule | None, number: int, name: str | None) -> bool:
    """Whether the player's place in released round `number` (table, seat and tablemates, or sitting out
    or not here) differs from when the round was released: a player who looked before must look again."""
    released = seated.released.get(number)
    if released is None or schedule is None or name is None:
        return False

    def place(round_: Round) -> tuple:
        table = next((t for t in round_.tables if name in t.players), None)
        return (table.table, tuple(table.players)) if table is not None else (name in round_.sit_outs,)

    return place(released) != place(schedule.rounds[number - 1])


@router.get("/e/{public_id}/me/state.json")
async def phone_state(store: StoreDep, public_id: str) -> dict:
    """What a phone polls: the stamp changes when a round is released or the schedule changes.
    Answered on the event loop, not in the thread pool: one indexed query costs less than the hand-off."""
    stamp = store.public_stamp(public_id)
    if stamp is None:
        raise HTTPException(404, "no such page")
    return {"stamp": stamp}


# ---- JSON endpoints ----------------------------------------------------------------------------


class RoomOut(BaseModel):
    public_id: str = Field(description="The players' pages are at /e/<public_id>/me.")
    released: list[int] = Field(description="The rounds released to the room.")
    changed: dict[int, list[str]] = Field(description="Released rounds changed since their release: what changed.")
    pace: float = Field(description="Seconds a projector page stays up.")
    timer: dict


class ReleaseIn(JsonIn):
    round: int = Field(description="The next round, or a released one again (which clears its change flags).")


class TimerIn(JsonIn):
    action: Literal["start", "pause", "extend", "reset"]
    minutes: float = Field(
        default=5, ge=room.EXTEND[0], le=room.EXTEND[1], description="For extend: the minutes added."
    )


class RoomIn(JsonIn):  # the bounds in the schema too, so a request it allows is one the desk takes
    minutes: float = Field(ge=room.MINUTES[0], le=room.MINUTES[1], description="How long a round lasts.")
    pace: float = Field(ge=room.PACE[0], le=room.PACE[1], description="Seconds a projector page stays up.")


def room_out(request: Request, store: Store, event_id: Id) -> RoomOut:
    _, seated, _, _, changed = _seen(request, store, event_id)
    timer_state = seated.timer.state(desk_of(request).clock())
    return RoomOut(
        public_id=seated.public_id,
        released=sorted(seated.released),
        changed=changed,
        pace=seated.pace,
        timer=timer_state,
    )


@api.get("/events/{event_id}/room")
def get_room(request: Request, store: StoreDep, event_id: Id) -> RoomOut:
    return room_out(request, store, event_id)


@api.put("/events/{event_id}/room")
def put_room(request: Request, store: StoreDep, event_id: Id, body: RoomIn) -> RoomOut:
    room.set_room(store, event_id, body.minutes, body.pace)
    return room_out(request, store, event_id)


@api.post("/events/{event_id}/release")
def post_release(request: Request, store: StoreDep, event_id: Id, body: ReleaseIn) -> RoomOut:
    room.release(store, event_id, body.round, desk_of(request).clock())
    return room_out(request, store, event_id)


class SessionIn(JsonIn):
    session: int | None = Field(
        default=None, description="The next session as you read it: released only while it still is."
    )


@api.post("/events/{event_id}/release/session")
def post_release_session(request: Request, store: StoreDep, event_id: Id, body: SessionIn | None = None) -> RoomOut:
    """The next session of a multi-session event goes to the room as a unit."""
    room.release_session(store, event_id, desk_of(request).clock(), body.session if body else None)
    return room_out(request, store, event_id)


class WithdrawIn(JsonIn):
    round: int | None = Field(
        default=None, description="The latest released round as you read it: taken back only while it still is."
    )


@api.post("/events/{event_id}/release/withdraw")
def post_withdraw(request: Request, store: StoreDep, event_id: Id, body: WithdrawIn | None = None) -> RoomOut:
    room.withdraw(store, event_id, body.round if body else None)
    return room_out(request, store, event_id)


@api.post("/events/{event_id}/timer")
def post_timer(request: Request, store: StoreDep, event_id: Id, body: TimerIn) -> RoomOut:
    room.timer(store, event_id, body.action, desk_of(request).clock(), body.minutes)
    return room_out(request, store, event_id)
