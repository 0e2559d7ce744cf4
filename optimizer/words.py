"""Counts in words, singular and plural right: '1 repeat', '2 repeats', '1 player', '3 players'.

The optimizer writes its proofs and refusals as sentences, and every front end counts in the same words."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    """'1 repeat', '0 repeats', '2 rematches' (plural given): the count and the noun in its right number."""
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
