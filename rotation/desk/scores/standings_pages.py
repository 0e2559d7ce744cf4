"""The director's standings pages: on screen, printable, as CSV and JSON files, and on the projector
(rotation.desk.room.pages.screen). The rules are rotation.desk.scores.service' and rotation.scoring's."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from models.scores import RoundMark, Standings
from rotation.desk.core.errors import DeskError, NotFound
from rotation.desk.deps import Id, QueryId, StoreDep, Text, form_number, page, pages_router
from rotation.desk.events import service
from rotation.desk.scores import service as scores
from rotation.desk.series import service as series
from rotation.desk.storage import Store
from rotation.files.gamesheet import games_csv
from rotation.printing.season_standings_pages import (
    place,
    rule_words,
    score_text,
    season_heading,
    season_notes,
    season_title,
)
from rotation.printing.standings_pages import (
    cell,
    folded_cell,
    footnotes,
    heading,
    high_lines,
    player_note,
    results_csv,
    standings_csv,
    standings_html,
    standings_json,
)
from rotation.printing.typeface import widest_word_em

router = pages_router()


@router.get("/events/{event_id}/standings", response_class=HTMLResponse)
def standings_page(request: Request, store: StoreDep, event_id: Id, after: QueryId = None):
    return _standings_page(request, store, event_id, after)


def _standings_page(
    request: Request,
    store: Store,
    event_id: Id,
    after: QueryId = None,
    errors: dict[str, str] | None = None,
    status: int = 200,
) -> HTMLResponse:
    day = scores.day_scores(store, event_id)
    settings = service.load_event(store, event_id).settings
    table = scores.standings_of(day, after) if day.complete else None
    return page(
        request,
        "standings.html.j2",
        status,
        event_id=event_id,
        settings=settings,
        day=day,
        standings=table,
        heading=heading(table) if table else "",
        rows=_rows(table),
        footnotes=footnotes(table) if table else [],
        highs=high_lines(table) if table else [],
        on_screen=scores.screen_standings(store, event_id) is not None,
        series_on_screen=series.screen_season(store, event_id) is not None,
        series_rule=_series_rule(store, settings.series),
        errors=errors or {},
    )


def _series_rule(store: Store, name: str) -> str:
    """The rule the event's series ranks by, in words ('' for an event of no series)."""
    if not name:
        return ""
    choice = series.saved_choice(store, name)
    return rule_words(choice.rule, choice.min_games, choice.best)


def _rows(table: Standings | None) -> list:
    if table is None:
        return []
    return [(row, player_note(row), [(cell(score), score.mark.value) for score in row.rounds]) for row in table.rows]


SCREEN_ROUNDS = 6  # round columns at most on the projector's standings, beside rank, name and total


SCREEN_EM = 46.8  # a 1920-px projector's row in em of a name's 40 px (room.css: 24-px margins)
FIXED_EM, ROUND_EM = 3.2 + 3.8 + 2 * 0.4, 4 + 0.4  # rank, total and their gaps; a round column and its gap


def _screen_columns(table: Standings | None) -> tuple[list[str], list]:
    """The projector's round columns: every round while they fit beside the widest word of a name, or
    else the first rounds summed in one column (with their signs) and the latest each in its own; and
    each player's row in them."""
    if table is None:
        return [], []
    word = widest_word_em(row.player for row in table.rows)
    shown = max(1, min(SCREEN_ROUNDS, int((SCREEN_EM - FIXED_EM - word) // ROUND_EM)))
    folded = table.after - shown + 1 if table.after > shown else 0
    heads = ([f"R1–{folded}"] if folded else []) + [f"R{number}" for number in range(folded + 1, table.after + 1)]
    rows = []
    for row, note, cells in _rows(table):
        if folded:
            early = row.rounds[:folded]
            sat_out = any(score.mark is RoundMark.SAT_OUT for score in early)
            cells = [(folded_cell(list(early)), "sat out" if sat_out else "played"), *cells[folded:]]
        rows.append((row, note, cells))
    return heads, rows


@router.post("/events/{event_id}/standings/screen")
def screen_toggle(request: Request, store: StoreDep, event_id: Id, show: Text = "", top: Text = "", what: Text = ""):
    """The projector shows the night's standings, or with what=series the series', or the round's tables."""
    try:
        places = form_number(top, 4)
        if top.strip() and places is None:
            raise DeskError(f"{top.strip()!r} is not a number of places", field="screen", status=422)
        if show == "yes" and what == "series":
            series.show_series(store, event_id, places)
        else:
            scores.show_standings(store, event_id, show == "yes", places)
    except DeskError as error:
        if isinstance(error, NotFound):
            raise
        return _standings_page(request, store, event_id, errors={"screen": str(error)}, status=error.status)
    return RedirectResponse(f"/events/{event_id}/standings", status_code=303)


@router.get("/events/{event_id}/standings/print", response_class=HTMLResponse)
def standings_print(store: StoreDep, event_id: Id, after: QueryId = None):
    """The printable page of `rotation scores --html`, with the event's title and date."""
    settings = service.load_event(store, event_id).settings
    table = scores.standings_of(scores.day_scores(store, event_id), after)
    rules = settings.rules if settings.score_entry == "games" else None  # house rules are the director's
    return HTMLResponse(standings_html(table, settings.title, settings.date, rules))


STANDINGS_FILES = {
    "standings.csv": "text/csv",
    "standings.json": "application/json",
    "results.csv": "text/csv",
    "games.csv": "text/csv",
}


@router.get("/events/{event_id}/standings/download/{what}")
def standings_download(store: StoreDep, event_id: Id, what: str, after: QueryId = None, excel: bool = False):
    from rotation.files.output import EXCEL_BOM

    if what not in STANDINGS_FILES:
        raise DeskError(f"downloads are {', '.join(STANDINGS_FILES)}", status=404)
    day = scores.day_scores(store, event_id)
    table = scores.standings_of(day, after)
    counted = [card for card in day.counted if card.round <= table.after]
    render = {
        "standings.csv": lambda: standings_csv(table),
        "standings.json": lambda: standings_json(table),
        "results.csv": lambda: results_csv(table),
        "games.csv": lambda: games_csv(counted),
    }
    text = (EXCEL_BOM if excel and what.endswith(".csv") else "") + render[what]()
    headers = {"Content-Disposition": f'attachment; filename="event-{event_id}-after-{table.after}-{what}"'}
    return Response(text, media_type=STANDINGS_FILES[what], headers=headers)


# ---- the projector (rotation.desk.room.pages.screen) -------------------------------------------------


def screen_context(store: Store, event_id: Id) -> dict:
    """What the projector needs to show the standings instead of the round's tables (standings None: it
    shows the tables), and the stamp its poll compares."""
    season = series.screen_season(store, event_id)
    if season is not None:
        # the general note, and the guests' line: a guest who looks for their name reads why it is not there
        notes = season_notes(season)
        return {
            "season": season,
            "standings": None,
            "standings_heading": season_heading(season),  # the page's label, beside its number
            "standings_title": season_title(season),  # the title line's, which must not be cut short
            "season_rows": [(place(row), row, score_text(season, row)) for row in season.rows],
            "standings_notes": notes[:1] + (notes[-1:] if season.left_out else []),
            "standings_stamp": scores.screen_stamp(store, event_id),
        }
    table = scores.screen_standings(store, event_id)
    # the notes count the whole field ("the top 12 of 53 players"), whatever the places shown
    notes = [*footnotes(table), *high_lines(table, range(table.after, table.after + 1))] if table else []
    top = scores.screen_top(store, event_id)
    if table is not None and top is not None:  # the top places only, a tie at the last one included
        table = table.model_copy(update={"rows": tuple(row for row in table.rows if row.rank <= top)})
    heads, rows = _screen_columns(table)
    return {
        "season": None,
        "standings": table,
        "standings_heading": heading(table) if table else "",
        "standings_title": heading(table) if table else "",
        "standings_heads": heads,
        "standings_rows": rows,
        "standings_notes": notes,
        "standings_stamp": scores.screen_stamp(store, event_id),
    }
