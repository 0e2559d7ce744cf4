"""The CP-SAT model of a whole day: variables, constraints and objective, built once from the event.

A boolean per player, round and table says who sits where; the sitting-out players form one more
group. A boolean per pair and round says the pair shares a table, and each pair's repeats are its
meetings beyond the first. The objective is repeats first, then the worst-off player's repeats,
then the most meetings of any pair.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
from ortools.sat.python import cp_model

from models import Event
from optimizer.seating import EMPTY


class SeatingModel:
    def __init__(self, event: Event, lower_bound: int = 0, max_repeats: int | None = None):
        self.event = event
        self.layout = event.layout
        self.players = len(event.players)
        self.model = cp_model.CpModel()
        self.capacity = [4] * self.layout.fours + [3] * self.layout.threes
        self._add_variables()
        self._add_seating_constraints()
        self._add_fair_shares()
        self._fix_first_round()
        self._break_table_symmetry()
        self._add_meetings()
        self._set_objective(lower_bound)
        if max_repeats is not None:
            self.model.add(self.total_repeats <= max_repeats)

    # -- variables -------------------------------------------------------------------------
    def _add_variables(self) -> None:
        n, rounds, tables = self.players, self.event.rounds, len(self.capacity)
        new = self.model.new_bool_var
        self.seat = {(p, r, t): new(f"x{p}_{r}_{t}") for p in range(n) for r in range(rounds) for t in range(tables)}
        self.out = {(p, r): new(f"out{p}_{r}") for p in range(n) for r in range(rounds)} if self.layout.sit_outs else {}

    # -- constraints -----------------------------------------------------------------------
    def _add_seating_constraints(self) -> None:
        n, rounds = self.players, self.event.rounds
        for r in range(rounds):
            for p in range(n):
                places = [self.seat[p, r, t] for t in range(len(self.capacity))]
                self.model.add_exactly_one(places + ([self.out[p, r]] if self.out else []))
            for t, size in enumerate(self.capacity):
                self.model.add(sum(self.seat[p, r, t] for p in range(n)) == size)

    def _add_fair_shares(self) -> None:
        """Nobody takes a burden a second time while someone has not taken it once: by every round."""
        threes = range(self.layout.fours, len(self.capacity))
        burdens = []
        if self.out:
            burdens.append((self.layout.sit_outs, lambda p, r: [self.out[p, r]]))
        if self.layout.threes:
            burdens.append((3 * self.layout.threes, lambda p, r: [self.seat[p, r, t] for t in threes]))
        for per_round, taken in burdens:
            for r in range(self.event.rounds):
                low, high = divmod(per_round * (r + 1), self.players)
                high = low + (high > 0)
                for p in range(self.players):
                    so_far = sum(var for q in range(r + 1) for var in taken(p, q))
                    self.model.add_linear_constraint(so_far, low, high)

    def _fix_first_round(self) -> None:
        """Relabelling players makes any first round the canonical one: players in list order."""
        for p, t in enumerate(self.first_round_tables()):
            for table in range(len(self.capacity)):
                self.model.add(self.seat[p, 0, table] == int(table == t))

    def first_round_tables(self) -> list[int]:
        """Table of each player in the canonical first round; -1 for those who sit out."""
        tables = [t for t, size in enumerate(self.capacity) for _ in range(size)]
        return tables + [EMPTY] * self.layout.sit_outs

    def _break_table_symmetry(self) -> None:
        """Tables of one size are interchangeable: order them by their lowest-numbered player,
        so the j-th table of a size never holds any of players 0..j-1."""
        for r in range(1, self.event.rounds):
            for size in (4, 3):
                group = [t for t, cap in enumerate(self.capacity) if cap == size]
                for j, t in enumerate(group):
                    for p in range(min(j, self.players)):
                        self.model.add(self.seat[p, r, t] == 0)

    def _add_meetings(self) -> None:
        rounds, tables = self.event.rounds, len(self.capacity)
        first = self.first_round_tables()
        self.meetings, self.repeats, self.together = {}, {}, {}
        for p, q in combinations(range(self.players), 2):
            together = []
            for r in range(1, rounds):
                met = self.model.new_bool_var(f"m{p}_{q}_{r}")
                for t in range(tables):
                    self.model.add_bool_or([self.seat[p, r, t].Not(), self.seat[q, r, t].Not(), met])
                together.append(met)
                self.together[p, q, r] = met
            already = int(first[p] == first[q] != EMPTY)
            self.meetings[p, q] = sum(together) + already
            repeat = self.model.new_int_var(0, rounds - 1, f"e{p}_{q}")
            self.model.add(repeat >= self.meetings[p, q] - 1)
            self.repeats[p, q] = repeat

    # -- objective -------------------------------------------------------------------------
    def _set_objective(self, lower_bound: int) -> None:
        n, rounds = self.players, self.event.rounds
        self.total_repeats = sum(self.repeats.values())
        self.model.add(self.total_repeats >= lower_bound)  # a proven cut: lets CP-SAT close the gap
        self.worst_player = self.model.new_int_var(0, (n - 1) * (rounds - 1), "worst_player")
        for p in range(n):
            own = [self.repeats[min(p, q), max(p, q)] for q in range(n) if q != p]
            self.model.add(self.worst_player >= sum(own))
        self.most_meetings = self.model.new_int_var(0, rounds, "most_meetings")
        for meetings in self.meetings.values():
            self.model.add(self.most_meetings >= meetings)
        # Lexicographic by weights: a unit of repeats outweighs every possible fairness term.
        self.fairness_weight = rounds + 1
        self.repeats_weight = self.fairness_weight * ((n - 1) * (rounds - 1) + 1)
        self.model.minimize(
            self.repeats_weight * self.total_repeats + self.fairness_weight * self.worst_player + self.most_meetings
        )

    def repeats_bound(self, objective_bound: float) -> int:
        """The bound on repeats implied by a bound on the weighted objective."""
        return int(objective_bound + 1e-6) // self.repeats_weight

    # -- hints and solutions ---------------------------------------------------------------
    def add_hint(self, seats: np.ndarray) -> None:
        """Hint the seats and meetings of a canonical seating; CP-SAT derives the objective terms."""
        table_of = _table_of(seats, self.players)
        for (p, r, t), var in self.seat.items():
            self.model.add_hint(var, int(table_of[r, p] == t))
        for (p, r), var in self.out.items():
            self.model.add_hint(var, int(table_of[r, p] == EMPTY))
        for (p, q, r), var in self.together.items():
            self.model.add_hint(var, int(table_of[r, p] == table_of[r, q] != EMPTY))

    def seating(self, value) -> np.ndarray:
        """The seating read from a solution; `value` maps a variable to its value."""
        seats = np.full((self.event.rounds, len(self.capacity), 4), EMPTY, dtype=np.int64)
        for r in range(self.event.rounds):
            for t in range(len(self.capacity)):
                members = [p for p in range(self.players) if value(self.seat[p, r, t])]
                seats[r, t, : len(members)] = members
        return seats


def _table_of(seats: np.ndarray, players: int) -> np.ndarray:
    """rounds x players: each player's table index, EMPTY when sitting out."""
    table_of = np.full((seats.shape[0], players), EMPTY, dtype=np.int64)
    rounds, tables, seats_per = np.nonzero(seats >= 0)
    table_of[rounds, seats[rounds, tables, seats_per]] = tables
    return table_of
