"""An event's scoring rules: the flat points American mah jongg tournaments use, as data.

Every published tournament rule sheet lists the same items with small differences between events
(Mah Jongg Master Points' standardized rules list them too); the defaults are the common values:

    winner                      the hand's value on the card (not doubled; nobody pays)
    self-picked Mah Jongg       +10 to the winner
    jokerless hand              +20 to the winner (not for Singles and Pairs, which never has jokers)
    discarder of the winning tile   -10 when the winner has 0-1 exposures, -20 with 2, -25 with 3 or more
    wall game                   +10 to every player except dead hands and a Mah Jongg in error
    dead hand                   0 for that game
    Mah Jongg in error          0 for that game (and no wall bonus)
    game unfinished at time     0 for everyone

Rounds are `games_per_round` games; ties for a place are shared (MJMP: "if there is a tie at any level,
prizes will be shared equally") unless the event breaks them by games won and then the best game.
"""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, ConfigDict, Field, StrictInt, model_validator

from models.event import SitOutScoring

MAX_GAMES_PER_ROUND = 8
MAX_RULE_POINTS = 1000  # any bonus or penalty; a hand's value is bounded by the rules' own highest value
MAX_RULE_TEXT = 2000

# The guide's rule for a table of three (MJMP items 3.1 and 5.3).
THREE_HANDED_RULE = (
    "Three-handed table: seats A, B and C only, no D. No Charleston; for the fourth game all three "
    "roll the dice again to decide East."
)

SIT_OUT_RULE = {
    SitOutScoring.ZERO: "A player who sits out a round scores zero for that round.",
    SitOutScoring.AVERAGE: (
        "A player who sits out a round scores the round's average: the total of all scores at the tables "
        "that round divided by the number of players who played it, rounded as the event rounds scores."
    ),
}


class Ties(str, Enum):
    """How players level on total are placed."""

    SHARED = "shared"  # the same place ("=4"), a prize at that place split equally
    BROKEN = "games won, then best game"  # level totals split by games won, then by the best single game


Points = StrictInt


class Rules(BaseModel):
    """What each line of the event's rule sheet is worth. Penalties are written as the points lost
    (10 means -10); `dead_hand`, `mah_jongg_in_error` and `unfinished` are the points scored and may be
    negative where an event penalises them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    games_per_round: StrictInt = Field(default=4, ge=1, le=MAX_GAMES_PER_ROUND, description="Games in a round.")
    self_pick: Points = Field(default=10, ge=0, le=MAX_RULE_POINTS, description="Bonus for a self-picked Mah Jongg.")
    jokerless: Points = Field(default=20, ge=0, le=MAX_RULE_POINTS, description="Bonus for a jokerless hand.")
    discarder_0_1_exposures: Points = Field(
        default=10, ge=0, le=MAX_RULE_POINTS, description="Lost by the discarder when the winner has 0 or 1 exposures."
    )
    discarder_2_exposures: Points = Field(
        default=20, ge=0, le=MAX_RULE_POINTS, description="Lost by the discarder when the winner has 2 exposures."
    )
    discarder_3_exposures: Points = Field(
        default=25, ge=0, le=MAX_RULE_POINTS, description="Lost by the discarder when the winner has 3 or more."
    )
    wall_game: Points = Field(
        default=10, ge=0, le=MAX_RULE_POINTS, description="To each player in a wall game, except dead hands."
    )
    dead_hand: Points = Field(default=0, ge=-MAX_RULE_POINTS, le=MAX_RULE_POINTS, description="A dead hand's game.")
    mah_jongg_in_error: Points = Field(
        default=0,
        ge=-MAX_RULE_POINTS,
        le=MAX_RULE_POINTS,
        description="The game of a player who called Mah Jongg in error.",
    )
    unfinished: Points = Field(
        default=0, ge=-MAX_RULE_POINTS, le=MAX_RULE_POINTS, description="Each player's game when time ran out."
    )
    lowest_value: Points = Field(default=25, ge=5, le=MAX_RULE_POINTS, description="The lowest hand on the card.")
    highest_value: Points = Field(default=100, ge=5, le=MAX_RULE_POINTS, description="The highest hand on the card.")
    value_step: Points = Field(default=5, ge=1, le=100, description="Hand values are multiples of this.")
    two_winners: bool = Field(
        default=False, description="Two players may win on the same discard (a League ruling some events use)."
    )
    ties: Ties = Field(default=Ties.SHARED, description="Level totals share the place, or are split.")
    winners_circle: tuple[tuple[StrictInt, StrictInt], ...] = Field(
        default=((1, 3), (24, 6), (48, 12)),
        description="(from this many players, this many places): the prize places by the size of the field.",
    )
    three_handed: str = Field(default=THREE_HANDED_RULE, max_length=MAX_RULE_TEXT)
    sit_out: str = Field(
        default="",
        max_length=MAX_RULE_TEXT,
        description="The sit-out rule in the event's words; empty: the words of the schedule's sit-out scoring.",
    )

    @model_validator(mode="after")
    def _consistent(self) -> Rules:
        if self.lowest_value > self.highest_value:
            raise ValueError(f"the lowest hand value {self.lowest_value} is above the highest {self.highest_value}")
        if self.lowest_value % self.value_step or self.highest_value % self.value_step:
            raise ValueError(f"the lowest and highest hand values must be multiples of {self.value_step}")
        sizes = [size for size, _ in self.winners_circle]
        if not sizes or sizes[0] != 1 or sizes != sorted(set(sizes)):
            raise ValueError("the winner's circle starts from 1 player and grows with the field, each size once")
        if any(not 1 <= places <= 1000 for _, places in self.winners_circle):
            raise ValueError("the winner's circle has 1 to 1000 places")
        return self

    def discarder_loses(self, exposures: int) -> int:
        """The points the discarder of the winning tile loses, by the winner's exposures."""
        if exposures >= 3:
            return self.discarder_3_exposures
        return self.discarder_2_exposures if exposures == 2 else self.discarder_0_1_exposures

    def circle(self, players: int) -> int:
        """The prize places for a field of this many players."""
        return next(places for size, places in reversed(self.winners_circle) if players >= size)

    def is_hand_value(self, value: int) -> bool:
        return self.lowest_value <= value <= self.highest_value and value % self.value_step == 0

    def line(self) -> str:
        """The rule sheet in one line, for the foot of a score sheet."""
        return (
            f"Scoring: the winner scores the hand's value (self-picked +{self.self_pick}, jokerless "
            f"+{self.jokerless}); the discarder loses {self.discarder_0_1_exposures} (winner 0-1 exposures), "
            f"{self.discarder_2_exposures} (2), {self.discarder_3_exposures} (3+); wall game +{self.wall_game} "
            f"to each live hand; dead hand {self.dead_hand}; Mah Jongg in error {self.mah_jongg_in_error}; "
            f"unfinished {self.unfinished}."
        )

    def sheet(self) -> tuple[str, ...]:
        """The rule sheet in a director's words, one line an item, as printed on score sheets and the rules page."""
        return (
            f"Winner: the hand's value on the card ({self.lowest_value} to {self.highest_value}); nobody pays.",
            f"Self-picked Mah Jongg: +{self.self_pick} to the winner.",
            f"Jokerless hand (not Singles and Pairs): +{self.jokerless} to the winner.",
            f"Discarder of the winning tile: -{self.discarder_0_1_exposures} when the winner has 0-1 exposures, "
            f"-{self.discarder_2_exposures} with 2, -{self.discarder_3_exposures} with 3 or more.",
            f"Wall game: +{self.wall_game} to every player except dead hands and a Mah Jongg in error.",
            f"Dead hand: {self.dead_hand} for that game.",
            f"Mah Jongg in error: {self.mah_jongg_in_error} for that game (and no wall bonus).",
            f"Game unfinished at time: {self.unfinished} for everyone.",
            *(["Two players may win on the same discard; the discarder loses for each."] if self.two_winners else []),
            f"A round is {self.games_per_round} game{'s' if self.games_per_round > 1 else ''}.",
            "Ties: players level on total share the place and split its prize equally."
            if self.ties is Ties.SHARED
            else "Ties: level totals are split by games won, then by the best single game.",
        )
