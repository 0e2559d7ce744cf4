"""What the design literature proves exists for a room of tables of four, whether or not it is built here.

- v = 4 (mod 12): a resolvable (v, 4, 1) design, (v - 1) / 3 rounds in which every pair meets exactly once
  (H. Hanani, D. K. Ray-Chaudhuri and R. M. Wilson, "On resolvable designs", Discrete Math. 3, 1972,
  343-357).
- v = 0 (mod 12), v >= 24: a resolvable maximum packing, v / 3 - 1 = floor((v - 1) / 3) repeat-free rounds
  (a 4-RGDD of type 3^(v/3); G. Ge, C. W. H. Lam, A. C. H. Ling and H. Shen, "Resolvable maximum packings
  with quadruples", Des. Codes Cryptogr. 35, 2005, 287-302). For v = 12 none exists (it would be a
  resolvable transversal design TD(4, 3), hence a TD(5, 3), and there are not three mutually orthogonal
  Latin squares of order 3).
- v = 8 (mod 12): a resolvable maximum packing, (v - 2) / 3 = floor((v - 1) / 3) rounds whose unmet pairs
  are a perfect matching (a 4-RGDD of type 2^(v/2)); the same paper proves it for every such v but 8 and
  20 and at most 18 values it leaves open, the largest v = 692 (n = 346 in its abstract's 4-RGDD of type
  2^n). The abstract (all of the paper read here) does not say which, so only v > LAST_OPEN_PAIRS is
  claimed by theorem; below it, those built here (optimizer.constructions.weighting, matchings) answer
  with their checked schedule, and the others `unknown` with what the paper leaves open (open_room_note).

The first rounds of a design are a repeat-free day of fewer rounds, so every round count up to the
theorem's is covered. The counting bound floor((v - 1) / 3) (optimizer.proof.bounds) is met exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

LAST_OPEN_PAIRS = 692  # the largest v = 8 (mod 12) Ge, Lam, Ling and Shen leave open


@dataclass(frozen=True)
class Theorem:
    rounds: int  # the most repeat-free rounds the theorem gives
    statement: str  # what exists and the reference


def design_theorem(player_count: int) -> Theorem | None:
    """The theorem that gives this room repeat-free rounds, or None if none is claimed here."""
    v = player_count
    if v % 12 == 4:
        return Theorem(
            (v - 1) // 3,
            f"a resolvable design of {v} players over {(v - 1) // 3} rounds, every pair meeting once, exists "
            "for every v = 4 (mod 12) (Hanani, Ray-Chaudhuri and Wilson, Discrete Math. 3, 1972)",
        )
    if v % 12 == 0 and v >= 24:
        return Theorem(
            v // 3 - 1,
            f"a resolvable maximum packing of {v} players over {v // 3 - 1} rounds exists for every "
            "v = 0 (mod 12) from 24 on (Ge, Lam, Ling and Shen, Des. Codes Cryptogr. 35, 2005)",
        )
    if v % 12 == 8 and v > LAST_OPEN_PAIRS:
        return Theorem(
            (v - 2) // 3,
            f"a resolvable maximum packing of {v} players over {(v - 2) // 3} rounds, everyone meeting all "
            f"but one partner, exists for every v = 8 (mod 12) above {LAST_OPEN_PAIRS} (Ge, Lam, Ling and Shen, "
            "Des. Codes Cryptogr. 35, 2005)",
        )
    return None


def open_room_note(player_count: int, rounds: int) -> str | None:
    """What the literature says of a v = 8 (mod 12) room at most LAST_OPEN_PAIRS that nothing here settles:
    a repeat-free day of these rounds exists unless the room is one of the paper's possible exceptions."""
    v = player_count
    if v % 12 != 8 or not 20 < v <= LAST_OPEN_PAIRS or rounds > (v - 2) // 3:
        return None
    return (
        f"the literature builds a resolvable maximum packing of {(v - 2) // 3} rounds for every v = 8 (mod 12) "
        f"but 8, 20 and at most 18 rooms it leaves open, the largest {LAST_OPEN_PAIRS} (Ge, Lam, Ling and Shen, "
        "Des. Codes Cryptogr. 35, 2005); which these are is not known here"
    )
