"""The director's pages: rendered on the server, forms that post back, a little JavaScript for progress."""

from __future__ import annotations

from collections import Counter
from typing import Annotated
from urllib.parse import urlencode

from fastapi import File, Form, HTTPException, Query, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse, Response

import optimizer
from models.event import FixedRule, name_key
from models.rules import Rules
from optimizer.constructions.fixed import rule_words
from rotation.desk.deps import (
    TEMPLATES,
    BaseDep,
    FormNumber,
    Id,
    QueryId,
    Text,
    desk_of,
    page,
    pages_router,
    players_url,
)
from rotation.desk.events import changes, guards, planning, runs, service, views
from rotation.desk.events import rules_form as rule_boxes
from rotation.desk.events.settings import (
    MAX_UPLOAD_BYTES,
    EventSettings,
    FieldErrors,
    form_from_settings,
    names_text,
    settings_from_form,
)
from rotation.desk.room.service import room
from rotation.desk.storage import FixedFigures, RunStatus, VersionRow
from rotation.files.inputs import BadInput, decoded
from rotation.files.output import SIT_OUT_WORDS
from rotation.printing.typeface import widest_word_em

router = pages_router()
TEMPLATES.env.globals["rule_numbers"] = rule_boxes.NUMBERS  # the settings form's box per figure of the rule sheet


def back_to(event_id: Id, anchor: str = "") -> RedirectResponse:
    return RedirectResponse(f"/events/{event_id}{anchor}", status_code=303)


# ---- events ------------------------------------------------------------------------------------


@router.get("/", response_class=HTMLResponse)
def index(request: Request):
    store = desk_of(request).store
    events = [(event, event.settings) for event in store.events()]
    series = Counter(settings.series for _, settings in events if settings.series)
    return page(request, "index.html.j2", events=events, series=sorted(series.items(), key=lambda s: s[0].casefold()))


@router.get("/events/new", response_class=HTMLResponse)
def new_event(request: Request):
    blank = {
        "rounds": "7",
        "time_limit": "30",
        "odd": "three-handed",
        "sit_out_scoring": "zero",
        **rule_boxes.form_from_rules(Rules()),
    }
    return page(request, "event_form.html.j2", form=blank, event_id=None)


async def _form_fields(request: Request, names_file: UploadFile | None) -> dict[str, str]:
    """The form's text fields, the names file (if one was chosen) taking the place of pasted names."""
    form = await request.form()
    fields = {key: value for key, value in form.items() if isinstance(value, str)}
    if names_file is not None and names_file.filename:
        data = await names_file.read(MAX_UPLOAD_BYTES + 1)
        if len(data) > MAX_UPLOAD_BYTES:
            raise FieldErrors({"names": f"the names file is larger than {MAX_UPLOAD_BYTES // 1024} KB"})
        try:
            fields["names"] = decoded(data, "the names file")  # as the CLI reads it: UTF-8, or UTF-16 with its mark
        except BadInput as error:
            raise FieldErrors({"names": str(error)}) from None
    return fields


@router.post("/events", response_class=HTMLResponse)
async def create_event(request: Request, names_file: Annotated[UploadFile | None, File()] = None):
    return await _save_event(request, None, names_file)


@router.get("/events/{event_id}/edit", response_class=HTMLResponse)
def edit_event(request: Request, event_id: Id, renamed: str = "", to: str = ""):
    note = f"{renamed} is now {to}, everywhere." if renamed and to else ""
    return _settings_page(request, event_id, saved_note=note)


def _settings_page(request: Request, event_id: Id, status: int = 200, **context) -> HTMLResponse:
    """The event's settings, its names as the players are now (once a schedule has them), a rename box."""
    store = desk_of(request).store
    event = service.load_event(store, event_id)
    settings = event.settings
    form = form_from_settings(settings)
    now = _players_now(service.current_version(store, event))
    if now:
        form["names"] = names_text(now, settings.ids)
    context.setdefault("errors", {})
    return page(
        request,
        "event_form.html.j2",
        status,
        form=form,
        event_id=event_id,
        players_now=now,
        rename_names=now or event.settings.names,
        saved_note=context.pop("saved_note", ""),
        **context,
    )


@router.post("/events/{event_id}/rename", response_class=HTMLResponse)
def rename(request: Request, event_id: Id, old: Text = "", new: Text = ""):
    """A player's spelling corrected everywhere (changes.rename); back to the page the form was on."""
    store = desk_of(request).store
    try:
        was, now = changes.rename(store, event_id, old, new)
    except service.DeskError as error:
        if isinstance(error, service.NotFound):
            raise
        return _settings_page(request, event_id, error.status, errors={"rename": str(error)})
    return RedirectResponse(f"/events/{event_id}/edit?{urlencode({'renamed': was, 'to': now})}", status_code=303)


@router.post("/events/{event_id}/edit", response_class=HTMLResponse)
async def save_event(request: Request, event_id: Id, names_file: Annotated[UploadFile | None, File()] = None):
    return await _save_event(request, event_id, names_file)


async def _save_event(request: Request, event_id: int | None, names_file: UploadFile | None):
    fields: dict[str, str] = {}
    try:
        fields = await _form_fields(request, names_file)
        settings = settings_from_form(fields)
        store = desk_of(request).store
        if event_id is None:
            event_id = service.create_event(store, settings)
        else:
            old = service.load_event(store, event_id).settings
            listed = {name_key(n) for n in settings.names}
            guests = [n for n in old.guests if name_key(n) in listed]  # the form has no guests field
            service.update_event(
                store,
                event_id,
                settings.model_copy(update={"seed": old.seed, "workers": old.workers, "guests": guests}),
            )
            now = _players_now(service.current_version(store, service.load_event(store, event_id)))
            if now and {name_key(n) for n in now} != {name_key(n) for n in settings.names}:
                note = (
                    "Saved for the next plan of the whole day. The current schedule keeps its players: to "
                    "correct a spelling use Rename a player below; for someone who leaves or arrives, re-plan on "
                    "the Day page."
                )
                return _settings_page(request, event_id, saved_note=note)
    except FieldErrors as error:
        return page(request, "event_form.html.j2", 422, form=fields, event_id=event_id, errors=error.errors)
    return back_to(event_id)


# ---- the event's page --------------------------------------------------------------------------


@router.get("/events/{event_id}", response_class=HTMLResponse)
def event_page(request: Request, event_id: Id, version: QueryId = None):
    return _event_page(request, event_id, version)


def _event_page(
    request: Request, event_id: Id, version_id: int | None = None, errors=None, status: int = 200, kept=None
):
    desk = desk_of(request)
    event = service.load_event(desk.store, event_id)
    settings = event.settings
    runs = desk.store.runs(event_id)
    run = runs[0] if runs else None
    current = service.current_version(desk.store, event)
    shown = current if version_id is None else service.load_version(desk.store, event_id, version_id)
    schedule = shown.schedule() if shown else None
    proposals = [] if version_id is not None else changes.proposals(desk.store, event)
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
        run_repeats=_run_repeats(desk.store, run, current),
        released=desk.store.released_rounds(event_id),
        players_now=len(_players_now(current) or settings.names),
        released_changes=_released_changes(desk.store, event_id, current, proposals),
        version=shown,
        current=current,
        looking_back=shown is not None and current is not None and shown.id != current.id,
        schedule=schedule,
        rounds=views.rounds_view(schedule, shown.played) if schedule and shown else [],
        word_em=widest_word_em(schedule.players) if schedule else 0.0,
        figures=views.figure_lines(shown.figures, schedule) if shown else [],
        proposals=views.proposals_view(proposals),
        errors=errors or {},
        kept=kept or {"form": ""},  # what a refused form had typed, shown in it again
    )


def _players_now(current: VersionRow | None) -> list[str]:
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
}


def _day_action(request: Request, event_id: Id, field: str, action, fields: dict | None = None) -> Response:
    """Run a change of the day; its refusal is shown beside the form it came from, with what was typed
    in it (`fields`; a change made from a day that has changed since: the day as it is now,
    service.DayMoved). A change that must be confirmed shows what it would do, with the same form to
    post again, confirmed (`fields`, the version it was made from among them)."""
    try:
        action()
    except service.Unconfirmed as asked:
        heading, button = CONFIRM_WORDS[asked.field or field]
        settings = service.load_event(desk_of(request).store, event_id).settings
        return page(
            request,
            "confirm.html.j2",
            event_id=event_id,
            settings=settings,
            heading=heading,
            button=button,
            preview=asked.preview,
            action=request.url.path,
            fields=fields or {},
            back=f"/events/{event_id}/history" if field == "restore" else f"/events/{event_id}",
        )
    except service.DeskError as error:
        if isinstance(error, service.NotFound):
            raise
        kept = {"form": field, **(fields or {})}
        return _event_page(request, event_id, errors={error.field or field: str(error)}, status=error.status, kept=kept)
    return back_to(event_id)


@router.post("/events/{event_id}/plan")
def plan(request: Request, event_id: Id, base: BaseDep, include_released: Text = ""):
    desk = desk_of(request)

    def start() -> None:
        try:
            runs.start_plan(desk.store, desk.planner, event_id, bool(include_released), base)
        except FieldErrors as error:
            raise service.DeskError(f"the settings need a change first: {error}", field="plan") from None

    return _day_action(request, event_id, "plan", start)


@router.post("/events/{event_id}/runs/{run_id}/stop")
def stop(request: Request, event_id: Id, run_id: Id):
    return _run_action(request, event_id, run_id, runs.stop_run)


@router.post("/events/{event_id}/runs/{run_id}/again")
def again(request: Request, event_id: Id, run_id: Id):
    return _run_action(request, event_id, run_id, runs.run_again)


def _run_action(request: Request, event_id: Id, run_id: Id, action) -> Response:
    """Stop a run, or run it again: only a run of this event."""
    desk = desk_of(request)
    runs.load_run(desk.store, run_id, event_id)
    return _day_action(request, event_id, "plan", lambda: action(desk.store, desk.planner, run_id))


@router.post("/events/{event_id}/played")
def played(request: Request, event_id: Id, rounds: FormNumber, base: BaseDep):
    store = desk_of(request).store
    typed = {"rounds": rounds}
    return _day_action(request, event_id, "played", lambda: changes.mark_played(store, event_id, rounds, base), typed)


@router.post("/events/{event_id}/replan")
def replan(
    request: Request,
    event_id: Id,
    from_round: FormNumber,
    leave: Text = "",
    arrive: Text = "",
    time_limit: Annotated[float, Form()] = 10.0,
    include_released: Text = "",
    base: BaseDep = None,
):
    desk = desk_of(request)
    typed = {"from_round": from_round, "leave": leave, "arrive": arrive, "time_limit": f"{time_limit:g}"}
    return _day_action(
        request,
        event_id,
        "replan",
        lambda: runs.start_replan(
            desk.store,
            desk.planner,
            event_id,
            from_round,
            leave.splitlines(),
            arrive.splitlines(),
            time_limit,
            bool(include_released),
            base,
        ),
        typed,
    )


@router.post("/events/{event_id}/swap")
def swap(
    request: Request,
    event_id: Id,
    round: FormNumber,
    base: BaseDep,
    first: Text = "",
    second: Text = "",
    confirm: Text = "",
):
    store = desk_of(request).store
    return _day_action(
        request,
        event_id,
        "swap",
        lambda: changes.swap(store, event_id, round, first, second, bool(confirm), base),
        {"round": round, "first": first, "second": second, "base": "" if base is None else base},
    )


@router.post("/events/{event_id}/move")
def move(
    request: Request,
    event_id: Id,
    round: FormNumber,
    base: BaseDep,
    player: Text = "",
    table: Text = "",
    confirm: Text = "",
):
    store = desk_of(request).store

    def record() -> None:
        number = table.strip()
        if not (number.isascii() and number.isdigit() and len(number) <= 4):
            raise service.DeskError(f"{number!r} is not a table number", field="move", status=422)
        changes.move(store, event_id, round, player, int(number), bool(confirm), base)

    fields = {"round": round, "player": player, "table": table, "base": "" if base is None else base}
    return _day_action(request, event_id, "move", record, fields)


@router.post("/events/{event_id}/versions/{version_id}/accept")
def accept(request: Request, event_id: Id, version_id: Id, base: BaseDep):
    store = desk_of(request).store
    return _day_action(request, event_id, "accept", lambda: changes.accept(store, event_id, version_id, base))


@router.post("/events/{event_id}/undo")
def undo(request: Request, event_id: Id, base: BaseDep, confirm: Text = ""):
    store = desk_of(request).store
    fields = {"base": "" if base is None else base}
    return _day_action(request, event_id, "undo", lambda: changes.undo(store, event_id, bool(confirm), base), fields)


@router.post("/events/{event_id}/versions/{version_id}/restore")
def restore(request: Request, event_id: Id, version_id: Id, base: BaseDep, confirm: Text = ""):
    store = desk_of(request).store
    return _day_action(
        request,
        event_id,
        "restore",
        lambda: changes.restore(store, event_id, version_id, bool(confirm), base),
        {"base": "" if base is None else base},
    )


# ---- looking at a schedule ----------------------------------------------------------------------


def _shown(request: Request, event_id: Id, version_id: int | None = None) -> tuple[EventSettings, VersionRow]:
    store = desk_of(request).store
    event = service.load_event(store, event_id)
    chosen = version_id if version_id is not None else event.current_version
    if chosen is None:
        raise HTTPException(404, "the event has no schedule yet: plan it first")
    return event.settings, service.load_version(store, event_id, chosen)


@router.get("/events/{event_id}/players/{player}", response_class=HTMLResponse)
def player_page(request: Request, event_id: Id, player: Id, version: QueryId = None):
    settings, shown = _shown(request, event_id, version)
    schedule = shown.schedule()
    if not 0 <= player < len(schedule.players):
        raise HTTPException(404, f"player {player} is not on this schedule")
    name = schedule.players[player]
    metrics = next(p for p in shown.figures.metrics.players if p.name == name)
    return page(
        request,
        "player.html.j2",
        event_id=event_id,
        settings=settings,
        name=name,
        day=views.player_day(schedule, name),
        metrics=metrics,
        played=shown.played,
    )


@router.get("/events/{event_id}/compare", response_class=HTMLResponse)
def compare_page(request: Request, event_id: Id):
    settings, shown = _shown(request, event_id)
    fixed = shown.figures.fixed or FixedFigures()
    variant = None
    if settings.fixed_rule is not FixedRule.MJMP:  # the event's own fixed rule, beside the baseline
        variant = planning.fixed_figures(shown.schedule(), settings.fixed_rule)
    return page(
        request,
        "compare.html.j2",
        event_id=event_id,
        settings=settings,
        rows=views.compared_rows(shown.figures, variant),
        skipped=fixed.skipped or "",
        variant=rule_words(settings.fixed_rule, tuple(settings.winds)) if variant is not None else "",
        variant_skipped=(variant.skipped or "") if variant else "",
        version=shown,
    )


@router.get("/events/{event_id}/meetings.png")
def meetings_picture(request: Request, event_id: Id, version: QueryId = None):
    from rotation.printing.pictures import meetings_png  # matplotlib: only when the picture is asked for

    _, shown = _shown(request, event_id, version)
    picture = desk_of(request).rendered.get(("meetings", shown.id), lambda: meetings_png(shown.schedule()))
    return Response(picture, media_type="image/png")


@router.get("/events/{event_id}/history", response_class=HTMLResponse)
def history_page(request: Request, event_id: Id):
    store = desk_of(request).store
    event = service.load_event(store, event_id)
    return page(
        request,
        "history.html.j2",
        event_id=event_id,
        settings=event.settings,
        versions=store.versions(event_id),
        current=event.current_version,
        running=any(run.running for run in store.runs(event_id)),
    )


# ---- print and download ------------------------------------------------------------------------


@router.get("/events/{event_id}/print-options", response_class=HTMLResponse)
def print_options(request: Request, event_id: Id):
    from rotation.printing.options import PARTS, parts_for

    settings, shown = _shown(request, event_id)
    schedule = shown.schedule()
    return page(
        request,
        "print_options.html.j2",
        event_id=event_id,
        settings=settings,
        parts=PARTS,
        chosen=parts_for(schedule, _print_options(settings)),
        rounds=len(schedule.rounds),
        first=shown.played + 1 if shown.played < len(schedule.rounds) else 1,
        local_only=desk_of(request).local_only,
    )


def _print_options(settings: EventSettings, parts=(), rounds=None, players_url: str = ""):
    from rotation.printing.options import Options, rule_options

    return Options(
        title=settings.title,
        date=settings.date,
        only=tuple(parts),
        rounds=rounds,
        players_url=players_url,
        winds=tuple(settings.winds),
        **(rule_options(settings.rules, settings.sit_out_scoring) if settings.score_entry == "games" else {}),
    )


@router.get("/events/{event_id}/print", response_class=HTMLResponse)
def print_page(
    request: Request,
    event_id: Id,
    parts: Annotated[list[str], Query()] = [],  # noqa: B006 (FastAPI copies query defaults)
    first: QueryId = None,
    last: QueryId = None,
):
    """The printable page of `rotation print`, with the event's title and date."""
    from rotation.commands.print_command import compare
    from rotation.printing.options import PARTS
    from rotation.printing.pages import render_page

    settings, shown = _shown(request, event_id)
    schedule = shown.schedule()
    unknown = [part for part in parts if part not in PARTS]
    total = len(schedule.rounds)
    low, high = first or 1, last or total
    if unknown or not 1 <= low <= high <= total:
        raise HTTPException(422, f"choose parts from {', '.join(PARTS)} and rounds from 1 to {total}")
    url = players_url(request, room(desk_of(request).store, event_id).public_id)  # its QR code on the sheets
    options = _print_options(settings, parts, (low, high), url)

    def make() -> str:
        metrics = optimizer.check(schedule)  # nothing unchecked reaches the wall
        return render_page(schedule, metrics, compare(schedule), options)

    key = ("print", shown.id, settings.title, settings.date, tuple(parts), low, high, url)
    try:
        return HTMLResponse(desk_of(request).rendered.get(key, make))
    except ValueError as error:  # a name too long for a wall chart: the library says which
        raise HTTPException(422, str(error)) from None


DOWNLOADS = {"schedule.json": "application/json", "schedule.csv": "text/csv", "schedule-long.csv": "text/csv"}


@router.get("/events/{event_id}/download/{what}")
def download(request: Request, event_id: Id, what: str, excel: bool = False):
    from rotation.files.output import EXCEL_BOM, schedule_csv, schedule_csv_long, schedule_json, with_provenance

    if what not in DOWNLOADS:
        raise HTTPException(404, f"downloads are {', '.join(DOWNLOADS)}")
    _, shown = _shown(request, event_id)
    schedule = shown.schedule()
    metrics = optimizer.check(schedule)
    bom = EXCEL_BOM if excel else ""
    render = {
        "schedule.json": lambda: schedule_json(with_provenance(schedule, metrics, method=shown.kind.value)),
        "schedule.csv": lambda: bom + schedule_csv(schedule),
        "schedule-long.csv": lambda: bom + schedule_csv_long(schedule),
    }
    headers = {"Content-Disposition": f'attachment; filename="event-{event_id}-{what}"'}
    return Response(render[what](), media_type=DOWNLOADS[what], headers=headers)
