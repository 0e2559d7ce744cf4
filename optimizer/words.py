"""Counts in words, singular and plural right: '1 repeat', '2 repeats', '1 player', '3 players'.

The optimizer writes its proofs and refusals as sentences, and every front end counts in the same words."""

from __future__ import annotations

from models import Moves


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """'1 repeat', '0 repeats', '2 rematches' (plural given): the count and the noun in its right number."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def moves_proof(moves: Moves) -> str:
    """What a fewest-moves proposal's count is known to be: proven fewest, or (the search stopped before its
    proof) that a longer run might move fewer, and the bound no re-plan goes below. The CLI and the desk
    both say it in these words."""
    if moves.proven:
        return "proven fewest"
    return f"a longer run might move fewer; no re-plan moves fewer than {moves.bound}"
