"""How good a schedule is, as the checker measures it."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class PlayerMetrics(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    opponents: int = Field(description="Distinct opponents met.")
    repeats: int = Field(description="Meetings beyond the first, summed over this player's opponents.")
    three_handed_rounds: int
    sit_out_rounds: int
    rounds_played: int = Field(default=0, description="Rounds at a table (not sitting out, not away).")


class Metrics(BaseModel):
    model_config = ConfigDict(frozen=True)

    repeats: int = Field(description="E: sum over pairs of max(0, meetings - 1).")
    max_meetings: int = Field(description="The most times any pair meets.")
    opponents_min: int
    opponents_mean: float
    repeats_by_round: tuple[int, ...] = Field(description="Pairs at a table this round who had met before.")
    three_handed_fair: bool = Field(description="Nobody was three-handed twice while someone had not been once.")
    sit_outs_fair: bool = Field(description="Nobody sat out twice while someone had not sat out once.")
    club_meetings: int = Field(default=0, description="Times two club-mates (the spread request) shared a table.")
    seat_spread: int = Field(
        default=0,
        description="The worst player's (most - fewest) rounds in one seat letter: A-D for anyone who sat at a "
        "table of four, A-C for a player only ever three-handed. Balanced is at most 1.",
    )
    table_visits_above_even: int = Field(
        default=0,
        description="Visits to one table number beyond ceil(rounds played / tables), summed over players and "
        "tables; players who stay at one table are exempt.",
    )
    trios_again: int = Field(
        default=0, description="Sum over every three players of max(0, rounds all three share a table - 1)."
    )
    back_to_back: int = Field(
        default=0, description="Pairs who share a table in a round and again in the next round, counted per round."
    )
    apart_meetings: int = Field(
        default=0,
        description="Times two players of one keep-apart group shared a table; 0 in every schedule the checker passes.",
    )
    stay_moves: int = Field(
        default=0,
        description="Rounds a player who stays sat at another table; 0 in every schedule the checker passes.",
    )
    indirect_meetings: int | None = Field(
        default=None,
        description="Among pairs who never share a table, the fewest opponents they have in common; "
        "None when every pair meets, or when a run stopped at the room limits had no time to measure it.",
    )
    broken_requests: tuple[str, ...] = Field(
        default=(),
        description="Requests (apart, stay) broken in rounds recorded as played: what happened, corrected by hand; "
        "the checker refuses a broken request in any round still to play.",
    )
    players: tuple[PlayerMetrics, ...]

    @property
    def turns_fair(self) -> bool:
        """Three-handed seats and sit-outs both taken in turn."""
        return self.three_handed_fair and self.sit_outs_fair

    @property
    def worst_player_repeats(self) -> int:
        return max((p.repeats for p in self.players), default=0)
