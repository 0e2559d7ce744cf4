"""The standings after a round, from the tables' cards and the schedule's rules.

Rules (docs/requests.md, "Scores and standings", states them for directors):

- A player's round is the sum of their four games. A sat-out round scores by the schedule's
  `sit_out_scoring`: zero, or the round's average, the mean round total of the players who played that
  round, rounded half away from zero to a whole point (12.5 -> 13, -12.5 -> -13), computed exactly in
  integers.
- A player who left keeps the rounds they played and scores nothing after; a late arrival's missed
  rounds score nothing, or by the sit-out rule when the event says so (`late_arrivals_as_sit_outs`);
  a round a player was absent scores nothing.
- Rank by total. By the event's rules (`Rules.ties`) players level on total share the place (the
  default, MJMP: "if there is a tie at any level, prizes will be shared equally"), or level totals are
  split by games won (a game entered as a result is won by its winner; a game entered as points by the
  one player with strictly the most points at the table in it: a game whose most is shared, like a wall
  game of zeros, has no winner), then by the best single game (a player who played no game comes last on
  it). Players still level share the rank (competition ranking: 1, =2, =2, 4).
- The winner's circle has `Rules.circle(players ranked)` places; players sharing a place in it pool the
  prizes of the places they take and split them equally (`prizes` says so, place by place).
- After each round its winners (the best round total over the room) and each table's high score are
  listed (`highs`); level players share them.
- Cards are taken in the order entered: a later card for the same round and table is a correction and
  replaces the earlier one, it is never added to it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from models import SEAT_LETTERS, Schedule, SitOutScoring
from models.games import How
from models.rules import Rules, Ties
from models.scores import Card, HighScore, RoundMark, RoundScore, StandingRow, Standings
from rotation.scoring.cards import CardProblem, CardRefused


class ScoresIncomplete(ValueError):
    """Standings asked for after a round whose cards are not all in."""


def latest_cards(cards: Iterable[Card]) -> dict[tuple[int, int], Card]:
    """(round, table) -> the card that counts: the last one entered for it."""
    return {(card.round, card.table): card for card in cards}


def missing_tables(schedule: Schedule, cards: dict[tuple[int, int], Card], round_number: int) -> tuple[int, ...]:
    """The tables of a round with no card yet."""
    tables = schedule.rounds[round_number - 1].tables
    return tuple(sorted(t.table for t in tables if (round_number, t.table) not in cards))


def complete_rounds(schedule: Schedule, cards: Iterable[Card]) -> int:
    """The last round K such that every table of rounds 1 to K has its card (0 if round 1 is not in)."""
    latest = latest_cards(cards)
    done = 0
    while done < len(schedule.rounds) and not missing_tables(schedule, latest, done + 1):
        done += 1
    return done


def round_half_away(total: int, count: int) -> int:
    """total / count rounded to the nearest whole number, halves away from zero, in exact integers."""
    magnitude = (2 * abs(total) + count) // (2 * count)
    return magnitude if total >= 0 else -magnitude


def standings(
    schedule: Schedule,
    cards: Iterable[Card],
    after: int | None = None,
    late_arrivals_as_sit_outs: bool = False,
    rules: Rules | None = None,
) -> Standings:
    """The standings after round `after` (default: the last round whose every card is in), ties placed and
    the winner's circle sized by `rules` (default: the common rules, ties shared).

    Raises CardRefused for a card that does not match the schedule's table, and ScoresIncomplete
    when a counted round lacks a card."""
    latest = latest_cards(cards)
    _fit_schedule(schedule, latest.values())
    after = _rounds_counted(schedule, latest, after)
    rules = rules or Rules()
    averages = []
    highs: list[HighScore] = []
    per_player: dict[str, list[RoundScore]] = {name: [] for name in schedule.players}
    won = dict.fromkeys(schedule.players, 0)
    games = dict.fromkeys(schedule.players, 0)
    best: dict[str, int | None] = dict.fromkeys(schedule.players, None)
    for number in range(1, after + 1):
        played = [latest[number, t.table] for t in schedule.rounds[number - 1].tables]
        for card in played:
            _games_won_and_best(card, won, best)
            for name in card.players:
                games[name] += len(card.points[0])
        average, scores = _round(schedule, number, played, late_arrivals_as_sit_outs)
        averages.append(average)
        highs += round_highs(number, played)
        for name in schedule.players:
            per_player[name].append(scores[name])
    rows = [
        _row(schedule, name, tuple(scores), (games[name], won[name]), best[name], after)
        for name, scores in per_player.items()
        if any(score.points is not None for score in scores)
    ]
    ranked = _ranked(rows, rules.ties)
    circle = rules.circle(len(ranked))
    return Standings(
        after=after,
        rounds=len(schedule.rounds),
        sit_out_scoring=schedule.sit_out_scoring,
        late_arrivals_as_sit_outs=late_arrivals_as_sit_outs,
        round_averages=tuple(averages),
        rows=ranked,
        ties=rules.ties,
        circle=circle,
        prizes=prize_shares(ranked, circle),
        highs=tuple(highs),
    )


def round_highs(number: int, cards: list[Card]) -> list[HighScore]:
    """The round's winners over the room, then each table's high score (level players share either)."""
    totals = [card.totals() for card in sorted(cards, key=lambda c: c.table)]
    room = {name: points for table in totals for name, points in table.items()}
    highs = [_high(number, None, room)] if room else []
    return highs + [
        _high(number, card.table, table) for card, table in zip(sorted(cards, key=lambda c: c.table), totals)
    ]


def _high(number: int, table: int | None, totals: dict[str, int]) -> HighScore:
    top = max(totals.values())
    return HighScore(round=number, table=table, players=tuple(n for n, p in totals.items() if p == top), points=top)


def prize_shares(rows: tuple[StandingRow, ...], circle: int) -> tuple[str, ...]:
    """For each place in the winner's circle that players share: which places' prizes they pool and split."""
    notes = []
    for rank in sorted({row.rank for row in rows if row.shared and row.rank <= circle}):
        level = [row.player for row in rows if row.rank == rank]
        last = rank + len(level) - 1
        names = ", ".join(level[:-1]) + f" and {level[-1]}"
        if last <= circle:
            notes.append(
                f"={rank}: {names} share places {rank} to {last}: the prizes of those places are added "
                f"and split equally ({len(level)} ways)."
            )
        else:
            places = f"place {rank}" if rank == circle else f"places {rank} to {circle}"
            notes.append(
                f"={rank}: {names} share {places} of the winner's circle (top {circle}): the prizes of "
                f"{'that place' if rank == circle else 'those places'} are split equally ({len(level)} ways)."
            )
    return tuple(notes)


def _fit_schedule(schedule: Schedule, cards: Iterable[Card]) -> None:
    """A card made before the schedule changed, or by hand, must still seat the table's players."""
    seated = {
        (number, table.table): table.players
        for number, round_ in enumerate(schedule.rounds, start=1)
        for table in round_.tables
    }
    for card in cards:
        if seated.get((card.round, card.table)) != card.players:
            message = "the card's players are not the ones the schedule seats at this table"
            raise CardRefused([CardProblem(card.round, card.table, None, None, message)])


def _rounds_counted(schedule: Schedule, latest: dict[tuple[int, int], Card], after: int | None) -> int:
    if after is not None and not 1 <= after <= len(schedule.rounds):
        raise ScoresIncomplete(f"the day has rounds 1 to {len(schedule.rounds)}, not round {after}")
    for number in range(1, (after or len(schedule.rounds)) + 1):
        missing = missing_tables(schedule, latest, number)
        if not missing:
            continue
        if after is None and number > 1:
            return number - 1
        if len(missing) == len(schedule.rounds[number - 1].tables):
            raise ScoresIncomplete(f"round {number}: no table's card is in yet")
        tables = ", ".join(map(str, missing))
        raise ScoresIncomplete(f"round {number}: no card yet for table{'s' if len(missing) > 1 else ''} {tables}")
    return after or len(schedule.rounds)


def _games_won_and_best(card: Card, won: dict[str, int], best: dict[str, int | None]) -> None:
    if card.games:
        for result in card.games:
            if result.how in (How.SELF, How.DISCARD):
                for seat in result.winners:
                    won[card.players[SEAT_LETTERS.index(seat)]] += 1
    else:
        for game in zip(*card.points):
            top = max(game)
            if game.count(top) == 1:
                won[card.players[game.index(top)]] += 1
    for name, row in zip(card.players, card.points):
        earlier = best[name]
        best[name] = max(row) if earlier is None else max(earlier, *row)


def _round(
    schedule: Schedule, number: int, played: list[Card], late_as_sit_out: bool
) -> tuple[int, dict[str, RoundScore]]:
    """The round's average, and every player's round in it."""
    totals = {name: points for card in played for name, points in card.totals().items()}
    average = round_half_away(sum(totals.values()), len(totals))
    rule = average if schedule.sit_out_scoring is SitOutScoring.AVERAGE else 0
    seats = {name: (card.table, len(card.players)) for card in played for name in card.players}
    scores = {
        name: _round_score(schedule, number, name, totals.get(name), seats.get(name), rule, late_as_sit_out)
        for name in schedule.players
    }
    return average, scores


def _round_score(
    schedule: Schedule,
    number: int,
    name: str,
    total: int | None,
    seat: tuple[int, int] | None,
    rule: int,
    late_as_sit_out: bool,
) -> RoundScore:
    """A player's round: `total` and `seat` (table, its size) when they played, `rule` what a sit-out scores."""
    if total is not None and seat is not None:
        mark = RoundMark.THREE_HANDED if seat[1] == 3 else RoundMark.PLAYED
        return RoundScore(round=number, mark=mark, points=total, table=seat[0])
    if name in schedule.rounds[number - 1].sit_outs:
        return RoundScore(round=number, mark=RoundMark.SAT_OUT, points=rule)
    if number < schedule.arrivals.get(name, 1):
        return RoundScore(round=number, mark=RoundMark.ARRIVING, points=rule if late_as_sit_out else None)
    if number >= schedule.departures.get(name, number + 1):
        return RoundScore(round=number, mark=RoundMark.LEFT, points=None)
    return RoundScore(round=number, mark=RoundMark.ABSENT, points=None)


def _row(
    schedule: Schedule, name: str, rounds: tuple[RoundScore, ...], games: tuple[int, int], best: int | None, after: int
) -> dict:
    """A player's row before ranking; `games` is (played, won)."""
    left = schedule.departures.get(name)
    arrived = schedule.arrivals.get(name)
    return {
        "player": name,
        "id": schedule.ids.get(name, ""),
        "total": sum(score.points or 0 for score in rounds),
        "games_played": games[0],
        "games_won": games[1],
        "best_game": best,
        "rounds": rounds,
        "left_after": left - 1 if left is not None and left <= after else None,
        "arrived": arrived if arrived is not None and arrived > 1 and arrived <= after else None,
    }


def _ranked(rows: list[dict], ties: Ties) -> tuple[StandingRow, ...]:
    """Competition ranking by total (shared ties) or by (total, games won, best game); level players are
    listed by games won, best game, then alphabetically either way."""

    def order(row: dict) -> tuple[int, int, float]:
        best = row["best_game"]
        return (row["total"], row["games_won"], best if best is not None else float("-inf"))

    def key(row: dict) -> tuple[float, ...]:
        return order(row) if ties is Ties.BROKEN else (row["total"],)

    rows = sorted(rows, key=lambda row: row["player"].casefold())
    rows.sort(key=order, reverse=True)
    keys = [key(row) for row in rows]
    first: dict[tuple[float, ...], int] = {}
    for index, level in enumerate(keys):
        first.setdefault(level, index + 1)
    level_count = Counter(keys)
    return tuple(StandingRow(rank=first[level], shared=level_count[level] > 1, **row) for row, level in zip(rows, keys))
