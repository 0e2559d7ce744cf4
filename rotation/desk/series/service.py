"""A series in the desk: events that are nights of one league season (or sessions of one event).

An event belongs to a series by its settings (`EventSettings.series`); its plan is planned against the
series' earlier nights (runs.earlier_nights, optimizer.plan_night). Here: the series as a page sees it
(every member's nights, opponents met and not yet met), its roster (members added with their ids before
they play, a returning guest made a member), the next night from tonight's attendance, and the series'
standings (rotation.scoring.season_standings over each night's standings) by the rule saved as the
series' setting, with or without its guests.

Who is a member: a player on the roster, or on some night's list not as one of its guests. A guest is
anyone else who played on a night.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from models import SeasonRule, SeasonStandings, Standings
from models.event import name_key, normalise_name
from optimizer.seats import from_schedule, pair_counts
from rotation.desk.core.errors import DeskError, FieldErrors, NotFound
from rotation.desk.core.planner import Planner
from rotation.desk.core.settings import EventSettings, names_table
from rotation.desk.events import runs, service
from rotation.desk.room.service import room
from rotation.desk.scores import service as scores
from rotation.desk.storage import EventRow, Roster, RosterMember, StandingsChoice, Store
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
    guest: bool = False  # came only as a guest (never on a night's list but as one of its guests, not on the roster)
    id: str = ""  # the member's number: the roster's, else the latest night's that gave one


@dataclass(frozen=True)
class SeriesView:
    name: str
    nights: tuple[Night, ...]
    members: tuple[Member, ...]
    roster: Roster


class SeriesMoved(DeskError):
    """A change of the series made from a state of it that is no longer so (another tab planned the next
    night, or saved the rule): nothing is stored, and the answer carries the series as it is now."""

    def __init__(self, message: str, field: str, now: dict):
        super().__init__(message, field=field, status=409)
        self.now = now

    def state(self) -> dict:
        return self.now


def series_view(store: Store, name: str) -> SeriesView:
    """The series' nights, oldest first, and every player's nights and opponents (NotFound when none). A
    player who came only among a night's guests and is not on the roster is a guest, not a member: met by
    others, not counted as a member not met yet, and not on the next night's tick list. A member on the
    roster who has not played yet is listed with no nights."""
    nights = tuple(
        Night(event, settings, settings.title or settings.date or f"Event {event.id}")
        for event, settings in runs.series_nights(store, name)
    )
    if not nights:
        raise NotFound(f"series {name!r}")
    roster = store.series_roster(name)
    spelled: dict[str, str] = {}
    came: dict[str, set[int]] = {}
    met: dict[str, set[str]] = {}
    ids: dict[str, str] = {}
    joined: set[str] = set()  # on some night's list not as a guest, or on the roster: a member
    for number, night in enumerate(nights):
        guests = {name_key(guest) for guest in night.settings.guests}
        for player in night.settings.names:
            spelled[name_key(player)] = player
            came.setdefault(name_key(player), set()).add(number)
            if name_key(player) not in guests:
                joined.add(name_key(player))
        ids.update({name_key(player): number for player, number in night.settings.ids.items() if number})
        version = service.current_version(store, night.event)
        if version is None:
            continue
        schedule = version.schedule()
        if not schedule.rounds:
            continue
        keys = [name_key(player) for player in schedule.players]
        for p, q in pair_counts(from_schedule(schedule), len(keys))[0].tolist():  # the builders' one count
            met.setdefault(keys[p], set()).add(keys[q])
            met.setdefault(keys[q], set()).add(keys[p])
    for member in roster.members:  # the roster's spelling and number; a night's list comes after it
        key = name_key(member.name)
        spelled.setdefault(key, member.name)
        joined.add(key)
        if member.id:
            ids[key] = member.id
    members = tuple(
        Member(
            spelled[key],
            tuple(n in came.get(key, ()) for n in range(len(nights))),
            tuple(sorted((spelled[other] for other in met.get(key, ())), key=str.casefold)),
            tuple(sorted((spelled[o] for o in joined if o != key and o not in met.get(key, ())), key=str.casefold)),
            key not in joined,
            ids.get(key, ""),
        )
        for key in sorted(spelled, key=lambda key: spelled[key].casefold())
    )
    return SeriesView(name, nights, members, roster)


def add_members(store: Store, name: str, added: list[RosterMember], base_roster: str | None = None) -> None:
    """New members on the series' roster, each with their number when given; a guest of an earlier night
    named here becomes a member. FieldErrors 'members': a name already a member, a name twice, a number
    another member has; SeriesMoved when `base_roster` (the roster's tag as its maker read it; None: the
    roster as it is) is no longer the roster's. Read and written in one transaction."""
    with store.change():
        view = _roster_read(store, name, base_roster, "members")
        if not added:
            raise FieldErrors({"members": "give the new members' names, one per line"})
        members = {name_key(m.name): m for m in view.members if not m.guest}
        numbers = {m.id: m.name for m in view.members if m.id and not m.guest}
        seen: set[str] = set()
        for member in added:
            key = name_key(member.name)
            if key in members:
                raise FieldErrors({"members": f"{members[key].name!r} is already a member"})
            if key in seen:
                raise FieldErrors({"members": f"{member.name!r} is listed twice"})
            if member.id and member.id in numbers:
                raise FieldErrors({"members": f"number {member.id!r} is {numbers[member.id]}'s"})
            seen.add(key)
            numbers[member.id] = member.name
        roster = view.roster.model_copy(update={"members": view.roster.members + tuple(added)})
        store.set_series_roster(name, roster)


def roster_tag(roster: Roster) -> str:
    """The roster (its members and whether guests are ranked), named: a digest of it. A change of the roster
    is made from the tag its maker read (`base_roster`), as the rule is (rule_tag)."""
    return hashlib.sha256(roster.model_dump_json().encode()).hexdigest()[:16]


def _roster_read(store: Store, name: str, base_roster: str | None, field: str) -> SeriesView:
    """The series now, or SeriesMoved with its roster when `base_roster` is not the roster's tag (another tab
    added members or ranked guests since the page was read)."""
    view = series_view(store, name)
    if base_roster is not None and base_roster != roster_tag(view.roster):
        raise SeriesMoved(
            "the series' roster was changed in another tab meanwhile (members added or guests ranked); "
            "here it is now: look it over, then save again",
            field,
            {
                "members": [m.name for m in view.members if not m.guest],
                "guests_ranked": view.roster.guests_ranked,
                "roster_version": roster_tag(view.roster),
            },
        )
    return view


def members_from_text(text: str) -> list[RosterMember]:
    """New members as typed or uploaded: one name per line, or a table with a 'name' column and an 'id'
    column (rotation.files.lists, as an event's list). FieldErrors 'members' for a list that does not read."""
    if not text.strip():
        return []
    try:
        table = names_table(text)
    except FieldErrors as error:
        raise FieldErrors({"members": error.errors["names"]}) from None
    return [RosterMember(name=player, id=table.ids.get(player, "")) for player in table.names]


def rank_guests(store: Store, name: str, ranked: bool, base_roster: str | None = None) -> None:
    """Whether the series' guests are ranked in its standings (and so in its prizes) from now on; SeriesMoved
    when `base_roster` is no longer the roster's tag (add_members). Read and written in one transaction."""
    with store.change():
        view = _roster_read(store, name, base_roster, "guests_ranked")
        store.set_series_roster(name, view.roster.model_copy(update={"guests_ranked": ranked}))


def next_night(
    store: Store,
    planner: Planner,
    name: str,
    present: list[str],
    guests_text: str,
    rounds: int | None = None,
    join: list[str] | None = None,
    base_night: int | None = None,
) -> int:
    """A new night of the series for tonight's attendance (the members ticked, the earlier nights' guests
    who come tonight and `join` the series as members, then the guests, one per line), with the last
    night's settings, and its plan started against the series so far; the guests who join are on the
    roster in the same change. Returns the event. FieldErrors names the field a problem is about
    ('present', 'join', 'guests', 'rounds'); SeriesMoved when `base_night` (the last night as its maker saw
    it; None: whatever is last) is no longer the last (another tab planned a night since). The series is
    read and the night stored in one transaction, so two next nights made from one night never both land."""
    with store.change():  # what was read is still so when the night and the guests who join are stored
        view = series_view(store, name)
        last_night = view.nights[-1].event.id
        if base_night is not None and base_night != last_night:
            raise SeriesMoved(
                f"the series has a newer night ({view.nights[-1].label}) than the one you planned from: "
                "check tonight's attendance against it, then plan again",
                "present",
                {"last_night": last_night, "nights": [night.event.id for night in view.nights]},
            )
        settings, joining = _tonight(view, name, present, guests_text, rounds, join or [])
        if any(joining):
            add_members(store, name, [RosterMember(name=player) for player in joining if player])
        event_id = service.create_event(store, settings)
    runs.start_plan(store, planner, event_id)
    return event_id


def _tonight(
    view: SeriesView, name: str, present: list[str], guests_text: str, rounds: int | None, join: list[str]
) -> tuple[EventSettings, list[str | None]]:
    """The next night's settings from tonight's attendance, and the returning guests who join (FieldErrors
    beside 'present', 'join', 'guests' or 'rounds')."""
    members = {name_key(member.name): member.name for member in view.members if not member.guest}
    guests_before = {name_key(member.name): member.name for member in view.members if member.guest}
    unknown = [player for player in present if name_key(player) not in members]
    if unknown:
        was_guest = " (a guest before: tick them under the returning guests to make them a member)"
        said = was_guest if name_key(unknown[0]) in guests_before else ""
        raise FieldErrors({"present": f"{unknown[0]!r} is not a member of the series{said}"})
    joining = [guests_before.get(name_key(player)) for player in join]
    if None in joining:
        stranger = join[joining.index(None)]
        raise FieldErrors({"join": f"{stranger!r} is no returning guest of the series: add new members above"})
    try:
        guests = list(names_table(guests_text).names) if guests_text.strip() else []
    except FieldErrors as error:
        raise FieldErrors({"guests": error.errors["names"]}) from None
    members_tonight = [members[name_key(player)] for player in present] + [g for g in joining if g]
    tonight = members_tonight + [normalise_name(guest) for guest in guests]
    if not tonight:
        raise FieldErrors({"present": "tick the members who are here tonight, or add guests"})
    last = view.nights[-1].settings
    settings = last.model_copy(
        update={
            "names": tonight,
            "guests": [normalise_name(guest) for guest in guests],
            "ids": _ids_tonight(view, tonight),
            "clubs": {player: club for player, club in last.clubs.items() if player in tonight},
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
    return settings, joining


def _ids_tonight(view: SeriesView, tonight: list[str]) -> dict[str, str]:
    """Tonight's members' numbers: the roster's, else the latest night's that gave one (a guest has none)."""
    known = {name_key(member.name): member.id for member in view.members if member.id}
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


def rule_tag(choice: StandingsChoice) -> str:
    """The saved rule, named: a digest of it. The rule is saved from the tag its maker read (`base_rule`)."""
    return hashlib.sha256(choice.model_dump_json().encode()).hexdigest()[:16]


def save_choice(store: Store, name: str, choice: StandingsChoice, base_rule: str | None = None) -> None:
    """The series' standings rule from now on (NotFound for a series with no night; FieldErrors 'best'
    for the best nights without their number; SeriesMoved when `base_rule`, the tag of the saved rule as
    its maker read it, is no longer the saved one's: another tab saved a rule since). Read and written in
    one transaction."""
    with store.change():
        series_view(store, name)
        saved = saved_choice(store, name)
        if base_rule is not None and base_rule != rule_tag(saved):
            raise SeriesMoved(
                "the series' rule was saved in another tab meanwhile; here it is now: choose again",
                "rule",
                {"rule": saved.model_dump(mode="json"), "rule_version": rule_tag(saved)},
            )
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
    counted after its last complete round); the guests left out when the series ranks members only."""
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
    guests = () if view.roster.guests_ranked else [member.name for member in view.members if member.guest]
    season = season_standings(
        [standings for _, standings in counted],
        rule,
        min_games=min_games,
        best_nights=best_nights,
        labels=[label for label, _ in counted],
        left_out=guests,
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
