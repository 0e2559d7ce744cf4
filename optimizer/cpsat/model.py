"""The CP-SAT model of a day: variables, constraints and objective, built once from the event.

A boolean per player, round and table says who sits where; the sitting-out players form one more
group. A boolean per pair and round says the pair shares a table, and each pair's repeats are its
meetings beyond the first, counting meetings in rounds already played. The objective is repeats
first, then the worst-off player's repeats, then the most meetings of any pair.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from models import Event, Layout
from optimizer.cpsat.hint import canonical_form, order_tables
from optimizer.pipeline.state import History
from optimizer.requests import club_mates, turn_exempt
from optimizer.seats import EMPTY, Seats, table_of

if TYPE_CHECKING:  # CP-SAT is imported where the model is built (optimizer.budget, "Start-up")
    from ortools.sat.python import cp_model


def day_clauses(event: Event) -> int:
    """The meeting clauses of the whole-day model, a pair's for each table of each round: what its size,
    time to build and memory grow with (about a kilobyte each, measured: 0.9 GB at 68 x 22, 850 000)."""
    player_count = len(event.players)
    return player_count * (player_count - 1) // 2 * event.rounds * event.layout.tables


def first_round_tables(layout: Layout) -> list[int]:
    """Relabelling players makes any first round this one: players in list order, the tables of four
    first, those sitting out last (table by player, EMPTY sitting out)."""
    tables = [t for t in range(layout.tables) for _ in range(4 if t < layout.fours else 3)]
    return tables + [EMPTY] * layout.sit_outs


class SeatingModel:
    def __init__(
        self,
        event: Event,
        *,
        lower_bound: int = 0,
        max_repeats: int | None = None,
        history: History | None = None,
        break_symmetry: bool = True,
        fixed_rounds: Sequence[Sequence[int]] = (),
    ):
        """`lower_bound` is a proven cut on repeats; only schedules with at most `max_repeats` count;
        `history` carries the meetings and burdens of rounds already played (a re-plan);
        `break_symmetry=False` keeps every relabelling of a day (to measure what breaking it buys);
        `fixed_rounds` (each table by player, EMPTY sitting out) fixes rounds 2, 3, ... to the
        representatives of one case of a split proof (optimizer.cpsat.split), with what it allows assumed."""
        history = history or History()
        self.event, self.layout = event, event.layout
        self.player_count = n = len(event.players)
        self.capacity = [4] * self.layout.fours + [3] * self.layout.threes
        self.met_before = np.zeros((n, n), np.int64) if history.met_before is None else history.met_before
        self.burdens_before = np.zeros(n, np.int64) if history.burdens_before is None else history.burdens_before
        self.index = {name: p for p, name in enumerate(event.players)}
        self.clubs = club_mates(event)
        # Symmetry breaking is sound only while players (tables) are interchangeable.
        self.same_players = break_symmetry and history.fresh and not (event.apart or event.stay or event.spread)
        self.same_tables = break_symmetry and not event.stay
        if fixed_rounds and not self.same_players:
            raise ValueError("a split by round 2 needs interchangeable players")
        self.fixed_rounds = [list(tables) for tables in fixed_rounds]
        from ortools.sat.python import cp_model

        self.model = cp_model.CpModel()
        self._add_variables()
        self._add_seating_constraints()
        self._add_requests()
        self._add_fair_shares()
        self._break_symmetry()
        self._add_meetings()
        if self.fixed_rounds:
            self._no_closer_rounds(self.fixed_rounds[0])
        self._set_objective(lower_bound, max_repeats)

    # -- variables -------------------------------------------------------------------------
    def _add_variables(self) -> None:
        n, rounds, tables = self.player_count, self.event.rounds, len(self.capacity)
        new = self.model.new_bool_var
        self.seat = {(p, r, t): new(f"x{p}_{r}_{t}") for p in range(n) for r in range(rounds) for t in range(tables)}
        self.out = {(p, r): new(f"out{p}_{r}") for p in range(n) for r in range(rounds)} if self.layout.sit_outs else {}

    # -- constraints -----------------------------------------------------------------------
    def _add_seating_constraints(self) -> None:
        for r in range(self.event.rounds):
            for p in range(self.player_count):
                places = [self.seat[p, r, t] for t in range(len(self.capacity))]
                self.model.add_exactly_one(places + ([self.out[p, r]] if self.out else []))
            for t, size in enumerate(self.capacity):
                self.model.add(sum(self.seat[p, r, t] for p in range(self.player_count)) == size)

    def _add_requests(self) -> None:
        """Keep-apart groups never share a table; a staying player is never at another table."""
        for r in range(self.event.rounds):
            for t in range(len(self.capacity)):
                for group in self.event.apart:
                    self.model.add_at_most_one(self.seat[self.index[name], r, t] for name in group)
            for name, table in self.event.stay.items():
                for t in range(len(self.capacity)):
                    if t != table - 1:
                        self.model.add(self.seat[self.index[name], r, t] == 0)

    def _add_fair_shares(self) -> None:
        """Nobody takes a burden a second time while someone has not taken it once: after every
        round, everyone's count so far lies in {least, least + 1}. Staying players keep their
        table, so they are exempt from three-handed turns (not from sitting out)."""
        threes = range(self.layout.fours, len(self.capacity))
        self.least: list[cp_model.IntVar] = []
        if self.out:
            taken = lambda p, r: [self.out[p, r]]  # noqa: E731
        elif self.layout.threes:
            taken = lambda p, r: [self.seat[p, r, t] for t in threes]  # noqa: E731
        else:
            return
        sharing = np.flatnonzero(~turn_exempt(self.event)).tolist()
        self.sharing = sharing
        for r in range(self.event.rounds):
            least = self.model.new_int_var(0, self.event.rounds + int(self.burdens_before.max()), f"least{r}")
            self.least.append(least)
            for p in sharing:
                so_far = int(self.burdens_before[p]) + sum(var for q in range(r + 1) for var in taken(p, q))
                self.model.add(so_far >= least)
                self.model.add(so_far <= least + 1)

    def _break_symmetry(self) -> None:
        """Players are interchangeable, and so are tables of one size within a round: of all the
        relabellings of a day, keep those whose table-by-player matrix reads lexicographically
        least, row by row. The least one has its rows (players) in order and, in every column
        (round), tables first met in order (otherwise swapping two rows, or two tables, would
        make it less), so asking for both orders together loses no day. With sorted rows the first
        round is the one in `first_round_tables`. Within stretches of interchangeable rounds the least
        one also has its columns in order. The fair-share rule and the objective see no labels. With
        later rounds fixed as well (a split case), what is left to relabel acts on the rounds after them
        alone: the same orders hold there, rows compared among players alike in every fixed round."""
        self.lex_chains: list[list[tuple[tuple[int, int], tuple[int, int], cp_model.IntVar, cp_model.IntVar]]] = []
        fixed = [first_round_tables(self.layout), *self.fixed_rounds]
        if self.same_players:
            for r, tables in enumerate(fixed):
                for p, t in enumerate(tables):
                    for table in range(len(self.capacity)):
                        self.model.add(self.seat[p, r, table] == int(table == t))
            rounds, players = range(len(fixed), self.event.rounds), range(self.player_count)
            for p in range(self.player_count - 1):  # rows of players alike in the fixed rounds
                if all(tables[p] == tables[p + 1] for tables in fixed):
                    self._lex_at_most([(r, p) for r in rounds], [(r, p + 1) for r in rounds])
            for stretch in self.interchangeable_stretches:
                for r in stretch[1:]:
                    if r > len(fixed):  # fixed rounds are not reordered, and no other round reads below them
                        self._lex_at_most([(r - 1, p) for p in players], [(r, p) for p in players])
        if self.same_tables:
            self._order_tables(first=len(fixed) if self.same_players else 0)

    @property
    def interchangeable_stretches(self) -> list[range]:
        """Stretches of rounds whose order does not matter to fair turns. With c turns a round among
        n players, every count is equal after r rounds when n divides c * r; the next n // c rounds
        give nobody a second turn, so any order of them keeps the counts within one, and leaves the
        same counts after them. Without turns (c = 0) the whole day is one stretch."""
        if not self.same_players:
            return []
        turns, n, rounds = self.layout.turns, self.player_count, self.event.rounds
        if turns == 0:
            return [range(rounds)]
        starts = [r for r in range(rounds) if turns * r % n == 0]
        return [range(r, min(rounds, r + n // turns)) for r in starts if n // turns > 1]

    def _no_closer_rounds(self, second_round: list[int]) -> None:
        """Rounds 1 and 2 of a split case are the pair of interchangeable rounds that share the most
        pairs (reordering those rounds makes them so): no other pair of them shares more."""
        stretch = next((s for s in self.interchangeable_stretches if 1 in s), None)
        if stretch is None:
            return
        fixed = [first_round_tables(self.layout), second_round]
        pairs = list(combinations(range(self.player_count), 2))
        alike = [[(p, q) for p, q in pairs if tables[p] == tables[q] != EMPTY] for tables in fixed]
        shared = sum(1 for p, q in alike[1] if fixed[0][p] == fixed[0][q])
        for r in stretch:
            if r < 2:
                continue
            for tables in alike:
                self.model.add(sum(self.together[p, q, r] for p, q in tables) <= shared)
            for s in stretch:
                if 2 <= s < r:
                    both = [self.model.new_bool_var(f"both{p}_{q}_{s}_{r}") for p, q in pairs]
                    for b, (p, q) in zip(both, pairs, strict=True):
                        self.model.add_bool_or([self.together[p, q, s].Not(), self.together[p, q, r].Not(), b])
                    self.model.add(sum(both) <= shared)

    def _table_in(self, cell: tuple[int, int]) -> cp_model.LinearExprT:
        """The table number of a (round, player) cell; sitting out counts after every table."""
        (r, p), tables = cell, len(self.capacity)
        return sum(t * self.seat[p, r, t] for t in range(tables)) + (tables * self.out[p, r] if self.out else 0)

    def _lex_at_most(self, cells: list[tuple[int, int]], after: list[tuple[int, int]]) -> None:
        """The tables of `cells` read lexicographically no higher than those of `after`: while they
        agree so far, the next is not above. A `below` flag marks where `cells` goes lower, `agree`
        flags carry the agreement on."""
        chain = []
        agree: list[cp_model.IntVar] = []  # no condition on the first pair compared
        for a, b in zip(cells, after, strict=True):
            mine, theirs = self._table_in(a), self._table_in(b)
            self.model.add(mine <= theirs).only_enforce_if(agree)
            below, still = self.model.new_bool_var(f"below{a}{b}"), self.model.new_bool_var(f"agree{a}{b}")
            self.model.add(mine < theirs).only_enforce_if(below)
            self.model.add(mine >= theirs).only_enforce_if(below.Not())
            self.model.add_bool_or([*(x.Not() for x in agree), below, still])  # agreed, not below: equal
            if agree:
                self.model.add_implication(still, agree[0])
            self.model.add(mine == theirs).only_enforce_if(still)
            chain.append((a, b, below, still))
            agree = [still]
        self.lex_chains.append(chain)

    def _order_tables(self, first: int) -> None:
        """Tables of one size are interchangeable: order them by their lowest-numbered player. A
        player at a table needs a lower-numbered player at the table before it of that size, and
        (implied, but it prunes at once) the j-th table of a size holds none of players 0..j-1."""
        for r in range(first, self.event.rounds):
            for size in (4, 3):
                group = [t for t, cap in enumerate(self.capacity) if cap == size]
                for j, t in enumerate(group):
                    for p in range(min(j, self.player_count)):
                        self.model.add(self.seat[p, r, t] == 0)
                for before, t in zip(group, group[1:], strict=False):
                    for p in range(self.player_count):
                        lower = [self.seat[q, r, before] for q in range(p)]
                        self.model.add_bool_or([self.seat[p, r, t].Not(), *lower])

    def _add_meetings(self) -> None:
        rounds, tables = self.event.rounds, len(self.capacity)
        first = first_round_tables(self.layout) if self.same_players else None
        start = 1 if self.same_players else 0
        self.meetings, self.repeats, self.together = {}, {}, {}
        for p, q in combinations(range(self.player_count), 2):
            together = []
            for r in range(start, rounds):
                met = self.model.new_bool_var(f"m{p}_{q}_{r}")
                for t in range(tables):
                    self.model.add_bool_or([self.seat[p, r, t].Not(), self.seat[q, r, t].Not(), met])
                together.append(met)
                self.together[p, q, r] = met
            already = int(self.met_before[p, q]) + int(first is not None and first[p] == first[q] != EMPTY)
            self.meetings[p, q] = sum(together) + already
            repeat = self.model.new_int_var(0, rounds + already, f"e{p}_{q}")
            self.model.add(repeat >= self.meetings[p, q] - 1)
            self.repeats[p, q] = repeat

    # -- objective -------------------------------------------------------------------------
    def _set_objective(self, lower_bound: int, max_repeats: int | None) -> None:
        n, most = self.player_count, self.event.rounds + int(self.met_before.max(initial=0))
        self.total_repeats = sum(self.repeats.values())
        self.model.add(self.total_repeats >= lower_bound)  # a proven cut: lets CP-SAT close the gap
        if max_repeats is not None:
            self.model.add(self.total_repeats <= max_repeats)
        self.worst_player = self.model.new_int_var(0, (n - 1) * most, "worst_player")
        for p in range(n):
            own = [self.repeats[min(p, q), max(p, q)] for q in range(n) if q != p]
            self.model.add(self.worst_player >= sum(own))
        self.most_meetings = self.model.new_int_var(0, most, "most_meetings")
        for meetings in self.meetings.values():
            self.model.add(self.most_meetings >= meetings)
        club_pairs = [(p, q) for p, q in self.meetings if self.clubs[p, q]]
        self.club_meetings = sum(self.meetings[pair] for pair in club_pairs)
        # Lexicographic by weights: a unit of repeats outweighs every club-mate meeting, which
        # outweighs every possible fairness term.
        self.fairness_weight = most + 1
        club_weight = self.fairness_weight * ((n - 1) * most + 1)
        self.repeats_weight = club_weight * (len(club_pairs) * most + 1)
        self.model.minimize(
            self.repeats_weight * self.total_repeats
            + club_weight * self.club_meetings
            + self.fairness_weight * self.worst_player
            + self.most_meetings
        )

    def repeats_bound(self, objective_bound: float) -> int:
        """The bound on repeats implied by a bound on the weighted objective."""
        return int(objective_bound + 1e-6) // self.repeats_weight

    # -- hints and solutions ---------------------------------------------------------------
    def add_hint(self, seats: Seats) -> None:
        """Hint every variable from a seating, put in the form symmetry breaking expects: seats,
        meetings, repeats, fair-share floors and the objective's terms. A complete, feasible hint
        lets CP-SAT start from the seating instead of repairing it."""
        if self.same_players:
            seats = canonical_form(seats, self.layout.fours, self.player_count, self.interchangeable_stretches)
        elif self.same_tables:
            seats = order_tables(seats, self.layout.fours, self.player_count)
        where = table_of(seats, self.player_count)
        for (p, r, t), var in self.seat.items():
            self.model.add_hint(var, int(where[r, p] == t))
        for (p, r), var in self.out.items():
            self.model.add_hint(var, int(where[r, p] == EMPTY))
        for (p, q, r), var in self.together.items():
            self.model.add_hint(var, int(where[r, p] == where[r, q] != EMPTY))
        self._hint_counts(where)

    def _hint_counts(self, where: np.ndarray) -> None:
        """The integer variables' values implied by the seats: each at the least value its
        constraints allow, which is the value an optimal solution gives them."""
        met, repeats = self._hint_repeats(where)
        self.model.add_hint(self.worst_player, int(repeats.sum(axis=1).max(initial=0)))
        pairs = np.triu_indices(self.player_count, 1)
        self.model.add_hint(self.most_meetings, int(met[pairs].max(initial=0)))
        rows = np.where(where == EMPTY, len(self.capacity), where)
        for chain in self.lex_chains:
            agreed = True
            for a, b, below, still in chain:
                agreed = agreed and bool(rows[a] == rows[b])
                self.model.add_hint(below, int(rows[a] < rows[b]))
                self.model.add_hint(still, int(agreed))
        self._hint_least(where)

    def _hint_repeats(self, where: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Hint each pair's repeats; returns the whole day's meetings and repeats, players x players."""
        same = (where[:, :, None] == where[:, None, :]) & (where[:, :, None] != EMPTY)
        met = same.sum(axis=0) + self.met_before
        repeats = np.maximum(met - 1, 0)
        np.fill_diagonal(repeats, 0)
        for (p, q), var in self.repeats.items():
            self.model.add_hint(var, int(repeats[p, q]))
        return met, repeats

    def _hint_least(self, where: np.ndarray) -> None:
        """The fair-share floors: the fewest burdens anyone sharing them has after each round."""
        if self.least:
            burdened = where == EMPTY if self.out else where >= self.layout.fours
            so_far = self.burdens_before[None, :] + burdened.cumsum(axis=0)
            for r, var in enumerate(self.least):
                self.model.add_hint(var, int(so_far[r, self.sharing].min()))

    def seating(self, value: Callable[[cp_model.IntVar], int]) -> Seats:
        """The seating read from a solution; `value` maps a variable to its value."""
        seats = np.full((self.event.rounds, len(self.capacity), 4), EMPTY, dtype=np.int64)
        for r in range(self.event.rounds):
            for t in range(len(self.capacity)):
                members = [p for p in range(self.player_count) if value(self.seat[p, r, t])]
                seats[r, t, : len(members)] = members
        return seats
