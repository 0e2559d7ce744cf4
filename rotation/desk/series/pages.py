"""The series page (every member's nights, opponents met and not yet met, the next night from tonight's
attendance, the series' standings) and its JSON endpoints, over rotation.desk.series.service."""

from __future__ import annotations

from typing import Annotated
from urllib.parse import quote

from fastapi import Query, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from pydantic import BaseModel, Field, ValidationError

from rotation.desk.core.errors import FieldErrors
from rotation.desk.deps import JsonIn, PlannerDep, StoreDep, api_router, form_id, page, pages_router
from rotation.desk.numbers import form_number
from rotation.desk.series import service as series
from rotation.desk.series.service import StandingsChoice
from rotation.desk.storage import RosterMember, Store
from rotation.printing.season_standings_pages import (
    night_cells,
    place,
    rule_words,
    score_text,
    season_csv,
    season_heading,
    season_html,
    season_json,
    season_notes,
)

# A series' name is one path segment, quoted ('/' as %2F), which the server decodes before routing: so the
# routes take it as a path, and the longer routes come before the series' own.
router = pages_router()
api = api_router()


def _chosen(request: Request, store: Store, name: str, choice: StandingsChoice) -> StandingsChoice:
    """The query's rule when it names one, else the series' saved rule."""
    return choice if "rule" in request.query_params else series.saved_choice(store, name)


def _series_page(
    request: Request, store: Store, name: str, choice: StandingsChoice, errors=None, form=None, status: int = 200
):
    view = series.series_view(store, name)
    saved = series.saved_choice(store, name)
    standings, standings_error = None, ""
    try:
        standings = series.series_standings(store, name, choice.rule, choice.min_games, choice.best)
    except FieldErrors as error:
        standings_error = error.errors.get("best", str(error))
    season = standings.season if standings else None
    return page(
        request,
        "series.html.j2",
        status,
        view=view,
        url=f"/series/{quote(name, safe='')}",
        choice=choice,
        saved=saved,
        saved_words=rule_words(saved.rule, saved.min_games, saved.best),
        base_rule=series.rule_tag(saved),
        base_roster=series.roster_tag(view.roster),
        season=season,
        left_out=standings.left_out if standings else (),
        standings_error=standings_error,
        heading=season_heading(season) if season else "",
        rule=rule_words(season.rule, season.min_games, season.best_nights) if season else "",
        rows=[(place(row), row, score_text(season, row), night_cells(row)) for row in season.rows] if season else [],
        notes=season_notes(season) if season else [],
        form={"rounds": str(view.nights[-1].settings.rounds), "guests": "", "present": [], "join": [], "members": ""}
        | (form or {}),
        errors=errors or {},
    )


@router.post("/series/{name:path}/next", response_class=HTMLResponse)
async def next_night(request: Request, store: StoreDep, planner: PlannerDep, name: str):
    data = await request.form()
    present = [str(value) for value in data.getlist("present")]
    join = [str(value) for value in data.getlist("join")]
    guests, rounds_text = str(data.get("guests", "")), str(data.get("rounds", ""))
    form = {"present": present, "join": join, "guests": guests, "rounds": rounds_text}
    base = form_id(str(data.get("base_night", "")))
    try:
        rounds = _rounds(rounds_text)
        event_id = series.next_night(store, planner, name, present, guests, rounds, join, base)
    except FieldErrors as error:
        return _series_page(
            request, store, name, series.saved_choice(store, name), errors=error.errors, form=form, status=422
        )
    except series.SeriesMoved as moved:  # the page as the series is now, what was ticked and typed kept
        choice = series.saved_choice(store, name)
        return _series_page(request, store, name, choice, errors={"present": str(moved)}, form=form, status=409)
    return RedirectResponse(f"/events/{event_id}", status_code=303)


@router.post("/series/{name:path}/members", response_class=HTMLResponse)
async def add_members(request: Request, store: StoreDep, name: str):
    """New members on the series' roster, before they play (one per line, or a table with name and id)."""
    data = await request.form()
    text = str(data.get("members", ""))
    try:
        series.add_members(store, name, series.members_from_text(text), str(data.get("base_roster", "")) or None)
    except FieldErrors as error:
        choice = series.saved_choice(store, name)
        return _series_page(request, store, name, choice, errors=error.errors, form={"members": text}, status=422)
    except series.SeriesMoved as moved:  # the roster as it is now, the names typed kept in their box
        choice = series.saved_choice(store, name)
        return _series_page(
            request, store, name, choice, errors={"members": str(moved)}, form={"members": text}, status=409
        )
    return RedirectResponse(f"/series/{quote(name, safe='')}#members", status_code=303)


@router.post("/series/{name:path}/guests", response_class=HTMLResponse)
async def rank_guests(request: Request, store: StoreDep, name: str):
    """Whether guests are ranked in the series' standings: the checkbox, there when ticked."""
    data = await request.form()
    ranked = data.get("guests_ranked") == "yes"
    try:
        series.rank_guests(store, name, ranked, str(data.get("base_roster", "")) or None)
    except series.SeriesMoved as moved:  # the roster as it is now, the box as the director left it
        choice, form = series.saved_choice(store, name), {"guests_ranked": ranked}
        return _series_page(request, store, name, choice, errors={"guests_ranked": str(moved)}, form=form, status=409)
    return RedirectResponse(f"/series/{quote(name, safe='')}#series-standings", status_code=303)


RULE_FIELDS = {  # the rule form's refusals, in the director's words
    "rule": "{!r} is not a rule: rank by every night's total, points per game or the best nights",
    "min_games": "at least {!r} games: give a whole number of games, 0 or more",
    "best": "the best {!r} nights: give a whole number of nights, 1 or more",
}


@router.post("/series/{name:path}/rule", response_class=HTMLResponse)
async def save_rule(request: Request, store: StoreDep, name: str):
    """The series' standings rule saved as its setting (the rule form's values)."""
    data = await request.form()
    fields = {key: str(data.get(key, "")).strip() for key in ("rule", "min_games", "best")}
    wrong = [key for key in ("min_games", "best") if fields[key] and form_number(fields[key], 6) is None]
    if wrong:  # digits only: pydantic would read '1_0' and '3.0' as numbers
        message = RULE_FIELDS[wrong[0]].format(fields[wrong[0]])
        return _series_page(
            request, store, name, series.saved_choice(store, name), errors={"rule": message}, status=422
        )
    try:
        choice = StandingsChoice.model_validate({key: value for key, value in fields.items() if value})
        series.save_choice(store, name, choice, str(data.get("base_rule", "")) or None)
    except ValidationError as error:
        field = str(error.errors()[0]["loc"][0])
        message = RULE_FIELDS.get(field, "{!r} is not a rule").format(fields.get(field, ""))
        return _series_page(
            request, store, name, series.saved_choice(store, name), errors={"rule": message}, status=422
        )
    except FieldErrors as error:
        return _series_page(request, store, name, choice, errors={"rule": error.errors["best"]}, status=422)
    except series.SeriesMoved as moved:  # the rule saved meanwhile, shown with the one asked for
        return _series_page(request, store, name, choice, errors={"rule": str(moved)}, status=409)
    return RedirectResponse(f"/series/{quote(name, safe='')}", status_code=303)


def _rounds(text: str) -> int | None:
    if not text.strip():
        return None
    if (rounds := form_number(text, 4)) is None:
        raise FieldErrors({"rounds": f"{text.strip()!r} is not a whole number of rounds"})
    return rounds


@router.get("/series/{name:path}/standings/{what}")
def standings_file(
    request: Request, store: StoreDep, name: str, what: str, choice: Annotated[StandingsChoice, Query()]
):
    """The series' standings as a printable page (print), CSV or JSON (by the series' rule unless the query
    names one)."""
    choice = _chosen(request, store, name, choice)
    season = series.series_standings(store, name, choice.rule, choice.min_games, choice.best).season
    if season is None:
        return HTMLResponse("No night of the series has a complete round of cards yet.", status_code=404)
    if what == "print":
        return HTMLResponse(season_html(season, name))
    if what == "standings.csv":
        return Response(season_csv(season), media_type="text/csv; charset=utf-8", headers=_attachment(what))
    if what == "standings.json":
        return Response(season_json(season), media_type="application/json", headers=_attachment(what))
    return HTMLResponse("No such file.", status_code=404)


@router.get("/series/{name:path}", response_class=HTMLResponse)
def series_page(request: Request, store: StoreDep, name: str, choice: Annotated[StandingsChoice, Query()]):
    return _series_page(request, store, name, _chosen(request, store, name, choice))


def _attachment(filename: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{filename}"'}


# ---- JSON endpoints ------------------------------------------------------------------------------


class NextNight(JsonIn):
    present: list[str] = Field(default=[], description="The series' members here tonight.")
    join: list[str] = Field(default=[], description="Guests of earlier nights here tonight, members from now on.")
    guests: list[str] = Field(default=[], description="Guests, who are not members of the series.")
    rounds: int | None = Field(default=None, description="Rounds tonight (default: as the last night).")
    base_night: int | None = Field(
        default=None,
        description="The series' last night (its event id) as you read it: if another night was planned since, "
        "nothing is stored and the answer is 409 with `last_night` and `nights` as they are now. Left out: "
        "whatever night is last.",
    )


@api.post("/series/{name:path}/next")
def next_night_json(store: StoreDep, planner: PlannerDep, name: str, body: NextNight) -> JSONResponse:
    """The next night of the series for tonight's attendance, its plan started against the series so far."""
    guests = "\n".join(body.guests)
    event_id = series.next_night(store, planner, name, body.present, guests, body.rounds, body.join, body.base_night)
    return JSONResponse({"event": event_id, "url": f"/events/{event_id}"}, status_code=201)


BASE_ROSTER = (
    "The series' `roster_version` as you read it (GET /api/series/{name}): if members were added or guests ranked "
    "since, nothing is stored and the answer is 409 with `members`, `guests_ranked` and `roster_version` as they "
    "are now. Left out: the change is made to the roster as it is."
)


class NewMembers(BaseModel):
    members: list[RosterMember] = Field(description="New members, each with their number when they have one.")
    base_roster: str | None = Field(default=None, max_length=64, description=BASE_ROSTER)


@api.post("/series/{name:path}/members")
def add_members_json(store: StoreDep, name: str, body: NewMembers) -> JSONResponse:
    """New members on the series' roster (a guest of an earlier night named here becomes a member)."""
    series.add_members(store, name, body.members, body.base_roster)
    view = series.series_view(store, name)
    return JSONResponse({**_members_json(view), "roster_version": series.roster_tag(view.roster)}, status_code=201)


class GuestsRanked(BaseModel):
    ranked: bool = Field(description="Guests are ranked in the series' standings (and its prizes).")
    base_roster: str | None = Field(default=None, max_length=64, description=BASE_ROSTER)


class GuestsOut(BaseModel):
    ranked: bool = Field(description="Guests are ranked in the series' standings (and its prizes).")
    roster_version: str = Field(description="The roster, named: send it as `base_roster` with the next change.")


@api.put("/series/{name:path}/guests")
def rank_guests_json(store: StoreDep, name: str, body: GuestsRanked) -> GuestsOut:
    series.rank_guests(store, name, body.ranked, body.base_roster)
    roster = series.series_view(store, name).roster
    return GuestsOut(ranked=roster.guests_ranked, roster_version=series.roster_tag(roster))


class RuleOut(StandingsChoice):
    rule_version: str = Field(description="The saved rule, named: send it as `base_rule` with the next save.")


BaseRule = Annotated[
    str | None,
    Query(
        max_length=64,
        description="The saved rule's `rule_version` as you read it (GET .../rule): if a rule was saved since, "
        "nothing is stored and the answer is 409 with `rule` and `rule_version` as they are now. Left out: the "
        "rule replaces whatever is saved.",
    ),
]


@api.put("/series/{name:path}/rule")
def save_rule_json(store: StoreDep, name: str, body: StandingsChoice, base_rule: BaseRule = None) -> RuleOut:
    """The series' standings rule from now on: the series page, its files and the projector rank by it."""
    series.save_choice(store, name, body, base_rule)
    return RuleOut(**body.model_dump(), rule_version=series.rule_tag(body))


@api.get("/series/{name:path}/rule")
def rule_json(store: StoreDep, name: str) -> RuleOut:
    series.series_view(store, name)  # NotFound for a series with no night
    saved = series.saved_choice(store, name)
    return RuleOut(**saved.model_dump(), rule_version=series.rule_tag(saved))


@api.get("/series/{name:path}/standings")
def standings_json(
    request: Request, store: StoreDep, name: str, choice: Annotated[StandingsChoice, Query()]
) -> JSONResponse:
    """The series' standings (by the series' rule unless the query names one)."""
    choice = _chosen(request, store, name, choice)
    outcome = series.series_standings(store, name, choice.rule, choice.min_games, choice.best)
    season = outcome.season.model_dump(mode="json") if outcome.season else None
    return JSONResponse({"season": season, "left_out": list(outcome.left_out)})


@api.get("/series/{name:path}")
def series_json(store: StoreDep, name: str) -> JSONResponse:
    """The series' nights and every member's nights, opponents met and not yet met."""
    view = series.series_view(store, name)
    return JSONResponse(
        {
            "name": view.name,
            "nights": [{"event": night.event.id, "label": night.label} for night in view.nights],
            "guests_ranked": view.roster.guests_ranked,
            "roster_version": series.roster_tag(view.roster),
            **_members_json(view),
        }
    )


def _members_json(view: series.SeriesView) -> dict:
    return {
        "members": [
            {
                "name": m.name,
                "id": m.id,
                "guest": m.guest,
                "nights": list(m.nights),
                "met": list(m.met),
                "not_met": list(m.not_met),
            }
            for m in view.members
        ]
    }
