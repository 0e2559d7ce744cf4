"""The whole-day CP-SAT model: every round planned at once, repeats minimised exactly.

model.SeatingModel   variables, constraints and objective, built once from the event
hint                 a seating put in the form symmetry breaking expects (the warm start)
solve.solve          the solve within a time limit, Ctrl-C and progress, as an Outcome
watcher.Watcher      its solution callback: the best seating kept, progress, the stop at the bound
split.split_probe    'at most k repeats?' split by how round 2 meets round 1, for the smallest rooms
round_classes        the classes of round 2, and of round 3 given rounds 1 and 2, one case each
"""

from optimizer.cpsat.solve import Outcome, solve

__all__ = ["Outcome", "solve"]
