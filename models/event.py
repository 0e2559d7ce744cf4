"""What the director tells us about the day: who plays, how many rounds, how odd counts are seated."""

from __future__ import annotations

import re
import unicodedata
from enum import Enum

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator


class OddPolicy(str, Enum):
    """How a room whose count is not a multiple of four is seated (the guide's two answers)."""

    THREE_HANDED = "three-handed"
    SIT_OUT = "sit-out"


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
                "use --odd sit-out to have the extra players sit out instead"
            )
        return cls(fours=(players - 3 * threes) // 4, threes=threes, sit_outs=0)


# The largest room any command seats: far past any real tournament, and small enough that the checker,
# the fixed rule and the files stay well under a minute and a few hundred megabytes.
MAX_PLAYERS = 20_000
MAX_ROUNDS = 100
MAX_SEATS = 1_000_000  # players x rounds

_SPACE = re.compile(r"\s+")


def normalise_name(name: str) -> str:
    """One spelling per name: NFC, invisible, format and control characters removed, every run of
    white space (line and paragraph separators included) one space, none at the ends. Every name that
    enters the tool (names files, request files, --add and --drop, schedule files) goes through this."""
    name = unicodedata.normalize("NFC", name)
    kept = []
    for char in name:
        category = unicodedata.category(char)
        if char.isspace() or category in ("Zs", "Zl", "Zp"):
            kept.append(" ")
        elif category in ("Cc", "Cf", "Cs"):
            continue  # NUL and other controls, zero-width space, joiners, byte-order marks
        else:
            kept.append(char)
    return _SPACE.sub(" ", "".join(kept)).strip()


def name_key(name: str) -> str:
    """Two names with the same key are the same player: 'Ann' and 'ann', 'José' and 'JOSÉ'."""
    return unicodedata.normalize("NFC", normalise_name(name).casefold())


def default_names(count: int) -> list[str]:
    width = len(str(count))
    return [f"P{i:0{width}d}" for i in range(1, count + 1)]


class Event(BaseModel):
    """The room and the day. Immutable: every way of building a schedule reads it, none changes it."""

    model_config = ConfigDict(frozen=True)

    players: tuple[str, ...] = Field(description="Names, in the order they are numbered.")
    rounds: int = Field(ge=1, description="Rounds of four games each.")
    odd: OddPolicy = OddPolicy.THREE_HANDED
    sit_out_scoring: SitOutScoring = SitOutScoring.ZERO
    apart: tuple[tuple[str, ...], ...] = Field(default=(), description="Groups who must never share a table.")
    spread: tuple[tuple[str, ...], ...] = Field(
        default=(), description="Club-mates: kept apart where that costs no extra repeat (a soft request)."
    )
    stay: dict[str, int] = Field(default_factory=dict, description="Players who keep one table (1-based) all day.")

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
    def with_count(cls, count: int, rounds: int, **settings) -> Event:
        if count < 4:
            raise ValueError(f"a room needs at least 4 players, got {count}")
        if count > MAX_PLAYERS:  # before a list of a million names is made
            raise ValueError(f"a room holds at most {MAX_PLAYERS} players, got {count}")
        return cls(players=tuple(default_names(count)), rounds=rounds, **settings)

    @property
    def layout(self) -> Layout:
        return Layout.for_room(len(self.players), self.odd)


def _check_requests(event: Event, layout: Layout) -> None:
    """Requests that no schedule can meet are refused here, naming the request, before any solving."""
    known = set(event.players)
    for group in event.spread:
        unknown = [name for name in group if name not in known]
        if unknown:
            raise ValueError(f"spread {', '.join(group)}: {unknown[0]!r} is not a player")
    for group in event.apart + event.spread:
        twice = [name for name in set(group) if group.count(name) > 1]
        if twice:
            raise ValueError(f"group {', '.join(group)}: {twice[0]!r} is named twice")
    for group in event.apart:
        request = "apart " + ", ".join(group)
        unknown = [name for name in group if name not in known]
        if unknown:
            raise ValueError(f"{request}: {unknown[0]!r} is not a player")
        if len(group) > layout.tables:
            raise ValueError(f"{request}: {len(group)} players cannot be kept apart at {layout.tables} tables")
    capacity = [4] * layout.fours + [3] * layout.threes
    staying: dict[int, list[str]] = {}
    for name, table in event.stay.items():
        if name not in known:
            raise ValueError(f"stay {name} at table {table}: {name!r} is not a player")
        if not 1 <= table <= layout.tables:
            raise ValueError(f"stay {name} at table {table}: the room has tables 1 to {layout.tables}")
        staying.setdefault(table, []).append(name)
    for table, names in staying.items():
        if len(names) > capacity[table - 1]:
            raise ValueError(
                f"stay at table {table}: {', '.join(names)} do not fit at a table of {capacity[table - 1]}"
            )
        for group in event.apart:
            clash = [name for name in names if name in group]
            if len(clash) > 1:
                raise ValueError(f"stay at table {table}: {' and '.join(clash)} must also be kept apart")
