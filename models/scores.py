"""Scores and standings: a table's card for one round, and the standings after a round."""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, ConfigDict, Field, StrictInt, computed_field, model_validator

from models.event import SitOutScoring
from models.games import Game
from models.rules import MAX_GAMES_PER_ROUND, Ties

GAMES_PER_ROUND = 4  # the default; an event's Rules may say otherwise
MAX_POINTS = 1_000_000  # far beyond any game; a typo of many digits is refused, not added up


class Card(BaseModel):
    """One table's games in one round: each seated player's points per game, in seat order; the game
    results they were scored from when the director entered results rather than points."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    round: StrictInt = Field(ge=1, description="The round, counted from 1.")
    table: StrictInt = Field(ge=1, description="The table number.")
    players: tuple[str, ...] = Field(
        min_length=3,
        max_length=4,
        description="The table's players in seat order A, B, C, D, as the schedule seats them.",
    )
    points: tuple[tuple[StrictInt, ...], ...] = Field(
        description="Per player (in the order of `players`), the points of each game of the round (4 unless the "
        "event's rules say otherwise); integers, may be negative."
    )
    games: tuple[Game, ...] = Field(
        default=(), description="The game results the points were scored from; empty when points were entered."
    )

    @model_validator(mode="after")
    def _one_row_per_player(self) -> Card:
        if len(self.points) != len(self.players):
            raise ValueError(f"{len(self.players)} players but {len(self.points)} rows of points")
        games = len(self.points[0]) if self.points else 0
        if not 1 <= games <= MAX_GAMES_PER_ROUND:
            raise ValueError(f"a round has 1 to {MAX_GAMES_PER_ROUND} games, not {games}")
        for name, row in zip(self.players, self.points):
            if len(row) != games:
                raise ValueError(f"{name!r} has {len(row)} games, not {games} as the others")
            if any(abs(points) > MAX_POINTS for points in row):
                raise ValueError(f"{name!r}: points beyond {MAX_POINTS:,} in one game")
        if self.games and [g.game for g in self.games] != list(range(1, games + 1)):
            raise ValueError(f"the game results must be games 1 to {games} in order")
        if any((g.round, g.table) != (self.round, self.table) for g in self.games):
            raise ValueError("a game result of another round or table")
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

    rank: int = Field(
        ge=1, description="Competition ranking: players level on total (and the tie-breaks, if used) share the rank."
    )
    shared: bool = Field(description="True when another player has the same rank.")
    player: str
    id: str = Field(default="", description="The player's member number, from the names file's id column.")
    total: int
    games_played: int = Field(default=0, description="Games played at a table (sat-out rounds play none).")
    games_won: int = Field(
        description="Games the player won: as entered in game results, else games in which the player scored "
        "strictly the most at the table."
    )
    best_game: int | None = Field(description="The player's best single game; None if no game was played.")
    rounds: tuple[RoundScore, ...]
    left_after: int | None = Field(default=None, description="The last round played before leaving.")
    arrived: int | None = Field(default=None, description="The first round played, for a late arrival.")

    @computed_field  # type: ignore[prop-decorator]
    @property
    def place(self) -> str:
        """The rank as a director writes it: '3', or '=3' when shared."""
        return f"={self.rank}" if self.shared else str(self.rank)


class HighScore(BaseModel):
    """The best round total of a round (`table` None) or of one table in it; level players share it."""

    model_config = ConfigDict(frozen=True)

    round: int
    table: int | None = Field(description="The table, or None for the round's winners over the whole room.")
    players: tuple[str, ...]
    points: int


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
    ties: Ties = Field(default=Ties.SHARED, description="Level totals share the place, or are split.")
    circle: int = Field(default=3, ge=1, description="The winner's circle: the prize places for this field.")
    prizes: tuple[str, ...] = Field(default=(), description="How tied places in the winner's circle share prizes.")
    highs: tuple[HighScore, ...] = Field(
        default=(), description="Per counted round, its winners over the room, then each table's high score."
    )
