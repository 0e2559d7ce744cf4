"""The events' pages: the list of events, a new event's form, an event's settings and a name's spelling."""

from __future__ import annotations

from collections import Counter
from typing import Annotated
from urllib.parse import urlencode

from fastapi import File, Request, UploadFile
from fastapi.responses import HTMLResponse, RedirectResponse

from models.event import name_key
from models.rules import Rules
from rotation.desk.core import rules_form as rule_boxes
from rotation.desk.core.errors import DeskError, FieldErrors, NotFound
from rotation.desk.core.settings import (
    MAX_UPLOAD_BYTES,
    EventSettings,
    form_from_settings,
    names_text,
    settings_from_form,
)
from rotation.desk.deps import TEMPLATES, BaseDep, Id, StoreDep, Text, page, pages_router
from rotation.desk.events import changes, service
from rotation.desk.events.pages import back_to, players_now
from rotation.desk.storage import Store
from rotation.files.inputs import BadInput, decoded

router = pages_router()
TEMPLATES.env.globals["rule_numbers"] = rule_boxes.NUMBERS  # the settings form's box per figure of the rule sheet


@router.get("/", response_class=HTMLResponse)
def index(request: Request, store: StoreDep):
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
async def create_event(request: Request, store: StoreDep, names_file: Annotated[UploadFile | None, File()] = None):
    return await _save_event(request, store, None, names_file)


@router.get("/events/{event_id}/edit", response_class=HTMLResponse)
def edit_event(request: Request, store: StoreDep, event_id: Id, renamed: str = "", to: str = ""):
    note = f"{renamed} is now {to}, everywhere." if renamed and to else ""
    return _settings_page(request, store, event_id, saved_note=note)


def _settings_page(
    request: Request, store: Store, event_id: Id, status: int = 200, typed: dict[str, str] | None = None, **context
) -> HTMLResponse:
    """The event's settings, its names as the players are now (once a schedule has them), a rename box;
    the form holds what was `typed` instead when a save was refused."""
    event = service.load_event(store, event_id)
    form, now = _form_now(store, event)
    context.setdefault("errors", {})
    return page(
        request,
        "event_form.html.j2",
        status,
        form=form if typed is None else typed,
        event_id=event_id,
        players_now=now,
        rename_names=now or event.settings.names,
        rename_base=event.current_version or 0,
        settings_base=service.settings_tag(event.settings),
        saved_note=context.pop("saved_note", ""),
        **context,
    )


def _form_now(store: Store, event) -> tuple[dict[str, str], list[str]]:
    """The settings form as the page shows it now, and the players as they are now (once planned)."""
    form = form_from_settings(event.settings)
    now = players_now(service.current_version(store, event))
    if now:
        form["names"] = names_text(now, event.settings.ids, event.settings.clubs)
    return form, now


FIELD_WORDS = {  # the settings form's labels, for what was saved meanwhile (a rule's box: its own name)
    "title": "Title",
    "date": "Date",
    "series": "Series",
    "names": "Names",
    "rounds": "Rounds",
    "session_rounds": "Rounds a session",
    "time_limit": "Time to plan",
    "odd": "When the count is not a multiple of four",
    "sit_out_scoring": "A sat-out round scores",
    "late_as_sit_out": "A late arrival's rounds score as sat out",
    "fixed_rule": "The fixed rotation you print",
    "winds": "Seats A, B, C, D are",
    "apart": "Keep apart",
    "spread": "Clubs to spread",
    "stay": "Stay at one table",
    "score_entry": "The score page takes",
}


def _stored_now(store: Store, event_id: int, typed: dict[str, str]) -> list[tuple[str, str]]:
    """The settings saved meanwhile where they differ from what was typed: (field, as stored now)."""
    form, _ = _form_now(store, service.load_event(store, event_id))
    differ = [key for key, value in form.items() if value.strip() != typed.get(key, "").replace("\r\n", "\n").strip()]
    words = [FIELD_WORDS.get(key, key.removeprefix("rules_").replace("_", " ").capitalize()) for key in differ]
    return [(word, form[key] or "(empty)") for word, key in zip(words, differ)]


@router.post("/events/{event_id}/rename", response_class=HTMLResponse)
def rename(request: Request, store: StoreDep, event_id: Id, base: BaseDep, old: Text = "", new: Text = ""):
    """A player's spelling corrected everywhere (changes.rename); back to the page the form was on. Refused
    (the day changed since the form was shown, say): the settings page as it is now, what was typed kept."""
    try:
        was, now = changes.rename(store, event_id, old, new, base)
    except DeskError as error:
        if isinstance(error, NotFound):
            raise
        typed = {"old": old, "new": new}
        return _settings_page(request, store, event_id, error.status, errors={"rename": str(error)}, rename_typed=typed)
    return RedirectResponse(f"/events/{event_id}/edit?{urlencode({'renamed': was, 'to': now})}", status_code=303)


@router.post("/events/{event_id}/edit", response_class=HTMLResponse)
async def save_event(
    request: Request, store: StoreDep, event_id: Id, names_file: Annotated[UploadFile | None, File()] = None
):
    return await _save_event(request, store, event_id, names_file)


async def _save_event(request: Request, store: Store, event_id: int | None, names_file: UploadFile | None):
    fields: dict[str, str] = {}
    try:
        fields = await _form_fields(request, names_file)
        settings = settings_from_form(fields)
        if event_id is None:
            event_id = service.create_event(store, settings)
        else:
            service.update_event(store, event_id, settings, fields.get("base_settings") or None, _not_on_the_form)
            now = players_now(service.current_version(store, service.load_event(store, event_id)))
            if now and {name_key(n) for n in now} != {name_key(n) for n in settings.names}:
                note = (
                    "Saved for the next plan of the whole day. The current schedule keeps its players: to "
                    "correct a spelling use Rename a player below; for someone who leaves or arrives, re-plan on "
                    "the Day page."
                )
                return _settings_page(request, store, event_id, saved_note=note)
    except FieldErrors as error:
        base = fields.get("base_settings", "")
        return page(
            request, "event_form.html.j2", 422, form=fields, event_id=event_id, errors=error.errors, settings_base=base
        )
    except service.SettingsMoved as moved:
        assert event_id is not None
        stored = _stored_now(store, event_id, fields)
        return _settings_page(
            request, store, event_id, 409, typed=fields, errors={"settings": str(moved)}, stored=stored
        )
    return back_to(event_id)


def _not_on_the_form(stored: EventSettings, new: EventSettings) -> EventSettings:
    """What the settings form does not hold, kept from the stored settings: the seed, the workers and the
    guests still listed."""
    listed = {name_key(n) for n in new.names}
    guests = [n for n in stored.guests if name_key(n) in listed]
    return new.model_copy(update={"seed": stored.seed, "workers": stored.workers, "guests": guests})
