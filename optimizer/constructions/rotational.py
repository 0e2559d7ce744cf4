"""A CP-SAT search for rotational zero-repeat schedules (1-rotational / cyclic resolvable designs).

Players are Z_m x {classes 0..k-1} plus f fixed points (N = m*k + f). Round t is the base round
with every player (x, c) replaced by (x + t mod m, c); fixed points stay. Only the base round is
searched. For R <= m rounds the conditions on the base round, derived in the module tests, are:

- A base pair {(x, c), (y, d)} has the type (c, d, y - x mod m) (c < d) or, within a class,
  (c, c, +-(y - x)). A player pair of that type is the image of the base pair under exactly one
  shift t mod m, so two base pairs of one type whose x differ by D make some pair meet in rounds
  t and t + D; with R = m that always happens, so each type occurs at most once (for R < m this
  stays sufficient).
- The within-class difference m/2 maps onto a pair under two shifts, t and t + m/2: forbidden
  when R > m/2.
- A fixed point meets (a, c) in round t iff (a - t, c) is at its base table: two players of one
  class there make it meet someone twice (always, for R = m), so at most one per class.
- Two fixed points at one table would meet every round: one fixed point per table at most.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import combinations
from math import gcd
from typing import TYPE_CHECKING

import numpy as np

from optimizer.budget import Budget, solve
from optimizer.config import PlanConfig
from optimizer.pipeline.stages import Start
from optimizer.seats import repeats

if TYPE_CHECKING:  # CP-SAT is imported where the model is built (optimizer.budget, "Start-up")
    from ortools.sat.python import cp_model

    # The base model's variables: seat[p, j] is 1 when player p sits at table j in the base round.
    _Seat = dict[tuple[int, int], cp_model.IntVar]


@dataclass(frozen=True)
class Shape:
    """Players Z_m x k classes + f fixed points; (x, c) is player c*m + x, fixed point i is m*k + i."""

    m: int
    k: int
    f: int
    turn: int = 0  # 0: no extra symmetry; u: base round invariant under (x, c) -> (u*x, c + 1)
    mirror: bool = False  # base round invariant under (x, c) -> (-x, c with classes 1, 2 swapped)

    @property
    def player_count(self) -> int:
        return self.m * self.k + self.f

    @property
    def tables(self) -> int:
        return self.player_count // 4

    def player(self, x: int, c: int) -> int:
        return c * self.m + x % self.m

    def describe(self) -> str:
        turn = {0: "", 1: ", classes turned"}.get(self.turn, f", classes turned with x*{self.turn}")
        mirror = ", mirrored" if self.mirror else ""
        return f"rotational Z_{self.m} x {self.k} + {self.f} fixed{turn}{mirror}"

    def turns(self) -> list[int]:
        """Multipliers u (u^3 = 1 mod m) that can turn this shape; see _turn_classes.

        Turning needs three classes and the non-fixed tables in threes. Fixed points 1 or 3 go as
        one orbit; with 2 fixed points both stay, so each fixed table is {inf, (a,0), (ua,1), (u^2 a,2)},
        and u = 1 would give both fixed tables the same pair types: it must be another cube root.
        """
        if self.k != 3 or self.f not in (1, 2, 3) or (self.tables - self.f) % 3:
            return []
        roots = [u for u in range(1, self.m) if gcd(u, self.m) == 1 and pow(u, 3, self.m) == 1]
        return [u for u in roots if u != 1] if self.f == 2 else roots


def pair_types(shape: Shape, rounds: int) -> dict[tuple[int, int, int], list[tuple[int, int]]]:
    """Each allowed type (c, d, difference) and the player pairs of that type."""
    m, types = shape.m, {}
    for c, d in combinations(range(shape.k), 2):
        for delta in range(m):
            types[(c, d, delta)] = [(shape.player(x, c), shape.player(x + delta, d)) for x in range(m)]
    for c in range(shape.k):
        for delta in range(1, m // 2 + 1):
            if 2 * delta == m and rounds > m // 2:
                continue  # two shifts map it onto the same pair within R rounds
            starts = range(m // 2) if 2 * delta == m else range(m)
            types[(c, c, delta)] = [(shape.player(x, c), shape.player(x + delta, c)) for x in starts]
    return types


def pairs_needed(shape: Shape) -> int:
    """Base-round pairs between non-fixed players: 3 per fixed-point table, 6 per other table."""
    return 3 * shape.f + 6 * (shape.tables - shape.f)


def feasible_by_counting(shape: Shape, rounds: int) -> bool:
    """Necessary conditions: whole tables, room for the fixed points, enough distinct pair types."""
    if shape.player_count % 4 or not 1 <= rounds <= shape.m or shape.k < 1:
        return False
    if shape.f > shape.tables or (shape.f and shape.k < 3):
        return False
    return pairs_needed(shape) <= pair_type_count(shape, rounds)


def pair_type_count(shape: Shape, rounds: int) -> int:
    """len(pair_types(shape, rounds)), counted without listing their pairs (at hundreds of players every
    shape is counted: listing them took minutes)."""
    m, k = shape.m, shape.k
    within = m // 2 - (m % 2 == 0 and rounds > m // 2)
    return k * (k - 1) // 2 * m + k * within


def candidate_shapes(player_count: int, rounds: int, limit: int = 4) -> list[Shape]:
    """Shapes worth searching: the smallest cycle m >= rounds first, three classes preferred."""
    shapes = [
        Shape(m, k, player_count - m * k)
        for m in range(max(rounds, 2), player_count + 1)
        for k in range(1, player_count // m + 1)
        if feasible_by_counting(Shape(m, k, player_count - m * k), rounds)
    ]
    shapes.sort(key=lambda s: (s.m, abs(s.k - 3), s.f))
    # The turning variants are a far smaller search, so they go first where they apply.
    # Two fixed points and no cube root of 1 (m = 10): the mirror symmetry halves the search.
    shapes = [
        variant
        for s in shapes
        for variant in [replace(s, turn=u) for u in s.turns()[:2]]
        + ([replace(s, mirror=True)] if s.k == 3 and not s.turns() else [])
        + [s]
    ]
    return shapes[:limit]


def expand(base: np.ndarray, shape: Shape, rounds: int) -> np.ndarray:
    """(rounds, T, 4): round t shifts every non-fixed player by t within its class."""
    fixed = base >= shape.m * shape.k
    c, x = np.divmod(base, shape.m)
    shifts = np.arange(rounds)[:, None, None]
    moved = c[None] * shape.m + (x[None] + shifts) % shape.m
    return np.where(fixed[None], base[None], moved).astype(np.int64)


def search_base_round(shape: Shape, rounds: int, budget: Budget, seed: int = 0, workers: int = 2) -> np.ndarray | None:
    """A base round (T, 4) meeting the conditions, or None if none is found within `budget`.

    Run times vary tenfold with the seed, so the search restarts with a new seed and a doubled
    slice (10 s, 20 s, ...) rather than betting the whole budget on one run; a proof of
    infeasibility ends it at once. A repeatable budget counts CP-SAT's deterministic time, so one
    worker with a seed repeats the search exactly."""
    from ortools.sat.python import cp_model

    slice_ = 10.0
    while budget.afford(0.05):
        status, base = _solve_once(shape, rounds, budget.within(slice_), seed, workers)
        if base is not None or status == cp_model.INFEASIBLE:
            return base
        seed, slice_ = seed + 1, 2 * slice_
    return None


def _solve_once(
    shape: Shape, rounds: int, budget: Budget, seed: int, workers: int
) -> tuple[cp_model.CpSolverStatus, np.ndarray | None]:
    """(status, base round or None)."""
    model, seat = _base_model(shape, rounds)
    solved = solve(model, budget, workers=workers, seed=seed)
    if not solved.found:
        return solved.status, None
    value = solved.solver.boolean_value
    base = [[p for p in range(shape.player_count) if value(seat[p, j])] for j in range(shape.tables)]
    return solved.status, np.array(base, dtype=np.int64)


def base_clauses(shape: Shape) -> int:
    """The base model's pair clauses (`_limit_pair_types`): two for each pair of movers at each table."""
    movers = shape.m * shape.k
    return movers * (movers - 1) * shape.tables


def _base_model(shape: Shape, rounds: int) -> tuple[cp_model.CpModel, _Seat]:
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    n, tables = shape.player_count, shape.tables
    seat = {(p, j): model.new_bool_var(f"s{p}_{j}") for p in range(n) for j in range(tables)}
    for p in range(n):
        model.add_exactly_one(seat[p, j] for j in range(tables))
    for j in range(tables):
        model.add(sum(seat[p, j] for p in range(n)) == 4)
    _place_fixed_points(model, seat, shape)
    together = _limit_pair_types(model, seat, shape, rounds)
    if shape.mirror:
        _mirror(model, seat, together, shape)
        _order_tables(model, seat, shape)
    elif shape.turn:
        _turn_classes(model, seat, shape)
        _break_turning_symmetry(model, seat, shape)
    else:
        _break_symmetry(model, seat, shape)
    return model, seat


def _place_fixed_points(model: cp_model.CpModel, seat: _Seat, shape: Shape) -> None:
    """Fixed point i at table i (fixed tables are interchangeable), one player per class beside it."""
    movers = shape.m * shape.k
    for i in range(shape.f):
        for j in range(shape.tables):
            model.add(seat[movers + i, j] == int(i == j))
        for c in range(shape.k):
            model.add_at_most_one(seat[shape.player(x, c), i] for x in range(shape.m))


def _limit_pair_types(
    model: cp_model.CpModel, seat: _Seat, shape: Shape, rounds: int
) -> dict[tuple[int, int], cp_model.IntVar]:
    """together[p, q] is exactly 'same base table'; each pair type is used at most once."""
    types = pair_types(shape, rounds)
    allowed = {pair for pairs in types.values() for pair in pairs}
    movers = shape.m * shape.k
    together = {}
    for p, q in combinations(range(movers), 2):
        z = model.new_bool_var(f"t{p}_{q}")
        together[p, q] = z
        if (p, q) not in allowed and (q, p) not in allowed:
            model.add(z == 0)  # a forbidden difference
        for j in range(shape.tables):
            model.add_bool_or([seat[p, j].Not(), seat[q, j].Not(), z])
            model.add_bool_or([z.Not(), seat[p, j].Not(), seat[q, j]])
    tight = pairs_needed(shape) == len(types)  # then every type is used exactly once
    for pairs in types.values():
        zs = [together[min(p, q), max(p, q)] for p, q in pairs]
        (model.add_exactly_one if tight else model.add_at_most_one)(zs)
    model.add(sum(together.values()) == pairs_needed(shape))
    return together


def mirror_player(shape: Shape, p: int) -> int:
    """tau: (x, 0) -> (-x, 0), (x, 1) -> (-x, 2), (x, 2) -> (-x, 1); fixed points stay."""
    if p >= shape.m * shape.k:
        return p
    c = p // shape.m
    return shape.player(-(p % shape.m), (0, 2, 1)[c] if c < 3 else c)


def _mirror(
    model: cp_model.CpModel, seat: _Seat, together: dict[tuple[int, int], cp_model.IntVar], shape: Shape
) -> None:
    """Make the base partition invariant under tau, which maps round B + t to tau(B) - t.

    Invariance is imposed on 'same table' itself, so tau may permute the tables freely.
    """
    for (p, q), z in together.items():
        a, b = sorted((mirror_player(shape, p), mirror_player(shape, q)))
        model.add(z == together[a, b])
    for i in range(shape.f):
        for p in range(shape.m * shape.k):
            model.add(seat[p, i] == seat[mirror_player(shape, p), i])


def _break_symmetry(model: cp_model.CpModel, seat: _Seat, shape: Shape) -> None:
    """Translating one class maps solutions to solutions; so does relabelling non-fixed tables."""
    if shape.f:
        # At most one player per class at table 0: translate that class so it is (0, c).
        for c in range(shape.k):
            for x in range(1, shape.m):
                model.add(seat[shape.player(x, c), 0] == 0)
        if shape.k == 3:  # three seats, three classes: all of (0, 0), (0, 1), (0, 2) are there
            for c in range(3):
                model.add(seat[shape.player(0, c), 0] == 1)
    _order_tables(model, seat, shape)


def _order_tables(model: cp_model.CpModel, seat: _Seat, shape: Shape) -> None:
    """Non-fixed tables are interchangeable: order them by their lowest player."""
    lowest = _lowest_players(model, seat, shape)
    for a, b in zip(lowest, lowest[1:]):
        model.add(a < b)


def turn_player(shape: Shape, p: int) -> int:
    """sigma: (x, c) -> (u*x, c + 1 mod 3); fixed point i -> i + 1 mod 3 if f = 3, else it stays."""
    movers = shape.m * shape.k
    if p >= movers:
        return movers + (p - movers + 1) % 3 if shape.f == 3 else p
    return shape.player(shape.turn * (p % shape.m), (p // shape.m + 1) % 3)


def turn_table(shape: Shape, j: int) -> int:
    """Fixed tables follow their fixed points; the others turn in threes f+3o, f+3o+1, f+3o+2."""
    if j < shape.f:
        return (j + 1) % 3 if shape.f == 3 else j
    orbit, r = divmod(j - shape.f, 3)
    return shape.f + 3 * orbit + (r + 1) % 3


def _turn_classes(model: cp_model.CpModel, seat: _Seat, shape: Shape) -> None:
    """Make the base round invariant under sigma, which commutes with the shifts.

    With u = 1 this is the extra symmetry of 1-rotational designs over Z_m x Z_3; other cube roots
    of 1 are multiplier symmetries (sigma(B + t) = sigma(B) + u*t keeps the set of rounds). It cuts
    the free part of the base round to a third and only restricts the search.
    """
    for p in range(shape.player_count):
        for j in range(shape.tables):
            model.add(seat[turn_player(shape, p), turn_table(shape, j)] == seat[p, j])


def _break_turning_symmetry(model: cp_model.CpModel, seat: _Seat, shape: Shape) -> None:
    """Order the orbits; for u = 1 a shift of all classes keeps sigma, so (0, 0) joins fixed point 0."""
    if shape.turn == 1:
        model.add(seat[shape.player(0, 0), 0] == 1)
    lowest = _lowest_players(model, seat, shape)
    firsts = range(0, len(lowest), 3)  # each orbit's first table holds the orbit's lowest player
    for o in firsts:
        model.add(lowest[o] < lowest[o + 1])
        model.add(lowest[o] < lowest[o + 2])
    for a, b in zip(firsts, list(firsts)[1:]):
        model.add(lowest[a] < lowest[b])


def _lowest_players(model: cp_model.CpModel, seat: _Seat, shape: Shape) -> list[cp_model.IntVar]:
    """Per non-fixed table, the lowest player index seated there."""
    n = shape.player_count
    lowest = []
    for j in range(shape.f, shape.tables):
        low = model.new_int_var(0, n, f"low{j}")
        model.add_min_equality(low, [n - (n - p) * seat[p, j] for p in range(n)])
        lowest.append(low)
    return lowest


def rotational_seating(player_count: int, rounds: int, budget: Budget, seed: int = 0, workers: int = 2) -> Start | None:
    """A verified repeat-free rotational seating, trying candidate shapes within `budget`."""
    shapes = candidate_shapes(player_count, rounds)
    for index, shape in enumerate(shapes):
        if not budget.afford(0.05):
            break
        if PlanConfig().too_big(base_clauses(shape), budget):
            continue  # at hundreds of players: gigabytes, and minutes to build
        # The first shapes are the likeliest: give each most of what is left, not an equal split.
        last = index == len(shapes) - 1
        base = search_base_round(shape, rounds, budget if last else budget.share(0.6), seed, workers)
        if base is not None:
            seats = expand(base, shape, rounds)
            if repeats(seats, player_count) == 0:  # never trust the model alone
                return Start.built(seats, shape.describe())
    return None
