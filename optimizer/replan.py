"""Re-planning between rounds: players leave or arrive late, the played rounds stay exactly as they were.

The rounds still to play are planned for the new list of players, counting every meeting and every
three-handed round or sit-out that already happened: by default moving as few players as possible
against the old plan (optimizer.moves), or re-seating everyone for the fewest repeats (optimizer.plan).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from models import (
    Bound,
    Event,
    Moves,
    OddPolicy,
    OtherWay,
    PlanResult,
    PlayerChange,
    Progress,
    Replan,
    Reseat,
    Schedule,
    SitOutScoring,
)
from models.event import normalise_name
from optimizer.budget import Budget, Stop
from optimizer.checking.checker import InvalidSchedule, check, turn_breaks
from optimizer.moves import OldPlan, fewest_moves
from optimizer.moves.solve import forced_moves
from optimizer.pipeline.state import History
from optimizer.plan import plan
from optimizer.seats import EMPTY, Seats, from_schedule, pair_counts

# With the other reseat choice for comparison, its short run takes this share of the time limit.
OTHER_WAY_SHARE = 0.2


def replan(
    schedule: Schedule,
    played: int,
    *,
    drop: tuple[str, ...] = (),
    add: tuple[str, ...] = (),
    reseat: Reseat = Reseat.FEWEST,
    other_way: bool = True,
    time_limit: float = 30.0,
    seed: int = 0,
    workers: int = 8,
    on_progress: Callable[[Progress], None] | None = None,
    odd: OddPolicy | None = None,
    sit_out_scoring: SitOutScoring | None = None,
    stop: Stop | None = None,
    budget: Budget | None = None,
) -> Replan:
    """The rounds after `played` planned again for the new list of players.

    `reseat` FEWEST moves as few players as it can against the old plan, then seeks the fewest repeats;
    ALL seeks the fewest repeats, re-seating anyone. With `other_way` a short run of the other choice
    (OTHER_WAY_SHARE of the time limit) says what it would gain or cost. Raise ValueError (one line,
    naming the problem) when the request does not fit the schedule. `odd` and `sit_out_scoring` change
    how the rounds still to play seat an odd count; the day keeps one policy, so the rounds played must
    fit the new one too. The run's budget (`budget`, else `time_limit` and `stop`) is handed down in parts:
    the chosen run's, then the comparison's."""
    budget = budget or Budget.for_run(time_limit, workers=workers, stop=stop)
    repeats_before = check(schedule, indirect=False).repeats
    drop = tuple(normalise_name(name) for name in drop)  # as Event and the schedule file spell names
    add = tuple(normalise_name(name) for name in add)
    schedule = _under_policy(schedule, played, odd, sit_out_scoring)
    event = _remaining_event(schedule, played, drop, add)
    kept = schedule.model_copy(update={"rounds": schedule.rounds[:played]}) if played else None
    repeats_played = check(kept, indirect=False).repeats if kept else 0
    _played_rounds_hold(schedule, played, kept)
    history = _history(schedule, played, event, drop, add, repeats_played)
    old = OldPlan.of(schedule, played, event.players)
    own = budget.end * (1 - OTHER_WAY_SHARE) if other_way else budget.end
    solving = _Solving(seed, workers)
    outcome, moves_bound, repeats_proven = _reseated(
        reseat, event, history, old, budget.part(own), solving, on_progress
    )
    changes = _changes(schedule, outcome.schedule, played) if outcome.schedule else ()
    other = None
    if other_way and not outcome.interrupted:  # Ctrl-C stops the comparison too
        opposite = Reseat.ALL if reseat is Reseat.FEWEST else Reseat.FEWEST
        rest = budget.part(budget.end - own)
        other = _other_way(opposite, schedule, played, event, history, old, rest, solving)
    return Replan(
        played=played,
        dropped=drop,
        added=add,
        repeats_before=repeats_before,
        repeats_played=repeats_played,
        result=outcome,
        changes=changes,
        reseat=reseat,
        moves=_moves(changes, moves_bound, repeats_proven) if outcome.schedule else None,
        other_way=other,
    )


def _history(
    schedule: Schedule, played: int, event: Event, drop: tuple[str, ...], add: tuple[str, ...], repeats_played: int
) -> History:
    """What the played rounds leave to the rounds still to plan."""
    so_far = _pairs_so_far(schedule, played)
    letters, visits, previous = _places_so_far(schedule, played, event)
    return History(
        met_before=_meetings_among(so_far, event.players),
        burdens_before=_burdens_so_far(schedule, played, event.players),
        letters_before=letters,
        visits_before=visits,
        previous=previous,
        unseen_repeats=_repeats_of_leavers(so_far, set(event.players)),
        bound=Bound(repeats=repeats_played, proof="repeats already played"),
        join=_after_played(schedule, played, drop, add),
    )


class _Solving(NamedTuple):
    """How every run of a re-plan solves: its seed and CP-SAT workers."""

    seed: int
    workers: int


def _reseated(
    reseat: Reseat,
    event: Event,
    history: History,
    old: OldPlan,
    budget: Budget,
    solving: _Solving,
    on_progress: Callable[[Progress], None] | None = None,
) -> tuple[PlanResult, int, bool]:
    """The planned rounds under one reseat choice, a proven bound on the moves of any re-plan, and
    whether its repeats are proven fewest for its moves."""
    if reseat is Reseat.FEWEST:
        found = fewest_moves(
            event, history, old, budget=budget, on_progress=on_progress, seed=solving.seed, workers=solving.workers
        )
        return found.result, found.moves_bound, found.repeats_proven
    capacity = [4] * event.layout.fours + [3] * event.layout.threes
    forced = forced_moves(old, capacity, event.layout.sit_outs)
    return (
        plan(
            event, history=history, budget=budget, on_progress=on_progress, seed=solving.seed, workers=solving.workers
        ),
        forced,
        False,
    )


def _other_way(
    reseat: Reseat,
    schedule: Schedule,
    played: int,
    event: Event,
    history: History,
    old: OldPlan,
    budget: Budget,
    solving: _Solving,
) -> OtherWay:
    """A short run of the other reseat choice: its repeats and moves, to set beside the chosen one."""
    result, bound, proven = _reseated(reseat, event, history, old, budget, solving)
    moves = _moves(_changes(schedule, result.schedule, played), bound, proven) if result.schedule else None
    return OtherWay(reseat=reseat, repeats=result.repeats, moves=moves, runtime=budget.elapsed())


def _moves(changes: tuple[PlayerChange, ...], bound: int, repeats_proven: bool) -> Moves:
    moves = sum(len(c.rounds) for c in changes)
    return Moves(moves=moves, players=len(changes), bound=bound, repeats_proven=repeats_proven)


def _under_policy(
    schedule: Schedule, played: int, odd: OddPolicy | None, sit_out_scoring: SitOutScoring | None
) -> Schedule:
    changes = {key: value for key, value in (("odd", odd), ("sit_out_scoring", sit_out_scoring)) if value is not None}
    if not changes:
        return schedule
    changed = schedule.model_copy(update=changes)
    if played:
        try:
            check(changed.model_copy(update={"rounds": changed.rounds[:played]}), indirect=False)
        except InvalidSchedule as error:
            policy = changed.odd.value
            raise ValueError(
                f"the rounds played do not fit the {policy} policy for odd counts, and a day keeps one policy: {error}"
            ) from None
    return changed


def _played_rounds_hold(schedule: Schedule, played: int, kept: Schedule | None) -> None:
    """A round recorded as played (a fix by hand may have made it what really happened) is never
    planned again; and the planner builds only days whose turns are fair after every round, so a
    played round that broke them (a fix by hand) leaves nothing it could build: say so before solving."""
    if played < schedule.played:
        raise ValueError(
            f"rounds 1 to {schedule.played} are recorded as played, and a re-plan keeps them: "
            f"it can start after round {schedule.played} at the earliest, not after round {played}"
        )
    broken = turn_breaks(kept) if kept else ()
    if broken:
        raise ValueError(
            f"in the rounds played {broken[0]}, and a re-plan only builds days that take turns fairly "
            "after every round; keep the rounds still to play as planned, or fix them by hand"
        )


def _remaining_event(schedule: Schedule, played: int, drop: tuple[str, ...], add: tuple[str, ...]) -> Event:
    total = len(schedule.rounds)
    if not 0 <= played < total:
        raise ValueError(f"rounds played must be 0 to {total - 1} for a schedule of {total} rounds, got {played}")
    _same_players_to_the_end(schedule, played, drop)
    here = schedule.expected(played)
    for name in drop:
        if name not in here:
            raise ValueError(f"cannot drop {name!r}: not a player of the rounds still to play")
    for name in add:
        if name in schedule.players:
            raise ValueError(f"cannot add {name!r}: already on the schedule")
    players = tuple(n for n in here if n not in drop) + tuple(add)
    apart, spread = (_still_here(groups, players) for groups in (schedule.apart, schedule.spread))
    stay = {n: t for n, t in schedule.stay.items() if n in players}
    return Event(
        players=players,
        rounds=total - played,
        odd=schedule.odd,
        sit_out_scoring=schedule.sit_out_scoring,
        apart=apart,
        spread=spread,
        stay=stay,
    )


def _same_players_to_the_end(schedule: Schedule, played: int, drop: tuple[str, ...]) -> None:
    """The model seats one list of players in every round still to play, and the whole day is checked
    against the file's arrivals, departures and absences: a change of list after round played + 1
    would make the checker refuse every schedule built. Say so instead."""
    first, total = played + 1, len(schedule.rounds)
    for name, number in schedule.arrivals.items():
        if number > first:
            raise ValueError(
                f"{name!r} arrives in round {number}, after round {first} where the re-plan starts; "
                f"re-plan after round {number - 1} or later"
            )
    for name, number in schedule.departures.items():
        if number > first and name not in drop:
            raise ValueError(
                f"{name!r} leaves before round {number}, after round {first} where the re-plan starts; "
                f"drop {name} now, or re-plan after round {number - 1} or later"
            )
    absences = [
        (number, name)
        for number in range(first, total + 1)
        for name in schedule.rounds[number - 1].absent
        if name not in schedule.arrivals and name not in schedule.departures
    ]
    if absences:
        (number, name), last = absences[0], absences[-1][0]
        advice = f"re-plan after round {last} or later" if last < total else "remove the absence from the file"
        raise ValueError(
            f"round {number} lists {name!r} as absent, and a re-plan seats the same players in every round "
            f"still to play; {advice}"
        )


def _still_here(groups: tuple[tuple[str, ...], ...], players: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Request groups without the players who left; a group of one is no longer a request."""
    kept = (tuple(name for name in group if name in players) for group in groups)
    return tuple(group for group in kept if len(group) > 1)


def _after_played(
    schedule: Schedule, played: int, drop: tuple[str, ...], add: tuple[str, ...]
) -> Callable[[Schedule], Schedule]:
    """The played rounds of the day followed by the planned ones, with who left and who arrived."""

    def whole_day(planned: Schedule) -> Schedule:
        return schedule.model_copy(
            update={
                "players": schedule.players + tuple(add),
                "rounds": schedule.rounds[:played] + planned.rounds,
                "arrivals": {**schedule.arrivals, **{name: played + 1 for name in add}},
                "departures": {**schedule.departures, **{name: played + 1 for name in drop}},
                "played": max(schedule.played, played),  # rounds 1 to `played` were kept: they are played
                "corrections": tuple(c for c in schedule.corrections if c.round <= played),
                "rule": f"variety, re-planned after round {played}",
            }
        )

    return whole_day


class _PairsSoFar(NamedTuple):
    """How often each pair met in the rounds already played (optimizer.seats.pair_counts): pairs x 2 rows
    of the old plan's players, and each pair's count."""

    players: tuple[str, ...]
    pairs: np.ndarray
    counts: np.ndarray


def _pairs_so_far(schedule: Schedule, played: int) -> _PairsSoFar:
    if not played:
        return _PairsSoFar(schedule.players, np.zeros((0, 2), np.int64), np.zeros(0, np.int64))
    seats = from_schedule(schedule.model_copy(update={"rounds": schedule.rounds[:played]}))
    return _PairsSoFar(schedule.players, *pair_counts(seats, len(schedule.players)))


def _meetings_among(so_far: _PairsSoFar, players: tuple[str, ...]) -> np.ndarray:
    """players x players: the played rounds' meetings among `players` (the new list)."""
    index = {name: p for p, name in enumerate(players)}
    renumbered = np.array([index.get(name, EMPTY) for name in so_far.players], np.int64)[so_far.pairs]
    kept = (renumbered >= 0).all(axis=1)
    p, q = renumbered[kept].T
    # One byte a pair: a pair meets at most MAX_ROUNDS (100) times, and every use adds it to int64 counts
    # or reads it with int(); eight bytes would be 3.2 GB at 20 000 players.
    met = np.zeros((len(players), len(players)), np.int8)
    met[p, q] = met[q, p] = so_far.counts[kept]
    return met


def _places_so_far(schedule: Schedule, played: int, event: Event) -> tuple[np.ndarray, np.ndarray, Seats | None]:
    """Seat letters (players x 4) and table visits (players x tables) in the played rounds, and the last
    played round in the planned rounds' numbering (a player who left is an empty seat)."""
    index = {name: p for p, name in enumerate(event.players)}
    tables = event.layout.tables
    letters = np.zeros((len(index), 4), np.int64)
    visits = np.zeros((len(index), tables), np.int8)  # at most MAX_ROUNDS (100) visits; 8 bytes: 800 MB at size
    for round_ in schedule.rounds[:played]:
        for table in round_.tables:
            for seat, name in enumerate(table.players):
                if name in index:
                    letters[index[name], seat] += 1
                    if table.table <= tables:  # a table the smaller room no longer has is never visited again
                        visits[index[name], table.table - 1] += 1
    if not played:
        return letters, visits, None
    last = schedule.rounds[played - 1].tables
    previous = np.full((len(last), 4), EMPTY, np.int64)
    for t, table in enumerate(last):
        previous[t, : len(table.players)] = [index.get(name, EMPTY) for name in table.players]
    return letters, visits, previous


def _burdens_so_far(schedule: Schedule, played: int, players: tuple[str, ...]) -> np.ndarray:
    """Three-handed rounds or sit-outs so far; a newcomer counts as level with the least burdened."""
    counts = {name: 0 for name in players}
    for round_ in schedule.rounds[:played]:
        burdened = list(round_.sit_outs) + [n for t in round_.tables if len(t.players) == 3 for n in t.players]
        for name in burdened:
            if name in counts:
                counts[name] += 1
    listed = set(schedule.players)  # a set: a look-up in the tuple for every player is players^2
    least = min((counts[n] for n in players if n in listed), default=0)
    return np.array([counts[n] if n in listed else least for n in players], np.int64)


def _repeats_of_leavers(so_far: _PairsSoFar, staying: set[str]) -> int:
    """Repeats of pairs with someone no longer playing: fixed by the played rounds, unseen by the model."""
    here = np.array([name in staying for name in so_far.players], bool)
    gone = ~here[so_far.pairs].all(axis=1)
    return int((so_far.counts[gone] - 1).sum())


def _changes(old: Schedule, new: Schedule, played: int) -> tuple[PlayerChange, ...]:
    """Players of the new rounds whose table or seat letter differs from the old plan, in one pass
    over the rounds: an arrival changes in every round they play, a player who left is not listed."""
    rounds: dict[str, list[int]] = {}
    for r in range(played, len(new.rounds)):
        before, now = old.seat_of(r), new.seat_of(r)
        for name in (*now, *new.rounds[r].sit_outs):
            if before.get(name) != now.get(name):
                rounds.setdefault(name, []).append(r + 1)
    return tuple(PlayerChange(name=name, rounds=tuple(rounds[name])) for name in new.players if name in rounds)
