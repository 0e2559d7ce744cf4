"""Repeat-free schedules built directly: affine geometry, then the speed rule. (The rotational
search and the computed library join here.)"""

from optimizer.affine import affine_dimension, affine_rounds, affine_seating
from optimizer.speeds import speed_rounds, speed_seating


def zero_repeat_seating(players, rounds, time_limit=10.0, seed=0):
    if players % 4:
        return None
    if affine_rounds(players) >= rounds:
        return affine_seating(affine_dimension(players), rounds), "affine"
    if speed_rounds(players) >= rounds:
        return speed_seating(players, rounds), "speed rule"
    return None
