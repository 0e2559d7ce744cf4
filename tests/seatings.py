"""Seatings for tests, built from random permutations or by hand rather than by the optimizer."""

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st

from models import Event, Layout, OddPolicy, Round, Schedule, Table
from optimizer.seats import EMPTY


def random_seating(event: Event, rng: np.random.Generator) -> np.ndarray:
    """Each round a random permutation cut into tables of four, then three (seat D empty); the rest sit out."""
    layout, n = event.layout, len(event.players)
    seats = np.full((event.rounds, layout.tables, 4), EMPTY, dtype=np.int64)
    for r in range(event.rounds):
        order = rng.permutation(n)
        seats[r, : layout.fours] = order[: 4 * layout.fours].reshape(layout.fours, 4)
        seats[r, layout.fours :, :3] = order[4 * layout.fours : layout.seated].reshape(layout.threes, 3)
    return seats


def names_of(count: int) -> tuple[str, ...]:
    return tuple(f"N{i}" for i in range(count))


def seat_round(order: list[str], layout: Layout, table_order: list[int]) -> Round:
    """Tables of four, then tables of three, then sit-outs, in the order of a permutation; the
    tables listed in `table_order` (numbers are what count, not positions)."""
    tables, at = [], 0
    for number in range(1, layout.tables + 1):
        size = 4 if number <= layout.fours else 3
        tables.append(Table(table=number, players=tuple(order[at : at + size])))
        at += size
    return Round(tables=tuple(tables[i] for i in table_order), sit_outs=tuple(order[at:]))


@st.composite
def schedules(draw, min_players=4, max_players=40, min_rounds=1, max_rounds=6, odd=None, need=None) -> Schedule:
    """A valid schedule: each round a random permutation cut into tables. `need` filters layouts."""
    policy = draw(st.sampled_from(list(OddPolicy))) if odd is None else odd
    count = draw(st.integers(min_players, max_players))
    try:
        layout = Layout.for_room(count, policy)
    except ValueError:  # five players three-handed
        assume(False)
    if need is not None:
        assume(need(layout))
    players = names_of(count)
    rounds = []
    for _ in range(draw(st.integers(min_rounds, max_rounds))):
        order = draw(st.permutations(players))
        table_order = draw(st.permutations(range(layout.tables)))
        rounds.append(seat_round(list(order), layout, list(table_order)))
    return Schedule(players=players, rounds=tuple(rounds), odd=policy)


def schedule_of(rounds: list[list[list[int]]], players: int, **requests) -> Schedule:
    """A schedule from lists of tables of player numbers (1-based), seats in order A-D."""
    names = tuple(f"P{i}" for i in range(1, players + 1))
    made = []
    for tables in rounds:
        seated = {p for table in tables for p in table}
        made.append(
            Round(
                tables=tuple(
                    Table(table=t + 1, players=tuple(f"P{p}" for p in table)) for t, table in enumerate(tables)
                ),
                sit_outs=tuple(f"P{p}" for p in range(1, players + 1) if p not in seated),
            )
        )
    return Schedule(players=names, rounds=tuple(made), **requests)
