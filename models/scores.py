"""Scores and standings: a table's card for one round, and the standings after a round."""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, ConfigDict, Field, StrictInt, computed_field, model_validator

from models.event import SitOutScoring

GAMES_PER_ROUND = 4
MAX_POINTS = 1_000_000  # far beyond any game; a typo of many digits is refused, not added up


class Card(BaseModel):
    """One table's four games in one round: each seated player's points per game, in seat order."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    round: StrictInt = Field(ge=1, description="The round, counted from 1.")
    table: StrictInt = Field(ge=1, description="The table number.")
    players: tuple[str, ...] = Field(
        min_length=3,
        max_length=4,
        description="The table's players in seat order A, B, C, D, as the schedule seats them.",
    )
    points: tuple[tuple[StrictInt, ...], ...] = Field(
        description="Per player (in the order of `players`), the points of games 1 to 4; integers, may be negative."
    )

    @model_validator(mode="after")
    def _one_row_per_player(self) -> Card:
        if len(self.points) != len(self.players):
            raise ValueError(f"{len(self.players)} players but {len(self.points)} rows of points")
        for name, row in zip(self.players, self.points):
            if len(row) != GAMES_PER_ROUND:
                raise ValueError(f"{name!r} has {len(row)} games, not {GAMES_PER_ROUND}")
            if any(abs(points) > MAX_POINTS for points in row):
                raise ValueError(f"{name!r}: points beyond {MAX_POINTS:,} in one game")
        return self

    def totals(self) -> dict[str, int]:
        """Each player's round total."""
        return {name: sum(row) for name, row in zip(self.players, self.points)}


class RoundMark(str, Enum):
    """How a player's round in the standings came about."""

    PLAYED = "played"
    THREE_HANDED = "three-handed"
    SAT_OUT = "sat out"  # points by the event's rule, not earned at a table
    ARRIVING = "not yet arrived"  # points by the sit-out rule only if the event says so
    LEFT = "left"
    ABSENT = "not here"


class RoundScore(BaseModel):
    """One player's round in the standings."""

    model_config = ConfigDict(frozen=True)

    round: int
    mark: RoundMark
    points: int | None = Field(description="The round total, or None when the player scores nothing that round.")
    table: int | None = Field(default=None, description="The table played at.")


class StandingRow(BaseModel):
    """One player's place: rank by total, then games won, then best single game."""

    model_config = ConfigDict(frozen=True)

    rank: int = Field(ge=1, description="Competition ranking: players level on every figure share the rank.")
    shared: bool = Field(description="True when another player has the same rank.")
    player: str
    total: int
    games_won: int = Field(description="Games in which the player scored strictly the most at the table.")
    best_game: int | None = Field(description="The player's best single game; None if no game was played.")
    rounds: tuple[RoundScore, ...]
    left_after: int | None = Field(default=None, description="The last round played before leaving.")
    arrived: int | None = Field(default=None, description="The first round played, for a late arrival.")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def place(self) -> str:
        """The rank as a director writes it: '3', or '=3' when shared."""
        return f"={self.rank}" if self.shared else str(self.rank)


class Standings(BaseModel):
    """The standings after rounds 1 to `after`."""

    model_config = ConfigDict(frozen=True)

    after: int = Field(ge=1, description="The rounds counted: 1 to this one.")
    rounds: int = Field(description="The rounds on the day.")
    sit_out_scoring: SitOutScoring
    late_arrivals_as_sit_outs: bool = Field(
        description="True: a late arrival's missed rounds score by the sit-out rule; False: they score nothing."
    )
    round_averages: tuple[int, ...] = Field(
        description="Per counted round, the average a sit-out scores under 'average': the mean round total of the "
        "players who played it, rounded half away from zero to a whole point."
    )
    rows: tuple[StandingRow, ...]
