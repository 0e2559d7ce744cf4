"""A season's standings from its nights' standings (rotation.scoring.standings), by one of three rules.

- cumulative: the sum of every night's total;
- average: points per game, over the games a member played at a table (four a round; a sat-out round's
  points are not a game and do not count), ranked among members with at least `min_games` games; the
  others are listed below, unranked, with their figures;
- best N: the sum of a member's best N nights' totals (all nights when they came to fewer).
Members are matched across nights by name as the project compares names (models.event.name_key: 'Ann'
and 'ANN' are one); a member keeps the spelling of their latest night. Level scores are split by games
won over the season; members level on both share the rank (1, =2, =2, 4). A night a member missed
counts nothing. Players named in `left_out` (a series' guests when it ranks members only) are not in the
rows; the standings list them apart.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Sequence

from models import SeasonRow, SeasonRule, SeasonStandings, Standings
from models.event import name_key
from models.scores import GAMES_PER_ROUND, RoundMark

AT_TABLE = (RoundMark.PLAYED, RoundMark.THREE_HANDED)


def season_standings(
    nights: Sequence[Standings],
    rule: SeasonRule = SeasonRule.CUMULATIVE,
    *,
    min_games: int = 0,
    best_nights: int | None = None,
    labels: Sequence[str] | None = None,
    left_out: Collection[str] = (),
) -> SeasonStandings:
    """The season after `nights` (in order) by `rule`, without the players in `left_out`. Raise ValueError
    when the best rule has no N, or labels do not match the nights."""
    if rule is SeasonRule.BEST and not best_nights:
        raise ValueError("the best-nights rule needs the number of nights that count")
    labels = tuple(labels) if labels is not None else tuple(f"night {n}" for n in range(1, len(nights) + 1))
    if len(labels) != len(nights):
        raise ValueError(f"{len(labels)} labels for {len(nights)} nights")
    members: dict[str, dict] = {}
    leave = {name_key(player) for player in left_out}
    apart: dict[str, str] = {}  # left out and seen on a night, as last spelled
    for number, night in enumerate(nights):
        for row in night.rows:
            if name_key(row.player) in leave:
                apart[name_key(row.player)] = row.player
                continue
            member = members.setdefault(name_key(row.player), _empty(len(nights)))
            member["player"] = row.player
            member["nights"][number] = row.total
            member["games"] += GAMES_PER_ROUND * sum(score.mark in AT_TABLE for score in row.rounds)
            member["at_table"] += sum(score.points or 0 for score in row.rounds if score.mark in AT_TABLE)
            member["games_won"] += row.games_won
    rows = [_row(member, rule, best_nights) for member in members.values()]
    return SeasonStandings(
        rule=rule,
        min_games=min_games,
        best_nights=best_nights if rule is SeasonRule.BEST else None,
        labels=labels,
        rows=_ranked(rows, rule, min_games),
        left_out=tuple(sorted(apart.values(), key=str.casefold)),
    )


def _empty(nights: int) -> dict:
    return {"player": "", "nights": [None] * nights, "games": 0, "at_table": 0, "games_won": 0}


def _row(member: dict, rule: SeasonRule, best_nights: int | None) -> dict:
    played = [(total, n) for n, total in enumerate(member["nights"]) if total is not None]
    kept = {n for _, n in sorted(played, key=lambda item: (-item[0], item[1]))[: best_nights or len(played)]}
    counted = tuple(
        n in kept if rule is SeasonRule.BEST else total is not None for n, total in enumerate(member["nights"])
    )
    total = sum(total for total, _ in played)
    if rule is SeasonRule.AVERAGE:
        score = member["at_table"] / member["games"] if member["games"] else 0.0
    elif rule is SeasonRule.BEST:
        score = float(sum(total for total, n in played if n in kept))
    else:
        score = float(total)
    return {
        "player": member["player"],
        "nights": tuple(member["nights"]),
        "counted": counted,
        "games": member["games"],
        "games_won": member["games_won"],
        "total": total,
        "score": score,
    }


def _ranked(rows: list[dict], rule: SeasonRule, min_games: int) -> tuple[SeasonRow, ...]:
    """Ranked members by (score, games won), level ones alphabetically; under the average rule members
    below the minimum of games follow, unranked."""
    ranked = [row for row in rows if rule is not SeasonRule.AVERAGE or row["games"] >= min_games]
    unranked = [row for row in rows if row not in ranked]

    def key(row: dict) -> tuple[float, int]:
        return (round(row["score"], 9), row["games_won"])

    ranked.sort(key=lambda row: row["player"].casefold())
    ranked.sort(key=key, reverse=True)
    first: dict[tuple[float, int], int] = {}
    for index, row in enumerate(ranked):
        first.setdefault(key(row), index + 1)
    level = Counter(key(row) for row in ranked)
    unranked.sort(key=lambda row: (-row["games"], row["player"].casefold()))
    return tuple(
        [SeasonRow(rank=first[key(row)], shared=level[key(row)] > 1, **row) for row in ranked]
        + [SeasonRow(rank=None, shared=False, **row) for row in unranked]
    )
