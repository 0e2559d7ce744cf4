"""Scores in the desk: each table's card of a played round, its corrections, and the standings.

The rules of scoring (sit-outs, ties, three-handed, leavers) are rotation.scoring's; the desk decides only these:

- A card is taken only for a round marked played in the current schedule. A card says the round was
  played, and a played round is kept exactly as it is by every re-plan, so no re-plan can change a table
  whose card is in. A card for a round not yet played is refused with the way on: mark it played.
  Entering a card never changes the schedule (no new version, nothing refused to a re-plan running).
- A card is checked against the current schedule's table by scoring.card (points) or made from the table's
  game results by scoring.games.games_card under the event's rules (settings.rules, read at once like
  `late_as_sit_out`); a wrong box gets its message. A card keeps its game results, for the records.
- A re-entry is a correction: a new row of `cards`, never an update; the older rows are its history,
  each with the time it was entered (not who entered it). An entry equal to the card that counts stores
  nothing.
- Undo, going back to an earlier schedule or a swap recorded in a played round can change a played
  table after its card is in. The card is kept, but it counts only while it seats the table's players
  (scoring.standings refuses any other): the round page says to enter that table's card again.
- A late arrival's rounds before arriving score nothing, or by the sit-out rule when the event's settings
  say so (`late_as_sit_out`, the CLI's --late-as-sit-out); unlike the planning settings, the standings
  take it at once. The sit-out rule itself is the schedule's, as planned.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from models import Schedule
from models.rules import Rules
from models.scores import Card, Standings
from rotation import scoring
from rotation.desk.events.runs import series_nights
from rotation.desk.events.service import DeskError, current_version, load_event, one_change
from rotation.desk.room.service import room
from rotation.desk.storage import Store, stored_json
from rotation.scoring.cards import CardProblem, table_of
from rotation.scoring.cards import Entry as Box
from rotation.scoring.games import games_card, read_game


@dataclass(frozen=True)
class Entered:
    """One entry of a table's card: what was entered, and when (UTC)."""

    id: int
    card: Card
    entered: str


@dataclass(frozen=True)
class TableCards:
    """A table of a round: the schedule's players, and every card entered for it, oldest first."""

    table: int
    players: tuple[str, ...]
    entries: tuple[Entered, ...]

    @property
    def latest(self) -> Entered | None:
        return self.entries[-1] if self.entries else None

    @property
    def counted(self) -> Card | None:
        """The card that counts: the latest, while it still seats the schedule's players."""
        latest = self.latest
        return latest.card if latest is not None and latest.card.players == self.players else None

    @property
    def stale(self) -> bool:
        """A card is in, but the table's seating changed after it was entered."""
        return self.latest is not None and self.counted is None


@dataclass(frozen=True)
class RoundCards:
    number: int
    played: bool
    tables: tuple[TableCards, ...]

    @property
    def missing(self) -> tuple[int, ...]:
        return tuple(table.table for table in self.tables if table.counted is None)

    @property
    def to_check(self) -> tuple[int, ...]:
        """The tables whose card is in but waits for a check: their seating changed after it was entered."""
        return tuple(table.table for table in self.tables if table.stale)


@dataclass(frozen=True)
class DayScores:
    """The current schedule and every round's cards."""

    schedule: Schedule
    played: int
    rounds: tuple[RoundCards, ...]
    late_as_sit_out: bool = False  # the event's choice for a late arrival's rounds before arriving
    rules: Rules = Rules()  # the event's scoring rules
    version: int = 0  # the current version's id: the version a change made on a score page is made from

    @property
    def counted(self) -> list[Card]:
        return [t.counted for r in self.rounds for t in r.tables if t.counted is not None]

    @property
    def complete(self) -> int:
        """The last round K whose rounds 1 to K all have every table's card in (0: none yet)."""
        return scoring.complete_rounds(self.schedule, self.counted)


def _schedule(store: Store, event_id: int) -> tuple[Schedule, int, bool, Rules, int]:
    """The current schedule, its rounds played, the event's choice for late arrivals, its rules and
    its version's id."""
    event = load_event(store, event_id)
    version = current_version(store, event)
    if version is None:
        raise DeskError("the event has no schedule yet: plan it first", status=404)
    settings = event.settings
    schedule = version.schedule()
    if settings.ids:  # member numbers given after the plan still reach the results
        schedule = schedule.model_copy(update={"ids": {**schedule.ids, **settings.ids}})
    return schedule, version.played, settings.late_as_sit_out, settings.rules, version.id


def day_scores(store: Store, event_id: int) -> DayScores:
    schedule, played, late_as_sit_out, rules, version = _schedule(store, event_id)
    entered: dict[tuple[int, int], list[Entered]] = {}
    for row in store.cards(event_id):
        entered.setdefault((row.round, row.table_number), []).append(Entered(row.id, row.card, row.entered))
    rounds = tuple(
        RoundCards(
            number,
            number <= played,
            tuple(
                TableCards(t.table, t.players, tuple(entered.get((number, t.table), ())))
                for t in sorted(round_.tables, key=lambda t: t.table)
            ),
        )
        for number, round_ in enumerate(schedule.rounds, start=1)
    )
    return DayScores(schedule, played, rounds, late_as_sit_out, rules, version)


def round_cards(scores: DayScores, round_number: int) -> RoundCards:
    if not 1 <= round_number <= len(scores.rounds):
        raise DeskError(f"the day has rounds 1 to {len(scores.rounds)}", status=404)
    return scores.rounds[round_number - 1]


def table_cards(scores: DayScores, round_number: int, table_number: int) -> TableCards:
    for table in round_cards(scores, round_number).tables:
        if table.table == table_number:
            return table
    raise DeskError(f"round {round_number} has no table {table_number}", status=404)


class CardMoved(DeskError):
    """A card made from an entry of its table that is no longer the newest (another tab or client entered
    the table's card meanwhile): nothing is stored. `table` is the table's cards as they are now."""

    MESSAGE = (
        "this card changed while you were editing it (entered meanwhile from another tab or computer); "
        "here it is now, and what you typed is kept in the form: check them, then save again"
    )

    def __init__(self, table: TableCards):
        super().__init__(self.MESSAGE, field=f"t{table.table}", status=409)
        self.table = table


def enter_card(
    store: Store,
    event_id: int,
    round_number: int,
    table_number: int,
    points: Mapping[str, Sequence[Box]],
    base: int | None = None,
) -> Entered | None:
    """Store a table's card (each player's games, name -> games 1 to the rules' games per round) in one
    transaction: a new card, or a correction of the one in, made from the entry `base` (its id; 0: no
    card was in; None: whatever is in). None when it equals the newest entry (nothing stored). Raises
    scoring.CardRefused naming each wrong box, DeskError for a round not yet played, CardMoved when the
    table's newest entry is no longer `base`."""
    with store.change():
        schedule, rules = _played(store, event_id, round_number)
        card = scoring.card(schedule, round_number, table_number, points, rules.games_per_round)
        return _store(store, event_id, card, base)


def enter_games(
    store: Store,
    event_id: int,
    round_number: int,
    table_number: int,
    results: Mapping[int, Mapping[str, str]],
    base: int | None = None,
) -> Entered | None:
    """Store a table's card made from its game results (game -> the boxes of `rotation.scoring.games.read_game`),
    scored by the event's rules, as `enter_card` stores points (from the entry `base`). Raises
    scoring.CardRefused naming every wrong box of every game."""
    with store.change():
        return _store(store, event_id, _games_card(store, event_id, round_number, table_number, results), base)


def _games_card(
    store: Store, event_id: int, round_number: int, table_number: int, results: Mapping[int, Mapping[str, str]]
) -> Card:
    schedule, rules = _played(store, event_id, round_number)
    table_of(schedule, round_number, table_number)
    games, problems, unread = [], list[CardProblem](), set()
    for number, cells in sorted(results.items()):
        if not any((text or "").strip() for text in cells.values()):
            continue  # an empty row: games_card says the game is missing
        try:
            games.append(read_game(round_number, table_number, number, cells))
        except scoring.CardRefused as refused:
            problems += refused.problems
            unread.add(number)
    try:
        card = games_card(schedule, round_number, table_number, games, rules)
    except scoring.CardRefused as refused:  # an unread game is "missing" to it: its own problems said why
        problems += [problem for problem in refused.problems if problem.game not in unread]
    if problems:
        raise scoring.CardRefused(sorted(problems, key=lambda p: p.game or 0))
    return card


def _played(store: Store, event_id: int, round_number: int) -> tuple[Schedule, Rules]:
    schedule, played, _, rules, _ = _schedule(store, event_id)
    if 1 <= round_number <= len(schedule.rounds) and round_number > played:
        raise DeskError(
            f"round {round_number} is not marked played yet: mark it played, then enter its cards",
            field="played",
        )
    return schedule, rules


def _store(store: Store, event_id: int, card: Card, base: int | None) -> Entered | None:
    """Inside the card's transaction: the card stored, unless it equals the table's newest entry (None,
    nothing lost either way) or was made from an entry that is no longer the newest (CardMoved)."""
    table = table_cards(day_scores(store, event_id), card.round, card.table)
    latest = table.latest
    if latest is not None and latest.card == card:
        return None
    if base is not None and base != (latest.id if latest is not None else 0):
        raise CardMoved(table)
    stored = store.add_card(event_id, card.round, card.table, card)
    return None if stored is None else Entered(stored.id, stored.card, stored.entered)


def standings_of(scores: DayScores, after: int | None = None) -> Standings:
    """The standings after round `after` (default: the last round whose every card is in)."""
    if scores.complete == 0 and after is None:
        raise DeskError("no round has every table's card in yet", status=404)
    try:
        return scoring.standings(
            scores.schedule,
            scores.counted,
            after=after,
            late_arrivals_as_sit_outs=scores.late_as_sit_out,
            rules=scores.rules,
        )
    except scoring.ScoresIncomplete as error:
        raise DeskError(str(error), field="after", status=404) from None


# ---- the projector -------------------------------------------------------------------------------


@one_change
def show_standings(store: Store, event_id: int, show: bool, top: int | None = None, series: bool = False) -> None:
    """The projector shows the standings (until the next round is released), the top `top` places only
    when given (ties at the last place shown included), or the round's tables. With `series` the standings
    are the series' (rotation.desk.series.service.show_series, which checks the series has some)."""
    seated = room(store, event_id)
    if show and not series and day_scores(store, event_id).complete == 0:
        raise DeskError("no round has every table's card in yet: nothing to show", field="screen")
    if top is not None and top < 1:
        raise DeskError("show the top 1 or more places, or everyone", field="screen", status=422)
    store.set_standings_at(event_id, seated.last if show else None, top if show else None, show and series)


def screen_top(store: Store, event_id: int) -> int | None:
    """How many places the projector's standings show (None: everyone)."""
    row = store.room_row(event_id)
    return None if row is None else row.standings_top


def screen_standings(store: Store, event_id: int) -> Standings | None:
    """The standings the projector shows now, or None: it shows the round's tables."""
    last = room(store, event_id).last
    row = store.room_row(event_id)
    if row is None or row.standings_at is None or row.standings_at != last or row.standings_series:
        return None
    scores = day_scores(store, event_id)
    return standings_of(scores) if scores.complete else None


def screen_stamp(store: Store, event_id: int) -> str:
    """Changes whenever the projector's standings would: shown or not, a card entered, or (a night of a
    series) a card of any of its nights entered or corrected, a night's schedule changed, the series' rule
    or its roster saved (a guest made a member, guests ranked or left out): the season adds up every night."""
    series = load_event(store, event_id).settings.series
    if not series:
        return store.cards_stamp(event_id)
    rule, roster = store.series_standings_rule(series), store.series_roster(series)
    nights = [
        (night.id, night.current_version, store.cards_stamp(night.id)) for night, _ in series_nights(store, series)
    ]
    saved = (stored_json(rule) if rule is not None else "") + stored_json(roster) + repr(nights)
    return store.cards_stamp(event_id) + "-" + hashlib.sha256(saved.encode()).hexdigest()[:8]
