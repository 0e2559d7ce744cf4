"""One game at one table as the director enters it: who won, how, for what, and who lost out.

The record holds what happened, not points: `rotation.scoring.games.game_points` turns it into each
seat's points by the event's `Rules`, and refuses a game that cannot have happened."""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

Seat = Literal["A", "B", "C", "D"]
GAME_COLUMNS = (
    "round",
    "table",
    "game",
    "winner",
    "value",
    "how",
    "discarder",
    "exposures",
    "jokerless",
    "dead",
    "error",
)
MAX_EXPOSURES = 4  # 14 tiles hold at most four groups of three or more


class How(str, Enum):
    """How the game ended."""

    SELF = "self"  # the winner picked the winning tile from the wall
    DISCARD = "discard"  # the winner called another player's discard
    WALL = "wall"  # the wall ran out with no winner
    UNFINISHED = "unfinished"  # time was called before the game ended


class Game(BaseModel):
    """One game. `winners` has one seat, or two when the rules allow two winners on one discard; `values`,
    `exposures` and `jokerless` go with `winners` one for one."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    round: StrictInt = Field(ge=1)
    table: StrictInt = Field(ge=1)
    game: StrictInt = Field(ge=1, description="The game within the round, from 1.")
    how: How
    winners: tuple[Seat, ...] = Field(default=(), max_length=4)
    values: tuple[StrictInt, ...] = Field(default=(), max_length=4, description="Each winner's hand value.")
    exposures: tuple[StrictInt, ...] = Field(default=(), max_length=4, description="Each winner's exposures.")
    jokerless: tuple[StrictBool, ...] = Field(default=(), max_length=4, description="Each winner's hand jokerless.")
    discarder: Seat | None = Field(default=None, description="Who discarded the winning tile.")
    dead: tuple[Seat, ...] = Field(default=(), max_length=4, description="Dead hands.")
    error: tuple[Seat, ...] = Field(default=(), max_length=4, description="Who called Mah Jongg in error.")

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.round, self.table, self.game)
