"""Signed doubling of two resolvable designs on the same n points: 2n players over 2 (n - 1) / 3 rounds
without a repeat, partners 2a and 2a + 1 never meeting (32 from two affine planes of order 4; 104 and 152
from two designs of 52 and of 76, stored in the library).

This is a resolvable 4-GDD of type 2^16 (social golfer 8-4-10): 16 pairs of partners who never meet,
everyone else meeting exactly once. Counting allows floor(31 / 3) = 10 rounds, so it is the limit.

- Points: the 16 points a of AG(2, 4). Player 2a + e is copy e in {0, 1} of point a; the partners
  2a and 2a + 1 never meet.
- Collapsed design: the 5 parallel classes of AG(2, 4) and the 5 parallel classes of pi(AG(2, 4)),
  for a permutation pi of the points that maps no collinear triple onto a collinear triple. Both are
  affine planes, so every pair {a, b} lies in exactly one block B1 of the first and one block B2 of
  the second: 10 classes of 4 blocks, a resolvable 2-(16, 4, 2) design in which (by the condition
  on pi) two blocks share at most 2 points.
- Lifting: each block B gets signs x_B: B -> GF(2) and becomes the two tables {2a + x_B(a)} and
  {2a + 1 - x_B(a)}, so each class becomes one round of 8 tables. Copies (a, e) and (b, f) share a
  table of B iff e + f = x_B(a) + x_B(b): B covers two of the four player pairs over {a, b}, the two
  of one parity. B1 and B2 together cover all four, each once, iff their parities differ:

      x_B1(a) + x_B1(b) + x_B2(a) + x_B2(b) = 1   for each of the 120 pairs {a, b},

  a linear system over GF(2) in 160 signs (one per class and point), solved by Gaussian elimination.
- Why at most 2 shared points: if B1 and B2 shared three points a, b, c, the equations of {a, b},
  {b, c} and {a, c} would add up to 0 = 1 (every sign appears twice on the left, three ones on the
  right). The condition is necessary, not sufficient: pi is found by a seeded randomised
  backtracking search and a pi whose system is inconsistent is skipped for the next one.

The whole build takes milliseconds and is the same for the same seed.

The same signing doubles any two resolvable (n, 4, 1) designs D1, D2 on one set of n points whose blocks
share at most 2 points: 2n players over 2 (n - 1) / 3 rounds (a 4-RGDD of type 2^n, n = 4 mod 12).

- Each block's signs matter only up to flipping all four (its two tables swap), so the system is square:
  C(n, 2) equations, 3 unknowns per block. Signs x_B(a) = y(a), the same in every block, for any y on the
  points make every left side 0 (the global cuts lie in both designs' cut spaces), so the rank is at most
  C(n, 2) - (n - 1), and it was exactly that at n = 16 and 28. The system is solvable exactly when every
  dependency of the equations has an even number of them; for a random D2 = pi(D1) at n = 28 none of 31
  was.
- D2 = mu(D1) for a design developed over Z_q (n = 3q + 1, player c q + x, inf = 3q) and
  mu(x, c) = (w x + s_c, tau(c)), w a unit: mu conjugates the translations to translations, so D2 is
  developed too and both designs share the symmetry that makes most dependencies even. For the library's
  design of 52 (over Z_17, its classes turned) about one try in 200 serves: 1 in 7 has no block sharing
  three points with another, and 1 in 30 of those a solvable system (104 players, 34
  rounds). The stored designs of 76 to 196 (optimizer.constructions.resolvable) have every block two of one
  class and two of another, and then the pairs between two classes and the inf's pairs to them are a
  dependency of q (q + 2) equations, an odd number (in every block of either design they are a 4-cycle,
  inf's triangle or nothing): none of the tries for 76, 124, 148, 184 and 196 was solvable. A design of 76
  with its classes turned (optimizer.constructions.turned, in the library) has no such dependency, and its
  first seed serves: 152 players over 50 rounds. `doubled_design_seating` searches the tries;
  `python -m optimizer.constructions.library --players 104 152` stores their days.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from itertools import combinations
from math import gcd

import numpy as np

from optimizer.budget import Budget
from optimizer.constructions.affine import affine_seating
from optimizer.seats import Seats

POINTS = 16
PLAYERS = 2 * POINTS
ROUNDS = 10  # 5 parallel classes per plane
RESTART_STEPS = 20_000  # backtracking nodes before the permutation search starts afresh
DESIGN_TRIES = 2_000  # draws of mu for a design of n players (at n = 52 about one in 200 serves)


def doubling_rounds(player_count: int) -> int:
    """Rounds the doubling gives this room (10 for 32 players, else 0)."""
    return ROUNDS if player_count == PLAYERS else 0


def doubled_affine_seating(player_count: int, rounds: int, seed: int = 0, budget: Budget | None = None) -> Seats | None:
    """(rounds, 8, 4) for 32 players and 1..10 rounds, or None for other rooms or once `budget` is spent
    (none: until one is found, which takes milliseconds; the seed decides which)."""
    if player_count != PLAYERS or not 1 <= rounds <= ROUNDS:
        return None
    plane = affine_seating(2)  # (5, 4, 4): the parallel classes of AG(2, 4)
    rng = random.Random(seed)
    while (pi := arc_permutation(plane, rng, budget or Budget.unlimited())) is not None:
        classes = np.concatenate([plane, pi[plane]])  # (10, 4, 4): the collapsed 2-(16, 4, 2) design
        signs = solve_gf2(*sign_equations(classes))
        if signs is not None:
            return lift(classes, signs.reshape(ROUNDS, POINTS))[:rounds]
    return None


def doubled_design_seating(design: Seats, seed: int = 0, tries: int = DESIGN_TRIES) -> Seats | None:
    """(2q, (3q + 1) / 2, 4) for 2n players, n = 3q + 1: a resolvable design D of n players over q rounds
    (player c q + x, inf = 3q) and mu(D), mu(x, c) = (w x + s_c, tau(c)) drawn by a seeded generator (the
    package docstring), signed; None if no try has blocks sharing at most 2 points and a solvable system.
    Seconds (3 s for the design of 52 at seed 0; a solve takes 0.13 s there): for the library's generator,
    not for a plan."""
    q = len(design)
    n, rng = 3 * q + 1, random.Random(seed)
    units = [w for w in range(1, q) if gcd(w, q) == 1]
    for _ in range(tries):
        w, shifts, tau = rng.choice(units), [rng.randrange(q) for _ in range(3)], rng.sample(range(3), 3)
        mu = np.array([tau[c] * q + (w * x + shifts[c]) % q for c in range(3) for x in range(q)] + [3 * q])
        classes = np.concatenate([design, mu[design]])
        if _share_a_triple(classes[:q], classes[q:]):
            continue
        signs = solve_gf2(*sign_equations(classes))
        if signs is not None:
            return lift(classes, signs.reshape(len(classes), n))
    return None


def _share_a_triple(first: np.ndarray, second: np.ndarray) -> bool:
    """Whether a block of one design and a block of the other share three points (the system is then
    unsolvable: the equations of the three pairs add up to 0 = 1)."""
    triples = {t for block in first.reshape(-1, 4).tolist() for t in combinations(sorted(block), 3)}
    return any(t in triples for block in second.reshape(-1, 4).tolist() for t in combinations(sorted(block), 3))


def arc_permutation(plane: np.ndarray, rng: random.Random, budget: Budget) -> np.ndarray | None:
    """A permutation of the points mapping no collinear triple onto a collinear triple, or None
    once the budget is spent. Randomised backtracking, restarted every RESTART_STEPS nodes."""
    triples = [t for line in plane.reshape(-1, 4).tolist() for t in combinations(line, 3)]
    collinear = {_mask(t) for t in triples}
    closing = [[t for t in triples if max(t) == p] for p in range(POINTS)]  # checked when p is placed
    while not budget.done():
        image = _place_points(closing, collinear, rng)
        if image is not None:
            return np.array(image, dtype=np.int64)
    return None


def _place_points(closing: list, collinear: set[int], rng: random.Random) -> list[int] | None:
    """One depth-first attempt: images of points 0, 1, ... in random order; None past the step budget."""
    image, used, steps = [-1] * POINTS, [False] * POINTS, 0

    def place(p: int) -> bool:
        nonlocal steps
        steps += 1
        if steps > RESTART_STEPS:
            return False
        if p == POINTS:
            return True
        for v in rng.sample(range(POINTS), POINTS):
            if used[v]:
                continue
            image[p] = v
            if all(_mask(image[a] for a in t) not in collinear for t in closing[p]):
                used[v] = True
                if place(p + 1):
                    return True
                used[v] = False
        return False

    return image if place(0) else None


def _mask(points: Iterable[int]) -> int:
    return sum(1 << p for p in points)


def sign_equations(classes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The system (C(n, 2) x R n over GF(2), right side all ones) of R classes on n points, the first half
    of one design and the second of the other: unknown n r + a is the sign of point a in its block of
    class r (each point is in one block per class). 120 x 160 for the two planes."""
    rounds, points = len(classes), classes.size // len(classes)
    block = np.empty((rounds, points), dtype=np.int64)
    block[np.arange(rounds)[:, None, None], classes] = np.arange(classes.shape[1])[None, :, None]
    a, b = np.triu_indices(points, 1)
    together = block[:, a] == block[:, b]  # (R, C(n, 2)): the classes where a and b share a block
    half = rounds // 2
    first, second = together[:half].argmax(axis=0), half + together[half:].argmax(axis=0)
    matrix = np.zeros((len(a), rounds * points), dtype=np.uint8)
    pairs = np.arange(len(a))
    for r, p in ((first, a), (first, b), (second, a), (second, b)):
        matrix[pairs, points * r + p] = 1  # the four unknowns of one equation are distinct
    return matrix, np.ones(len(a), dtype=np.uint8)


def solve_gf2(matrix: np.ndarray, rhs: np.ndarray) -> np.ndarray | None:
    """A solution of matrix @ x = rhs over GF(2) (free unknowns 0), or None if there is none."""
    rows = np.concatenate([matrix, rhs[:, None]], axis=1).astype(np.uint8) & 1
    pivots: list[int] = []
    for column in range(matrix.shape[1]):
        r = len(pivots)
        if r == len(rows):
            break
        hits = np.nonzero(rows[r:, column])[0]
        if hits.size == 0:
            continue
        rows[[r, r + hits[0]]] = rows[[r + hits[0], r]]
        others = np.nonzero(rows[:, column])[0]
        rows[others[others != r]] ^= rows[r]  # reduced echelon form: the column is clear elsewhere
        pivots.append(column)
    if rows[len(pivots) :, -1].any():  # 0 = 1
        return None
    x = np.zeros(matrix.shape[1], dtype=np.uint8)
    x[pivots] = rows[: len(pivots), -1]
    return x


def lift(classes: np.ndarray, signs: np.ndarray) -> Seats:
    """(10, 8, 4): block t of class r becomes tables 2t ({2a + x(a)}) and 2t + 1 ({2a + 1 - x(a)})."""
    x = signs[np.arange(len(classes))[:, None, None], classes].astype(np.int64)
    tables = np.stack([2 * classes + x, 2 * classes + 1 - x], axis=2)  # (10, 4, 2, 4)
    return tables.reshape(len(classes), 2 * classes.shape[1], 4)
