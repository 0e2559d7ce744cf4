"""The whole-day CP-SAT model (optimizer.cpsat.model) with moves as its first objective.

The seating, the requests and fair turns are the day model's own; symmetry breaking is off, because
the old plan names every table and player. A player p keeps their seat in round r when they sit at
their old table k (and their old letter exists there: optimizer.moves.old), so

    moves = sum over rounds r and players p of (1 - x[p, r, k(p, r)]),

a constant 1 where nothing keeps the seat (an arrival seated, a table gone, seat D of a table now
three-handed); not being seated keeps a player who was not seated before. Two phases, lexicographic:
1. minimise moves, with no meeting variables at all (small and quick to prove);
2. at most those moves, minimise repeats, then back-to-back rematches (a pair meeting in a round and
   the round before it, the last played round included). Cells (a player in a round) far from every move may be held
   at their seat (`held`): a pair held in a round adds a constant meeting; a held player q and a free
   player p meet exactly when x[p, r, table of q], so only free pairs need meeting booleans.
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

import numpy as np

from models import Event
from optimizer.cpsat.model import SeatingModel
from optimizer.moves.old import OldPlan
from optimizer.pipeline.state import History
from optimizer.seats import EMPTY

if TYPE_CHECKING:  # CP-SAT is imported where the model is built (optimizer.budget, "Start-up")
    from ortools.sat.python import cp_model


class MovesModel(SeatingModel):
    def __init__(
        self, event: Event, history: History, old: OldPlan, *, held: np.ndarray | None = None, max_moves: int = 0
    ):
        """Phase 1 without `held`; phase 2 with `held` (rounds x players: cells kept at their old seat)
        and at most `max_moves`."""
        self.old, self.held, self.max_moves = old, held, max_moves
        self.last_played = np.full(len(event.players), EMPTY, np.int64)  # each player's table, EMPTY if none
        if history.previous is not None:
            tables, seats = np.nonzero(history.previous >= 0)
            self.last_played[history.previous[tables, seats]] = tables
        self.back_to_back: list = []  # a literal per pair and round meeting again in the next
        self.back_to_back_hints: list[tuple[cp_model.IntVar, int, int, int]] = []
        super().__init__(event, history=history, break_symmetry=False)

    def _add_meetings(self) -> None:
        self.meetings, self.repeats, self.together = {}, {}, {}
        if self.held is None:
            return
        keep = self.old.keepable(self.capacity)
        for r, p in zip(*np.nonzero(self.held), strict=True):
            self._hold(int(p), int(r), int(keep[r, p]))
        free_players = set(np.flatnonzero(~self.held.all(axis=0)).tolist())
        for p, q in combinations(range(self.player_count), 2):
            if p in free_players or q in free_players:
                self._add_pair(p, q, keep, self.held)

    def _hold(self, p: int, r: int, table: int) -> None:
        for t in range(len(self.capacity)):
            self.model.add(self.seat[p, r, t] == int(t == table))
        if self.out:
            self.model.add(self.out[p, r] == int(table == EMPTY))

    def _add_pair(self, p: int, q: int, keep: np.ndarray, held: np.ndarray) -> None:
        terms, already = [], int(self.met_before[p, q])
        met_in: list = []  # per round: 0 or 1 where fixed, else a literal true when they meet
        for r in range(self.event.rounds):
            held_p, held_q = held[r, p], held[r, q]
            if held_p and held_q:
                met_in.append(int(keep[r, p] == keep[r, q] != EMPTY))
                already += met_in[-1]
            elif held_p or held_q:
                table = keep[r, q] if held_q else keep[r, p]
                met_in.append(0 if table == EMPTY else self.seat[(p if held_q else q), r, int(table)])
            else:
                met = self.model.new_bool_var(f"m{p}_{q}_{r}")
                for t in range(len(self.capacity)):
                    self.model.add_bool_or([self.seat[p, r, t].Not(), self.seat[q, r, t].Not(), met])
                self.together[p, q, r] = met
                met_in.append(met)
            if not isinstance(met_in[-1], int):
                terms.append(met_in[-1])
        if terms and len(terms) + already > 1:
            repeat = self.model.new_int_var(0, len(terms) + already, f"e{p}_{q}")
            self.model.add(repeat >= sum(terms) + already - 1)
            self.repeats[p, q] = repeat
        before = int(self.last_played[p] == self.last_played[q] != EMPTY)
        for r, (earlier, later) in enumerate(zip([before, *met_in[:-1]], met_in, strict=True)):
            self._add_back_to_back(earlier, later, p, q, r)

    def _add_back_to_back(
        self, earlier: int | cp_model.IntVar, later: int | cp_model.IntVar, p: int, q: int, r: int
    ) -> None:
        """Count p and q meeting in round r and the round before, where that is not fixed."""
        fixed = [met for met in (earlier, later) if isinstance(met, int)]
        if len(fixed) == 2 or 0 in fixed:
            return
        if fixed:  # they meet in one of the two rounds for certain
            self.back_to_back.append(later if isinstance(earlier, int) else earlier)
            return
        both = self.model.new_bool_var(f"b{p}_{q}_{r}")
        self.model.add(both >= earlier + later - 1)
        self.back_to_back.append(both)
        self.back_to_back_hints.append((both, p, q, r))

    def _set_objective(self, lower_bound: int, max_repeats: int | None) -> None:
        keep = self.old.keepable(self.capacity)
        kept = []
        for r, p in np.ndindex(*keep.shape):
            if keep[r, p] >= 0:
                kept.append(self.seat[p, r, int(keep[r, p])])
            elif keep[r, p] == EMPTY and self.out:
                kept.append(self.out[p, r])
        self.moves = keep.size - sum(kept)
        self.total_repeats = sum(self.repeats.values())
        if self.held is None:
            self.model.minimize(self.moves)
        else:
            self.model.add(self.moves <= self.max_moves)
            weight = len(self.back_to_back) + 1  # a repeat outweighs every back-to-back rematch
            self.model.minimize(weight * self.total_repeats + sum(self.back_to_back))

    def _hint_counts(self, where: np.ndarray) -> None:
        self._hint_repeats(where)
        self._hint_least(where)
        tables = np.vstack([self.last_played[None, :], where])
        for var, p, q, r in self.back_to_back_hints:  # round r is row r + 1, the round before it row r
            together = tables[r : r + 2, p] == tables[r : r + 2, q]
            self.model.add_hint(var, int((together & (tables[r : r + 2, p] != EMPTY)).all()))
