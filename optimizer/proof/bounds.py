"""Lower bounds on repeats: what no schedule of the room can beat, each with its proof."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import product
from math import comb

import numpy as np

from models import Bound, Event
from optimizer.words import counted

# Resolvable maximum packings RP(v, 4) exist for every v divisible by 4 except 8, 12 and 20
# (Ge, Lam, Ling and Shen, Designs, Codes and Cryptography 35, 2005). For 20 players a repeat-free
# sixth round would be such a packing, so six rounds of 20 always repeat somebody.
_NO_RESOLVABLE_PACKING = {20: 6}


def counting_bound(event: Event) -> Bound:
    """Meetings the rounds force, minus the pairs there are to meet: each surplus meeting repeats."""
    layout, players = event.layout, len(event.players)
    meetings = event.rounds * (6 * layout.fours + 3 * layout.threes)
    surplus = max(0, meetings - comb(players, 2))
    return Bound(
        repeats=surplus,
        proof=f"counting: {_rounds(event.rounds)} make {meetings} meetings among {comb(players, 2)} pairs",
    )


def degree_bound(event: Event) -> Bound:
    """Distinct pairs against meetings: E >= M - P, where the day makes M meetings and P bounds the
    distinct pairs that can meet. Players meet d_p opponents (3 a round, 2 at a table of three, 0
    sitting out). Count each met pair from both ends: split the room into the a players who meet most
    (A), the b who meet fewest (B) and the rest (C); an A player has at most n - b - 1 distinct
    opponents outside B, a pair with an end in B is counted at most twice among B's meetings, and C's
    ends number at most d(C), so 2P <= a(n - b - 1) + 2d(B) + d(C). Taking the least over a and b is
    the max-flow bound on a simple graph with degrees at most d_p (Erdos-Gallai, 1960, is its equality
    case); with b = 0 it is the per-player bound, and with a = n as well the counting bound.

    Holds however three-handed seats and sit-outs are shared: the least of linear functions of d is
    concave in d, so the bound is Schur-convex and smallest at the most even split, used here."""
    opponents = _opponents(event)
    n, meetings = len(opponents), int(opponents.sum()) // 2
    ends = np.concatenate([np.cumsum(opponents[::-1])[::-1], [0]])  # ends[i]: opponents of players i..n-1
    a, b, twice = _least_split(opponents, ends)
    pairs = twice // 2
    if b == 0:
        reason = f"per player: the {_players(a)} who meet most meet {opponents[0]} opponents each among {n - 1} others"
    else:
        rest = f", the other {n - a - b} meet {ends[a] - ends[n - b]}" if n - a - b else ""
        reason = (
            f"distinct pairs: the {_players(a)} who meet most have at most {n - b - 1} distinct opponents each "
            f"beyond the {_players(b)} who meet fewest, who meet {ends[n - b]} opponents in all{rest}"
        )
    return Bound(
        repeats=max(0, meetings - pairs),
        proof=f"{reason}; so at most {pairs} different pairs meet in the day's {meetings} meetings, "
        "however turns are shared",
    )


def _least_split(opponents: np.ndarray, ends: np.ndarray) -> tuple[int, int, int]:
    """(a, b, 2P): the least of ends[a] + ends[n - b] + a(n - b - 1) over a + b <= n, the first in
    (a, b) order among equals. For each b the sum is convex in a (a step adds n - b - 1 - opponents[a],
    and opponents fall), so its first least is at the first a whose step is not negative: O(n log n),
    not the (n + 1)^2 grid (gigabytes at the room limits)."""
    n = len(opponents)
    fewest = np.arange(n + 1)
    # the first a with opponents[a] <= n - b - 1 (opponents fall), at most n - b
    rising = np.searchsorted(-opponents, -(n - fewest - 1), side="left")
    most = np.minimum(rising, n - fewest)
    twice = ends[most] + ends[n - fewest] + most * (n - fewest - 1)
    least = twice.min()
    ties = np.flatnonzero(twice == least)
    first = ties[np.argmin(most[ties])]  # the least a among the least sums, then the least b
    return int(most[first]), int(first), int(least)


def _opponents(event: Event) -> np.ndarray:
    """Opponents each player meets over the day with three-handed seats or sit-outs shared most
    evenly, most first."""
    layout, players, rounds = event.layout, len(event.players), event.rounds
    lost = 3 if layout.sit_outs else 1  # opponents a turn costs: all three, or the empty seat's one
    share, heavier = divmod(rounds * layout.turns, players)  # `heavier` players take one more
    counts = [3 * rounds - lost * share] * (players - heavier) + [3 * rounds - lost * (share + 1)] * heavier
    return np.array(counts, dtype=np.int64)


def first_round_bound(event: Event) -> Bound:
    """With fewer than four tables, every later table must seat two players who shared a first-round
    table, unless the players who sat out in round 1 (who met nobody then) fill its seats: each later
    round repeats at least the fewest first-round pairs over every way of spreading them."""
    layout = event.layout
    if layout.tables >= 4 or event.rounds < 2:
        return Bound(repeats=0, proof="")
    sizes = [4] * layout.fours + [3] * layout.threes
    per_round = min(
        sum(_pairs_forced(size - fresh, layout.tables) for size, fresh in zip(sizes, spread))
        for spread in product(range(layout.sit_outs + 1), repeat=len(sizes))
        if sum(spread) == layout.sit_outs
    )
    rested = f" (the {layout.sit_outs} who sat out round 1 met nobody)" if layout.sit_outs else ""
    return Bound(
        repeats=per_round * (event.rounds - 1),
        proof=f"pigeonhole: with {layout.tables} tables each later round repeats at least "
        f"{counted(per_round, 'first-round pair')}{rested}",
    )


def _pairs_forced(size: int, groups: int) -> int:
    """Fewest same-group pairs when `size` players are drawn from `groups` groups."""
    each, extra = divmod(size, groups)
    return extra * comb(each + 1, 2) + (groups - extra) * comb(each, 2)


def turn_bound(event: Event) -> Bound:
    """Fair turns force rematches of the round before. With c turns a round (seats at tables of three,
    or sit-outs) among n players, everyone has had L_r = floor(c r / n) or L_r + 1 turns after round r.
    So a player on L_r must take a turn in round r + 1 when L_{r+1} > L_r, and one on L_r + 1 must not
    when L_{r+1} = L_r; the turns left over go to others. Players of one round-r table sent to the
    (at most three) tables of three, or to the tables of four, include pairs who shared it unless there
    are tables enough to part them (pigeonhole). The fewest such pairs over every way round r can share
    its turns is a shortest path over its tables (`_rematches`). Each is a meeting beyond the pair's first,
    counted in round r + 1 only, so E >= the sum over rounds."""
    layout = event.layout
    forced = [_rematches(event, r) for r in range(1, event.rounds)] if layout.threes or layout.sit_outs else []
    if not any(forced):
        return Bound(repeats=0, proof="")
    rule = "three-handed tables" if layout.threes else "sit-outs"
    rounds = ", ".join(f"{count} in round {r + 2}" for r, count in enumerate(forced) if count)
    return Bound(
        repeats=sum(forced),
        proof=f"turns: with {rule} taken in turn, the players who must (or must not) take the next turn "
        f"bring table-mates of the round before together again: at least {rounds}",
    )


def _rematches(event: Event, r: int) -> int:
    """Fewest pairs at one table in round r (from 1) forced together again in round r + 1.

    A table's members differ only in whether they were one turn ahead before round r; choosing how
    many were (x), and how many take a turn in round r + 1 (k), fixes its forced pairs. The least sum
    over the tables, with the x adding up to the players ahead and the k to the turns of round r + 1,
    is found table by table over a grid of (players ahead so far, turns so far)."""
    layout, n = event.layout, len(event.players)
    turns = layout.turns
    least = [turns * k // n for k in (r - 1, r, r + 1)]
    ahead = turns * (r - 1) - n * least[0]
    # (seats, takes a turn in round r, its players met): the sitters of round r met nobody
    groups = [(4, False, True)] * layout.fours + [(3, True, True)] * layout.threes
    groups += [(layout.sit_outs, True, False)] if layout.sit_outs else []
    unreachable = np.iinfo(np.int64).max // 2
    fewest = np.full((ahead + 1, turns + 1), unreachable)
    fewest[0, 0] = 0
    for seats, took_turn, met in groups:
        after = np.full_like(fewest, unreachable)
        for x, k, pairs in _table_options(event, least, seats, took_turn, met):
            if x <= ahead and k <= turns:
                after[x:, k:] = np.minimum(after[x:, k:], fewest[: ahead + 1 - x, : turns + 1 - k] + pairs)
        fewest = after
    return int(fewest[ahead, turns]) if fewest[ahead, turns] < unreachable else 0


def _table_options(
    event: Event, least: list[int], seats: int, took_turn: bool, met: bool
) -> Iterator[tuple[int, int, int]]:
    """(x ahead before round r, k taking a turn in round r + 1, pairs forced) for one round-r table."""
    layout = event.layout
    for x in range(seats + 1):
        had = [(least[0] + 1 + took_turn, x), (least[0] + took_turn, seats - x)]  # turns after round r
        if any(count and not least[1] <= turns <= least[1] + 1 for turns, count in had):
            continue
        must = sum(count for turns, count in had if turns < least[2])
        free = sum(count for turns, count in had if turns == least[2])
        for k in range(must, must + free + 1):
            if seats > k and not layout.fours:
                continue
            at_threes = _pairs_forced(k, layout.threes) if k and layout.threes else 0
            at_fours = _pairs_forced(seats - k, layout.fours) if seats > k else 0
            yield x, k, (at_threes + at_fours) if met else 0


def published_bound(event: Event) -> Bound:
    """No resolvable maximum packing of 20 players over 6 rounds (the comment above), in a room of 20, and
    in a room of 19 with one table of three taken in turn: over rounds with 3 rounds <= 19 nobody is
    three-handed twice, so a 20th player in the empty seat meets nobody twice, and a repeat-free day of 19
    would be one of 20."""
    layout, players = event.layout, len(event.players)
    ghost = layout.threes == 1 and 3 * event.rounds <= players
    if layout.sit_outs or (layout.threes and not ghost):
        return Bound(repeats=0, proof="")
    design_size = players + layout.threes
    if event.rounds < _NO_RESOLVABLE_PACKING.get(design_size, event.rounds + 1):
        return Bound(repeats=0, proof="")
    reduction = (
        f"with the table of three taken in turn nobody is three-handed twice, so a player added in its "
        f"empty seat would make a repeat-free day of {design_size}; "
        if ghost
        else ""
    )
    return Bound(
        repeats=1,
        proof=f"{reduction}no resolvable maximum packing of {design_size} players by tables of four exists "
        "(Ge, Lam, Ling and Shen, Designs, Codes and Cryptography 35, 2005)",
    )


def stay_bound(event: Event) -> Bound:
    """Players who stay at one table meet there in every round they both play: a pair of them meets
    m times, m - 1 of them repeats. Without sit-outs m is every round; with sit-outs taken in turn each
    player sits out at most ceil(rounds x sit-outs / players) rounds, so m >= rounds - twice that.
    The stay request forces these repeats whatever the rest of the day does."""
    at_table: dict[int, list[str]] = {}
    for name, table in event.stay.items():
        at_table.setdefault(table, []).append(name)
    layout, rounds = event.layout, event.rounds
    most_out = -(-rounds * layout.sit_outs // len(event.players))
    together = rounds - 2 * most_out
    pairs = sum(comb(len(names), 2) for names in at_table.values())
    if not pairs or together < 2:
        return Bound(repeats=0, proof="")
    crowded = min(t for t, names in at_table.items() if len(names) > 1)
    example = f"{' and '.join(sorted(at_table[crowded])[:2])} at table {crowded}"
    if layout.sit_outs:
        meet = f", with sit-outs taken in turn, in at least {together} of the {rounds} rounds"
        again = f"at least {counted(together - 1, 'time')}"
    else:
        meet, again = f" in all {_rounds(rounds)}", counted(together - 1, "time")
    repeats = pairs * (together - 1)
    return Bound(
        repeats=repeats,
        proof=f"stays: players who stay at one table meet{meet}, so each pair of them meets again {again}: "
        f"{counted(pairs, 'such pair')} ({example}), {counted(repeats, 'repeat')}",
    )


def lower_bound(event: Event) -> Bound:
    """The strongest of the bounds above."""
    bounds = [
        counting_bound(event),
        stay_bound(event),
        degree_bound(event),
        first_round_bound(event),
        published_bound(event),
        turn_bound(event),
    ]
    return max(bounds, key=lambda b: b.repeats)


def _players(count: int) -> str:
    return counted(count, "player")


def _rounds(count: int) -> str:
    return counted(count, "round")
