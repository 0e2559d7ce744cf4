"""The finite field GF(p^k) as addition and multiplication tables over the codes 0..q-1.

An element is a polynomial of degree < k over Z_p, coded by its coefficients as base-p digits (the
coefficient of x^i is digit i). The field is Z_p[x] / (f) for a monic f of degree k; f is irreducible
exactly when the quotient ring has an element of multiplicative order q - 1 (a ring with zero divisors
has fewer than q - 1 units), so the first monic f whose ring has such an element is taken, and that
element is the primitive element. Codes 0 and 1 are the field's 0 and 1; the constructions use only
the tables, so any q up to a few hundred costs milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np


@dataclass(frozen=True)
class Field:
    q: int
    add: np.ndarray  # (q, q): add[a, b] = a + b
    mul: np.ndarray  # (q, q): mul[a, b] = a * b
    primitive: int  # an element of multiplicative order q - 1

    def neg(self, a: int) -> int:
        return int(np.flatnonzero(self.add[a] == 0)[0])

    def sub(self, a: int, b: int) -> int:
        return int(self.add[a, self.neg(b)])

    def power(self, a: int, n: int) -> int:
        result = 1
        for _ in range(n % (self.q - 1) if a else n):
            result = int(self.mul[result, a])
        return result

    def squares(self) -> np.ndarray:
        """(q,) bool: the nonzero squares."""
        found = np.zeros(self.q, dtype=bool)
        found[self.mul[np.arange(1, self.q), np.arange(1, self.q)]] = True
        return found


def prime_power(q: int) -> tuple[int, int] | None:
    """(p, k) with q = p^k, p prime and k >= 1, else None."""
    if q < 2:
        return None
    p = next(d for d in range(2, q + 1) if q % d == 0)
    k, rest = 0, q
    while rest % p == 0:
        k, rest = k + 1, rest // p
    return (p, k) if rest == 1 else None


@cache
def galois_field(q: int) -> Field:
    """GF(q) for a prime power q; ValueError otherwise."""
    found = prime_power(q)
    if found is None:
        raise ValueError(f"{q} is not a prime power")
    p, k = found
    digits = (np.arange(q)[:, None] // p ** np.arange(k)[None, :]) % p  # (q, k)
    weights = p ** np.arange(k)
    add = ((digits[:, None, :] + digits[None, :, :]) % p) @ weights
    for tail in range(p**k):  # f = x^k + (lower coefficients coded by `tail`)
        mul = _multiplication(digits, p, k, (tail // p ** np.arange(k)) % p) @ weights
        primitive = _primitive(mul, q)
        if primitive is not None:
            return Field(q, add.astype(np.int64), mul.astype(np.int64), primitive)
    raise AssertionError(f"no irreducible polynomial of degree {k} over Z_{p}")  # one always exists


def _multiplication(digits: np.ndarray, p: int, k: int, lower: np.ndarray) -> np.ndarray:
    """(q, q, k) digits of a * b mod f, f = x^k + sum lower[i] x^i."""
    reduce = np.zeros((2 * k - 1, k), dtype=np.int64)  # row j: the digits of x^j mod f
    reduce[:k] = np.eye(k, dtype=np.int64)
    for j in range(k, 2 * k - 1):  # x^j = x * x^(j-1), with x^k = -sum lower[i] x^i
        shifted = np.concatenate([[0], reduce[j - 1][:-1]])
        reduce[j] = (shifted - reduce[j - 1][-1] * lower) % p
    q = len(digits)
    product = np.zeros((q, q, 2 * k - 1), dtype=np.int64)
    for i in range(k):
        for j in range(k):
            product[:, :, i + j] += digits[:, None, i] * digits[None, :, j]
    return (product % p) @ reduce % p


def _primitive(mul: np.ndarray, q: int) -> int | None:
    """An element whose powers run through q - 1 distinct values, or None."""
    for g in range(2, q) if q > 2 else [1]:
        seen, x = 0, 1
        for _ in range(q - 1):
            x = int(mul[x, g])
            seen += 1
            if x == 1:
                break
        if x == 1 and seen == q - 1:
            return g
    return None
