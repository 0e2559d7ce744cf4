"""The director's score pages: a round's cards as forms, a card's corrections and the event's rules; the
standings are standings_pages.py. The rules are rotation.desk.scores.service' and rotation.scoring's."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse

from models import SEAT_LETTERS
from models.event import name_key
from models.rules import SIT_OUT_RULE, Rules
from models.scores import Card
from rotation import scoring
from rotation.desk.core.errors import DeskError, NotFound
from rotation.desk.deps import BaseDep, Id, QueryId, StoreDep, form_id, form_number, local_time, page, pages_router
from rotation.desk.events import changes, service
from rotation.desk.scores import service as scores
from rotation.desk.storage import Store
from rotation.files.gamesheet import RESULT_COLUMNS, game_cells
from rotation.files.output import SIT_OUT_WORDS
from rotation.printing.typeface import widest_word_em
from rotation.scoring.games import read_game, second_looks

router = pages_router()
# A game result's boxes in the games file's order, the keyboard's: (column, label, width in characters)
GAME_BOXES = (
    ("winner", "Winner", 2),
    ("value", "Value", 3),
    ("how", "How", 0),
    ("discarder", "Discarder", 2),
    ("exposures", "Exposures", 2),
    ("jokerless", "Jokerless", 3),
    ("dead", "Dead", 4),
    ("error", "MJ in error", 3),
)


# A score card's seat row beside its name, in rem (desk.css .seat-row): the letter 1.1 and its gap 0.4, four
# boxes of 4.2, the round's total 4, the grid's five gaps of 0.3.
SEAT_ROW_EM = 1.1 + 0.4 + 4 * 4.2 + 4 + 5 * 0.3


@dataclass(frozen=True)
class SeatRow:
    seat: int
    letter: str
    name: str
    boxes: tuple[str, ...]  # games 1-4 as shown in the form
    total: str  # the stored card's round total, computed by the server


@dataclass(frozen=True)
class GameRow:
    number: int
    cells: dict[str, str]  # the result's boxes (rotation.files.gamesheet.RESULT_COLUMNS) as shown in the form
    points: tuple[str, ...]  # each seat's points in the card that is in, computed by the server


@dataclass(frozen=True)
class NowRow:
    """A seat of the card as it is now, read only: its player, each game's points, the round's total."""

    letter: str
    name: str
    points: tuple[int, ...]
    total: int
    differs: tuple[bool, ...]  # each game: the typed box says otherwise


@dataclass(frozen=True)
class NowResult:
    """A game result's box (Winner, Value, ...) across the card's games as it is now, read only."""

    label: str
    cells: tuple[str, ...]
    differs: tuple[bool, ...]  # each game: the typed box says otherwise


@dataclass(frozen=True)
class CardForm:
    table: int
    seats: tuple[SeatRow, ...]
    status: str  # in, missing, or changed (the seating changed after the card was entered)
    entered: str  # when the card that is in was entered
    corrections: int  # earlier entries kept in its history
    entry: str = "points"  # games: the card takes game results; points: each player's points
    games: tuple[GameRow, ...] = ()  # the game results' rows, when the card takes them
    looks: tuple[str, ...] = ()  # a plain card's games worth a second look (scoring.games.second_looks)
    base: str = "0"  # the entry the form is made from (the newest; 0: none), sent back as `base_entry`
    now: tuple[NowRow, ...] = ()  # the card as it is now, beside what was typed, when the typed one came too late
    now_results: tuple[NowResult, ...] = ()  # and its game results, when the card takes them
    carried: bool = False  # the boxes hold the entry made before the table's seating changed, to confirm

    @property
    def three_handed(self) -> bool:
        return len(self.seats) == 3


def card_form(
    table: scores.TableCards,
    rules: Rules,
    entry: str = "points",
    typed: dict[int, tuple[str, ...]] | None = None,
    refused: Refused | None = None,
) -> CardForm:
    """A table's card in seat order: what was typed (a refused entry), or the card in, or empty boxes;
    with `entry` "games" its rows of game results too (typed: game -> the boxes in RESULT_COLUMNS' order).
    A card whose seating changed after it was entered (a swap or an undo) holds that entry, seat by seat,
    for the director to confirm or adjust rather than type again. A refused entry keeps the entry it was
    made from (`refused.base`), unless it came too late: then the card as it is now is shown beside it."""
    latest, counted = table.latest, table.counted
    carried = counted is None and latest is not None and len(latest.card.players) == len(table.players)
    shown = counted if counted is not None else (latest.card if carried and latest is not None else None)
    rows = []
    for seat, name in enumerate(table.players):
        boxes, total = ("",) * rules.games_per_round, ""  # the page's script totals what is typed
        if typed is not None and entry == "points":
            boxes = typed.get(seat, boxes)
        elif shown is not None:
            boxes = tuple(map(str, shown.points[seat]))
            total = str(counted.totals()[name]) if counted is not None else ""
        rows.append(SeatRow(seat, SEAT_LETTERS[seat], name, boxes, total))
    status = "in" if counted is not None else ("changed" if table.stale else "missing")
    entered = local_time(latest.entered) if latest is not None else ""
    games = _game_rows(shown, rules, typed, points=counted is not None) if entry == "games" else ()
    looks = tuple(look.message for look in second_looks(counted, rules)) if counted and not counted.games else ()
    corrections = max(0, len(table.entries) - 1)
    base = str(latest.id if latest is not None else 0)
    now: tuple[NowRow, ...] = ()
    now_results: tuple[NowResult, ...] = ()
    if refused is not None and refused.moved and latest is not None:
        now = _now_rows(latest.card, typed if typed is not None and entry == "points" else {})
        if entry == "games":
            now_results = _now_results(latest.card, typed or {})
    elif refused is not None:
        base = refused.base
    return CardForm(
        table.table,
        tuple(rows),
        status,
        entered,
        corrections,
        entry,
        games,
        looks,
        base,
        now,
        now_results,
        carried and not typed,
    )


def _now_rows(card: Card, typed: dict[int, tuple[str, ...]]) -> tuple[NowRow, ...]:
    """The card as it is now, seat by seat, each game marked where the typed box says otherwise (a seat with
    no typed boxes, as on a game-result card, is marked nowhere)."""
    totals = card.totals()
    rows = []
    for seat, name in enumerate(card.players):
        boxes = typed.get(seat)
        points = tuple(card.points[seat])
        differs = tuple(boxes is not None and boxes[g].strip() != str(p) for g, p in enumerate(points))
        rows.append(NowRow(SEAT_LETTERS[seat], name, points, totals[name], differs))
    return tuple(rows)


def _now_results(card: Card, typed: dict[int, tuple[str, ...]]) -> tuple[NowResult, ...]:
    """The card's game results as they are now, a row per box that is filled in or typed otherwise; each box
    compared as the games file writes it (typed "Yes " is "yes"), or as typed when it does not read as a game."""
    stored = {game.game: game_cells(game) for game in card.games}
    numbers = range(1, len(card.points[0]) + 1) if card.points else range(0)
    said = {number: _as_written(card, number, typed.get(number, ())) for number in numbers}
    rows = []
    for column, label, _ in GAME_BOXES:
        cells = tuple(stored.get(number, {}).get(column, "") for number in numbers)
        differs = tuple(said[number].get(column, "") != cell for number, cell in zip(numbers, cells))
        if any(cells) or any(differs):
            rows.append(NowResult(label, cells, differs))
    return tuple(rows)


def _as_written(card: Card, number: int, boxes: tuple[str, ...]) -> dict[str, str]:
    """A typed game of the card's table: its boxes as the games file would write them (empty when nothing was typed)."""
    cells = dict(zip(RESULT_COLUMNS, (box.strip() for box in boxes)))
    if not any(cells.values()):
        return {}
    try:
        return game_cells(read_game(card.round, card.table, number, cells))
    except scoring.CardRefused:
        return cells


@dataclass(frozen=True)
class Refused:
    """A table's card that was refused: the entry its form was made from, and whether it came too late
    (the table's card was entered meanwhile)."""

    base: str
    moved: bool = False


def _game_rows(
    shown: Card | None, rules: Rules, typed: dict[int, tuple[str, ...]] | None, points: bool = True
) -> tuple[GameRow, ...]:
    """The game results' rows: what was typed, or the card `shown` (with its points when `points`)."""
    stored = {game.game: game_cells(game) for game in shown.games} if shown is not None else {}
    rows = []
    for number in range(1, rules.games_per_round + 1):
        if typed is not None:
            cells = dict(zip(RESULT_COLUMNS, typed.get(number, ("",) * len(RESULT_COLUMNS))))
        else:
            cells = {column: stored.get(number, {}).get(column, "") for column in RESULT_COLUMNS}
        scored = shown.points if shown is not None and typed is None and points else ()
        rows.append(GameRow(number, cells, tuple(str(row[number - 1]) for row in scored)))
    return tuple(rows)


# ---- a round's cards -----------------------------------------------------------------------------


@router.get("/events/{event_id}/scores")
def scores_start(store: StoreDep, event_id: Id):
    """The round to enter now: the first played round with a card missing, else the last played one."""
    day = scores.day_scores(store, event_id)
    waiting = [r.number for r in day.rounds if r.played and r.missing]
    number = waiting[0] if waiting else max(1, day.played)
    return RedirectResponse(f"/events/{event_id}/scores/{number}", status_code=303)


@router.get("/events/{event_id}/scores/{round_number}", response_class=HTMLResponse)
def round_page(
    request: Request, store: StoreDep, event_id: Id, round_number: Id, saved: QueryId = None, unchanged: bool = False
):
    return _round_page(request, store, event_id, round_number, saved=saved, unchanged=unchanged)


def _round_page(
    request: Request,
    store: Store,
    event_id: Id,
    round_number: Id,
    *,
    saved: QueryId = None,
    unchanged: bool = False,
    typed: dict[int, dict[int, tuple[str, ...]]] | None = None,
    posted: str = "",
    refused: dict[int, Refused] | None = None,
    errors: dict[str, str] | None = None,
    status: int = 200,
) -> HTMLResponse:
    day = scores.day_scores(store, event_id)
    this = scores.round_cards(day, round_number)
    settings = service.load_event(store, event_id).settings
    sit_outs = day.schedule.rounds[round_number - 1].sit_outs
    return page(
        request,
        "scores.html.j2",
        status,
        event_id=event_id,
        settings=settings,
        day=day,
        this=this,
        cards=[
            card_form(table, day.rules, *_typed(table.table, settings.score_entry, typed, posted, refused))
            for table in this.tables
        ],
        refused=sorted(refused or {}),
        sit_outs=sit_outs,
        sit_out_word=SIT_OUT_WORDS[day.schedule.sit_out_scoring.value],
        saved=saved,
        unchanged=unchanged,
        games=range(1, day.rules.games_per_round + 1),
        entry=settings.score_entry,
        game_boxes=GAME_BOXES,
        errors=errors or {},
        # a seat row as wide as its widest name: cards at least that wide, and narrower ones stacked
        row_em=widest_word_em(day.schedule.players) + SEAT_ROW_EM,
    )


def _typed(
    table: int,
    entry: str,
    typed: dict[int, dict[int, tuple[str, ...]]] | None,
    posted: str,
    refused: dict[int, Refused] | None,
) -> tuple[str, dict[int, tuple[str, ...]] | None, Refused | None]:
    """A card's form as the event enters scores, or as it was posted when refused (a JSON client's kind)."""
    if typed is not None and table in typed:
        return posted or entry, typed[table], (refused or {}).get(table)
    return entry, None, None


@router.post("/events/{event_id}/scores/{round_number}/played")
def mark_round_played(request: Request, store: StoreDep, event_id: Id, round_number: Id, base: BaseDep):
    """Mark rounds up to this one as played (changes.mark_played), from the round's score page."""
    try:
        changes.mark_played(store, event_id, round_number, base)
    except DeskError as error:
        if isinstance(error, NotFound):
            raise
        return _round_page(request, store, event_id, round_number, errors={"played": str(error)}, status=error.status)
    return RedirectResponse(f"/events/{event_id}/scores/{round_number}", status_code=303)


@router.post("/events/{event_id}/scores/{round_number}/{table_number}")
async def enter_card(request: Request, store: StoreDep, event_id: Id, round_number: Id, table_number: Id):
    """A table's card from its form: game results `game-G-COLUMN` (winner, value, how, ...) for game G,
    or points: `name-S` (the seat's player, as the page showed them) and `points-S-G` for seat S and game G.
    Refused: every message beside its box, what was typed kept."""
    day = scores.day_scores(store, event_id)
    scores.table_cards(day, round_number, table_number)  # a page to show it on
    form = await request.form()
    fields = {key: value for key, value in form.items() if isinstance(value, str)}
    games = range(1, day.rules.games_per_round + 1)
    seats = sorted(
        {seat for key in fields if key.startswith("name-") and (seat := form_number(key[5:], 2)) is not None}
    )
    names = {seat: fields[f"name-{seat}"] for seat in seats}
    typed: dict[int, tuple[str, ...]]
    posted = "games" if any(key.startswith("game-") for key in fields) else "points"
    base_text = fields.get("base_entry", "").strip()
    base = form_id(base_text)
    if posted == "games":
        typed = {g: tuple(fields.get(f"game-{g}-{column}", "") for column in RESULT_COLUMNS) for g in games}
    else:
        typed = {seat: tuple(fields.get(f"points-{seat}-{g}", "") for g in games) for seat in seats}

    def again(errors: dict[str, str], status: int, moved: bool = False) -> HTMLResponse:
        """The round's page, this card's form holding what was typed and its message beside it."""
        refused = {table_number: Refused(base_text, moved)}
        kept = {table_number: typed}
        return _round_page(
            request,
            store,
            event_id,
            round_number,
            typed=kept,
            posted=posted,
            refused=refused,
            errors=errors,
            status=status,
        )

    if not any(box.strip() for boxes in typed.values() for box in boxes):
        return again({f"t{table_number}": EMPTY_CARD}, 422)
    try:
        if posted == "games":
            results = {g: dict(zip(RESULT_COLUMNS, typed[g])) for g in games}
            stored = scores.enter_games(store, event_id, round_number, table_number, results, base)
        else:
            entries = {names[seat]: list(typed[seat]) for seat in seats}
            stored = scores.enter_card(store, event_id, round_number, table_number, entries, base)
    except scoring.CardRefused as refused:
        return again(_beside_boxes(table_number, names, refused.problems), 422)
    except scores.CardMoved as moved:
        return again({f"t{table_number}": str(moved)}, moved.status, moved=True)
    except DeskError as error:
        if isinstance(error, NotFound) or error.status == 404:
            raise
        return again({error.field or f"t{table_number}": str(error)}, error.status)
    where = f"/events/{event_id}/scores/{round_number}?saved={table_number}"
    return RedirectResponse(where + ("&unchanged=true" if stored is None else "") + f"#table-{table_number}", 303)


EMPTY_CARD = "the card is empty: nothing was saved. Type its points (or its games' results), then save"


def _beside_boxes(table: int, names: dict[int, str], problems) -> dict[str, str]:
    """Each problem keyed by its box (t3-1-4: table 3, seat B, game 4), its row (t3-1) or the card (t3)."""
    seat_of = {name_key(name): seat for seat, name in names.items()}
    errors: dict[str, str] = {}
    for problem in problems:
        if problem.field is not None:  # a game result's box: t3-g2-winner
            key = f"t{table}-g{problem.game}-{problem.field}"
            errors[key] = f"{errors[key]}; {problem.message}" if key in errors else problem.message
            continue
        seat = seat_of.get(name_key(problem.player or ""))
        key = f"t{table}" if seat is None else f"t{table}-{seat}" + (f"-{problem.game}" if problem.game else "")
        message = f"game {problem.game}: {problem.message}" if seat is None and problem.game else problem.message
        errors[key] = f"{errors[key]}; {message}" if key in errors else message
    return errors


@router.get("/events/{event_id}/scores/{round_number}/{table_number}/history", response_class=HTMLResponse)
def card_history(request: Request, store: StoreDep, event_id: Id, round_number: Id, table_number: Id):
    day = scores.day_scores(store, event_id)
    table = scores.table_cards(day, round_number, table_number)
    settings = service.load_event(store, event_id).settings
    return page(
        request,
        "card_history.html.j2",
        event_id=event_id,
        settings=settings,
        round_number=round_number,
        table=table,
        entries=list(reversed(table.entries)),
    )


# ---- the rules -------------------------------------------------------------------------------------


@router.get("/events/{event_id}/rules", response_class=HTMLResponse)
def rules_page(request: Request, store: StoreDep, event_id: Id):
    """The event's rule sheet, to print and pin up: the scoring lines, the three-handed and sit-out rules."""
    settings = service.load_event(store, event_id).settings
    rules = settings.rules
    sit_out = rules.sit_out or SIT_OUT_RULE[settings.sit_out_scoring]
    return page(request, "rules.html.j2", event_id=event_id, settings=settings, rules=rules, sit_out=sit_out)
