"""A league season: each night planned alone, the greedy baseline, and the project planning against history.

`python -m benchmarks.season [--weeks 12] [--members 40] [--rounds 4] [--time-limit 2] [--seed 44]
[--half-life 4 ...] [--level-share 0.5 ...] [--out DIR]` writes season.md and season.json.

The league: `--members` members, of whom 28 to 36 come each week (drawn once from `--seed`: the same
attendance for every method), `--rounds` rounds a night, tables of three for odd counts. Three ways of
seating each night, every night's schedule checked (optimizer.check):
(a) alone: optimizer.plan of the night, as if nothing had been played before;
(b) greedy: the baseline of a small league app, written here: 20 random greedy seatings of the night,
    each table filled one player at a time by the least sum of squared pair counts so far (earlier nights
    and earlier rounds), the one with the least sum of squared pair counts kept;
(c) season: optimizer.season.plan_night against every earlier night (one run per half-life and level
    share given).
With them, the bounds no method can beat (season_bounds). Over the season, per method: repeats (sum over
pairs of max(0, meetings - 1)), the most times one pair met, pairs of members who met more than the even
share (the most meetings any pair needs given the night's meetings, ceil(meetings / pairs)), pairs who
never met; the sum of squared pair counts (what the baseline minimises); seat letters (the worst
member's most minus fewest rounds in one letter) and three-handed rounds per member (most minus fewest,
among members who came every week alike is not assumed: all members); and the seconds per night (median,
most). Every plan runs on one worker."""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np

import optimizer
from benchmarks.machine import describe
from models import Event, Schedule
from optimizer.season import HALF_LIFE, LEVEL_SHARE, plan_night
from optimizer.seats import EMPTY, to_schedule

ATTENDING = (28, 36)
GREEDY_TRIES = 20


def attendance(weeks: int, members: int, seed: int) -> list[tuple[int, ...]]:
    """Each week's members present (indices, in order): 28 to 36 of them, drawn once from the seed."""
    rng = np.random.default_rng(seed)
    low, high = ATTENDING
    return [
        tuple(sorted(int(m) for m in rng.choice(members, int(rng.integers(low, high + 1)), replace=False)))
        for _ in range(weeks)
    ]


def member_names(members: int) -> tuple[str, ...]:
    return tuple(f"M{m + 1:02d}" for m in range(members))


def greedy_night(event: Event, counts: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The baseline: the best of GREEDY_TRIES random greedy seatings by squared pair counts (the module
    docstring). `counts` is tonight's players x players earlier meetings; returns seats (rounds, tables, 4)."""
    n, sizes = len(event.players), [4] * event.layout.fours + [3] * event.layout.threes
    best, best_score = None, None
    for _ in range(GREEDY_TRIES):
        so_far = counts.astype(np.int64).copy()
        seats = np.full((event.rounds, len(sizes), 4), EMPTY, np.int64)
        for r in range(event.rounds):
            left = list(rng.permutation(n))
            for t, size in enumerate(sizes):
                table = [left.pop(0)]
                while len(table) < size:
                    cost = [int((so_far[p, table] ** 2).sum()) for p in left]
                    table.append(left.pop(int(np.argmin(cost))))
                seats[r, t, :size] = table
                for a in table:
                    for b in table:
                        if a != b:
                            so_far[a, b] += 1
        score = int((so_far**2).sum())
        if best_score is None or score < best_score:
            best, best_score = seats, score
    assert best is not None
    return best


def season_bounds(weeks: list[tuple[int, ...]], members: int, rounds: int, fair: bool = False) -> dict:
    """What no method can beat, given only the attendance: bounds on repeats, squares and the most.

    Every night's tables follow from its count (models.Event.layout: f tables of four, h of three, no
    sit-outs here), so the season's pair-meetings M = sum over nights of rounds x (6f + 3h) are the same
    for every method, and so are, for each member i, the nights n_i they come and H = sum over nights of
    rounds x 3h three-handed seats. Let c be a pair's meetings over the season, P the pairs who are ever
    present on the same night (only they can meet) and cap = rounds x the nights they share (one meeting
    a round at most).
    - Repeats: sum of max(0, c - 1) = sum of c - #(c >= 1) = M - #(pairs who met) >= M - P.
    - Most meetings and squares, by pairs: any c with sum M and c <= cap has max c >= the least level L
      with sum of min(cap, L) >= M, and sum of c^2 >= that of the water-filling (every pair at
      min(cap, L - 1), then one more to as many uncapped pairs as M needs): moving a meeting from a pair
      at a to one at b <= a - 2 lowers sum c^2 by 2(a - b) - 2 > 0 (the even split; convexity).
    - Squares, by members: sum over pairs of c^2 = 1/2 sum over members i of sum over partners j of c_ij^2.
      Member i meets D_i = 3 rounds n_i - t_i times, t_i their three-handed rounds (sum of t_i = H,
      0 <= t_i <= rounds x i's nights with tables of three), so i's inner sum is at least g_i(D_i), the
      water-filling of D_i over i's partners by their caps. g_i is convex in D_i, so the least of
      sum g_i(3 rounds n_i - t_i) over such t is reached by giving the H turns one at a time where they
      lower the sum most (the greedy for a separable convex sum under one budget, e.g. Ibaraki and Katoh,
      Resource Allocation Problems, 1988); half of it is a bound. The larger of the two is reported.
    - Most meetings, by members: member i meets at least 3 rounds n_i - (most t_i) times, so some partner
      at least the top of that water-filling (the larger of this and the pairs' level is reported).
    With `fair`, for seatings whose three-handed turns are fair each night (optimizer.check: a member's
    three-handed rounds of a night within one of everyone's, so at most ceil(3h rounds / players)), the
    same with t_i at most that a night: a bound for such seatings only (the season's and each night
    alone's, not the greedy baseline's).
    A bound reached by no schedule is possible: these relax which pairs can share a table."""
    names = member_names(members)
    together = np.zeros((members, members), np.int64)
    nights = np.zeros(members, np.int64)
    turn_room = np.zeros(members, np.int64)
    pair_meetings = three_seats = 0
    for here in weeks:
        layout = Event(players=tuple(names[m] for m in here), rounds=rounds).layout
        if layout.sit_outs:
            raise ValueError("the bounds count three-handed tables, not sit-outs")
        pair_meetings += rounds * (6 * layout.fours + 3 * layout.threes)
        three_seats += rounds * 3 * layout.threes
        idx = np.array(here)
        together[np.ix_(idx, idx)] += 1
        nights[idx] += 1
        turn_room[idx] += -(-rounds * 3 * layout.threes // len(here)) if fair else (rounds if layout.threes else 0)
    np.fill_diagonal(together, 0)
    caps = rounds * together
    pair_caps = caps[np.triu_indices(members, 1)]
    can_meet = int((pair_caps > 0).sum())
    level, pair_squares = _water_fill(pair_meetings, pair_caps)
    meets = 3 * rounds * nights
    member_most = max(_water_fill(int(meets[i] - turn_room[i]), caps[i])[0] for i in range(members))
    for _ in range(three_seats):  # each turn where it lowers the members' sum most: 2 x top - 1
        gains = [2 * _water_fill(int(meets[i]), caps[i])[0] - 1 if turn_room[i] else -1 for i in range(members)]
        i = int(np.argmax(gains))
        meets[i] -= 1
        turn_room[i] -= 1
    member_squares = sum(_water_fill(int(meets[i]), caps[i])[1] for i in range(members))
    return {
        "pair_meetings": pair_meetings,
        "pairs_who_can_meet": can_meet,
        "repeats": pair_meetings - can_meet,
        "most_meetings": max(level, member_most),
        "squared_pair_counts": max(pair_squares, -(-member_squares // 2)),
    }


def _water_fill(total: int, caps: np.ndarray) -> tuple[int, int]:
    """(top, sum of squares) of `total` split as evenly as `caps` allow (season_bounds): every share at
    min(cap, top - 1), then one more to as many of those with cap >= top as the total needs."""
    caps = caps[caps > 0]
    if total <= 0:
        return 0, 0
    if total > caps.sum():
        raise ValueError(f"{total} meetings do not fit in caps summing to {caps.sum()}")
    top = 1
    while np.minimum(caps, top).sum() < total:
        top += 1
    shares = np.minimum(caps, top - 1)
    extra = total - int(shares.sum())
    return top, int((shares**2).sum()) + extra * (2 * (top - 1) + 1)


def season_figures(nights: list[Schedule], members: tuple[str, ...]) -> dict:
    """The season's figures over every pair of members (the module docstring)."""
    index = {name: m for m, name in enumerate(members)}
    counts = _counts(nights, members)
    letters = np.zeros((len(members), 4), np.int64)
    three = np.zeros(len(members), np.int64)
    for night in nights:
        for round_ in night.rounds:
            for table in round_.tables:
                for seat, name in enumerate(table.players):
                    letters[index[name], seat] += 1
                    three[index[name]] += len(table.players) == 3
    pairs = counts[np.triu_indices(len(members), 1)]
    by_week = [_repeats(_counts(nights[:w], members)) for w in (3, 6, 9)]
    again = sum(len(_pairs(a) & _pairs(b)) for a, b in zip(nights, nights[1:]))
    even = -(-int(pairs.sum()) // pairs.size)
    return {
        "repeats": int(np.maximum(pairs - 1, 0).sum()),
        "repeats_after_weeks_3_6_9": by_week,
        "met_the_week_before": again,
        "most_meetings": int(pairs.max()),
        "even_share": even,
        "pairs_above_even": int((pairs > even).sum()),
        "pairs_never_met": int((pairs == 0).sum()),
        "squared_pair_counts": int((pairs**2).sum()),
        "meetings_by_count": {str(k): int((pairs == k).sum()) for k in range(int(pairs.max()) + 1)},
        "seat_spread": int((letters.max(axis=1) - letters.min(axis=1)).max()),
        "three_handed_spread": int(three.max() - three.min()),
        "fair_turns_every_night": all(optimizer.check(night, indirect=False).turns_fair for night in nights),
    }


def _counts(nights: list[Schedule], members: tuple[str, ...]) -> np.ndarray:
    index = {name: m for m, name in enumerate(members)}
    counts = np.zeros((len(members), len(members)), np.int64)
    for night in nights:
        for round_ in night.rounds:
            for table in round_.tables:
                seated = [index[name] for name in table.players]
                for p in seated:
                    for q in seated:
                        counts[p, q] += p != q
    return counts


def _repeats(counts: np.ndarray) -> int:
    return int(np.maximum(counts[np.triu_indices(len(counts), 1)] - 1, 0).sum())


def _pairs(night: Schedule) -> set[frozenset[str]]:
    """The pairs who share a table on a night."""
    return {
        frozenset((a, b))
        for round_ in night.rounds
        for table in round_.tables
        for a in table.players
        for b in table.players
        if a < b
    }


def run_method(method: str, weeks, members: tuple[str, ...], rounds: int, time_limit: float, seed: int, **options):
    """Every night of the season seated by one method; the nights (checked) and the seconds each took."""
    nights: list[Schedule] = []
    seconds = []
    rng = np.random.default_rng(seed)
    for here in weeks:
        event = Event(players=tuple(members[m] for m in here), rounds=rounds)
        started = time.monotonic()
        if method == "alone":
            schedule = optimizer.plan(event, time_limit=time_limit, seed=seed, workers=1).schedule
        elif method == "greedy":
            counts = _counts(nights, members)[np.ix_(here, here)]
            schedule = to_schedule(event, greedy_night(event, counts, rng), rule="greedy baseline")
        else:
            night = plan_night(event, nights, time_limit=time_limit, seed=seed, workers=1, alone=False, **options)
            schedule = night.result.schedule
        seconds.append(time.monotonic() - started)
        assert schedule is not None, f"{method}: no schedule for {len(here)} players"
        optimizer.check(schedule, indirect=False)  # raises on an invalid night
        nights.append(schedule)
    return nights, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--weeks", type=int, default=12)
    parser.add_argument("--members", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--time-limit", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=44)
    parser.add_argument("--half-life", type=float, nargs="+", default=[HALF_LIFE])
    parser.add_argument("--level-share", type=float, nargs="+", default=[LEVEL_SHARE])
    parser.add_argument("--out", default="benchmarks/results")
    args = parser.parse_args()
    members = member_names(args.members)
    weeks = attendance(args.weeks, args.members, args.seed)
    bounds = season_bounds(weeks, args.members, args.rounds)
    fair_bounds = season_bounds(weeks, args.members, args.rounds, fair=True)
    print(_bound_line(bounds), _bound_line(fair_bounds, "bound (fair turns each night)"), sep="\n", flush=True)
    load_before = _load()
    methods: list[tuple[str, str, dict]] = [("alone", "alone", {}), ("greedy", "greedy", {})]
    methods += [
        (f"season (half-life {h:g}, level share {s:g})", "season", {"half_life": h, "level_share": s})
        for h in args.half_life
        for s in args.level_share
    ]
    rows = []
    for label, method, options in methods:
        nights, seconds = run_method(method, weeks, members, args.rounds, args.time_limit, args.seed, **options)
        row = {"method": label, **season_figures(nights, members)}
        row["seconds_median"] = round(statistics.median(seconds), 2)
        row["seconds_most"] = round(max(seconds), 2)
        rows.append(row)
        print(_line(row), flush=True)
    report = {
        "machine": describe(),
        "load_before": load_before,
        "load_after": _load(),
        "weeks": args.weeks,
        "members": args.members,
        "attending": [len(w) for w in weeks],
        "rounds": args.rounds,
        "time_limit": args.time_limit,
        "workers": 1,
        "seed": args.seed,
        "bounds": bounds,
        "bounds_fair_turns": fair_bounds,
        "rows": rows,
    }
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "season.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    (out / "season.md").write_text(_markdown(report), encoding="utf-8")
    print(f"wrote {out / 'season.md'} and {out / 'season.json'}")


def _gaps(row: dict, report: dict) -> str:
    """How far a method is above the bounds: those for any seating, and for a method whose turns were fair
    every night, those for fair turns."""
    keys = ("repeats", "squared_pair_counts", "most_meetings")
    over = {key: row[key] - report["bounds"][key] for key in keys}
    text = (
        f"{row['method']} repeats +{over['repeats']}, squares +{over['squared_pair_counts']}, "
        f"most +{over['most_meetings']}"
    )
    if row["fair_turns_every_night"]:
        fair = {key: row[key] - report["bounds_fair_turns"][key] for key in keys}
        text += f" (fair turns every night: squares +{fair['squared_pair_counts']}, most +{fair['most_meetings']})"
    return text


def _load() -> list[float]:
    import os

    return [round(x, 2) for x in os.getloadavg()]


HEADER = (
    f"{'method':<40} {'repeats':>7} {'by week 3/6/9':>13} {'again':>5} {'most':>4} {'above even':>10} "
    f"{'never met':>9} {'squares':>7} "
    f"{'seats':>5} {'3-handed':>8} {'s/night':>7} {'most s':>6}"
)


def _line(row: dict) -> str:
    return (
        f"{row['method']:<40} {row['repeats']:>7} {'/'.join(map(str, row['repeats_after_weeks_3_6_9'])):>13} "
        f"{row['met_the_week_before']:>5} {row['most_meetings']:>4} {row['pairs_above_even']:>10} "
        f"{row['pairs_never_met']:>9} {row['squared_pair_counts']:>7} {row['seat_spread']:>5} "
        f"{row['three_handed_spread']:>8} {row['seconds_median']:>7} {row['seconds_most']:>6}"
    )


def _bound_line(bounds: dict, label: str = "bound (any seating)") -> str:
    """The bounds (season_bounds) under the methods' columns they bound."""
    return (
        f"{label:<40} {bounds['repeats']:>7} {'':>13} {'':>5} {bounds['most_meetings']:>4} {'':>10} "
        f"{'':>9} {bounds['squared_pair_counts']:>7}"
    )


def _markdown(report: dict) -> str:
    machine = report["machine"]
    lines = [
        f"# A league season: {report['weeks']} weeks, {report['members']} members, {report['rounds']} rounds a night",
        "",
        f"Attendance (seed {report['seed']}): {', '.join(map(str, report['attending']))}.",
        f"Each plan {report['time_limit']:g} s on {report['workers']} worker; load average before "
        f"{report['load_before']}, after {report['load_after']} (a 2-core machine shared with other engineers' work).",
        f"Machine: {machine}",
        "",
        "```",
        HEADER,
        *(_line(row) for row in report["rows"]),
        _bound_line(report["bounds"]),
        _bound_line(report["bounds_fair_turns"], "bound (fair turns each night)"),
        "```",
        "",
        f"Bounds (benchmarks.season.season_bounds, proofs in its docstring): the season has "
        f"{report['bounds']['pair_meetings']} pair-meetings whatever the method and "
        f"{report['bounds']['pairs_who_can_meet']} pairs of members ever present together, so repeats >= "
        f"{report['bounds']['pair_meetings']} - {report['bounds']['pairs_who_can_meet']} = "
        f"{report['bounds']['repeats']}; most >= {report['bounds']['most_meetings']} and squares >= "
        f"{report['bounds']['squared_pair_counts']} from the even split by pairs and by members; with fair "
        f"three-handed turns each night (the season's and each night alone's, not the greedy baseline's) most >= "
        f"{report['bounds_fair_turns']['most_meetings']} and squares >= "
        f"{report['bounds_fair_turns']['squared_pair_counts']}. Above the bound for any seating: "
        + "; ".join(_gaps(row, report) for row in report["rows"])
        + ".",
        "",
        "repeats: sum over pairs of members of max(0, meetings - 1), at the end and after weeks 3, 6 and 9;",
        "again: pairs who share a table on a night and on the night before, summed over the nights; most: the most",
        "times one pair met; above even: pairs who met more than ceil(meetings / pairs) times; squares: sum of",
        "squared pair counts (the baseline's own measure); seats: the worst member's most minus fewest rounds",
        "in one seat letter; 3-handed: most minus fewest three-handed rounds of a member over the season.",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
