"""The independent checker: validates a schedule file and measures it.

It reads only the names in the file and the event's rules, never the arrays or counters of the
code that built the schedule, so a bug in a builder cannot vouch for itself.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection
from itertools import combinations
from typing import NamedTuple

import numpy as np

from models import Layout, Metrics, PlayerMetrics, Round, Schedule
from optimizer.checking import meetings
from optimizer.checking.indirect import fewest_in_common
from optimizer.words import counted


class InvalidSchedule(ValueError):
    """The schedule breaks a rule of the event; the message says which, in one line."""


def check(schedule: Schedule, *, indirect: bool = True, poll: Callable[[], None] = lambda: None) -> Metrics:
    """Raise InvalidSchedule if the schedule is not valid; otherwise return its metrics (without the
    indirect-meetings figure when `indirect` is False: candidates are compared without it). `poll` is
    called after each round and between the figures (a planning run's stop: it raises to give up the check).

    Rounds recorded as played (`schedule.played`) are what happened: a request broken there, or a
    table of three among the tables of four (a player who sat in an empty seat), is measured and
    reported, not refused. Every other rule holds in every round."""
    _check_names(schedule.players)
    known = set(schedule.players)
    _check_requests_name_players(schedule, known)
    groups_of, requests = _apart_groups(schedule), schedule.apart or schedule.stay
    for number, round_ in enumerate(schedule.rounds, start=1):
        poll()
        _check_round(schedule, round_, number, known)
        broken = _requests_broken(schedule, round_, number, groups_of) if requests and number > schedule.played else []
        if broken:
            raise InvalidSchedule(f"broken request in {broken[0]}")
    return measure(schedule, indirect=indirect, poll=poll)


def _apart_groups(schedule: Schedule) -> dict[str, list[int]]:
    """Each name's apart groups, by index into schedule.apart."""
    groups_of: dict[str, list[int]] = {}
    for g, group in enumerate(schedule.apart):
        for name in set(group):
            groups_of.setdefault(name, []).append(g)
    return groups_of


def _check_names(names: tuple[str, ...]) -> None:
    if any(not name.strip() for name in names):
        raise InvalidSchedule("a player name is empty")
    twice = [name for name, count in Counter(names).items() if count > 1]
    if twice:
        raise InvalidSchedule(f"the name {twice[0]!r} is listed twice in players")


def _check_round(schedule: Schedule, round_: Round, number: int, known: set[str]) -> None:
    # Linear in seats: every membership test below is against a set built once for this round.
    where = f"round {number}"
    listed = [n for t in round_.tables for n in t.players] + list(round_.sit_outs) + list(round_.absent)
    unknown = [n for n in listed if n not in known]
    if unknown:
        raise InvalidSchedule(f"{where}: {unknown[0]!r} is not a player of this schedule")
    listed_set = set(listed)
    if len(listed_set) != len(listed):
        twice = [n for n, c in Counter(listed).items() if c > 1]
        raise InvalidSchedule(f"{where}: {twice[0]!r} is placed more than once")
    expected = schedule.expected(number - 1)
    missing = [n for n in expected if n not in listed_set]
    if missing:
        raise InvalidSchedule(f"{where}: {missing[0]!r} is neither at a table nor sitting out")
    expected_set, absent_set = set(expected), set(round_.absent)
    away = [n for n in listed if n not in expected_set and n not in absent_set]
    if away:
        raise InvalidSchedule(f"{where}: {away[0]!r} is seated while not at the event")
    numbers = [t.table for t in round_.tables]
    if sorted(numbers) != list(range(1, len(numbers) + 1)):
        raise InvalidSchedule(f"{where}: tables must be numbered 1 to {len(numbers)}, got {sorted(numbers)}")
    present = len(expected)
    try:
        layout = Layout.for_room(present, schedule.odd)
    except ValueError as error:
        raise InvalidSchedule(f"{where}: {error}") from None
    sizes = Counter(len(t.players) for t in round_.tables)
    wanted = Counter({4: layout.fours, 3: layout.threes})
    if +sizes != +wanted:
        raise InvalidSchedule(
            f"{where}: {present} players under the {schedule.odd.value} rule need "
            f"{counted(layout.fours, 'table')} of four and {layout.threes} of three, got {_describe(sizes)}"
        )
    if len(round_.sit_outs) != layout.sit_outs:
        raise InvalidSchedule(f"{where}: {counted(layout.sit_outs, 'player')} must sit out, got {len(round_.sit_outs)}")
    if number > schedule.played and any(len(t.players) == 3 and t.table <= layout.fours for t in round_.tables):
        raise InvalidSchedule(f"{where}: three-handed tables must be numbered after the tables of four")


def _check_requests_name_players(schedule: Schedule, known: set[str]) -> None:
    named = [n for group in schedule.apart + schedule.spread for n in group] + list(schedule.stay)
    named += list(schedule.arrivals) + list(schedule.departures)
    named += [n for correction in schedule.corrections for n in correction.players]
    unknown = [n for n in named if n not in known]
    if unknown:
        raise InvalidSchedule(f"a request names {unknown[0]!r}, who is not a player")


def _requests_broken(schedule: Schedule, round_: Round, number: int, groups_of: dict[str, list[int]]) -> list[str]:
    """The requests a round breaks, one line each; `groups_of` is `_apart_groups(schedule)`."""
    broken = []
    for table in round_.tables:
        seen: set[int] = set()
        for name in table.players:
            for group in groups_of.get(name, ()):
                if group in seen:
                    together = [n for n in table.players if n in schedule.apart[group]]
                    broken.append(
                        f"round {number}: {' and '.join(together)} are to be kept apart but share table {table.table}"
                    )
                seen.add(group)
            if schedule.stay.get(name, table.table) != table.table:
                broken.append(
                    f"round {number}: {name} is to stay at table {schedule.stay[name]} but is at table {table.table}"
                )
    return list(dict.fromkeys(broken))  # three of one group at a table are one broken request


def _describe(sizes: Counter) -> str:
    return ", ".join(f"{count} of {size}" for size, count in sorted(sizes.items(), reverse=True)) or "none"


def measure(schedule: Schedule, *, indirect: bool = True, poll: Callable[[], None] = lambda: None) -> Metrics:
    """Repeats, spread of opponents, shares of three-handed and sat-out rounds, and the balance figures
    (seat letters, table numbers, trios, back-to-back rematches, and with `indirect` indirect meetings),
    counted as arrays (optimizer.checking.meetings); `poll` called between them."""
    day = meetings.seated(schedule)
    poll()
    met, n = meetings.pairs(day), day.player_count
    opponents, repeats = meetings.per_player(met, n)
    played = np.bincount(meetings.seat_players(day), minlength=n)
    poll()
    three, out = _three_handed(schedule), _sat_out(schedule)
    poll()
    players = tuple(
        PlayerMetrics(
            name=name,
            opponents=int(opponents[i]),
            repeats=int(repeats[i]),
            three_handed_rounds=three.final[name],
            sit_out_rounds=out.final[name],
            rounds_played=int(played[i]),
        )
        for i, name in enumerate(schedule.players)
    )
    staying = np.array([name in schedule.stay for name in schedule.players], dtype=bool)
    poll()
    seat_spread, table_visits = meetings.seat_spread(day), meetings.table_visits_above_even(day, staying)
    poll()
    trios_again = meetings.trios_again(day)
    poll()
    return Metrics(
        repeats=int((met.counts - 1).sum()),
        max_meetings=int(met.counts.max(initial=0)),
        opponents_min=int(opponents.min()),
        opponents_mean=round(float(opponents.mean()), 3),
        repeats_by_round=tuple(int(k) for k in meetings.repeats_by_round(met, len(schedule.rounds))),
        three_handed_fair=three.fair,
        club_meetings=int(meetings.meetings_of(met, _codes_within(schedule, schedule.spread, once=True)).sum()),
        sit_outs_fair=out.fair,
        seat_spread=seat_spread,
        table_visits_above_even=table_visits,
        trios_again=trios_again,
        back_to_back=meetings.back_to_back(met),
        apart_meetings=int(meetings.meetings_of(met, _codes_within(schedule, schedule.apart, once=False)).sum()),
        stay_moves=_stay_moves(schedule),
        indirect_meetings=_indirect_meetings(met, n) if indirect else None,
        broken_requests=_broken_in_played(schedule),
        players=players,
    )


def _codes_within(schedule: Schedule, groups: tuple[tuple[str, ...], ...], once: bool) -> np.ndarray:
    """Pair codes (optimizer.checking.meetings) of two names of one group: each pair `once`, or once per group."""
    index = {name: i for i, name in enumerate(schedule.players)}
    n = len(index)
    codes = [
        min(index[a], index[b]) * n + max(index[a], index[b])
        for group in groups
        for a, b in combinations(group, 2)
        if a != b
    ]
    return np.array(sorted(set(codes)) if once else codes, dtype=np.int64)


def _stay_moves(schedule: Schedule) -> int:
    """Rounds a player who stays sat at a table other than the one asked for."""
    return sum(
        1
        for round_ in schedule.rounds
        for table in round_.tables
        for name in table.players
        if schedule.stay.get(name, table.table) != table.table
    )


def indirect_meetings(schedule: Schedule, poll: Callable[[], None] = lambda: None) -> int | None:
    """Among pairs who never share a table, the fewest opponents they have in common; None if every pair met
    (optimizer.checking.indirect: near-linear in seats but in rooms of a few thousand players). `poll` is called
    between its steps and blocks (it raises to give up)."""
    day = meetings.seated(schedule)
    poll()
    pairs = meetings.pairs(day)
    poll()
    return _indirect_meetings(pairs, day.player_count, poll)


def _indirect_meetings(met: meetings.Pairs, n: int, poll: Callable[[], None] = lambda: None) -> int | None:
    return fewest_in_common(n, np.stack(np.divmod(met.codes, n), axis=1), poll)


def _broken_in_played(schedule: Schedule) -> tuple[str, ...]:
    groups_of = _apart_groups(schedule)
    played = enumerate(schedule.rounds[: schedule.played], start=1)
    return tuple(line for number, round_ in played for line in _requests_broken(schedule, round_, number, groups_of))


class TurnBreak(NamedTuple):
    """The first round after which a burden is no longer shared in turn: one player two turns ahead."""

    round: int
    burden: str  # "three-handed" or "sitting out"
    ahead: str
    ahead_turns: int
    behind: str
    behind_turns: int

    def __str__(self) -> str:
        turns, done = ("turns at the tables of three", "played three-handed")
        if self.burden != "three-handed":
            turns, done = "sit-outs", "sat out"
        return (
            f"{turns} are not taken in turn: after round {self.round} {self.ahead} has {done} "
            f"{_times(self.ahead_turns)} and {self.behind} {_times(self.behind_turns)}"
        )


def _times(count: int) -> str:
    return {0: "never", 1: "once", 2: "twice"}.get(count, f"{count} times")


def turn_breaks(schedule: Schedule) -> tuple[TurnBreak, ...]:
    """Every round after which three-handed seats or sit-outs are not shared in turn (counts differ by
    more than one), with a player ahead and one behind; empty when turns are fair all day."""
    return _three_handed(schedule).breaks + _sat_out(schedule).breaks


class _Share(NamedTuple):
    """Running counts of a burden (three-handed, sitting out) and the rounds where turns broke."""

    final: dict[str, int]
    breaks: tuple[TurnBreak, ...]

    @property
    def fair(self) -> bool:
        return not self.breaks


def _three_handed(schedule: Schedule) -> _Share:
    def burdened(round_: Round) -> list[str]:
        return [n for t in round_.tables if len(t.players) == 3 for n in t.players]

    return _share(schedule, burdened, schedule.stay, "three-handed")


def _sat_out(schedule: Schedule) -> _Share:
    return _share(schedule, lambda round_: list(round_.sit_outs), (), "sitting out")


def _share(schedule: Schedule, burdened: Callable[[Round], list[str]], exempt: Collection[str], burden: str) -> _Share:
    counts = {name: 0 for name in schedule.players}
    breaks = []
    for r, round_ in enumerate(schedule.rounds):
        here = [n for n in schedule.expected(r) if n not in exempt]
        arriving = [n for n in here if schedule.arrivals.get(n) == r + 1]
        # A late arrival starts level with the least burdened, not behind everyone.
        level = min((counts[n] for n in here if n not in arriving), default=0)
        counts.update({n: level for n in arriving})
        for name in burdened(round_):
            counts[name] += 1
        if here:
            ahead, behind = max(here, key=counts.__getitem__), min(here, key=counts.__getitem__)
            if counts[ahead] - counts[behind] > 1:
                breaks.append(TurnBreak(r + 1, burden, ahead, counts[ahead], behind, counts[behind]))
    return _Share(counts, tuple(breaks))
