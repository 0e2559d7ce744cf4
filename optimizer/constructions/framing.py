"""Resolvable maximum packings (4-RGDDs of type 3^n or 2^n) from a resolvable design with a point deleted,
weighted by a resolvable TD(4, m), with k = 3 or 2 players added: v = m (n - 1) + k players over
m (n - 1) / 3 = (v - k) / 3 rounds, every player meeting all but the k - 1 others of its group
(168 = 11 x 15 + 3, 228 = 15 x 15 + 3, 300 = 11 x 27 + 3; 212 = 14 x 15 + 2, 380 = 14 x 27 + 2).

The mathematics (frames: D. R. Stinson, "Frames for Kirkman triple systems", Discrete Math. 65, 1987,
289-300; F. E. Furino, Y. Miao and J. Yin, Frames and Resolvable Designs, CRC 1996, ch. 2; the filling
is the standard one, e.g. G. Ge, C. W. H. Lam, A. C. H. Ling and H. Shen, Des. Codes Cryptogr. 35, 2005):

- A resolvable (n, 4, 1) design (n = 4 mod 12, u = (n - 1) / 3 rounds) with one player z deleted is a
  4-frame of type 3^u: round j loses z's table B_j, so its other tables cover everyone but the hole
  T_j = B_j \\ {z} (a holey round), the u holes partition the n - 1 others (each meets z once), and two
  players of one hole never share another table (they met at B_j).
- Weighted by m (optimizer.constructions.weighting: each player x becomes (x, 0..m-1), each holey round j
  and RTD round s give the holey round (j, s): for each table of round j, the RTD tables placed on it) it is
  a 4-frame of type (3m)^u: holey round (j, s) covers everyone but T_j x Z_m; two players of different holes
  meet once (their master table, then one RTD table), two of one hole never.
- k players inf_0..inf_(k-1) are added and each hole T_j x Z_m with them is filled by a 4-RGDD of type
  k^((3m + k) / k) on 3m + k players (a resolvable maximum packing, m rounds) whose one group is the infs:
  its round s completes the holey round (j, s). The u m rounds each seat everyone once; two players of one
  hole, or one of them and an inf, meet in the fill exactly once unless they form a group of the fill;
  players of different holes meet once in the frame. So every pair meets at most once and the pairs never
  met are exactly the groups: the infs and the fills' other groups.

Needs 3m + k = 0 (mod 12) for k = 3 (m = 3 mod 4) or 8 (mod 12) for k = 2 (m = 2 mod 4), an RTD(4, m) and
a full packing of 3m + k players in groups of k, all built here; the result is checked repeat-free before
it is handed out.
"""

from __future__ import annotations

import numpy as np

from optimizer.constructions.weighting import rtd
from optimizer.seats import Seats


def framed_day(design: Seats, n: int, m: int, fill: Seats, fill_groups: np.ndarray) -> Seats:
    """(m (n - 1) / 3, (m (n - 1) + k) / 4, 4): the design's last player deleted, the weighted holey rounds
    and each hole's fill, whose groups are of k players. Player (x, y) is x * m + y; the added players are
    (n - 1) m + 0..k-1."""
    deleted, added = n - 1, (n - 1) * m + np.arange(fill_groups.shape[1])
    holes = [next(table for table in round_ if deleted in table) for round_ in design]
    others = fill_groups[1:].ravel()  # the fill's first group becomes the added players
    rounds = []
    for round_, hole in zip(design, holes, strict=True):
        holey = np.array([table for table in round_ if deleted not in table], dtype=np.int64)  # (T - 1, 4)
        points = (np.sort(hole[hole != deleted])[:, None] * m + np.arange(m)[None, :]).ravel()  # 3m players
        name = np.empty(fill_groups.size, dtype=np.int64)
        name[fill_groups[0]], name[others] = added, points
        for s in range(m):
            weighted = (holey[:, None, :] * m + rtd(m)[s][None, :, :]).reshape(-1, 4)
            rounds.append(np.concatenate([weighted, name[fill[s]]]))
    return np.array(rounds, dtype=np.int64)
