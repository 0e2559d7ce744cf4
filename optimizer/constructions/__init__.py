"""Starts: schedules built without search, each for the rooms it fits.

    fixed.fixed_seating          the fixed MJMP rotation (the baseline and first warm start)
    affine.affine_seating        AG(k, 4): repeat-free for 4^k players over (4^k - 1) / 3 rounds
    resolvable                   3q + 1 players over q rounds, every pair once: a 1-rotational resolvable
                                 design over Z_q from a matching stored ahead (16 to 400 players, 3 not
                                 dividing q)
    cyclic                       3q + 1 players over q rounds, every pair once, for the q divisible by 3: a
                                 1-rotational resolvable design over Z_3q from base blocks stored ahead
                                 (100, 136, 172 players)
    speeds.speed_seating         every seat moves a fixed number of tables a round (the slip generalised)
    differences                  every seat moves by its own stored step each round: a difference matrix over
                                 Z_T, found ahead and stored, for rooms of 72 to 200 players the speed rule
                                 leaves short
    direct.direct_seating        3q + 1 players over q rounds, every pair once: the direct construction
                                 over GF(q), q = 1 mod 4 a prime power (28, 244, ... where Z_q has none)
    packings                     3q + 3 players over q rounds, everyone meeting all but their group of three:
                                 a resolvable maximum packing developed over Z_q from a base round stored
                                 ahead (72 to 204, 312, 336; 108, 276, 360)
    matchings                    3m + 2 players over m rounds, everyone meeting all but one partner: a
                                 resolvable maximum packing developed over Z_m from a base round stored ahead
    doubling.doubled_affine_seating  32 players over 10 rounds: two affine planes of order 4, signed (and
                                 doubled_design_seating, two designs of 52 or 76 for the library's 104 x 34
                                 and 152 x 50; turned.search_representatives the design of 76 it needs)
    weighting.weighted_day       m * v1 players: a full day of v1 (or a resolvable design less its last
                                 round) weighted by a resolvable TD(4, m), its groups filled by a day of m
                                 (or 3m, 4m) players (208, 352, 144, 192, 240, 288, 384; 252, 308; RTD(4, m)
                                 from finite fields or a stored difference matrix, matrices)
    framing.framed_day           m (n - 1) + k players in groups of k = 3 or 2: a resolvable design of n less
                                 a player, weighted by an RTD(4, m), holes filled by a packing of 3m + k with
                                 k added players (168, 228, 300; 212, 380; also 108, 192, 276, 360)
    rotational.rotational_seating  a base round developed over Z_m, found by a small CP-SAT model
    library                      repeat-free days computed ahead by the constructions above, and for
                                 odd rooms by tabu search (turns kept fair)
    deletion.deletion_seating    odd rooms: players who never meet deleted from a design, turns kept fair
    joining.joining_seating      sit-out rooms: a design joined by the extra players, nobody sitting out twice
    odd_rooms.odd_room_seating   library, else deletion, else joining: what plan and the verdict ask for
                                 an odd room
    greedy.greedy_seating        round by round against every meeting so far, burdens in turn
    stayers.place_stayers        the repair every start goes through so stay requests hold

Zero-repeat seatings come from `zero_repeat_seating`: the library, the affine geometry, the resolvable
designs over Z_q and over Z_3q, the direct GF(q) designs, the stored packings, the doubling,
the speed rule, the stored difference rows, the weighting, the framing (all instant), then the rotational
search within the time limit. Every seating handed out is checked here first, so a builder bug can only
cost a None. A design is handed out as a `Start` (optimizer.pipeline.stages): its seats and how they were
made, as the plan offers it.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from optimizer.budget import Budget
from optimizer.constructions import library
from optimizer.constructions.affine import affine_dimension, affine_rounds, affine_seating
from optimizer.constructions.cyclic import cyclic_rounds, cyclic_seating
from optimizer.constructions.differences import difference_rounds, difference_seating
from optimizer.constructions.direct import direct_rounds, direct_seating
from optimizer.constructions.doubling import doubled_affine_seating, doubling_rounds
from optimizer.constructions.framing import framed_day
from optimizer.constructions.matchings import matching_rounds, matching_seating
from optimizer.constructions.packings import packing_rounds, packing_seating
from optimizer.constructions.resolvable import resolvable_rounds, resolvable_seating
from optimizer.constructions.rotational import rotational_seating
from optimizer.constructions.speeds import best_speeds, speed_rounds, speed_seating
from optimizer.constructions.weighting import groups, has_rtd, weighted_day
from optimizer.pipeline.stages import Start
from optimizer.seats import is_repeat_free

CLIQUES_FROM_MEETINGS = 1000  # its meetings matrix: 8 MB


def zero_repeat_seating(
    player_count: int, rounds: int, budget: Budget, seed: int = 0, workers: int = 2
) -> Start | None:
    """A repeat-free seating (rounds, player_count/4, 4) and how it was made, or None if none within
    `budget`. The rotational search runs CP-SAT with `workers` (optimizer.budget: one worker and a
    repeatable budget repeat it exactly)."""
    if player_count < 4 or player_count % 4 or rounds < 1:
        return None
    made = instant_seating(player_count, rounds)
    if made is None:
        made = rotational_seating(player_count, rounds, budget, seed=seed, workers=workers)
    return made if made is not None and is_repeat_free(made.seats, player_count, rounds) else None


def instant_seating(player_count: int, rounds: int) -> Start | None:
    """The first instant construction reaching `rounds`: library, affine geometry, resolvable designs (over
    Z_q, then Z_3q), direct GF(q) designs, stored packings (partners of three, then of two), doubling, speed
    rule, difference rows, weighting, framing."""
    packed = (from_packings, from_matchings)
    builders = (from_library, from_affine, from_resolvable, from_cyclic, from_direct, *packed, from_doubling)
    for build in (*builders, from_speeds, from_differences, from_weighting, from_framing):
        made = build(player_count, rounds)
        if made is not None:
            return made
    return None


def frontier_rounds(player_count: int, rows: bool = True) -> int:
    """The most repeat-free rounds available instantly (library, affine, resolvable, cyclic and direct designs,
    stored packings, doubling, speeds, weighting and, with `rows`, the difference rows); not a table."""
    if player_count < 4 or player_count % 4:
        return 0
    entry = library.load(player_count)
    return max(
        entry.rounds if entry else 0,
        affine_rounds(player_count),
        resolvable_rounds(player_count),
        cyclic_rounds(player_count),
        direct_rounds(player_count),
        packing_rounds(player_count),
        matching_rounds(player_count),
        doubling_rounds(player_count),
        weighting(player_count).rounds,
        framing(player_count)[0],
        speed_rounds(player_count),
        difference_rounds(player_count) if rows else 0,
    )


def longest_design(player_count: int, rounds: int) -> Start | None:
    """The longest instant day to choose `rounds` rounds from for the table numbers: of the constructions
    before the difference rows wherever they reach `rounds` (their regular structure numbers tables well:
    128 players over 10 rounds from the speed rule's 16 had no table visit above even in a 1 s run, from the
    rows' 29 160), else the difference rows'."""
    without_rows = frontier_rounds(player_count, rows=False)
    return instant_seating(player_count, without_rows if without_rows >= rounds else frontier_rounds(player_count))


def from_library(player_count: int, rounds: int) -> Start | None:
    entry = library.load(player_count)
    if entry is None or entry.rounds < rounds:
        return None
    return Start.built(entry.seats[:rounds].copy(), f"{entry.method} (library)")


def from_affine(player_count: int, rounds: int) -> Start | None:
    k = affine_dimension(player_count)
    if k is None or rounds > affine_rounds(player_count):
        return None
    return Start.built(affine_seating(k, rounds), f"affine geometry AG({k},4)")


def from_resolvable(player_count: int, rounds: int) -> Start | None:
    seats = resolvable_seating(player_count, rounds)
    q = (player_count - 1) // 3
    return None if seats is None else Start.built(seats, f"1-rotational resolvable design over Z_{q} (stored matching)")


def from_cyclic(player_count: int, rounds: int) -> Start | None:
    seats = cyclic_seating(player_count, rounds)
    q = (player_count - 1) // 3
    return (
        None if seats is None else Start.built(seats, f"1-rotational resolvable design over Z_{3 * q} (stored blocks)")
    )


def from_direct(player_count: int, rounds: int) -> Start | None:
    seats = direct_seating(player_count, rounds)
    q = (player_count - 1) // 3
    return None if seats is None else Start.built(seats, f"resolvable design over GF({q}) (direct construction)")


def from_packings(player_count: int, rounds: int) -> Start | None:
    seats = packing_seating(player_count, rounds)
    q = (player_count - 3) // 3
    return None if seats is None else Start.built(seats, f"resolvable maximum packing over Z_{q} (stored base round)")


def from_matchings(player_count: int, rounds: int) -> Start | None:
    seats = matching_seating(player_count, rounds)
    m = (player_count - 2) // 3
    return (
        None
        if seats is None
        else Start.built(seats, f"resolvable maximum packing, partners in pairs, over Z_{m} (stored base round)")
    )


def from_doubling(player_count: int, rounds: int, seed: int = 0) -> Start | None:
    if rounds > doubling_rounds(player_count):
        return None
    seats = doubled_affine_seating(player_count, rounds, seed=seed)
    return None if seats is None else Start.built(seats, f"signed doubling of two affine planes AG(2,4), seed {seed}")


def from_speeds(player_count: int, rounds: int) -> Start | None:
    if rounds > speed_rounds(player_count):
        return None
    speeds = best_speeds(player_count // 4)[0]
    return Start.built(speed_seating(player_count, rounds, speeds), f"speed rule d={speeds} mod {player_count // 4}")


def from_differences(player_count: int, rounds: int) -> Start | None:
    seats = difference_seating(player_count, rounds)
    tables = player_count // 4
    return None if seats is None else Start.built(seats, f"difference rows over Z_{tables} (stored)")


def from_weighting(player_count: int, rounds: int) -> Start | None:
    """The first `rounds` rounds of the longest weighted day, built and checked on demand (a room of
    thousands asks for a hundred rounds of it, not for all)."""
    reached, m, v1, master_rounds = weighting(player_count)
    if reached < rounds:
        return None
    master = instant_seating(v1, (v1 - 1) // 3)
    if master is None:
        return None
    less = master_rounds < len(master.seats)  # a resolvable design less its last round: that round's tables
    cliques = master.seats[-1] if less else _cliques(v1)
    if cliques is None:
        return None
    size, weighted = m * cliques.shape[1], m * master_rounds
    fill = instant_seating(size, rounds - weighted) if rounds > weighted else None
    kept = master.seats[: min(master_rounds, -(-rounds // m))]
    seats = weighted_day(kept, v1, m, cliques, None if fill is None else fill.seats)[:rounds]
    if not is_repeat_free(seats, player_count, rounds):
        return None
    named = _named(master, v1) + (" less its last round" if less else "")
    filled = f", groups of {size} filled by {_named(fill, size)}" if fill else ""
    return Start.built(seats, f"weighting: {named} times a resolvable TD(4,{m}){filled}")


class Weighting(NamedTuple):
    """The longest weighted day of a room (optimizer.constructions.weighting)."""

    rounds: int  # its repeat-free rounds, the fill included
    m: int  # the weight: a resolvable TD(4, m)
    v1: int  # the master day's players
    master_rounds: int  # the master's rounds: the counting bound, or one less (its last round's tables the groups)


@cache
def weighting(player_count: int) -> Weighting:
    """The longest weighted day (optimizer.constructions.weighting) of this room: over every m dividing it
    with an RTD(4, m), the day of v1 = player_count / m players reaching the counting bound R (its never-met
    players in cliques of one size g) weighted by m, R m rounds, and the groups filled by the longest instant
    day of g m players; for v1 = 4 (mod 12) also the resolvable design less its last round, whose tables
    are then the groups (g = 4): (R - 1) m rounds and the fill on 4m (252 = 28 x 9 with the packing of 36,
    308 = 28 x 11 with the matching day of 44). Weighting(0, 0, 0, 0) if there is none."""
    best = Weighting(0, 0, 0, 0)
    for m in range(4, player_count // 4 + 1):
        v1 = player_count // m
        full = (v1 - 1) // 3
        if player_count % m or not has_rtd(m) or frontier_rounds(v1) < full:
            continue
        cliques = _cliques(v1)
        masters = [] if cliques is None else [(m * full + frontier_rounds(m * cliques.shape[1]), full)]
        if v1 % 12 == 4 and v1 > 4:  # one table less its round is no master
            masters.append((m * (full - 1) + frontier_rounds(4 * m), full - 1))
        for rounds, master_rounds in masters:
            if rounds > best.rounds:  # on a tie the smallest weight m, then the full master: most structure
                best = Weighting(rounds, m, v1, master_rounds)
    return best


def from_framing(player_count: int, rounds: int) -> Start | None:
    """The first `rounds` rounds of the framed packing (optimizer.constructions.framing), checked."""
    reached, n, m = framing(player_count)
    if reached < rounds:
        return None
    added = player_count - m * (n - 1)
    design, fill = instant_seating(n, (n - 1) // 3), instant_seating(3 * m + added, m)
    fill_groups = _cliques(3 * m + added)
    if design is None or fill is None or fill_groups is None:
        return None
    seats = framed_day(design.seats, n, m, fill.seats, fill_groups)[:rounds]
    if not is_repeat_free(seats, player_count, rounds):
        return None
    return Start.built(
        seats,
        f"frame: {_named(design, n)} less a player, times a resolvable TD(4,{m}), "
        f"holes filled by {_named(fill, 3 * m + added)} with {added} added players",
    )


@cache
def framing(player_count: int) -> tuple[int, int, int]:
    """(rounds, n, m) of the framed packing of v = m (n - 1) + k players, k = 3 or 2
    (optimizer.constructions.framing): the first n = 4 (mod 12) with a full resolvable day of n players and
    m with an RTD(4, m) and a full packing of 3m + k players in groups of k (3m + k = 0 or 8 mod 12).
    (0, 0, 0) if there is none."""
    for n in range(16, player_count // 7 + 2, 12):
        for added, residue in ((3, 0), (2, 8)):
            m, rest = divmod(player_count - added, n - 1)
            if rest or (3 * m + added) % 12 != residue or not has_rtd(m) or frontier_rounds(n) < (n - 1) // 3:
                continue
            fill_groups = _cliques(3 * m + added) if frontier_rounds(3 * m + added) >= m else None
            if fill_groups is not None and fill_groups.shape[1] == added:
                return m * (n - 1) // 3, n, m
    return 0, 0, 0


@cache
def _cliques(v1: int) -> np.ndarray | None:
    """The cliques of never-met players of the full day of v1 players: single players when every pair meets
    (v1 = 1 mod 3), else found from its meetings matrix, for days of up to CLIQUES_FROM_MEETINGS players."""
    if v1 % 3 == 1:
        return np.arange(v1)[:, None]
    master = instant_seating(v1, (v1 - 1) // 3) if v1 <= CLIQUES_FROM_MEETINGS else None
    return None if master is None else groups(master.seats, v1)


def _named(made: Start, player_count: int) -> str:
    return "one table" if player_count == 4 else f"{made.made} on {player_count}"
