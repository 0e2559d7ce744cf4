"""Data shapes only: the event, the schedule file, metrics and results. No solver code lives here."""

from models.event import Event, Layout, OddPolicy, SitOutScoring, default_names
from models.metrics import Metrics, PlayerMetrics
from models.progress import Progress
from models.result import (
    Answer,
    Bound,
    Comparison,
    Moves,
    OtherWay,
    PlanResult,
    PlayerChange,
    Replan,
    Reseat,
    Status,
    Verdict,
)
from models.schedule import SEAT_LETTERS, Correction, Provenance, Round, Schedule, Table
from models.scores import Card, RoundMark, RoundScore, StandingRow, Standings
from models.season import NightPlan, SeasonFigures, SeasonRow, SeasonRule, SeasonStandings

__all__ = [
    "SEAT_LETTERS",
    "Answer",
    "Bound",
    "Card",
    "Comparison",
    "Correction",
    "Event",
    "Layout",
    "Metrics",
    "Moves",
    "NightPlan",
    "OddPolicy",
    "OtherWay",
    "PlanResult",
    "PlayerChange",
    "Replan",
    "Reseat",
    "PlayerMetrics",
    "Progress",
    "Provenance",
    "Round",
    "RoundMark",
    "RoundScore",
    "Schedule",
    "SeasonFigures",
    "SeasonRow",
    "SeasonRule",
    "SeasonStandings",
    "SitOutScoring",
    "StandingRow",
    "Standings",
    "Status",
    "Table",
    "Verdict",
    "default_names",
]
