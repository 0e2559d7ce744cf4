"""Looking at a schedule (a player's day, the fixed rule beside it, who meets whom, the history) and
printing and downloading it."""

from __future__ import annotations

from typing import Annotated

from fastapi import HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response

import optimizer
from models import Comparison
from models.event import FixedRule
from optimizer.constructions.fixed import rule_words
from rotation.desk.core.settings import EventSettings
from rotation.desk.deps import Id, QueryId, StoreDep, desk_of, page, pages_router, players_url
from rotation.desk.events import planning, service, views
from rotation.desk.room.service import room
from rotation.desk.storage import FixedFigures, Store, VersionRow
from rotation.printing.pictures import meetings_svg

router = pages_router()


def _shown(store: Store, event_id: Id, version_id: int | None = None) -> tuple[EventSettings, VersionRow]:
    event = service.load_event(store, event_id)
    chosen = version_id if version_id is not None else event.current_version
    if chosen is None:
        raise HTTPException(404, "the event has no schedule yet: plan it first")
    return event.settings, service.load_version(store, event_id, chosen)


@router.get("/events/{event_id}/players/{player}", response_class=HTMLResponse)
def player_page(request: Request, store: StoreDep, event_id: Id, player: Id, version: QueryId = None):
    settings, shown = _shown(store, event_id, version)
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
def compare_page(request: Request, store: StoreDep, event_id: Id):
    settings, shown = _shown(store, event_id)
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


@router.get("/events/{event_id}/meetings.svg")
def meetings_picture(request: Request, store: StoreDep, event_id: Id, version: QueryId = None):
    _, shown = _shown(store, event_id, version)
    picture = desk_of(request).rendered.get(("meetings", shown.id), lambda: meetings_svg(shown.schedule()))
    return Response(picture, media_type="image/svg+xml")  # opened on its own, the desk's policy: no inline script


@router.get("/events/{event_id}/history", response_class=HTMLResponse)
def history_page(request: Request, store: StoreDep, event_id: Id):
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


@router.get("/events/{event_id}/print-options", response_class=HTMLResponse)
def print_options(request: Request, store: StoreDep, event_id: Id):
    from rotation.printing.options import PARTS, parts_for

    settings, shown = _shown(store, event_id)
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


def _print_options(settings: EventSettings, parts=(), rounds=None, players_url: str = "", sort_by: str = "first"):
    from rotation.printing.options import options_for

    return options_for(
        settings.rules,  # the games in a round, also on points sheets
        settings.sit_out_scoring,
        rules_printed=settings.score_entry == "games",
        title=settings.title,
        date=settings.date,
        only=tuple(parts),
        rounds=rounds,
        sort_by=sort_by,
        players_url=players_url,
        winds=tuple(settings.winds),
        results=settings.score_entry,
    )


@router.get("/events/{event_id}/print", response_class=HTMLResponse)
def print_page(
    request: Request,
    store: StoreDep,
    event_id: Id,
    parts: Annotated[list[str], Query()] = [],  # noqa: B006 (FastAPI copies query defaults)
    first: QueryId = None,
    last: QueryId = None,
    sort_by: str = "first",
):
    """The printable page of `rotation print`, with the event's title and date; the find-your-table lists
    and slips by first name or by surname (`sort_by`, as `rotation print --sort-by`)."""
    from rotation.printing.options import PARTS, SORTS
    from rotation.printing.pages import render_page

    settings, shown = _shown(store, event_id)
    schedule = shown.schedule()
    unknown = [part for part in parts if part not in PARTS]
    total = len(schedule.rounds)
    low, high = first or 1, last or total
    if unknown or not 1 <= low <= high <= total or sort_by not in SORTS:
        raise HTTPException(
            422, f"choose parts from {', '.join(PARTS)}, rounds from 1 to {total}, an order from {', '.join(SORTS)}"
        )
    url = players_url(request, room(store, event_id).public_id)  # its QR code on the sheets
    options = _print_options(settings, parts, (low, high), url, sort_by)

    def make() -> str:
        metrics = optimizer.check(schedule)  # nothing unchecked reaches the wall
        comparison = Comparison(skipped=SERIES_NIGHT) if settings.series else optimizer.compare(schedule)
        return render_page(schedule, metrics, comparison, options)

    key = ("print", shown.id, options)  # the options whole: a change of rules or score entry prints anew
    try:
        return HTMLResponse(desk_of(request).rendered.get(key, make))
    except ValueError as error:  # a name too long for a wall chart: the library says which
        raise HTTPException(422, str(error)) from None


# Why a night of a series is not compared: the fixed rule and the bound on tonight's room alone say nothing
# about a night planned against the earlier nights.
SERIES_NIGHT = (
    "a night of a series is planned against its earlier nights, which the fixed rule on tonight's room alone "
    "knows nothing of"
)

DOWNLOADS = {"schedule.json": "application/json", "schedule.csv": "text/csv", "schedule-long.csv": "text/csv"}


@router.get("/events/{event_id}/download/{what}")
def download(store: StoreDep, event_id: Id, what: str, excel: bool = False):
    from rotation.files.output import EXCEL_BOM, schedule_csv, schedule_csv_long, schedule_json, with_provenance

    if what not in DOWNLOADS:
        raise HTTPException(404, f"downloads are {', '.join(DOWNLOADS)}")
    _, shown = _shown(store, event_id)
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
