"""Who leaves and who arrives before a re-plan, as a director types them, resolved against the schedule:
the one rule every front end (the command line's --drop and --add, the desk's re-plan form and JSON)
applies before `optimizer.replan`.

    leaving(schedule, played, names)  -> the names who leave, spelled as the schedule spells them
    arriving(schedule, names)         -> the names who arrive, normalised

A name is matched as `models.event.name_key` matches it ('ann' is 'Ann'). Refused, each in one line
(NameRefused, with the side it belongs to): an empty name; one who leaves but does not play the rounds
still to play (not on the schedule: with the nearest spellings, `did_you_mean`; or gone already); one
who arrives but is on the schedule (another spelling of a player, or one who left: a player who left
does not come back); a name given twice on one side.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal

from models import Schedule
from models.event import did_you_mean, name_key, normalise_name

Side = Literal["leave", "arrive"]


class NameRefused(ValueError):
    """A name of those who leave or arrive that the schedule cannot take; `side` says which list."""

    def __init__(self, message: str, side: Side):
        super().__init__(message)
        self.side = side


def leaving(schedule: Schedule, played: int, names: Iterable[str]) -> tuple[str, ...]:
    """The players who leave after round `played`, spelled as the schedule spells them, in the order given."""
    # Rounds played out of range are optimizer.replan's to refuse: until then, every player counts.
    still = schedule.expected(played) if 0 <= played < len(schedule.rounds) else schedule.players
    here = {name_key(name): name for name in still}
    everyone = {name_key(name) for name in schedule.players}
    found: list[str] = []
    for given in names:
        typed = normalise_name(given)
        name = here.get(name_key(typed))
        if not typed:
            raise NameRefused(f"cannot drop {given!r}: the name is empty", "leave")
        if name is None and name_key(typed) in everyone:
            raise NameRefused(f"cannot drop {typed!r}: not a player of the rounds still to play", "leave")
        if name is None:
            hint = did_you_mean(typed, list(here.values()))
            raise NameRefused(f"cannot drop {typed!r}: not on the schedule{hint}", "leave")
        if name in found:
            raise NameRefused(f"cannot drop {name!r}: it is named twice", "leave")
        found.append(name)
    return tuple(found)


def arriving(schedule: Schedule, names: Iterable[str]) -> tuple[str, ...]:
    """The players who arrive, normalised, in the order given: none of them on the schedule already."""
    on_schedule = {name_key(name): name for name in schedule.players}
    found: dict[str, str] = {}
    for given in names:
        name = normalise_name(given)
        if not name:
            raise NameRefused(f"cannot add {given!r}: the name is empty", "arrive")
        known = on_schedule.get(name_key(name))
        if known is not None and known in schedule.departures:
            raise NameRefused(
                f"cannot add {name!r}: {known!r} left the day (missing round {schedule.departures[known]} on), "
                "and a player who left cannot come back; add them under another name",
                "arrive",
            )
        if known is not None:
            raise NameRefused(f"cannot add {name!r}: {known!r} is already on the schedule", "arrive")
        if name_key(name) in found:
            raise NameRefused(f"cannot add {name!r}: it is named twice", "arrive")
        found[name_key(name)] = name
    return tuple(found.values())
