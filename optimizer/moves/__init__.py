"""Re-plans that move as few players as they can: the old plan, what a move is, and the two-phase model.

OldPlan.of(schedule, played, players)   the plan being replaced (old.py)
fewest_moves(event, history, old, ...)  the fewest moves, then the fewest repeats (solve.py)
"""

from optimizer.moves.old import OldPlan
from optimizer.moves.solve import FewestMoves, fewest_moves, fits

__all__ = ["FewestMoves", "OldPlan", "fewest_moves", "fits"]
