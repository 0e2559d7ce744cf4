"""The fixed MJMP rotation (item 23): A up 1 table, B down 1, C up 2, D down 2, wrapping round; and
the other fixed rotations events print on their slips (`FixedRule`), each a table move per seat letter.

Decisions where the guide is silent (also in docs/fixed-rule.md):
- Three-handed tables are the last ones and have no seat D, in every round. Seats A, B and C wrap
  over all tables; seat D wraps over the four-handed tables only, so nobody is sent to a D chair
  that does not exist.
- Sit-outs: the room's seats move by the rule; the players who sit out are taken in turn, s at a
  time, from the end of the list round to its start, so nobody sits out twice before everyone has
  sat out once. A player coming back takes the seat of the player who goes out in their place.
"""

from __future__ import annotations

import numpy as np

from models import Event, Layout, Schedule
from models.event import DEFAULT_WINDS, FixedRule
from optimizer.seats import EMPTY, Seats, to_schedule

# Tables moved per round by seat A, B, C, D. East stays: North (B) up 1, West (C) up 2, South (D) down 1.
MOVES_OF = {
    FixedRule.MJMP: (+1, -1, +2, -2),
    FixedRule.EAST_STAYS: (0, +1, +2, -1),
    FixedRule.A_STAYS: (0, -1, -2, +1),
}


def fixed_schedule(event: Event, rule: FixedRule = FixedRule.MJMP) -> Schedule:
    """A fixed rotation (MJMP item 23 unless `rule` says otherwise) for the event as a schedule. It
    cannot honour requests (keep apart, stay at a table), so the schedule carries none; its `rule` is
    'fixed', or 'fixed east-stays' for another rule. Not checked here: every caller checks it
    (optimizer.check) for the figures it needs, and so once."""
    unrequested = event.model_copy(update={"apart": (), "stay": {}})
    name = "fixed" if rule is FixedRule.MJMP else f"fixed {rule.value}"
    return to_schedule(unrequested, fixed_seating(event, rule), rule=name)


def fixed_rule_of(schedule: Schedule) -> FixedRule | None:
    """The fixed rule a schedule was made by, or None for any other schedule."""
    if schedule.rule == "fixed":
        return FixedRule.MJMP
    named = schedule.rule.removeprefix("fixed ")
    return FixedRule(named) if named != schedule.rule and named in {r.value for r in FixedRule} else None


def rule_words(rule: FixedRule, winds: tuple[str, ...] = DEFAULT_WINDS) -> str:
    """The rule as a slip prints it: 'After each round: A (East) up 1 table, B (North) down 1, ...'."""
    moves = []
    for letter, wind, move in zip("ABCD", winds, MOVES_OF[rule]):
        way = "stays" if move == 0 else f"{'up' if move > 0 else 'down'} {abs(move)}"
        moves.append(f"{letter} ({wind}) {way}")
    first = next(i for i, move in enumerate(MOVES_OF[rule]) if move)
    moves[first] += " table"
    return "After each round: " + ", ".join(moves) + ", wrapping round past the last table."


def fixed_seating(event: Event, rule: FixedRule = FixedRule.MJMP) -> Seats:
    layout = event.layout
    seats = np.full((event.rounds, layout.tables, 4), EMPTY, dtype=np.int64)
    occupant = _first_round_occupants(layout)
    sitting_out = list(range(layout.seated, len(event.players)))
    for r in range(event.rounds):
        if r and layout.sit_outs:
            occupant, sitting_out = _swap_sit_outs(occupant, sitting_out, r, len(event.players))
        for (table, seat), player in occupant.items():
            ring = layout.tables if seat < 3 else layout.fours
            seats[r, (table + MOVES_OF[rule][seat] * r) % ring, seat] = player
    return seats


def _first_round_occupants(layout: Layout) -> dict[tuple[int, int], int]:
    """Players 0, 1, 2, ... fill table 1 seats A-D, then table 2, ...; three-handed tables last."""
    slots = [(t, s) for t in range(layout.tables) for s in range(4 if t < layout.fours else 3)]
    return {slot: player for player, slot in enumerate(slots)}


def _swap_sit_outs(
    occupant: dict[tuple[int, int], int], sitting_out: list[int], r: int, player_count: int
) -> tuple[dict[tuple[int, int], int], list[int]]:
    count = len(sitting_out)
    going_out = [(player_count - count + r * count + k) % player_count for k in range(count)]
    slot_of = {player: slot for slot, player in occupant.items()}
    updated = dict(occupant)
    for leaver, returner in zip(going_out, sitting_out):
        updated[slot_of[leaver]] = returner
    return updated, going_out
