"""A night of a season: tonight's plan and how it sits beside the nights already played."""

from __future__ import annotations

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
    half_life: float = Field(gt=0, description="Nights after which an earlier meeting counts half.")
    members: int = Field(ge=0, description="Tonight's players who played on an earlier night.")
    result: PlanResult = Field(description="Tonight's plan; its repeats and bound are the season's count.")
    season: SeasonFigures | None = Field(default=None, description="Tonight's plan over the season.")
    alone: SeasonFigures | None = Field(default=None, description="A plan of tonight alone, over the season.")
    alone_runtime: float = Field(default=0.0, description="Seconds the plan of tonight alone took.")
