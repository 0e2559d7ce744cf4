"""What the director tells us about the day: who plays, how many rounds, how odd counts are seated."""

from __future__ import annotations

import difflib
import unicodedata
from collections import Counter
from collections.abc import Collection
from enum import Enum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from models.text import Name, normalise_name


class OddPolicy(str, Enum):
    """How a room whose count is not a multiple of four is seated (the guide's two answers)."""

    THREE_HANDED = "three-handed"
    SIT_OUT = "sit-out"


class FixedRule(str, Enum):
    """The fixed rotations events print on their slips; MJMP item 23 is the default and the baseline."""

    MJMP = "mjmp"  # A (East) up 1 table, B (North) down 1, C (West) up 2, D (South) down 2
    EAST_STAYS = "east-stays"  # East stays, North up 1, South down 1, West up 2
    A_STAYS = "a-stays"  # A stays, B down 1, C down 2, D up 1


DEFAULT_WINDS = ("East", "North", "West", "South")  # seat letters A-D, as the guide names them


class SitOutScoring(str, Enum):
    """What a sat-out round scores; printed beside every sit-out so nobody thinks it was earned."""

    ZERO = "zero"
    AVERAGE = "average"


class Layout(BaseModel):
    """The tables of one round: how many seat four, how many seat three, how many players sit out."""

    model_config = ConfigDict(frozen=True)

    fours: int
    threes: int
    sit_outs: int

    @property
    def tables(self) -> int:
        return self.fours + self.threes

    @property
    def seated(self) -> int:
        return 4 * self.fours + 3 * self.threes

    @property
    def turns(self) -> int:
        """The burdens a round hands out, to be taken in turn: seats at tables of three, or sit-outs."""
        return self.sit_outs or 3 * self.threes

    @classmethod
    def for_room(cls, players: int, odd: OddPolicy) -> Layout:
        """Tables of four, then one, two or three tables of three (or sit-outs) for the remainder."""
        remainder = players % 4
        if odd is OddPolicy.SIT_OUT or remainder == 0:
            return cls(fours=players // 4, threes=0, sit_outs=remainder)
        threes = 4 - remainder  # 3 left over: one table of three; 2: two; 1: three
        if 3 * threes > players:
            raise ValueError(
                f"{players} players cannot be seated at tables of four and three; "
                "choose sit-out for odd counts to have the extra players sit out instead"
            )
        return cls(fours=(players - 3 * threes) // 4, threes=threes, sit_outs=0)


# The largest room any command seats: far past any real tournament, and small enough that the checker,
# the fixed rule and the files stay well under a minute and a few hundred megabytes.
MAX_PLAYERS = 20_000
MAX_ROUNDS = 100
MAX_SEATS = 1_000_000  # players x rounds
MIN_SECONDS, MAX_SECONDS = 0.1, 86_400.0  # a time limit: no tournament waits longer than a day for its seating


def name_key(name: str) -> str:
    """Two names with the same key are the same player: 'Ann' and 'ann', 'José' and 'JOSÉ'."""
    return unicodedata.normalize("NFC", normalise_name(name).casefold())


def default_names(count: int) -> list[str]:
    width = len(str(count))
    return [f"P{i:0{width}d}" for i in range(1, count + 1)]


class Event(BaseModel):
    """The room and the day. Immutable: every way of building a schedule reads it, none changes it."""

    model_config = ConfigDict(frozen=True)

    players: tuple[Name, ...] = Field(description="Names, in the order they are numbered.")
    rounds: int = Field(ge=1, description="Rounds of four games each.")
    odd: OddPolicy = OddPolicy.THREE_HANDED
    sit_out_scoring: SitOutScoring = SitOutScoring.ZERO
    apart: tuple[tuple[str, ...], ...] = Field(default=(), description="Groups who must never share a table.")
    spread: tuple[tuple[str, ...], ...] = Field(
        default=(), description="Club-mates: kept apart where that costs no extra repeat (a soft request)."
    )
    stay: dict[str, int] = Field(default_factory=dict, description="Players who keep one table (1-based) all day.")
    ids: dict[str, str] = Field(
        default_factory=dict, description="Member numbers by player, for sanctioning and records (not for seating)."
    )

    @field_validator("players")
    @classmethod
    def _names_are_usable(cls, names: tuple[str, ...]) -> tuple[str, ...]:
        names = tuple(normalise_name(name) for name in names)
        if len(names) < 4:
            raise ValueError(f"a room needs at least 4 players, got {len(names)}")
        if len(names) > MAX_PLAYERS:
            raise ValueError(f"a room holds at most {MAX_PLAYERS} players, got {len(names)}")
        if any(not name for name in names):
            raise ValueError("a player name is empty")
        seen: dict[str, str] = {}
        for name in names:
            key = name_key(name)
            if key in seen:
                same = "" if seen[key] == name else f" (the same name as {seen[key]!r})"
                raise ValueError(f"the name {name!r} appears twice{same}")
            seen[key] = name
        return names

    @field_validator("rounds")
    @classmethod
    def _rounds_fit(cls, rounds: int) -> int:
        if rounds > MAX_ROUNDS:
            raise ValueError(f"a day has at most {MAX_ROUNDS} rounds, got {rounds}")
        return rounds

    @field_validator("apart", "spread")
    @classmethod
    def _group_names(cls, groups: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
        return tuple(tuple(normalise_name(name) for name in group) for group in groups)

    @field_validator("stay")
    @classmethod
    def _stay_names(cls, stay: dict[str, int]) -> dict[str, int]:
        normal: dict[str, int] = {}
        for name, table in stay.items():
            key = normalise_name(name)
            if key in normal and normal[key] != table:
                raise ValueError(f"stay {key}: asked for table {normal[key]} and table {table}")
            normal[key] = table
        return normal

    @model_validator(mode="after")
    def _room_can_be_seated(self) -> Event:
        if len(self.players) * self.rounds > MAX_SEATS:
            raise ValueError(
                f"a day seats at most {MAX_SEATS:,} player-rounds (players x rounds), "
                f"got {len(self.players)} x {self.rounds}"
            )
        layout = Layout.for_room(len(self.players), self.odd)
        _check_requests(self, layout)
        return self

    @classmethod
    def with_count(cls, count: int, rounds: int, **settings: Any) -> Event:  # the fields, validated by pydantic
        if count < 4:
            raise ValueError(f"a room needs at least 4 players, got {count}")
        if count > MAX_PLAYERS:  # before a list of a million names is made
            raise ValueError(f"a room holds at most {MAX_PLAYERS} players, got {count}")
        return cls(players=tuple(default_names(count)), rounds=rounds, **settings)

    @property
    def layout(self) -> Layout:
        return Layout.for_room(len(self.players), self.odd)


class RequestRefused(ValueError):
    """A request no schedule can meet, refused before any solving. `requests` points at the requests
    involved as (kind, position): kind 'apart', 'spread' or 'stay', position in the event's list of
    that kind (stays in the order given), so a front end can name the line of a file or a form field.
    The message names the request in words too ("stay Ann at table 9: ..."), for those that cannot."""

    def __init__(self, message: str, *requests: tuple[str, int]):
        super().__init__(message)
        self.requests = requests


def _check_requests(event: Event, layout: Layout) -> None:
    """Requests that no schedule can meet are refused here, naming the request, before any solving."""
    _check_groups(event, layout)
    _check_stays(event, layout)
    _check_groups_against_stays(event, layout)


def _check_groups(event: Event, layout: Layout) -> None:
    known = set(event.players)
    for kind, groups in (("spread", event.spread), ("apart", event.apart)):
        for position, group in enumerate(groups):
            request, at = f"{kind} {', '.join(group)}", (kind, position)
            unknown = [name for name in group if name not in known]
            if unknown:
                raise RequestRefused(f"{request}: {not_a_player(unknown[0], event.players)}", at)
            twice = [name for name in group if group.count(name) > 1]
            if twice:
                raise RequestRefused(f"{request}: {twice[0]!r} is named twice", at)
            if kind == "apart" and len(group) > layout.tables + layout.sit_outs:  # at most one a table, or out
                out = f" with {layout.sit_outs} sitting out a round" if layout.sit_outs else ""
                raise RequestRefused(
                    f"{request}: {len(group)} players cannot be kept apart at {layout.tables} tables{out}", at
                )


def _check_stays(event: Event, layout: Layout) -> None:
    """A player who stays takes no three-handed turn (see optimizer.requests.turn_exempt), so under
    the three-handed policy only the tables of four, numbered first, can be stayed at."""
    known = set(event.players)
    for position, (name, table) in enumerate(event.stay.items()):
        request, at = f"stay {name} at table {table}", ("stay", position)
        if name not in known:
            raise RequestRefused(f"{request}: {not_a_player(name, event.players)}", at)
        if not 1 <= table <= layout.fours:  # the tables of three are numbered last
            raise RequestRefused(f"{request}: {_where_to_stay(len(event.players), layout, table)}", at)
    for table, count in sorted(Counter(event.stay.values()).items()):
        if count > 4:
            names = [name for name, t in event.stay.items() if t == table]
            raise RequestRefused(
                f"stay at table {table}: {len(names)} players stay there ({', '.join(names)}), and it seats 4",
                *(("stay", k) for k, t in enumerate(event.stay.values()) if t == table),
            )


def _where_to_stay(players: int, layout: Layout, table: int) -> str:
    """Why a player cannot stay at `table`, and the tables that would do."""
    if layout.threes == 0:
        return f"the room has tables 1 to {layout.tables}"
    if layout.fours == 0:
        return f"{players} players sit at tables of three only, and a player who stays takes no three-handed turn"
    threes = _tables_span(layout.fours + 1, layout.tables)
    seat = "seats" if layout.threes == 1 else "seat"
    choose = f"choose a table from 1 to {layout.fours}" if layout.fours > 1 else "choose table 1"
    if 1 <= table <= layout.tables:
        return (
            f"with {players} players {threes} {seat} three, and a player who stays takes no three-handed turn; {choose}"
        )
    return f"the room has tables 1 to {layout.tables}, of which {threes} {seat} three; {choose}"


def _tables_span(first: int, last: int) -> str:
    return f"table {first}" if first == last else f"tables {first} to {last}"


def _check_groups_against_stays(event: Event, layout: Layout) -> None:
    """Two members of a keep-apart group cannot stay at one table. Where nobody sits out, each member
    needs a table of their own every round: the tables its staying members hold are taken, and so
    is a table that four players who stay fill."""
    stays = list(event.stay.items())
    staying_at = Counter(event.stay.values())
    full = {table for table, count in staying_at.items() if count == 4}
    for position, group in enumerate(event.apart):
        held: dict[int, list[int]] = {}
        for k, (name, table) in enumerate(stays):
            if name in group:
                held.setdefault(table, []).append(k)
        for table, ks in held.items():
            if len(ks) > 1:
                both = " and ".join(stays[k][0] for k in ks)
                raise RequestRefused(
                    f"stay at table {table}: {both} must also be kept apart",
                    *(("stay", k) for k in ks),
                    ("apart", position),
                )
        moving = [name for name in group if name not in event.stay]
        open_tables = layout.tables - len(held) - len(full - set(held))
        if len(moving) > open_tables and not layout.sit_outs:  # who sits out needs no table, and frees one
            left = f"only {open_tables} table{' is' if open_tables == 1 else 's are'} left"
            raise RequestRefused(
                f"apart {', '.join(group)}: {len(moving)} of them move and need a table each, and {left} "
                f"({_taken(held, full, group, event)})",
                ("apart", position),
                *(("stay", k) for k, (name, table) in enumerate(stays) if table in full or name in group),
            )


def _taken(held: dict[int, list[int]], full: set[int], group: tuple[str, ...], event: Event) -> str:
    parts = [f"{name} stays at table {table}" for name, table in event.stay.items() if name in group]
    parts += [f"table {table} is full of players who stay" for table in sorted(full - set(held))]
    return "; ".join(parts)


_LOOSE = str.maketrans(
    {"ø": "o", "ł": "l", "đ": "d", "æ": "ae", "œ": "oe", "ı": "i", "þ": "th", "ð": "d"}
    # a phone's keyboard types curly apostrophes and quotes (O’Brien), a list may have straight ones
    | dict.fromkeys("‘’‚‛ʼʹ`′", "'")
    | dict.fromkeys("“”„‟″", '"')
    | dict.fromkeys("‐‑‒–—", "-")
)


def loose_key(name: str) -> str:
    """A name ignoring case, accents and the kind of apostrophe, quote or dash: 'Zoë Weiß' and 'zoe weiss',
    'O’Brien' and "o'brien" (NFKD without its combining marks, casefolded, so ß is ss; a few letters NFKD
    keeps whole, such as ø and ł, spelled plainly)."""
    folded = unicodedata.normalize("NFKD", normalise_name(name).casefold()).translate(_LOOSE)
    return "".join(char for char in folded if not unicodedata.combining(char))


def did_you_mean(name: str, names: Collection[str]) -> str:
    """The end of a message refusing an unknown name: "; did you mean 'Zoë Weiß'?" when exactly one
    of `names` matches `name` ignoring case and accents; else the one or two nearest spellings (difflib's
    ratio of the loose keys at least 0.75: a letter missing, doubled or swapped); else nothing."""
    key = loose_key(name)
    matches = [other for other in names if loose_key(other) == key]
    if len(matches) == 1:
        return f"; did you mean {matches[0]!r}?"
    by_key = {loose_key(other): other for other in names}
    near = difflib.get_close_matches(key, list(by_key), n=2, cutoff=0.75)
    return f"; did you mean {' or '.join(repr(by_key[k]) for k in near)}?" if near and not matches else ""


def not_a_player(name: str, players: Collection[str]) -> str:
    return f"{name!r} is not a player{did_you_mean(name, players)}"
