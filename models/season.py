"""A night of a season: tonight's plan and how it sits beside the nights already played."""

from __future__ import annotations

from enum import Enum

from pydantic import BaseModel, ConfigDict, Field

from models.result import PlanResult


class SeasonFigures(BaseModel):
    """Tonight's schedule counted over the season: the earlier nights' meetings and turns included."""

    model_config = ConfigDict(frozen=True)

    pairs: int = Field(ge=0, description="Pairs who share a table tonight.")
    met_before: int = Field(ge=0, description="Of them, pairs who already met on an earlier night.")
    repeats: int = Field(
        ge=0,
        description="What the plan minimises: tonight's meetings of pairs who count as met (earlier meetings "
        "weighed by age, optimizer.season), plus tonight's own repeats.",
    )
    most_meetings: int = Field(ge=0, description="The most times one of tonight's pairs has met, tonight included.")
    seat_spread: int = Field(
        ge=0, description="The worst player's most minus fewest rounds in one seat letter over the season, tonight in."
    )
    turns_out_of_order: int = Field(
        ge=0,
        description="Players three-handed or sitting out tonight who had taken more such turns on earlier nights "
        "than someone spared tonight.",
    )


class NightPlan(BaseModel):
    """Tonight planned against the earlier nights, beside a short run planning tonight alone."""

    model_config = ConfigDict(frozen=True)

    nights: int = Field(ge=0, description="Earlier nights counted.")
    half_life: float = Field(gt=0, description="Nights after which an earlier meeting's recency weight halves.")
    members: int = Field(ge=0, description="Tonight's players who played on an earlier night.")
    result: PlanResult = Field(description="Tonight's plan; its repeats and bound are the season's count.")
    season: SeasonFigures | None = Field(default=None, description="Tonight's plan over the season.")
    alone: SeasonFigures | None = Field(default=None, description="A plan of tonight alone, over the season.")
    alone_runtime: float = Field(default=0.0, description="Seconds the plan of tonight alone took.")


class SeasonRule(str, Enum):
    """How a season's standings rank its members."""

    CUMULATIVE = "cumulative"  # every night's total added up
    AVERAGE = "average"  # points per game played at a table, for members with the minimum of games
    BEST = "best"  # the best N nights' totals added up


class SeasonRow(BaseModel):
    """One member's season."""

    model_config = ConfigDict(frozen=True)

    rank: int | None = Field(ge=1, description="Competition ranking; None below the minimum of games (average).")
    shared: bool = Field(description="True when another member has the same rank.")
    player: str
    nights: tuple[int | None, ...] = Field(description="Each night's total; None for a night missed.")
    counted: tuple[bool, ...] = Field(description="Per night: does its total count (best N: the best nights only).")
    games: int = Field(ge=0, description="Games played at a table over the season (four a round).")
    games_won: int = Field(ge=0)
    total: int = Field(description="The nights' totals added up (all nights).")
    score: float = Field(description="What the rule ranks by: the total, the average per game, or the best nights.")


class SeasonStandings(BaseModel):
    """A season's standings after the nights given, by one rule."""

    model_config = ConfigDict(frozen=True)

    rule: SeasonRule
    min_games: int = Field(ge=0, description="Average: members with fewer games are listed, unranked.")
    best_nights: int | None = Field(default=None, ge=1, description="Best: the nights counted per member.")
    labels: tuple[str, ...] = Field(description="The nights, in order.")
    rows: tuple[SeasonRow, ...]
    left_out: tuple[str, ...] = Field(default=(), description="Players who played but are not ranked (guests).")
