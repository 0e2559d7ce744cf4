"""The checker's indirect-meetings figure: among pairs who never share a table, the fewest opponents
they have in common. Part of the independent checker (optimizer.checking.checker): it sees only the pairs the
checker counted from the schedule's names.

Counting settles most rooms at once: if fewer pairs (with multiplicity) have a common opponent than
pairs never met, some pair never met has none and the answer is 0. Otherwise each player's common
opponents with everyone are counted from two steps of their opponent lists (sorted arrays), fewest
opponents first, a block of players at a time, stopping at the first 0. A block costs its players'
opponents' opponents (at most (3 x rounds)^2 each) and a row of the room each; the whole room is
visited only when every pair never met has someone in common, which needs (3 x rounds)^2 above the
players, so rooms of a few thousand at most. Up to DENSE_PLAYERS the counts are one product of the
players x players met matrix with itself (A^2[a, b] = the players who met both), a few milliseconds
where the lists took most of a second (400 x 100: 36 million second-step entries, 0.8 s); but only past
DENSE_FROM_ENTRIES second-step entries, where the lists take more than a few milliseconds: BLAS runs a
product of 200 x 200 on two threads, and on a busy 2-core machine the second waits for a core (200 x 8,
the desk's schedule download: the product 0.2 ms alone, a median of 30 ms beside 7 busy processes; the
lists 2 ms either way).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

# A block of players is counted at once: at most this many (player, second-step opponent) entries,
# and at most this many cells of its rows across the room (8 bytes each).
BLOCK_ENTRIES = 4_000_000
BLOCK_CELLS = 4_000_000
DENSE_PLAYERS = 600  # A^2 in floats: 600^3 multiply-adds, exact (counts far below 2^53)
DENSE_FROM_ENTRIES = 1_000_000  # second-step entries (the sum of squared degrees): some 20 ms of lists


def fewest_in_common(player_count: int, met: np.ndarray, poll: Callable[[], None] = lambda: None) -> int | None:
    """`met`: (pairs, 2) player indices of every pair who share a table at least once, each pair once.
    The fewest common opponents of a pair never met; None if every pair met. `poll` is called before each
    block (it raises to give up)."""
    never = player_count * (player_count - 1) // 2 - len(met)
    if never == 0:
        return None
    both = np.concatenate([met, met[:, ::-1]]).astype(np.int64)
    both = both[np.lexsort((both[:, 1], both[:, 0]))]
    degree = np.bincount(both[:, 0], minlength=player_count)
    if int((degree * (degree - 1) // 2).sum()) < never:
        return 0
    if player_count <= DENSE_PLAYERS and int((degree**2).sum()) >= DENSE_FROM_ENTRIES:
        return _fewest_dense(player_count, met)
    starts = np.concatenate([[0], np.cumsum(degree)])
    opponents = both[:, 1]
    least: int | None = None
    for block in _blocks(np.argsort(degree, kind="stable"), degree, starts, opponents, player_count):
        poll()
        found = _fewest_in_block(block, degree, starts, opponents, player_count)
        least = found if least is None else min(least, found)
        if least == 0:
            break
    return least


def _fewest_dense(player_count: int, met: np.ndarray) -> int:
    """The fewest common opponents of a pair never met, from the square of the met matrix."""
    adjacency = np.zeros((player_count, player_count))
    adjacency[met[:, 0], met[:, 1]] = adjacency[met[:, 1], met[:, 0]] = 1
    common = adjacency @ adjacency
    return int(common[np.triu(adjacency == 0, k=1)].min())


def _blocks(
    order: np.ndarray, degree: np.ndarray, starts: np.ndarray, opponents: np.ndarray, player_count: int
) -> Iterator[np.ndarray]:
    """Players in `order`, cut into blocks within BLOCK_ENTRIES and BLOCK_CELLS (one player at least)."""
    most_rows = max(1, BLOCK_CELLS // player_count)
    reach = np.concatenate([[0], np.cumsum(degree[opponents])])
    second_step = reach[starts[1:]] - reach[starts[:-1]]
    at = 0
    while at < len(order):
        work = np.cumsum(second_step[order[at : at + most_rows]])
        size = max(1, int(np.searchsorted(work, BLOCK_ENTRIES, side="right")))
        yield order[at : at + size]
        at += size


def _ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """The concatenation of range(s, s + l) for each start and length."""
    total = int(lengths.sum())
    offsets = np.repeat(np.cumsum(lengths) - lengths, lengths)
    return np.repeat(starts, lengths) + np.arange(total) - offsets


def _fewest_in_block(
    block: np.ndarray, degree: np.ndarray, starts: np.ndarray, opponents: np.ndarray, player_count: int
) -> int:
    """The fewest common opponents between a player of `block` and anyone they never met."""
    rows = np.repeat(np.arange(len(block)), degree[block])
    first = opponents[_ranges(starts[block], degree[block])]
    reached = opponents[_ranges(starts[first], degree[first])]
    counts = np.bincount(
        np.repeat(rows, degree[first]) * player_count + reached, minlength=len(block) * player_count
    ).reshape(len(block), player_count)
    counts[rows, first] = np.iinfo(np.int64).max  # met: not an indirect pair
    counts[np.arange(len(block)), block] = np.iinfo(np.int64).max  # oneself
    return int(counts.min())
