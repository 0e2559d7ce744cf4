"""Lower bounds on repeats: what no schedule of the room can beat, each with its proof."""

from __future__ import annotations

from itertools import product
from math import comb

from models import Bound, Event

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


def player_bound(event: Event) -> Bound:
    """Player by player: someone who meets s opponents over the day among n - 1 others repeats at
    least s - (n - 1) of them, and each repeat is a pair's, so E >= ceil(sum of max(0, s - n + 1) / 2).

    Three-handed seats and sit-outs cut a player's opponents (3 per round, 2 at a table of three, 0 sitting
    out). The sum is convex in each player's count of them, so the most even split of the day's seats of
    three (or sit-outs) gives the least: the bound holds however they are shared. It beats the counting
    bound where some players meet more people than there are, and others fewer."""
    layout, players, rounds = event.layout, len(event.players), event.rounds
    burdens, lost = (layout.sit_outs, 3) if layout.sit_outs else (3 * layout.threes, 1)
    share, heavier = divmod(rounds * burdens, players)  # `heavier` players take one more
    surplus = [max(0, 3 * rounds - lost * taken - (players - 1)) for taken in (share, share + 1)]
    total = (players - heavier) * surplus[0] + heavier * surplus[1]
    most = 3 * rounds - lost * share
    return Bound(
        repeats=-(-total // 2),
        proof=f"per player: over {_rounds(rounds)} some players meet {most} opponents among {players - 1} others; "
        f"each opponent beyond the others is a repeat, and each repeat is shared by two players",
    )


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
        proof=f"pigeonhole: with {layout.tables} tables each later round repeats at least {per_round} "
        f"first-round pairs{rested}",
    )


def _pairs_forced(size: int, groups: int) -> int:
    """Fewest same-group pairs when `size` players are drawn from `groups` groups."""
    each, extra = divmod(size, groups)
    return extra * comb(each + 1, 2) + (groups - extra) * comb(each, 2)


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


def lower_bound(event: Event) -> Bound:
    """The strongest of the bounds above."""
    bounds = [counting_bound(event), player_bound(event), first_round_bound(event), published_bound(event)]
    return max(bounds, key=lambda b: b.repeats)


def _rounds(count: int) -> str:
    return f"{count} round{'' if count == 1 else 's'}"
