"""What a director asks the print for: which parts, which rounds, the event's title, date, winds and rules."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from models import SEAT_LETTERS, Schedule, SitOutScoring
from models.event import DEFAULT_WINDS
from models.rules import SIT_OUT_RULE, THREE_HANDED_RULE, Rules
from optimizer.words import counted

PARTS = ("walls", "lookup", "slips", "sheets", "summary")
SORTS = ("first", "surname")
LOOKUP_FROM = 25  # players in the room from which the find-your-table pages are on by default


def seat_legend(winds: Sequence[str] = DEFAULT_WINDS) -> str:
    """'Seats: A East (starting dealer) · B North · C West · D South', with the event's wind names."""
    named = [f"{letter} {wind}" for letter, wind in zip(SEAT_LETTERS, winds)]
    return "Seats: " + " · ".join([named[0] + " (starting dealer)", *named[1:]])


SEAT_LEGEND = seat_legend()


@dataclass(frozen=True)
class RuleTexts:
    """The three-handed and sit-out rules as the prints say them: the guide's, or the event's own words."""

    three_handed: str = THREE_HANDED_RULE
    sit_out: str = ""  # empty: the words of the schedule's sit-out scoring

    def sit_out_for(self, schedule: Schedule) -> str:
        return self.sit_out or SIT_OUT_RULE[schedule.sit_out_scoring]


GUIDE_TEXTS = RuleTexts()


@dataclass(frozen=True)
class Options:
    """What the director asks the print for (`rotation print`'s options, the desk's print form)."""

    title: str = ""
    date: str = ""
    only: tuple[str, ...] = ()  # empty: walls, slips, summary, and lookup for rooms over 24 players
    rounds: tuple[int, int] | None = None  # first and last round to print, 1-based, inclusive
    sort_by: str = "first"  # lookup lists and slips: "first" name or "surname"
    players_url: str = ""  # the desk's page for players: a QR code of it on wall charts and lookup lists
    winds: tuple[str, ...] = DEFAULT_WINDS  # the wind names of seats A-D, as the event calls them
    scoring: str = ""  # the event's scoring rules in one line, at the foot of every score sheet
    rules: tuple[str, ...] = ()  # the event's rule sheet: a page of its own before the score sheets
    texts: RuleTexts = GUIDE_TEXTS  # the three-handed and sit-out rules on every part
    results: str = "games"  # score sheets record game results (a row per game) or "points" (as the event takes)
    game_rules: Rules = Rules()  # the event's rules: the games in a round, the values a game-result row takes


def options_for(rules: Rules, sit_out_scoring: SitOutScoring, *, rules_printed: bool, **asked) -> Options:
    """The print's options for an event with these rules (the games in a round, the values a game-result
    row takes) and what the director `asked` for; with `rules_printed`, the rules page (the scoring lines,
    the three-handed and sit-out rules in the event's words) and the line at the foot of each score sheet.
    The one place `rotation print` and the desk's print form become Options."""
    if not rules_printed:
        return Options(game_rules=rules, **asked)
    sit_out = rules.sit_out or SIT_OUT_RULE[sit_out_scoring]
    texts = RuleTexts(rules.three_handed, rules.sit_out)
    sheet = (*rules.sheet(), rules.three_handed, sit_out)
    return Options(game_rules=rules, scoring=rules.line(), rules=sheet, texts=texts, **asked)


def parts_for(schedule: Schedule, options: Options) -> tuple[str, ...]:
    """The parts to print, in PARTS order: those asked for, else walls, slips and the summary, with the
    find-your-table lists from LOOKUP_FROM players."""
    if options.only:
        return tuple(p for p in PARTS if p in options.only)
    lookup = ("lookup",) if len(schedule.players) >= LOOKUP_FROM else ()
    return ("walls",) + lookup + ("slips", "summary")


def round_indexes(schedule: Schedule, options: Options) -> range:
    """The 0-based rounds to print: the asked-for first to last round (1-based, inclusive), at most the day's."""
    first, last = options.rounds or (1, len(schedule.rounds))
    return range(first - 1, min(last, len(schedule.rounds)))


def title_of(options: Options, schedule: Schedule) -> str:
    """The event's title, or what the day seats."""
    return options.title or f"Seating: {len(schedule.players)} players, {counted(len(schedule.rounds), 'round')}"


def event_line(options: Options, schedule: Schedule) -> str:
    """The event's title and date, as every score sheet names the event."""
    return title_of(options, schedule) + (f" · {options.date}" if options.date else "")
