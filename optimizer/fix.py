"""Fixes by hand: two players trade places in one round, one player takes an empty seat, rounds are played.

    swap(schedule, round, name, name)   -> Schedule: the two trade places (seats, or a seat and a sit-out)
    move(schedule, round, name, table)  -> Schedule: the player takes the empty seat of a table of three
    mark_played(schedule, rounds)       -> Schedule: rounds 1 to `rounds` are recorded as played
    rename(schedule, old, new)          -> Schedule: one player spelled anew everywhere, nothing else changed
    moved(before, after, round)         -> who sits elsewhere in that round, and where
    turns_broken_by(before, after)      -> the rounds whose fair turns a fix broke

Each fix returns a new schedule that has passed the independent checker, with the fix appended to
`corrections`. In a round still to play a fix must keep what a plan keeps: the requests (apart groups,
players who stay at a table) and the turns at tables of three or sitting out (after every round nobody
is two turns ahead of anyone; where a played round broke that, a fix may not widen the gap).
In a round recorded as played a fix records what happened, and reality wins: the checker then
reports a broken request or turn instead of refusing it. Every refusal is FixRefused, one line.
"""

from __future__ import annotations

from models import Correction, Round, Schedule, Table
from models.event import did_you_mean, name_key, normalise_name
from optimizer.checking.checker import InvalidSchedule, TurnBreak, check, turn_breaks

Place = tuple[int, str] | None  # (table number, seat letter), or None for sitting out


class FixRefused(ValueError):
    """A fix that cannot be made; the message says why in one line."""


def mark_played(schedule: Schedule, rounds: int) -> Schedule:
    """Record rounds 1 to `rounds` as played: a re-plan keeps them, and fixes there record what happened.
    A played round stays played: recording fewer rounds than the file already does is refused."""
    if not 1 <= rounds <= len(schedule.rounds):
        raise FixRefused(f"the day has rounds 1 to {len(schedule.rounds)}, not round {rounds}")
    if rounds < schedule.played:
        raise FixRefused(
            f"rounds 1 to {schedule.played} are already recorded as played, and a played round stays played"
        )
    return schedule.model_copy(update={"played": rounds})


def swap(schedule: Schedule, round_number: int, first: str, second: str) -> Schedule:
    """The two players trade places in one round: seats (letters included), or a seat and a sit-out."""
    r = _round_index(schedule, round_number)
    a, b = _player(schedule, first), _player(schedule, second)
    if a == b:
        raise FixRefused(f"{a} is named twice: a swap needs two players")
    if _place(schedule, r, a) is None and _place(schedule, r, b) is None:
        raise FixRefused(f"{a} and {b} both sit out round {round_number}: there is nothing to swap")
    traded = {a: b, b: a}
    round_ = schedule.rounds[r]
    changed = round_.model_copy(
        update={
            "tables": tuple(
                t.model_copy(update={"players": tuple(traded.get(n, n) for n in t.players)}) for t in round_.tables
            ),
            "sit_outs": tuple(traded.get(n, n) for n in round_.sit_outs),
        }
    )
    correction = Correction(round=round_number, change="swap", players=(a, b), played=round_number <= schedule.played)
    return _fixed(schedule, changed, correction, f"swap {a} and {b} in round {round_number}")


def move(schedule: Schedule, round_number: int, name: str, table: int) -> Schedule:
    """The player takes the empty seat at a table of three, so their own table plays three-handed;
    whoever sat in seat D there takes the letter the player left (a table of three seats A, B, C).
    This changes which table plays three-handed, so it is a record of a played round only: in a round
    still to play the tables of three are the last ones, and a swap is the fix."""
    r = _round_index(schedule, round_number)
    player = _player(schedule, name)
    round_ = schedule.rounds[r]
    target = next((t for t in round_.tables if t.table == table), None)
    if target is None:
        raise FixRefused(f"round {round_number} has tables 1 to {len(round_.tables)}, not table {table}")
    place = _place(schedule, r, player)
    if place is None:
        raise FixRefused(f"{player} sits out round {round_number}; to seat them, swap them with a seated player")
    source = next(t for t in round_.tables if t.table == place[0])
    if source is target:
        raise FixRefused(f"{player} is already at table {table} in round {round_number}")
    if len(target.players) == 4:
        raise FixRefused(
            f"table {table} has no empty seat in round {round_number}; swap {player} with one of its players"
        )
    if len(source.players) == 3:
        raise FixRefused(f"moving {player} would leave two players at table {source.table} in round {round_number}")
    if round_number > schedule.played:
        raise FixRefused(
            f"round {round_number} is still to play, and there the tables of three are the last tables: moving "
            f"{player} would leave table {source.table} three-handed; swap {player} with a player at table {table}, "
            f"or record round {round_number} as played first if that is what happened"
        )
    left = tuple(source.players[3] if n == player else n for n in source.players[:3])
    tables = {source.table: left, target.table: target.players + (player,)}
    changed = round_.model_copy(
        update={"tables": tuple(Table(table=t.table, players=tables.get(t.table, t.players)) for t in round_.tables)}
    )
    correction = Correction(round=round_number, change="move", players=(player,), table=table, played=True)
    return _fixed(schedule, changed, correction, f"move {player} to table {table} in round {round_number}")


def rename(schedule: Schedule, old: str, new: str) -> Schedule:
    """The player `old` spelled `new` everywhere in the schedule (seats, sit-outs, absences, requests,
    arrivals, departures, corrections): the same player, so nobody moves and every figure stays. The new
    spelling may differ from the old in case only ('ann' -> 'Ann'), not be another player's name."""
    was, now = respelling(schedule.players, old, new)

    def one(name: str) -> str:
        return now if name == was else name

    def many(names: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(map(one, names))

    renamed = schedule.model_copy(
        update={
            "players": many(schedule.players),
            "rounds": tuple(renamed_round(r, was, now) for r in schedule.rounds),
            "apart": tuple(map(many, schedule.apart)),
            "spread": tuple(map(many, schedule.spread)),
            "stay": {one(n): t for n, t in schedule.stay.items()},
            "ids": {one(n): member for n, member in schedule.ids.items()},
            "arrivals": {one(n): r for n, r in schedule.arrivals.items()},
            "departures": {one(n): r for n, r in schedule.departures.items()},
            "corrections": tuple(c.model_copy(update={"players": many(c.players)}) for c in schedule.corrections),
        }
    )
    return Schedule.model_validate(renamed.model_dump())  # validated whole, as a file read back would be


def renamed_round(seating: Round, old: str, new: str) -> Round:
    """The round with the player `old` spelled `new` at its tables, among its sit-outs and absences
    (a schedule's round, or one released to the room)."""

    def many(names: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(new if name == old else name for name in names)

    return Round(
        tables=tuple(Table(table=t.table, players=many(t.players)) for t in seating.tables),
        sit_outs=many(seating.sit_outs),
        absent=many(seating.absent),
    )


def respelling(names: tuple[str, ...] | list[str], old: str, new: str) -> tuple[str, str]:
    """(the name as listed, the new spelling) for renaming `old` among `names`, or FixRefused: an unknown
    name, an empty one, no change, or another player's name (a change of case alone is a respelling)."""
    by_key = {name_key(n): n for n in names}
    was = by_key.get(name_key(old))
    if was is None:
        raise FixRefused(f"{old!r} is not on the schedule{did_you_mean(old, names)}")
    now = normalise_name(new)
    if not now:
        raise FixRefused("the new name is empty")
    if now == was:
        raise FixRefused(f"{was} is already spelled so")
    other = by_key.get(name_key(now), was)
    if other != was:
        raise FixRefused(f"{other} is another player on the schedule: choose a name nobody else has")
    return was, now


def moved(before: Schedule, after: Schedule, round_number: int) -> tuple[tuple[str, Place, Place], ...]:
    """(name, place before, place after) of every player whose place differs in the round, in list order."""
    r = round_number - 1
    was, now = before.seat_of(r), after.seat_of(r)
    here = after.expected(r)
    return tuple((n, was.get(n), now.get(n)) for n in here if was.get(n) != now.get(n))


def _fixed(schedule: Schedule, changed: Round, correction: Correction, what: str) -> Schedule:
    r = correction.round - 1
    rounds = schedule.rounds[:r] + (changed,) + schedule.rounds[r + 1 :]
    after = schedule.model_copy(update={"rounds": rounds, "corrections": schedule.corrections + (correction,)})
    if not correction.played:
        _keeps_requests(after, r, correction.players, what)
        _keeps_turns(schedule, after, what)
    try:
        check(after, indirect=False)
    except InvalidSchedule as error:
        raise FixRefused(f"cannot {what}: {error}") from None
    return after


def _keeps_requests(after: Schedule, r: int, players: tuple[str, ...], what: str) -> None:
    seats = after.seat_of(r)
    for name in players:
        table = seats.get(name, (None, ""))[0]
        if name in after.stay and table != after.stay[name]:
            raise FixRefused(f"cannot {what}: {name} stays at table {after.stay[name]} all day")
        mates = next((t.players for t in after.rounds[r].tables if t.table == table), ())
        for group in after.apart:
            if name in group:
                apart = [n for n in mates if n in group and n != name]
                if apart:
                    raise FixRefused(
                        f"cannot {what}: {name} and {apart[0]} are kept apart, and would share table {table}"
                    )


def turns_broken_by(before: Schedule, after: Schedule) -> tuple[TurnBreak, ...]:
    """The rounds after which turns are unfair in `after` and were fair in `before`, or less unfair
    (after a played round that broke them, a fix may leave the gap as it was, not widen it)."""
    there = {(b.burden, b.round): b.ahead_turns - b.behind_turns for b in turn_breaks(before)}
    return tuple(b for b in turn_breaks(after) if b.ahead_turns - b.behind_turns > there.get((b.burden, b.round), 1))


def _keeps_turns(before: Schedule, after: Schedule, what: str) -> None:
    """Refuse a break of fair turns the fix causes; one already there (a played round) is not its doing."""
    broken = turns_broken_by(before, after)
    if broken:
        raise FixRefused(f"cannot {what}: then {broken[0]}")


def _round_index(schedule: Schedule, round_number: int) -> int:
    if not 1 <= round_number <= len(schedule.rounds):
        raise FixRefused(f"the day has rounds 1 to {len(schedule.rounds)}, not round {round_number}")
    return round_number - 1


def _player(schedule: Schedule, name: str) -> str:
    """The name as the schedule spells it ('ann' is 'Ann')."""
    by_key = {name_key(n): n for n in schedule.players}
    found = by_key.get(name_key(name))
    if found is None:
        raise FixRefused(f"{name!r} is not on the schedule{did_you_mean(name, schedule.players)}")
    return found


def _place(schedule: Schedule, r: int, name: str) -> Place:
    seats = schedule.seat_of(r)
    if name in seats:
        return seats[name]
    if name in schedule.rounds[r].sit_outs:
        return None
    raise FixRefused(f"{name} is not at the event in round {r + 1}")
