"""The affine geometry AG(k, 4): a zero-repeat schedule for 4^k players over (4^k - 1) / 3 rounds.

Points are the vectors of GF(4)^k; the lines through a direction d are the cosets {p + t*d}. Every
parallel class (one per direction) partitions the points into lines of four, so it is one round,
and two points lie on exactly one common line, so no pair meets twice. This meets the counting
limit floor((N - 1) / 3) exactly: every player meets every other player once.

GF(4) = {0, 1, a, a + 1} with a^2 = a + 1 is coded 0..3 by its two bits, so addition is XOR. A
point is coded base 4, coordinate i in bits 2i..2i+1, so adding vectors is XOR of the codes.
"""

from __future__ import annotations

import numpy as np

# Multiplication in GF(4) (a^2 = a + 1); addition is XOR and needs no table.
GF4_MUL = np.array(
    [
        [0, 0, 0, 0],
        [0, 1, 2, 3],
        [0, 2, 3, 1],
        [0, 3, 1, 2],
    ],
    dtype=np.int64,
)


def affine_dimension(player_count: int) -> int | None:
    """k with 4^k == player_count (k >= 2), else None."""
    k, size = 0, 1
    while size < player_count:
        k, size = k + 1, size * 4
    return k if size == player_count and k >= 2 else None


def affine_rounds(player_count: int) -> int:
    """Rounds the geometry gives this many players (0 if the count is not a power of 4)."""
    return (player_count - 1) // 3 if affine_dimension(player_count) else 0


def directions(k: int) -> np.ndarray:
    """One nonzero vector per direction (first nonzero coordinate 1), as rows of k coordinates."""
    vectors = _digits(np.arange(1, 4**k), k)
    leading = vectors[np.arange(len(vectors)), (vectors != 0).argmax(axis=1)]
    return vectors[leading == 1]


def affine_seating(k: int, rounds: int | None = None) -> np.ndarray:
    """(rounds, 4^(k-1), 4): round r is the parallel class of the r-th direction."""
    total = (4**k - 1) // 3
    rounds = total if rounds is None else rounds
    if not 0 <= rounds <= total:
        raise ValueError(f"AG({k}, 4) has {total} parallel classes, not {rounds}")
    points = np.arange(4**k)
    seats = [_parallel_class(points, d) for d in directions(k)[:rounds]]
    return np.array(seats, dtype=np.int64).reshape(rounds, 4 ** (k - 1), 4)


def _parallel_class(points: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """The lines {p + t*d : t in GF(4)}, each once, as rows of four point codes."""
    steps = _codes(GF4_MUL[np.arange(4)[:, None], direction[None, :]])  # t*d for t = 0..3
    lines = np.sort(points[:, None] ^ steps[None, :], axis=1)
    return np.unique(lines, axis=0)


def _digits(codes: np.ndarray, k: int) -> np.ndarray:
    return (codes[:, None] >> (2 * np.arange(k))[None, :]) & 3


def _codes(vectors: np.ndarray) -> np.ndarray:
    return (vectors << (2 * np.arange(vectors.shape[1]))[None, :]).sum(axis=1)
