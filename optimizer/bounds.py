"""Lower bounds on repeats: what no schedule of the room can beat, each with its proof."""

from __future__ import annotations

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


def first_round_bound(event: Event) -> Bound:
    """With fewer than four tables, every later table must seat two players who shared a first-round table."""
    layout = event.layout
    if layout.sit_outs or layout.tables >= 4 or event.rounds < 2:
        return Bound(repeats=0, proof="")
    sizes = [4] * layout.fours + [3] * layout.threes
    per_round = sum(_pairs_forced(size, layout.tables) for size in sizes)
    return Bound(
        repeats=per_round * (event.rounds - 1),
        proof=f"pigeonhole: with {layout.tables} tables each later round repeats at least {per_round} "
        "first-round pairs",
    )


def _pairs_forced(size: int, groups: int) -> int:
    """Fewest same-group pairs when `size` players are drawn from `groups` groups."""
    each, extra = divmod(size, groups)
    return extra * comb(each + 1, 2) + (groups - extra) * comb(each, 2)


def published_bound(event: Event) -> Bound:
    layout, players = event.layout, len(event.players)
    if layout.threes or layout.sit_outs or event.rounds < _NO_RESOLVABLE_PACKING.get(players, event.rounds + 1):
        return Bound(repeats=0, proof="")
    return Bound(
        repeats=1,
        proof=f"no resolvable maximum packing of {players} players by tables of four exists "
        "(Ge, Lam, Ling and Shen, Designs, Codes and Cryptography 35, 2005)",
    )


def lower_bound(event: Event) -> Bound:
    """The strongest of the bounds above."""
    bounds = [counting_bound(event), first_round_bound(event), published_bound(event)]
    return max(bounds, key=lambda b: b.repeats)


def _rounds(count: int) -> str:
    return f"{count} round{'' if count == 1 else 's'}"
