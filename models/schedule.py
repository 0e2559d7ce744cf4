"""The schedule file: who sits where, round by round. Its keys are a contract other tools read."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, model_validator

from models.event import MAX_PLAYERS, MAX_ROUNDS, MAX_SEATS, OddPolicy, SitOutScoring

SEAT_LETTERS = "ABCD"  # East, North, West, South


class Table(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")  # a misspelled key is an error, not ignored

    table: StrictInt = Field(ge=1, description="Table number, counted from 1.")
    players: tuple[str, ...] = Field(
        min_length=1, max_length=4, description="Names in seat order A, B, C, D; a three-handed table lists three."
    )


class Round(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")  # a misspelled key is an error, not ignored

    tables: tuple[Table, ...]
    sit_outs: tuple[str, ...] = Field(default=(), description="Players who sit this round out.")
    absent: tuple[str, ...] = Field(
        default=(), description="Players not at the event this round (left early or not yet arrived)."
    )


class Correction(BaseModel):
    """A fix by hand: two players who traded places in a round, or one moved into an empty seat."""

    model_config = ConfigDict(frozen=True, extra="forbid")  # a misspelled key is an error, not ignored

    round: StrictInt = Field(ge=1, description="The round changed, counted from 1.")
    change: Literal["swap", "move"] = Field(
        description="'swap': two players traded places; 'move': one player went to an empty seat."
    )
    players: tuple[str, ...] = Field(min_length=1, max_length=2, description="The players swapped, or moved.")
    table: StrictInt | None = Field(default=None, ge=1, description="For a move: the table whose empty seat it took.")
    played: StrictBool = Field(
        description="True: the round had been played, and this records what was played; False: a change to the plan."
    )

    @model_validator(mode="after")
    def _fits_its_change(self) -> Correction:
        if self.change == "swap" and (len(self.players) != 2 or self.table is not None):
            raise ValueError("a swap names two players and no table")
        if self.change == "move" and (len(self.players) != 1 or self.table is None):
            raise ValueError("a move names one player and the table")
        return self


class Provenance(BaseModel):
    """How a schedule file was made: enough to make it again or to judge it."""

    model_config = ConfigDict(frozen=True)

    tool_version: str = Field(description="The rotation version that wrote the file.")
    method: str = Field(
        description="How it was built: 'fixed', or the methods of a plan in order, as `--verbose` prints them "
        "(e.g. 'affine geometry AG(2,4) (library), extended, balanced')."
    )
    seed: int | None = Field(default=None, description="Random seed of the search.")
    time_limit: float | None = Field(
        default=None, ge=0, allow_inf_nan=False, description="Seconds the search was allowed."
    )
    repeats: int | None = Field(default=None, description="E of the schedule, as the search reported it.")
    bound: int | None = Field(default=None, description="The proven lower bound on E.")
    seat_spread: int | None = Field(
        default=None, description="The worst player's most minus fewest rounds in one seat."
    )
    table_visits_above_even: int | None = Field(default=None, description="Visits to a table beyond the even share.")
    trios_again: int | None = Field(default=None, description="Three players at one table again, summed.")
    back_to_back: int | None = Field(default=None, description="Pairs at one table in consecutive rounds.")
    created: str = Field(description="When the file was written (ISO 8601, UTC).")


class Schedule(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")  # a misspelled key is an error, not ignored

    players: tuple[str, ...] = Field(description="Every name on the schedule.")
    rounds: tuple[Round, ...] = Field(min_length=1, description="The rounds, in order.")
    odd: OddPolicy = Field(default=OddPolicy.THREE_HANDED, description="How odd counts are seated.")
    sit_out_scoring: SitOutScoring = Field(default=SitOutScoring.ZERO, description="What a sat-out round scores.")
    rule: str = Field(default="", description="How the schedule was made, e.g. 'fixed' or 'variety'.")
    apart: tuple[tuple[str, ...], ...] = Field(default=(), description="Groups who never share a table.")
    spread: tuple[tuple[str, ...], ...] = Field(default=(), description="Club-mates kept apart where possible.")
    stay: dict[str, StrictInt] = Field(default_factory=dict, description="Players who keep one table all day.")
    ids: dict[str, str] = Field(
        default_factory=dict,
        description="Member numbers by player (the names file's id column), for every export; a later night of a "
        "season matches a member by it, whatever the spelling of the name.",
    )
    arrivals: dict[str, StrictInt] = Field(
        default_factory=dict, description="Late arrivals: the first round they play."
    )
    departures: dict[str, StrictInt] = Field(
        default_factory=dict, description="Players who left: the first round they miss."
    )
    played: StrictInt = Field(
        default=0,
        ge=0,
        description="Rounds 1 to this one are recorded as played: a re-plan keeps them exactly, and the checker "
        "takes them as what happened (a request broken there is reported, not refused).",
    )
    corrections: tuple[Correction, ...] = Field(default=(), description="Fixes by hand, in the order they were made.")
    provenance: Provenance | None = Field(default=None, description="How the file was made (optional).")

    @model_validator(mode="after")
    def _within_the_room_limits(self) -> Schedule:
        """The limits every room command holds (models.event): what `plan` refuses is not checked,
        printed or re-planned either."""
        players, rounds = len(self.players), len(self.rounds)
        if players > MAX_PLAYERS:
            raise ValueError(f"players: a room holds at most {MAX_PLAYERS} players, got {players}")
        if rounds > MAX_ROUNDS:
            raise ValueError(f"rounds: a day has at most {MAX_ROUNDS} rounds, got {rounds}")
        if players * rounds > MAX_SEATS:
            raise ValueError(
                f"a day seats at most {MAX_SEATS:,} player-rounds (players x rounds), got {players} x {rounds}"
            )
        return self

    @model_validator(mode="after")
    def _days_make_sense(self) -> Schedule:
        for name, first in self.arrivals.items():
            if first < 1:
                raise ValueError(f"arrivals: {name!r} arrives in round {first}; rounds count from 1")
            if first >= self.departures.get(name, first + 1):
                raise ValueError(
                    f"arrivals: {name!r} arrives in round {first}, not before leaving "
                    f"(missing round {self.departures[name]} on)"
                )
        for name, first in self.departures.items():
            if first < 1:
                raise ValueError(f"departures: {name!r} leaves before round {first}; rounds count from 1")
        if self.played > len(self.rounds):
            raise ValueError(f"played: {self.played} rounds are recorded as played, but the day has {len(self.rounds)}")
        for correction in self.corrections:
            if correction.round > len(self.rounds):
                raise ValueError(f"corrections: round {correction.round} does not exist")
        listed = set(self.players)
        for name in self.ids:
            if name not in listed:
                raise ValueError(f"ids: {name!r} is not a player of the schedule")
        if len(set(self.ids.values())) < len(self.ids):
            raise ValueError("ids: two players have one id")
        for number, round_ in enumerate(self.rounds, start=1):
            if not round_.tables:
                raise ValueError(f"round {number}: no table is played (is everyone absent?)")
        return self

    def expected(self, round_index: int) -> tuple[str, ...]:
        """The players at the event in a round (0-based), in list order."""
        number = round_index + 1
        away = set(self.rounds[round_index].absent)
        if not (away or self.arrivals or self.departures):
            return self.players  # the whole list, without a look-up per name per round
        return tuple(
            name
            for name in self.players
            if self.arrivals.get(name, 1) <= number < self.departures.get(name, number + 1) and name not in away
        )

    def seat_of(self, round_index: int) -> dict[str, tuple[int, str]]:
        """Each seated player's (table number, seat letter) in one round."""
        return {
            name: (table.table, SEAT_LETTERS[seat])
            for table in self.rounds[round_index].tables
            for seat, name in enumerate(table.players)
        }
