"""The score pages' actions as JSON endpoints (/openapi.json): enter a card, the cards, a card's history,
the standings, the projector's standings."""

from __future__ import annotations

from typing import Annotated

from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field, StrictInt

from models.scores import Card, Standings
from models.text import Name
from rotation import scoring
from rotation.desk.deps import Id, JsonIn, QueryId, StoreDep, api_router
from rotation.desk.scores import service as scores
from rotation.desk.series import service as series
from rotation.desk.storage import Store
from rotation.printing.standings_pages import footnotes

api = api_router(tags=["scores"])


BASE_ENTRY = Field(
    default=None,
    description="The entry of the table's card this one was made from (the card's `id` as you read it; 0: no card "
    "was in). If the table's card has been entered or corrected since, nothing is stored and the answer is 409 "
    "with the table as it is now (`table`). Left out: the card replaces whatever is in.",
)


class CardIn(JsonIn):
    round: int = Field(description="A round marked played.")
    table: int
    base_entry: int | None = BASE_ENTRY
    points: dict[Name, list[StrictInt | Annotated[str, Field(max_length=20)] | None]] = Field(
        description="Each of the table's players (names match ignoring case) -> the points of games 1 to 4; "
        "whole numbers, negative allowed (as text too: '-12')."
    )


class GameIn(JsonIn):
    """One game's result as the games file writes it: seat letters, yes/no, empty where it does not apply."""

    game: StrictInt = Field(ge=1, description="The game within the round, from 1.")
    how: str = Field(description="self, discard, wall or unfinished.")
    winner: str = Field(default="", description="The winner's seat letter A-D (two, space separated, if allowed).")
    value: str = Field(default="", description="The hand's value on the card.")
    discarder: str = Field(default="", description="Who discarded the winning tile (a discard win).")
    exposures: str = Field(default="", description="The winner's exposures, 0 to 4.")
    jokerless: str = Field(default="", description="yes or no.")
    dead: str = Field(default="", description="Dead hands' seat letters, space separated.")
    error: str = Field(default="", description="Who called Mah Jongg in error.")


class GamesIn(JsonIn):
    round: int = Field(description="A round marked played.")
    table: int
    base_entry: int | None = BASE_ENTRY
    games: list[GameIn] = Field(description="Every game of the round, scored by the event's rules.")


class EntryOut(BaseModel):
    id: int
    card: Card
    totals: dict[str, int] = Field(description="Each player's round total.")
    entered: str = Field(description="When it was entered (UTC).")


class TableOut(BaseModel):
    round: int
    table: int
    players: list[str] = Field(description="The schedule's players at the table, in seat order.")
    status: str = Field(description="in; missing; or changed: its seating changed after the card was entered")
    card: EntryOut | None = Field(description="The latest entry, which counts while its status is in.")
    corrections: int = Field(description="Earlier entries kept in its history.")


class EnteredOut(BaseModel):
    stored: bool = Field(description="False when the card equals the one in: nothing was stored.")
    table: TableOut


class RoundOut(BaseModel):
    round: int
    played: bool
    missing: list[int] = Field(description="Tables with no card that counts.")
    tables: list[TableOut]


class StandingsOut(BaseModel):
    standings: Standings
    footnotes: list[str] = Field(description="What the signs mean (* sat out, ³ three-handed, ...) and the tie rule.")


class ScreenIn(JsonIn):
    show: bool = Field(description="True: the projector shows the standings until the next round is released.")
    top: int | None = Field(default=None, description="Only the top places, ties included (None: everyone).")
    series: bool = Field(
        default=False, description="True: the standings of the event's series (by its saved rule), not the night's."
    )


def entry_out(entry: scores.Entered) -> EntryOut:
    return EntryOut(id=entry.id, card=entry.card, totals=entry.card.totals(), entered=entry.entered)


def table_out(number: int, table: scores.TableCards) -> TableOut:
    status = "in" if table.counted is not None else ("changed" if table.stale else "missing")
    latest = table.latest
    return TableOut(
        round=number,
        table=table.table,
        players=list(table.players),
        status=status,
        card=entry_out(latest) if latest is not None else None,
        corrections=max(0, len(table.entries) - 1),
    )


def round_out(cards: scores.RoundCards) -> RoundOut:
    return RoundOut(
        round=cards.number,
        played=cards.played,
        missing=list(cards.missing),
        tables=[table_out(cards.number, table) for table in cards.tables],
    )


@api.get("/events/{event_id}/cards")
def get_cards(store: StoreDep, event_id: Id, round: QueryId = None) -> list[RoundOut]:
    """Every round's cards (or one round's): in, missing, or to enter again."""
    day = scores.day_scores(store, event_id)
    chosen = day.rounds if round is None else (scores.round_cards(day, round),)
    return [round_out(cards) for cards in chosen]


@api.post(
    "/events/{event_id}/cards",
    responses={
        409: {"description": "Made from an entry that is no longer the newest: `table` is the card as it is now."},
        422: {"description": "The card does not fit the table: `problems` names each box and why."},
    },
)
def post_card(store: StoreDep, event_id: Id, body: CardIn) -> EnteredOut:
    """Enter a table's card, or correct it (the old one is kept in its history)."""
    return _entered(
        store,
        event_id,
        body.round,
        body.table,
        lambda: scores.enter_card(store, event_id, body.round, body.table, body.points, body.base_entry),
    )


@api.post(
    "/events/{event_id}/games",
    responses={
        409: {"description": "Made from an entry that is no longer the newest: `table` is the card as it is now."},
        422: {"description": "A game cannot have happened: `problems` names each game's box and why."},
    },
)
def post_games(store: StoreDep, event_id: Id, body: GamesIn) -> EnteredOut:
    """Enter a table's round as game results, scored by the event's rules (a correction keeps the old card)."""
    results = {game.game: game.model_dump(exclude={"game"}) for game in body.games}
    return _entered(
        store,
        event_id,
        body.round,
        body.table,
        lambda: scores.enter_games(store, event_id, body.round, body.table, results, body.base_entry),
    )


def _entered(store: Store, event_id: int, round_number: int, table_number: int, enter) -> EnteredOut:
    """The table after `enter` stored its card, a 422 answer naming each wrong box, or a 409 with the table
    as it is now (the card was made from an entry no longer the newest)."""
    try:
        entry = enter()
    except scoring.CardRefused as refused:
        problems = [problem._asdict() for problem in refused.problems]
        return JSONResponse({"detail": str(refused), "problems": problems}, status_code=422)  # type: ignore[return-value]
    except scores.CardMoved as moved:
        now = table_out(round_number, moved.table).model_dump(mode="json")
        body = {"detail": str(moved), "field": moved.field, "table": now}
        return JSONResponse(body, status_code=409)  # type: ignore[return-value]
    table = scores.table_cards(scores.day_scores(store, event_id), round_number, table_number)
    return EnteredOut(stored=entry is not None, table=table_out(round_number, table))


@api.get("/events/{event_id}/cards/{round_number}/{table_number}/history")
def get_history(store: StoreDep, event_id: Id, round_number: Id, table_number: Id) -> list[EntryOut]:
    """Every entry of a table's card, newest first: the newest counts, the others are corrected."""
    day = scores.day_scores(store, event_id)
    return [entry_out(entry) for entry in reversed(scores.table_cards(day, round_number, table_number).entries)]


@api.get("/events/{event_id}/standings")
def get_standings(store: StoreDep, event_id: Id, after: QueryId = None) -> StandingsOut:
    """The standings after round `after` (default: the last round whose every table's card is in)."""
    table = scores.standings_of(scores.day_scores(store, event_id), after)
    return StandingsOut(standings=table, footnotes=footnotes(table))


@api.put("/events/{event_id}/screen/standings")
def put_screen(store: StoreDep, event_id: Id, body: ScreenIn) -> ScreenIn:
    if body.show and body.series:
        series.show_series(store, event_id, body.top)
    else:
        scores.show_standings(store, event_id, body.show, body.top)
    on_series = series.screen_season(store, event_id) is not None
    shown = on_series or scores.screen_standings(store, event_id) is not None
    return ScreenIn(show=shown, top=scores.screen_top(store, event_id), series=on_series)
