"""The director's requests in array form: keep-apart groups, club-mates, players who stay at one table.

CP-SAT takes them as constraints (optimizer.cpsat.model); the local search weighs them as costs and
never moves a pinned player (optimizer.search.costs); a start that still breaks one fails the checker.
"""

from __future__ import annotations

import numpy as np

from models import Event


def apart_pairs(event: Event) -> np.ndarray:
    """players x players: 1 where two players must never share a table."""
    return _pairs_within(event, event.apart)


def club_mates(event: Event) -> np.ndarray:
    """players x players: 1 where two players are club-mates (the soft spread request)."""
    return _pairs_within(event, event.spread)


def _pairs_within(event: Event, groups: tuple[tuple[str, ...], ...]) -> np.ndarray:
    n = len(event.players)
    index = {name: p for p, name in enumerate(event.players)}
    within = np.zeros((n, n))
    for group in groups:
        members = [index[name] for name in group]
        within[np.ix_(members, members)] = 1
    np.fill_diagonal(within, 0)
    return within


def pinned(event: Event) -> np.ndarray:
    """True for players who keep one table all day: the local search never moves them."""
    return np.array([name in event.stay for name in event.players])


def turn_exempt(event: Event) -> np.ndarray:
    """True for players who take no three-handed turns: staying players keep their table.
    Sitting out is everyone's turn, stayers included."""
    return pinned(event) & (event.layout.sit_outs == 0)
