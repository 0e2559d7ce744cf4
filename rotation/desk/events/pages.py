"""The event's page and the day's actions on it: plan, stop, re-plan, played, swap, move, accept, undo, go back.

The director's pages are rendered on the server, forms that post back, with a little JavaScript for progress;
beside this module, the events' settings (settings_pages.py) and looking at, printing and downloading a
schedule (schedule_pages.py).
"""

from __future__ import annotations

from typing import Annotated
from urllib.parse import urlencode

from fastapi import Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from models.event import normalise_name
from optimizer.leaving import NameRefused, leaving
from rotation.desk.core.errors import DayMoved, DeskError, FieldErrors, NotFound, Unconfirmed
from rotation.desk.core.planner import Planner
from rotation.desk.deps import (
    BaseDep,
    FormNumber,
    Id,
    PlannerDep,
    QueryId,
    StoreDep,
    Text,
    form_number,
    page,
    pages_router,
)
from rotation.desk.events import changes, guards, runs, service, views
from rotation.desk.storage import RunStatus, Store, VersionRow
from rotation.files.output import SIT_OUT_WORDS
from rotation.printing.typeface import widest_word_em

router = pages_router()


def back_to(event_id: Id, anchor: str = "") -> RedirectResponse:
    """After a form: back to the event's page (at `anchor`), as a GET (303), so a reload posts nothing again."""
    return RedirectResponse(f"/events/{event_id}{anchor}", status_code=303)


@router.get("/events/{event_id}", response_class=HTMLResponse)
def event_page(request: Request, store: StoreDep, event_id: Id, version: QueryId = None):
    return _event_page(request, store, event_id, version, kept=_cancelled(request))


DAY_FORMS = ("played", "replan", "swap", "move")  # the day's forms whose typed boxes a Cancel carries back
ROUND_BOXES = ("rounds", "from_round", "round")  # their round choosers, numbers as the refused forms keep them


def _cancelled(request: Request) -> dict | None:
    """What a change that was asked about and cancelled had typed (the asking page's Cancel carries it back
    in the address, _typed_back): shown in its form again, so Cancel loses nothing the director entered."""
    query = request.query_params
    if query.get("form") not in DAY_FORMS:
        return None
    return {name: form_number(value) if name in ROUND_BOXES else value for name, value in query.items()}


def _typed_back(event_id: Id, field: str, fields: dict | None) -> str:
    """The event's page at the form a change came from, with what was typed in it (`fields` but the
    version it was made from): the asking page's Cancel."""
    typed = {name: value for name, value in (fields or {}).items() if name != "base"}
    if field not in DAY_FORMS or not typed:
        return f"/events/{event_id}"
    return f"/events/{event_id}?{urlencode({'form': field, **typed})}#{field}-form"


def _moved(store, event_id: Id, base) -> list[str]:
    """What changed the day since the version a refused change was made from (`base`), newest first, in
    the history's words: shown at the top of the page, above the fold."""
    seen = form_number(str(base)) or 0
    event = service.load_event(store, event_id)
    lines = [version.note for version in store.versions(event_id) if version.id > seen]
    current = service.current_version(store, event)
    if current is not None and current.id <= seen:
        lines.insert(0, f"back to an earlier schedule: {current.note}")
    return lines[:5]


def _event_page(
    request: Request,
    store: Store,
    event_id: Id,
    version_id: int | None = None,
    errors=None,
    status: int = 200,
    kept=None,
    moved=(),
):
    event = service.load_event(store, event_id)
    settings = event.settings
    runs = store.runs(event_id)
    run = runs[0] if runs else None
    current = service.current_version(store, event)
    shown = current if version_id is None else service.load_version(store, event_id, version_id)
    schedule = shown.schedule() if shown else None
    proposals = [] if version_id is not None else changes.proposals(store, event)
    return page(
        request,
        "event.html.j2",
        status,
        event=event,
        event_id=event_id,
        sit_out_word=SIT_OUT_WORDS[settings.sit_out_scoring.value],
        settings=settings,
        run=run,
        running=run is not None and run.status is RunStatus.RUNNING,
        run_repeats=_run_repeats(store, run, current),
        released=store.released_rounds(event_id),
        players_now=len(players_now(current) or settings.names),
        released_changes=_released_changes(store, event_id, current, proposals),
        version=shown,
        current=current,
        looking_back=shown is not None and current is not None and shown.id != current.id,
        schedule=schedule,
        rounds=views.rounds_view(schedule, shown.played) if schedule and shown else [],
        word_em=widest_word_em(schedule.players) if schedule else 0.0,
        figures=views.figure_lines(shown.figures, schedule, bool(settings.series)) if shown else [],
        proposals=views.proposals_view(proposals),
        errors=errors or {},
        kept=kept or {"form": ""},  # what a refused form had typed, shown in it again
        moved=moved,  # the day changed under a refused change: what changed
    )


def players_now(current: VersionRow | None) -> list[str]:
    """The players as they are now: the current schedule's, without who left (with who arrived)."""
    if current is None:
        return []
    schedule = current.schedule()
    staying = guards.staying(schedule)
    return [name for name in schedule.players if name in staying]


def _run_repeats(store, run, current: VersionRow | None) -> int | None:
    """While a run plans, the best it reported; once it stored a schedule, the current schedule's checked
    repeats (a swap or an undo since changes them; a re-plan's progress counts only the rounds it plans)."""
    if run is None:
        return None
    if run.status is not RunStatus.RUNNING and run.version_id and current is not None:
        return current.figures.metrics.repeats
    stored = store.version(run.version_id) if run.version_id else None
    return stored.figures.metrics.repeats if stored else run.progress.repeats


def _released_changes(store, event_id: int, current: VersionRow | None, proposals: list[VersionRow]) -> dict:
    """For each proposal, the released rounds' tables it would seat anew (what the room would see change)."""
    if current is None or not proposals:
        return {}
    before = current.schedule()
    return {
        proposal.id: [
            f"round {number}: {', '.join(tables)}"
            for number, tables in guards.effects(store, event_id, before, proposal.schedule()).released
        ]
        for proposal in proposals
    }


CONFIRM_WORDS = {  # (heading, button) of the page that asks before a change is applied
    "swap": ("Swap two players?", "Apply the swap"),
    "move": ("Record the move?", "Record it"),
    "undo": ("Undo the last change?", "Undo it all the same"),
    "restore": ("Go back to this schedule?", "Go back all the same"),
    "replan": ("Re-plan from the round you asked?", ""),  # its buttons name their rounds (_replan_asked)
}


def _day_action(
    request: Request, store: Store, event_id: Id, field: str, action, fields: dict | None = None
) -> Response:
    """Run a change of the day; its refusal is shown beside the form it came from, with what was typed
    in it (`fields`; a change made from a day that has changed since: the day as it is now,
    DayMoved). A change that must be confirmed shows what it would do, with the same form to
    post again, confirmed (`fields`, the version it was made from among them)."""
    try:
        action()
    except Unconfirmed as asked:
        heading, button = CONFIRM_WORDS[asked.field or field]
        settings = service.load_event(store, event_id).settings
        return page(
            request,
            "confirm.html.j2",
            event_id=event_id,
            settings=settings,
            heading=heading,
            button=asked.preview.get("button", button),
            preview=asked.preview,
            action=request.url.path,
            fields={**(fields or {}), **asked.preview.get("fields", {})},
            back=f"/events/{event_id}/history" if field == "restore" else _typed_back(event_id, field, fields),
        )
    except DeskError as error:
        if isinstance(error, NotFound):
            raise
        kept = {"form": field, **(fields or {})}
        moved = _moved(store, event_id, kept.get("base")) if isinstance(error, DayMoved) else []
        errors = {error.field or field: str(error)}
        return _event_page(request, store, event_id, errors=errors, status=error.status, kept=kept, moved=moved)
    return back_to(event_id)


@router.post("/events/{event_id}/plan")
def plan(
    request: Request, store: StoreDep, planner: PlannerDep, event_id: Id, base: BaseDep, include_released: Text = ""
):
    def start() -> None:
        try:
            runs.start_plan(store, planner, event_id, bool(include_released), base)
        except FieldErrors as error:
            raise DeskError(f"the settings need a change first: {error}", field="plan") from None

    return _day_action(request, store, event_id, "plan", start)


@router.post("/events/{event_id}/runs/{run_id}/stop")
def stop(request: Request, store: StoreDep, planner: PlannerDep, event_id: Id, run_id: Id):
    return _run_action(request, store, planner, event_id, run_id, runs.stop_run)


@router.post("/events/{event_id}/runs/{run_id}/again")
def again(request: Request, store: StoreDep, planner: PlannerDep, event_id: Id, run_id: Id):
    return _run_action(request, store, planner, event_id, run_id, runs.run_again)


def _run_action(request: Request, store: Store, planner: Planner, event_id: Id, run_id: Id, action) -> Response:
    """Stop a run, or run it again: only a run of this event."""
    runs.load_run(store, run_id, event_id)
    return _day_action(request, store, event_id, "plan", lambda: action(store, planner, run_id))


@router.post("/events/{event_id}/played")
def played(request: Request, store: StoreDep, event_id: Id, rounds: FormNumber, base: BaseDep):
    typed = {"rounds": rounds, "base": "" if base is None else base}
    return _day_action(
        request, store, event_id, "played", lambda: changes.mark_played(store, event_id, rounds, base), typed
    )


@router.post("/events/{event_id}/replan")
def replan(
    request: Request,
    store: StoreDep,
    planner: PlannerDep,
    event_id: Id,
    from_round: FormNumber,
    leave: Text = "",
    arrive: Text = "",
    time_limit: Annotated[float, Form()] = 10.0,
    include_released: Text = "",
    base: BaseDep = None,
    confirm: Text = "",
):
    typed = {"from_round": from_round, "leave": leave, "arrive": arrive, "time_limit": f"{time_limit:g}"}

    def start() -> None:
        if not confirm:
            _replan_asked(store, event_id, from_round, leave.splitlines(), bool(include_released))
        runs.start_replan(
            store,
            planner,
            event_id,
            from_round,
            leave.splitlines(),
            arrive.splitlines(),
            time_limit,
            bool(include_released),
            base,
            bool(confirm),
        )

    fields = {**typed, "include_released": include_released, "base": "" if base is None else base}
    return _day_action(request, store, event_id, "replan", start, fields)


def _replan_asked(store, event_id: Id, from_round: int, leave: list[str], include_released: bool) -> None:
    """The page asks before a re-plan that would start later than the director means, and offers the
    round they mean in one click: someone who leaves still seated in a round before `from_round` that is
    not played yet, or a released round asked for without "re-plan released rounds too" (the JSON route
    refuses that in words). Anything else wrong is left to the re-plan to refuse."""
    current = service.current_version(store, service.load_event(store, event_id))
    if current is None or not current.played < from_round <= len(current.schedule().rounds):
        return
    released = set(store.released_rounds(event_id))
    schedule = current.schedule()
    try:
        leavers = leaving(schedule, current.played, [name for name in leave if normalise_name(name)])
    except NameRefused:
        return
    seated = runs.seated_before(schedule, current.played, from_round, leavers)
    if seated:
        _ask_seated(seated, from_round, released, include_released)
    if from_round in released and not include_released:
        note = (
            f"Round {from_round} is released to the room: re-planning from it re-seats what the room has, "
            "and the room sees its tables change. Re-plan from it all the same?"
        )
        button = f"Re-plan from round {from_round}, released round included"
        preview = {"note": note, "button": button, "fields": {"include_released": "1"}, "effects": {"lines": []}}
        raise Unconfirmed("ask", preview, field="replan")


def _ask_seated(seated: list[tuple[str, int]], from_round: int, released: set[int], include_released: bool):
    """Who leaves is seated in a round still to play before the one asked: they play it first (as
    asked), or the re-plan starts at that round (released or not, as the director chooses here)."""
    start = min(number for _, number in seated)
    who = "; ".join(f"{name} is seated in round {number}" for name, number in seated)
    in_room = " (released: the room sees it change)" if start in released else ""
    note = (
        f"You asked to re-plan from round {from_round}, but {who}, not played yet. Re-planned from round "
        f"{from_round}, they play it first; if they do not, re-plan from round {start} instead{in_room}."
    )
    other = {"from_round": start, "include_released": "1" if start in released or include_released else ""}
    preview = {
        "note": note,
        "button": f"Re-plan from round {from_round}: they play round {start} first",
        "fields": {"include_released": "1" if include_released or from_round in released else ""},
        "other": (f"Re-plan from round {start}: they leave before it", other),
        "effects": {"lines": []},
    }
    raise Unconfirmed("ask", preview, field="replan")


@router.post("/events/{event_id}/swap")
def swap(
    request: Request,
    store: StoreDep,
    event_id: Id,
    round: FormNumber,
    base: BaseDep,
    first: Text = "",
    second: Text = "",
    confirm: Text = "",
):
    return _day_action(
        request,
        store,
        event_id,
        "swap",
        lambda: changes.swap(store, event_id, round, first, second, bool(confirm), base),
        {"round": round, "first": first, "second": second, "base": "" if base is None else base},
    )


@router.post("/events/{event_id}/move")
def move(
    request: Request,
    store: StoreDep,
    event_id: Id,
    round: FormNumber,
    base: BaseDep,
    player: Text = "",
    table: Text = "",
    confirm: Text = "",
):
    def record() -> None:
        if (number := form_number(table, 4)) is None:
            raise DeskError(f"{table.strip()!r} is not a table number", field="move", status=422)
        changes.move(store, event_id, round, player, number, bool(confirm), base)

    fields = {"round": round, "player": player, "table": table, "base": "" if base is None else base}
    return _day_action(request, store, event_id, "move", record, fields)


@router.post("/events/{event_id}/versions/{version_id}/accept")
def accept(request: Request, store: StoreDep, event_id: Id, version_id: Id, base: BaseDep):
    fields = {"base": "" if base is None else base}
    return _day_action(
        request, store, event_id, "accept", lambda: changes.accept(store, event_id, version_id, base), fields
    )


@router.post("/events/{event_id}/undo")
def undo(request: Request, store: StoreDep, event_id: Id, base: BaseDep, confirm: Text = ""):
    fields = {"base": "" if base is None else base}
    return _day_action(
        request, store, event_id, "undo", lambda: changes.undo(store, event_id, bool(confirm), base), fields
    )


@router.post("/events/{event_id}/versions/{version_id}/restore")
def restore(request: Request, store: StoreDep, event_id: Id, version_id: Id, base: BaseDep, confirm: Text = ""):
    return _day_action(
        request,
        store,
        event_id,
        "restore",
        lambda: changes.restore(store, event_id, version_id, bool(confirm), base),
        {"base": "" if base is None else base},
    )
