"""The product (weighting) construction: a repeat-free day of v1 players, a resolvable transversal design
RTD(4, m) and a repeat-free day on the groups make a repeat-free day of m * v1 players.

The mathematics (Wilson's fundamental construction with every point given weight m, in its resolvable
form: F. E. Furino, Y. Miao and J. Yin, Frames and Resolvable Designs, CRC 1996, ch. 2; R. M. Wilson,
"Constructions and uses of pairwise balanced designs", Math. Centre Tracts 55, 1974). Players are the
pairs (x, y), x a player of the master day (R rounds on v1 players), y in 0..m-1; player x * m + y.

- RTD(4, m): four groups {i} x Z_m, m^2 tables of four meeting each group once, split into m rounds of m
  tables; two players of different groups share exactly one table. Over GF(m), m a prime power >= 4,
  with distinct e_0..e_3: table (a, b) is {(i, a + b e_i)}, round b (a = y - b e_i is the one table of
  round b holding (i, y); two players (i, y), (j, z) fix b = (y - z) / (e_i - e_j) and then a). For
  m = m1 m2 the product of an RTD(4, m1) and an RTD(4, m2) is one (tables and rounds in pairs; MacNeish's
  product), so every m whose prime-power factors are all >= 4 has one, built here; so has every m that is
  the order of a stored (quasi-)difference matrix (optimizer.constructions.matrices: 12, 14 and 15, whose
  factors 2 and 3 have no RTD) times such a product, e.g. 60 = 12 x 5.
- Weighted rounds: master round r and RTD round s give the round whose tables are, for each master table
  (x_0, .., x_3), the tables {(x_i, f_i)} for f in RTD round s. Each (x, y) is seated once, since x has one
  master table and (its seat i, y) one RTD table. Two players (x, y), (x', y') with x != x' meet only in
  the master round where x and x' meet (at most one) and then in the one RTD table joining (i, y) and
  (j, y'): at most once. Players (x, y), (x, y') never meet here (one group of the RTD). R * m rounds.
- Groups: the master's players who never meet each other, cut into cliques G of one size g (g = 1 for a
  design where every pair meets; g = 3 for a resolvable maximum packing of 0 (mod 12) players, a 4-RGDD of
  type 3^n; g = 2 for 8 (mod 12)). A resolvable design of v1 = 4 (mod 12) players less its last round is
  a master too, a 4-RGDD of type 4^(v1/4): the last round's tables are its groups (g = 4; each pair of a
  table met only there). G x Z_m (g m players) never met in the weighted rounds, so a repeat-free day of
  F rounds on g m players, copied onto every G x Z_m, runs in parallel as F more rounds.

So R m + F rounds, repeat-free. With a resolvable design on v1 and m players (R = (v1 - 1) / 3,
F = (m - 1) / 3) every pair of the m v1 players meets once: 4 x 52 = 208, 4 x 88 = 352 players; with a
4-RGDD of type 3^n and a resolvable maximum packing of 3m players (R = v1 / 3 - 1, F = m - 1) it is one of
type 3^(m v1 / 3): 8 x 24 = 192, 8 x 36 = 288, 8 x 48 = 384 players; one table (v1 = 4) weighted by 36
with the packing of 36 filled in is one of 144, by 60 with the packing of 60 one of 240. With a design of
28 less its last round (R = 8) weighted by 9 and the packing of 36 (F = 11) it is one of type 3^84
(252 players, 83 rounds); weighted by 11 with the matching day of 44 (F = 14), one of type 2^154 (308
players, 102 rounds). The result is checked repeat-free before it is handed out.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from optimizer.constructions.fields import galois_field, prime_power
from optimizer.constructions.matrices import matrix_rtd, stored_matrices
from optimizer.seats import Seats, meetings


def prime_power_factors(m: int) -> list[int]:
    """m as a product of powers of distinct primes, e.g. 36 -> [4, 9]."""
    factors, p = [], 2
    while m > 1:
        power = 1
        while m % p == 0:
            m, power = m // p, power * p
        if power > 1:
            factors.append(power)
        p += 1
    return factors


def rtd_orders(m: int) -> list[int] | None:
    """Orders whose RTD(4, .)s multiply to one of order m: m's prime-power factors when all are at least 4,
    else a stored matrix's order (optimizer.constructions.matrices: 12, 14, 15) times the rest."""
    factors = prime_power_factors(m)
    if m >= 4 and all(f >= 4 for f in factors):
        return factors
    for d in sorted(stored_matrices()):
        rest = [] if d == m else rtd_orders(m // d) if m % d == 0 else None
        if rest is not None:
            return [d, *rest]
    return None


def has_rtd(m: int) -> bool:
    """Whether rtd(m) builds one."""
    return rtd_orders(m) is not None


@cache
def rtd(m: int) -> np.ndarray:
    """(m rounds, m tables, 4 groups): the point of group i at each table of an RTD(4, m)."""
    factors = rtd_orders(m)
    if factors is None:
        raise ValueError(f"no RTD(4, {m}) is built here")
    if len(factors) > 1:
        first, rest = rtd(factors[0]), rtd(m // factors[0])
        n = m // factors[0]
        tables = first[:, None, :, None, :] * n + rest[None, :, None, :, :]  # (s1, s2, b1, b2, 4)
        return tables.reshape(m, m, 4)
    if prime_power(m) is None:
        return matrix_rtd(m)
    field = galois_field(m)
    a, b, e = np.arange(m), np.arange(m), np.arange(4)  # e_i = the elements coded 0..3
    return field.add[a[None, :, None], field.mul[b[:, None, None], e[None, None, :]]]


def groups(master: Seats, v1: int) -> np.ndarray | None:
    """(v1 / g, g): the master's players who never meet, when they fall into cliques of one size g."""
    alike = (meetings(master, v1) == 0) | np.eye(v1, dtype=bool)  # a player and those it never meets
    first = alike.argmax(axis=1)  # each player's clique named by its lowest member
    if not (alike == alike[first]).all():  # some unmet pair is not a clique's: not a partition
        return None
    g = int(alike[0].sum())
    members = np.argsort(first, kind="stable").reshape(v1 // g, g) if v1 % g == 0 else None
    if members is None or (alike.sum(axis=1) != g).any():
        return None
    return members


def weighted_day(master: Seats, v1: int, m: int, cliques: np.ndarray, fill: Seats | None) -> Seats:
    """(R m + F, v1 m / 4, 4): the weighted rounds, then the fill (if any) copied onto every group x Z_m."""
    rounds = master.shape[0]
    weighted = master[:, None, :, None, :] * m + rtd(m)[None, :, None, :, :]  # (R, s, table, block, 4)
    weighted = weighted.reshape(rounds * m, -1, 4).astype(np.int64)
    if fill is None:
        return weighted
    g = cliques.shape[1]
    local = (cliques[:, :, None] * m + np.arange(m)[None, None, :]).reshape(len(cliques), g * m)
    filled = local[:, fill].transpose(1, 0, 2, 3).reshape(len(fill), -1, 4)  # (F, groups x g m / 4, 4)
    return np.concatenate([weighted, filled])
