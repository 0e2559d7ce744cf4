"""A season: tonight planned against the nights already played (a league's nights, an event's sessions).

    plan_night(event, earlier, ...) -> NightPlan: tonight's schedule and how it sits in the season
    Season(event, earlier, ...)     -> the earlier nights as tonight's players see them (a History)

earlier.py weighs the earlier nights' meetings, turns and seat letters; night.py plans tonight with
them (optimizer.plan) and then spreads meetings over the season (descent.py).
"""

from optimizer.season.earlier import HALF_LIFE, LEVEL_SHARE, Season
from optimizer.season.night import plan_night

__all__ = ["HALF_LIFE", "LEVEL_SHARE", "Season", "plan_night"]
