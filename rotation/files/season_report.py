"""How a night of a season reads to a director: what tonight adds to the nights already played."""

from __future__ import annotations

import math

from models import NightPlan, SeasonFigures
from optimizer.words import counted, optimality
from rotation.files.report import planned_lines


def season_text(night: NightPlan, verbose: bool = False) -> str:
    """The season's lines under tonight's figures: tonight's pairs who met before, against planning
    tonight alone; the most meetings of a pair; turns; the repeats over the season and their bound."""
    result, ours, alone = night.result, night.season, night.alone
    memory = (
        "every meeting counts alike"
        if math.isinf(night.half_life)
        else (f"a meeting's recency halves after {night.half_life:g} nights")
    )
    lines = [
        "",
        f"Season: {counted(night.nights, 'earlier night')} ({memory}); "
        f"{night.members} of tonight's players played before",
    ]
    if ours is not None:
        lines += [
            f"Tonight's pairs who met on an earlier night: {_met(ours)}" + _beside(alone, _met),
            f"Most times one of tonight's pairs has met, tonight included: {ours.most_meetings}"
            + _beside(alone, lambda f: str(f.most_meetings)),
            f"Seat letters over the season: at most {counted(ours.seat_spread, 'round')} more in one letter than "
            "in another" + _beside(alone, lambda f: str(f.seat_spread)),
            f"Three-handed rounds and sit-outs out of turn over the season: {ours.turns_out_of_order}"
            + _beside(alone, lambda f: str(f.turns_out_of_order)),
        ]
    lines += [
        "",
        f"Repeats over the season: {counted(result.repeats or 0, 'repeat')} (tonight's meetings of pairs who met "
        "more than most, and tonight's own repeats)",
        f"Lower bound: {counted(result.bound.repeats, 'repeat')} ({result.bound.proof})",
        optimality(result.repeats or 0, result.bound.repeats, room="of tonight"),
    ]
    beside = "" if alone is None else f", and tonight alone in {night.alone_runtime:.1f} s"
    lines += planned_lines(result, verbose, beside)
    return "\n".join(lines)


def _met(figures: SeasonFigures) -> str:
    return f"{figures.met_before} of {figures.pairs}"


def _beside(alone: SeasonFigures | None, shown) -> str:
    return "" if alone is None else f" (planning tonight alone: {shown(alone)})"
