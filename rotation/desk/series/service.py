"""A series in the desk: events that are nights of one league season (or sessions of one event).

An event belongs to a series by its settings (`EventSettings.series`); its plan is planned against the
series' earlier nights (runs.earlier_nights, optimizer.plan_night). Here: the series as a page sees it
(every member's nights, opponents met and not yet met), the next night from tonight's attendance, and the
series' standings (rotation.scoring.season_standings over each night's standings) by the rule saved
as the series' setting.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from models import SeasonRule, SeasonStandings, Standings
from models.event import name_key, normalise_name
from rotation.desk.events import runs, service
from rotation.desk.events.service import DeskError, NotFound, Planner
from rotation.desk.events.settings import EventSettings, FieldErrors, names_table
from rotation.desk.room.service import room
from rotation.desk.scores import service as scores
from rotation.desk.storage import EventRow, StandingsChoice, Store
from rotation.scoring import season_standings


@dataclass(frozen=True)
class Night:
    event: EventRow
    settings: EventSettings
    label: str  # the night's title or date, as the director named it


@dataclass(frozen=True)
class Member:
    name: str  # as spelled on the latest night they came to
    nights: tuple[bool, ...]  # came to each night
    met: tuple[str, ...]  # opponents met on the series' nights, alphabetical
    not_met: tuple[str, ...]  # the series' other members not met yet, alphabetical
    guest: bool = False  # came only as a guest (never on a night's list but as one of its guests)


@dataclass(frozen=True)
class SeriesView:
    name: str
    nights: tuple[Night, ...]
    members: tuple[Member, ...]


def series_view(store: Store, name: str) -> SeriesView:
    """The series' nights, oldest first, and every player's nights and opponents (NotFound when none). A
    player who came only among a night's guests is a guest, not a member: met by others, not counted as
    a member not met yet, and not on the next night's tick list."""
    nights = tuple(
        Night(event, settings, settings.title or settings.date or f"Event {event.id}")
        for event, settings in runs.series_nights(store, name)
    )
    if not nights:
        raise NotFound(f"series {name!r}")
    spelled: dict[str, str] = {}
    came: dict[str, set[int]] = {}
    met: dict[str, set[str]] = {}
    joined: set[str] = set()  # on some night's list not as a guest: a member
    for number, night in enumerate(nights):
        guests = {name_key(guest) for guest in night.settings.guests}
        for player in night.settings.names:
            spelled[name_key(player)] = player
            came.setdefault(name_key(player), set()).add(number)
            if name_key(player) not in guests:
                joined.add(name_key(player))
        version = service.current_version(store, night.event)
        if version is None:
            continue
        for round_ in version.schedule().rounds:
            for table in round_.tables:
                for a, b in combinations(map(name_key, table.players), 2):
                    met.setdefault(a, set()).add(b)
                    met.setdefault(b, set()).add(a)
    members = tuple(
        Member(
            spelled[key],
            tuple(n in came[key] for n in range(len(nights))),
            tuple(sorted((spelled[other] for other in met.get(key, ())), key=str.casefold)),
            tuple(sorted((spelled[o] for o in joined if o != key and o not in met.get(key, ())), key=str.casefold)),
            key not in joined,
        )
        for key in sorted(spelled, key=lambda key: spelled[key].casefold())
    )
    return SeriesView(name, nights, members)


def next_night(
    store: Store, planner: Planner, name: str, present: list[str], guests_text: str, rounds: int | None = None
) -> int:
    """A new night of the series for tonight's attendance (the members ticked, then the guests, one per
    line), with the last night's settings, and its plan started against the series so far. Returns the
    event. FieldErrors names the field a problem is about ('present', 'guests', 'rounds')."""
    view = series_view(store, name)
    members = {name_key(member.name): member.name for member in view.members if not member.guest}
    unknown = [player for player in present if name_key(player) not in members]
    if unknown:
        raise FieldErrors({"present": f"{unknown[0]!r} is not a member of the series"})
    try:
        guests = list(names_table(guests_text).names) if guests_text.strip() else []
    except FieldErrors as error:
        raise FieldErrors({"guests": error.errors["names"]}) from None
    tonight = [members[name_key(player)] for player in present] + [normalise_name(guest) for guest in guests]
    if not tonight:
        raise FieldErrors({"present": "tick the members who are here tonight, or add guests"})
    last = view.nights[-1].settings
    settings = last.model_copy(
        update={
            "names": tonight,
            "guests": [normalise_name(guest) for guest in guests],
            "ids": _ids_tonight(view, tonight),
            "rounds": rounds if rounds is not None else last.rounds,
            "title": f"{name}, night {len(view.nights) + 1}",
            "date": "",
            "apart": [],
            "spread": [],
            "stay": {},
            "notes": [],
        }
    )
    _placed_for_attendance(settings)
    event_id = service.create_event(store, settings)
    runs.start_plan(store, planner, event_id)
    return event_id


def _ids_tonight(view: SeriesView, tonight: list[str]) -> dict[str, str]:
    """Tonight's members' numbers, each from the latest night that gave one (a guest has none)."""
    known = {name_key(n): i for night in view.nights for n, i in night.settings.ids.items()}
    return {name: known[name_key(name)] for name in tonight if name_key(name) in known}


def _placed_for_attendance(settings: EventSettings) -> None:
    """The library's refusal of tonight's list beside the attendance fields ('names' is 'guests' here:
    two guests of one name, a guest who is a member)."""
    try:
        settings.event()
    except FieldErrors as error:
        moved = {"guests" if field == "names" else field: text for field, text in error.errors.items()}
        raise FieldErrors(moved) from None


def saved_choice(store: Store, name: str) -> StandingsChoice:
    """The series' standings rule as its director saved it (every night's total until then)."""
    return store.series_standings_rule(name) or StandingsChoice()


def save_choice(store: Store, name: str, choice: StandingsChoice) -> None:
    """The series' standings rule from now on (NotFound for a series with no night; FieldErrors 'best'
    for the best nights without their number)."""
    series_view(store, name)
    if choice.rule is SeasonRule.BEST and not choice.best:
        raise FieldErrors({"best": "give the number of nights that count"})
    store.set_series_standings_rule(name, choice)


@dataclass(frozen=True)
class SeriesStandings:
    season: SeasonStandings | None  # None when no night has a complete round of cards
    left_out: tuple[str, ...]  # nights with no complete round of cards yet


def series_standings(
    store: Store, name: str, rule: SeasonRule, min_games: int = 0, best_nights: int | None = None
) -> SeriesStandings:
    """The series' standings by `rule`, over the nights with at least one complete round of cards (each
    counted after its last complete round)."""
    view = series_view(store, name)
    counted: list[tuple[str, Standings]] = []
    left_out: list[str] = []
    for night in view.nights:
        try:
            counted.append((night.label, scores.standings_of(scores.day_scores(store, night.event.id))))
        except DeskError:
            left_out.append(night.label)
    if rule is SeasonRule.BEST and not best_nights:
        raise FieldErrors({"best": "give the number of nights that count"})
    if not counted:
        return SeriesStandings(None, tuple(left_out))
    season = season_standings(
        [standings for _, standings in counted],
        rule,
        min_games=min_games,
        best_nights=best_nights,
        labels=[label for label, _ in counted],
    )
    return SeriesStandings(season, tuple(left_out))


# ---- the projector: the series' standings (rotation.desk.scores.standings_pages.screen_context) -------------------


def show_series(store: Store, event_id: int, top: int | None = None) -> None:
    """The projector of a night of a series shows the series' standings by its saved rule until the next
    round is released (DeskError 'screen' when the event is no night of a series or none of its nights has
    a complete round of cards)."""
    name = service.load_event(store, event_id).settings.series
    if not name:
        raise DeskError("this event is not a night of a series", field="screen")
    choice = saved_choice(store, name)
    if series_standings(store, name, choice.rule, choice.min_games, choice.best).season is None:
        raise DeskError("no night of the series has a complete round of cards yet: nothing to show", field="screen")
    scores.show_standings(store, event_id, True, top, series=True)


def screen_season(store: Store, event_id: int) -> SeasonStandings | None:
    """The series' standings the projector shows now (its top places only, ties at the last one
    included), or None: it shows the round's tables or the night's standings."""
    row = store.room_row(event_id)
    if row is None or not row.standings_series or row.standings_at != room(store, event_id).last:
        return None
    name = service.load_event(store, event_id).settings.series
    choice = saved_choice(store, name)
    season = series_standings(store, name, choice.rule, choice.min_games, choice.best).season if name else None
    if season is None or row.standings_top is None:
        return season
    top = row.standings_top
    return season.model_copy(update={"rows": tuple(r for r in season.rows if r.rank is not None and r.rank <= top)})
