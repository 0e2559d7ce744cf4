"""The plan being replaced, in the numbering of the rounds re-planned: where each player sat, and what
counts as a move.

A move is a player, in one round still to play, whose table or seat letter differs from the old
plan. A player not seated before (sitting out, or not yet arrived) who is not seated now has not
moved; an arrival seated in a round moves in it. A player keeps their seat exactly when they are at
their old table and their old letter exists there: a table of three has seats A-C only, so the
player in seat D of a table that becomes three-handed moves.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from models import Schedule
from optimizer.seats import EMPTY, Seats, table_of

# A cell of `OldPlan.keepable` where no seating of the new rounds keeps the player where they were.
CANNOT_KEEP = -2


@dataclass(frozen=True)
class OldPlan:
    tables: np.ndarray  # rounds x players: table index in the old plan, EMPTY where not seated
    letters: np.ndarray  # rounds x players: seat letter 0-3 (A-D) in the old plan, EMPTY where not seated

    @classmethod
    def of(cls, schedule: Schedule, played: int, players: tuple[str, ...]) -> OldPlan:
        """The old plan's rounds after `played`, for the new list of players (arrivals never seated)."""
        index = {name: p for p, name in enumerate(players)}
        rounds = schedule.rounds[played:]
        tables = np.full((len(rounds), len(players)), EMPTY, np.int64)
        letters = np.full_like(tables, EMPTY)
        for r, round_ in enumerate(rounds):
            for table in round_.tables:
                for letter, name in enumerate(table.players):
                    p = index.get(name)
                    if p is not None:
                        tables[r, p], letters[r, p] = table.table - 1, letter
        return cls(tables, letters)

    def seats(self, tables: int) -> Seats:
        """The old plan as a seating of `tables` tables (each player at their table and letter)."""
        seats = np.full((self.tables.shape[0], tables, 4), EMPTY, np.int64)
        rounds, players = np.nonzero(self.tables >= 0)
        seats[rounds, self.tables[rounds, players], self.letters[rounds, players]] = players
        return seats

    def keepable(self, capacity: list[int]) -> np.ndarray:
        """rounds x players: the table that keeps a player unmoved under the new tables' sizes,
        EMPTY where not being seated keeps them unmoved, CANNOT_KEEP where nothing does."""
        sizes = np.array([*capacity, 0])  # a table the new layout no longer has seats nobody
        table = np.where(self.tables == EMPTY, len(capacity), np.minimum(self.tables, len(capacity)))
        fits = self.letters < sizes[table]
        return np.where(self.tables == EMPTY, EMPTY, np.where(fits, self.tables, CANNOT_KEEP))

    def moved(self, seats: Seats) -> np.ndarray:
        """rounds x players: True where the seating (seat position = letter) moves the player."""
        player_count = self.tables.shape[1]
        tables = table_of(seats, player_count)
        letters = np.full_like(tables, EMPTY)
        rounds, table, letter = np.nonzero(seats >= 0)
        letters[rounds, seats[rounds, table, letter]] = letter
        return (tables != self.tables) | (letters != self.letters)

    def keep_letters(self, seats: Seats, letters_before: np.ndarray | None) -> Seats:
        """The same tables with every player who can keep their old letter keeping it, and the others
        given the free letters they have had least (counting `letters_before`, players x 4)."""
        player_count = self.tables.shape[1]
        used = np.zeros((player_count, 4), np.int64) if letters_before is None else letters_before.copy()
        lettered = np.full_like(seats, EMPTY)
        for r, round_ in enumerate(seats):
            for t, table in enumerate(round_):
                members = [int(p) for p in table if p >= 0]
                keep = {p for p in members if self.tables[r, p] == t and self.letters[r, p] < len(members)}
                free = [letter for letter in range(len(members)) if letter not in {self.letters[r, p] for p in keep}]
                for p in members:
                    letter = int(self.letters[r, p]) if p in keep else min(free, key=lambda k: used[p, k])
                    if p not in keep:
                        free.remove(letter)
                    lettered[r, t, letter] = p
                    used[p, letter] += 1
        return lettered
