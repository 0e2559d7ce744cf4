"""A day of orbits and shift-invariant rounds, renumbered round by round, found by CP-SAT.

The rotational day (`rotational_day`) keeps each base round's table numbers along its orbit, so a player
sits at the tables its class has in the base round: where a class needs two players at one table (to
meet each other), every player of that class visits that table twice per orbit. That shape finds no
20 x 9 day without visits above even. This one frees the numbers and adds rounds that the shift maps
to themselves.

Players are Z_T x {0, 1, 2, 3}, player c*T + x being (x, c), with T tables:

- orbit b of length L_b <= T: its round s < L_b seats (x, c) at the table that base round b gives
  (x - s, c), and numbers that table tau_{b,s}(t) (tau_{0,0} the identity: renaming the numbers alike in
  all rounds changes nothing). A pair {(x, c), (y, d)} meets there iff (x - s, c) and (y - s, d) share a
  table of base round b;
- K = R - sum L_b invariant rounds: round r seats (x, c) at label x - a[r, c] (a[r, 0] = 0), numbered
  pi_r(label). A pair of classes c != d meets there iff y - x = a[r, d] - a[r, c]; a class never meets
  itself there, so only the orbits bring players of one class together.

The model, every meeting developed explicitly (so a pair the shift maps to itself over fewer than T
rounds, as {(x, c), (x + T/2, c)}, counts right):

    base[b][p, t], mates[b][p, q]  the base rounds exactly (`rotational_day.base_rounds`);
    tau[b, s][j, t], pi[r][l, t]   permutation matrices;
    inv[r][c, d, e]                == sum_v (a[r, c, v] AND a[r, d, v + e]), exact;
    met[p, q]                      => OR of the rounds in which p and q share a table;
    sum met                       >= meetings - E, so repeats <= E (repeats = meetings - pairs that meet);
    no trio again (when asked)     any three players share a table in at most one round;
    no back-to-back (when asked)   in the day's order (the orbits' rounds in turn, alternating with the
                                   invariant rounds while both last) no pair shares a table in two rounds
                                   running;
    above[p, t]                   >= (rounds p spends at number t) - ceil(R / T), above >= 0, where p's
                                   rounds at t count base[b][p - s, j] AND tau[b, s][j, t] and
                                   a[r, c, v] AND pi[r][x - v, t] (each AND bounded below only: visits can
                                   only be over-counted, and the day is measured again by the checker);
                                   sum above <= below - 1, minimised: the table visits above even
                                   (`tables.table_visits_above_even`).

Measured (benchmarks/README.md, issue 29's fifth part), 2 workers, asked for no visits above even, no
trio again and no back-to-back at the counting bound's E: 20 x 9 in 5 to 8 s (one orbit and four
invariant rounds; the published table's 0, our days before 7), 16 x 11 and 16 x 15 (0 against 2). Plans
do not search it (10 s a run for nothing elsewhere): the days it reached are stored (`ahead`).
"""

from __future__ import annotations

from itertools import combinations
from typing import Literal

import numpy as np
from ortools.sat.python import cp_model

from optimizer.balance.rotational_day import base_rounds
from optimizer.budget import Budget, solve

# Not tried past this many players: over the grid's rooms of 16 to 28 players it gave days only in rooms of
# 16 and 20 (benchmarks/README.md, issue 29's fifth part).
ORBIT_DAY_MAX_PLAYERS = 24


def orbit_day(
    player_count: int,
    rounds: int,
    *,
    repeats: int,
    below: int,
    no_trios: bool,
    no_back_to_back: bool,
    budget: Budget,
    workers: int = 2,
    seed: int = 0,
    orbits: tuple[int, ...] | None = None,
) -> np.ndarray | None:
    """A day (rounds, T, 4) of orbits of base rounds, `orbits` giving each one's length (at most T; one of
    min(R, T) rounds unless given), and R - sum(orbits) invariant rounds with at most `repeats` repeats and fewer
    than `below` table visits above even; no trio again if `no_trios`, no pair at one table in two rounds
    running (in the day's order) if `no_back_to_back`. None when none is found within `budget`
    (optimizer.budget: deterministic time in a repeatable run, which on one worker repeats exactly), or when
    the room is not of this shape."""
    tables = player_count // 4
    orbits = (min(rounds, tables),) if orbits is None else orbits
    if player_count % 4 or not 8 <= player_count <= ORBIT_DAY_MAX_PLAYERS or below <= 0:
        return None
    if not orbits or sum(orbits) > rounds or not all(1 <= length <= tables for length in orbits):
        return None
    day = _Day(player_count, rounds, orbits)
    day.at_most_repeats(repeats)
    if no_trios:
        day.no_trio_again()
    if no_back_to_back:
        day.no_back_to_back()
    day.fewer_visits_above_even(below)
    solved = solve(day.model, budget, workers=workers, seed=seed)
    return day.seats(solved.solver) if solved.found else None


class _Day:
    """The variables of one orbit day and the meetings they make; constraints are added by the caller."""

    def __init__(self, n: int, rounds: int, orbits: tuple[int, ...]) -> None:
        self.n, self.tables, self.rounds = n, n // 4, rounds
        self.invariant = rounds - sum(orbits)
        self.model = model = cp_model.CpModel()
        self.base, self.mates = base_rounds(model, n, len(orbits))
        shifts = [(b, s) for b, length in enumerate(orbits) for s in range(length)]
        self.tau = {shift: _permutation(model, self.tables) for shift in shifts}
        for j in range(self.tables):  # the numbers renamed alike in all rounds change nothing
            model.add(self.tau[0, 0][j, j] == 1)
        self.pi = [_permutation(model, self.tables) for _ in range(self.invariant)]
        self.offset = [self._offsets() for _ in range(self.invariant)]
        self.inv = [self._invariant_meetings(a) for a in self.offset]
        # the day's order: the orbits' rounds in turn, alternating with the invariant rounds while both last
        # (an orbit's round is its (b, s), an invariant round its number r)
        orbit = [(b, s) for s in range(max(orbits)) for b in range(len(orbits)) if s < orbits[b]]
        fixed = list(range(self.invariant))
        self.order: list[tuple[int, int] | int] = [k for both in zip(orbit, fixed) for k in both]
        self.order += [*orbit[len(fixed) :], *fixed[len(orbit) :]]

    def _offsets(self) -> dict[tuple[int, int], cp_model.IntVar]:
        a = {(c, v): self.model.new_bool_var("") for c in range(4) for v in range(self.tables)}
        for c in range(4):
            self.model.add_exactly_one(a[c, v] for v in range(self.tables))
        self.model.add(a[0, 0] == 1)  # the labels of an invariant round are renamed by pi alone
        return a

    def _invariant_meetings(
        self, a: dict[tuple[int, int], cp_model.IntVar]
    ) -> dict[tuple[int, int, int], cp_model.IntVar]:
        """inv[c, d, e]: classes c < d meet at difference e in this invariant round (exact)."""
        T, model = self.tables, self.model
        inv = {}
        for c, d in combinations(range(4), 2):
            for e in range(T):
                terms = []
                for v in range(T):
                    w = model.new_bool_var("")
                    model.add_implication(w, a[c, v])
                    model.add_implication(w, a[d, (v + e) % T])
                    model.add_bool_or([a[c, v].Not(), a[d, (v + e) % T].Not(), w])
                    terms.append(w)
                inv[c, d, e] = model.new_bool_var("")
                model.add(sum(terms) == inv[c, d, e])
        return inv

    def _shifted(self, p: int, s: int) -> int:  # (x, c) -> (x - s, c)
        T = self.tables
        return p // T * T + (p - s) % T

    def together(self, p: int, q: int, k: tuple[int, int] | int) -> cp_model.IntVar | Literal[False]:
        """Whether p < q share a table in round k (an orbit's (b, s), or invariant round r): a literal, or False."""
        if isinstance(k, tuple):
            b, s = k
            return self.mates[b][self._shifted(p, s), self._shifted(q, s)]
        T = self.tables
        (c, x), (d, y) = divmod(p, T), divmod(q, T)
        return False if c == d else self.inv[k][c, d, (y - x) % T]

    def at_most_repeats(self, repeats: int) -> None:
        model, met = self.model, []
        for p, q in combinations(range(self.n), 2):
            ways = [w for k in self.order if (w := self.together(p, q, k)) is not False]
            m = model.new_bool_var("")
            model.add_bool_or(ways).only_enforce_if(m)
            met.append(m)
        model.add(sum(met) >= self.rounds * self.tables * 6 - repeats)

    def no_trio_again(self) -> None:
        model = self.model
        for p, q, r in combinations(range(self.n), 3):
            trio = []
            for k in self.order:
                pq, pr = self.together(p, q, k), self.together(p, r, k)
                if pq is False or pr is False:
                    continue
                z = model.new_bool_var("")
                model.add_bool_or([pq.Not(), pr.Not(), z])
                trio.append(z)
            model.add(sum(trio) <= 1)

    def no_back_to_back(self) -> None:
        for p, q in combinations(range(self.n), 2):
            for one, two in zip(self.order, self.order[1:]):
                a, b = self.together(p, q, one), self.together(p, q, two)
                if a is not False and b is not False:
                    self.model.add_bool_or([a.Not(), b.Not()])

    def fewer_visits_above_even(self, below: int) -> None:
        model, T = self.model, self.tables
        even = -(-self.rounds // T)
        above = []
        for p in range(self.n):
            c, x = divmod(p, T)
            for t in range(T):
                visits = [self.base[0][p, t]]
                for b, s in self.tau:
                    if (b, s) != (0, 0):
                        whose = self._shifted(p, s)
                        visits += [_and(model, self.base[b][whose, j], self.tau[b, s][j, t]) for j in range(T)]
                for r in range(self.invariant):
                    visits += [_and(model, self.offset[r][c, v], self.pi[r][(x - v) % T, t]) for v in range(T)]
                a = model.new_int_var(0, self.rounds, "")
                model.add(a >= sum(visits) - even)
                above.append(a)
        model.add(sum(above) <= below - 1)
        model.minimize(sum(above))

    def seats(self, solver: cp_model.CpSolver) -> np.ndarray:
        T = self.tables
        seats = np.zeros((self.rounds, T, 4), np.int64)
        base = [[[p for p in range(self.n) if solver.value(at[p, t])] for t in range(T)] for at in self.base]
        offsets = [[next(v for v in range(T) if solver.value(a[c, v])) for c in range(4)] for a in self.offset]
        for i, k in enumerate(self.order):
            number = self.tau[k] if isinstance(k, tuple) else self.pi[k]
            for j in range(T):
                t = next(t for t in range(T) if solver.value(number[j, t]))
                if isinstance(k, tuple):
                    b, s = k
                    seats[i, t] = sorted(p // T * T + (p + s) % T for p in base[b][j])
                else:
                    seats[i, t] = [c * T + (j + offsets[k][c]) % T for c in range(4)]
        return seats


def _permutation(model: cp_model.CpModel, size: int) -> dict[tuple[int, int], cp_model.IntVar]:
    m = {(i, j): model.new_bool_var("") for i in range(size) for j in range(size)}
    for i in range(size):
        model.add_exactly_one(m[i, j] for j in range(size))
        model.add_exactly_one(m[j, i] for j in range(size))
    return m


def _and(model: cp_model.CpModel, u: cp_model.IntVar, w: cp_model.IntVar) -> cp_model.IntVar:
    """A literal at least u AND w (bounded below only: it is counted where fewer is better)."""
    b = model.new_bool_var("")
    model.add_bool_or([u.Not(), w.Not(), b])
    return b
