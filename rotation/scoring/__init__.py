"""Scores and standings, a library beside the optimizer: it reads a schedule, it never builds one.

    card(schedule, round, table, entries)      -> Card, or CardRefused naming each wrong box
    standings(schedule, cards, after=None)      -> Standings: ranks, totals, sat-out rounds marked
    complete_rounds(schedule, cards)            -> the last round whose every table's card is in
    season_standings(nights, rule, ...)         -> SeasonStandings: cumulative, average per game, best N nights

The rules (sit-out scoring, ties, corrections) are in rotation/scoring/standings.py's docstring.
"""

from rotation.scoring.cards import CardProblem, CardRefused, card
from rotation.scoring.season import season_standings
from rotation.scoring.standings import (
    ScoresIncomplete,
    complete_rounds,
    latest_cards,
    missing_tables,
    round_half_away,
    standings,
)

__all__ = [
    "CardProblem",
    "CardRefused",
    "ScoresIncomplete",
    "card",
    "complete_rounds",
    "latest_cards",
    "missing_tables",
    "round_half_away",
    "season_standings",
    "standings",
]
