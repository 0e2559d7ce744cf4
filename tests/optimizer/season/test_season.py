"""A night of a season: planned against the earlier nights' meetings, turns and seat letters."""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pytest
from click.testing import CliRunner

import optimizer
from benchmarks.season import season_bounds, season_figures
from models import Event, Round, Schedule, Table
from optimizer.balance.letters import balance_letters, letter_counts, reletter, seat_spread
from optimizer.budget import Budget
from optimizer.search.costs import Costs
from optimizer.season import Season, plan_night
from optimizer.season.descent import _Season, season_cost, season_floor, spread_out
from optimizer.seats import EMPTY
from rotation.commands.cli import cli

pytestmark = pytest.mark.slow

SOLVE = {"time_limit": 2.0, "seed": 0, "workers": 1}


def night(*rounds: list[list[str]], ids: dict[str, str] | None = None, sit_outs=()) -> Schedule:
    """A played night from its tables, players in the order they first sit."""
    players = list(dict.fromkeys([*(n for tables in rounds for t in tables for n in t), *sit_outs]))
    return Schedule(
        players=tuple(players),
        rounds=tuple(
            Round(
                tables=tuple(Table(table=i + 1, players=tuple(t)) for i, t in enumerate(tables)),
                sit_outs=tuple(n for n in sit_outs if all(n not in t for t in tables)),
            )
            for tables in rounds
        ),
        ids=ids or {},
    )


def pairs_of(schedule: Schedule) -> set[frozenset[str]]:
    return {
        frozenset(pair)
        for round_ in schedule.rounds
        for table in round_.tables
        for pair in combinations(table.players, 2)
    }


SIXTEEN = tuple(f"P{i:02d}" for i in range(1, 17))
BY_FOURS = [list(SIXTEEN[i : i + 4]) for i in range(0, 16, 4)]


def test_pairs_who_met_are_kept_apart_when_they_can_be():
    """Last week P01-P04 sat together (and so on): tonight's first round must mix the four tables, which
    a plan of tonight alone does not do (it seats P01-P04 together first)."""
    event = Event(players=SIXTEEN, rounds=2)
    earlier = night(BY_FOURS)
    alone = optimizer.plan(event, **SOLVE).schedule
    planned = plan_night(event, [earlier], **SOLVE)
    assert planned.result.schedule is not None and alone is not None
    assert pairs_of(alone) & pairs_of(earlier)  # without the history, old pairs meet again
    assert not pairs_of(planned.result.schedule) & pairs_of(earlier)
    assert planned.result.repeats == 0 and planned.season is not None and planned.season.met_before == 0
    assert planned.alone is not None and planned.alone.met_before > 0
    optimizer.check(planned.result.schedule)  # tonight alone is a valid schedule


def test_names_match_ignoring_case_and_ids_match_whatever_the_name():
    tonight = ("Renée Weiß", "Ann Jones", "Bo Lind", "Cy Park", "Di Ru", "Ed Ho", "Flo Ma", "Gus Te")
    event = Event(players=tonight, rounds=1)
    earlier = night(
        [["RENÉE WEISS", "Ann Smith", "Bo Lind", "Zed Zee"]],
        ids={"Ann Smith": "17", "Bo Lind": "3"},  # Ann married; a second Bo Lind (id 4) comes tonight
    )
    season = Season(event, [earlier], ids={"Ann Jones": "17", "Bo Lind": "4"})
    index = {name: p for p, name in enumerate(tonight)}
    met = season.met
    assert met[index["Renée Weiß"], index["Ann Jones"]] == 1  # by name, and by id
    assert met[index["Renée Weiß"], index["Bo Lind"]] == 0  # same name, another member
    assert season.seen.sum() == 2  # Zed Zee is not here tonight


def test_older_nights_weigh_less():
    """With a half-life of 2 nights, a meeting on the last night weighs 1 + 1, two nights before it 1 + 1/2."""
    players = tuple(f"P{i}" for i in range(1, 9))
    event = Event(players=players, rounds=1)
    old = night([["P1", "P2", "P3", "P4"], ["P5", "P6", "P7", "P8"]])
    middle = night([["P1", "P5", "P3", "P7"], ["P2", "P6", "P4", "P8"]])
    last = night([["P1", "P6", "P4", "P7"], ["P2", "P5", "P3", "P8"]])
    season = Season(event, [old, middle, last], half_life=2.0)
    assert season.weighted[0, 1] == pytest.approx(1.5)  # P1-P2: the oldest night only
    assert season.weighted[0, 5] == pytest.approx(2.0)  # P1-P6: the last night
    assert season.weighted[0, 6] == pytest.approx(2 + 1 / 2**0.5 + 1)  # P1-P7: the middle and the last
    assert season.weighted[0, 6] > season.weighted[0, 5] > season.weighted[0, 1]  # twice beats once, lately
    forever = Season(event, [old, middle, last], half_life=float("inf"))
    assert forever.weighted[0, 1] == forever.weighted[0, 5] == 2.0


def test_a_member_missing_some_nights_and_a_guest():
    """A member who came only to the first night keeps those meetings; a guest has none and plays."""
    event = Event(players=(*SIXTEEN[:15], "Guest"), rounds=2)  # P16 stays home, a guest comes
    first = night(BY_FOURS)
    second = night([list(SIXTEEN[:4]), list(SIXTEEN[4:8]), list(SIXTEEN[8:12])])  # P13-P16 missed it
    season = Season(event, [first, second], half_life=float("inf"))
    guest = event.players.index("Guest")
    assert season.met[guest].sum() == 0 and not season.seen[guest]
    assert season.met[12, 13] == 1  # P13-P14: the first night only
    assert season.met[0, 1] == 2  # P01-P02: both nights
    planned = plan_night(event, [first, second], **SOLVE)
    assert planned.result.schedule is not None and "Guest" in planned.result.schedule.players
    assert planned.members == 15


def test_earlier_three_handed_turns_go_last():
    """19 players, 2 rounds: one table of three a round, six turns. The six who were three-handed last
    week are not three-handed tonight, and nobody is out of turn over the season."""
    players = tuple(f"P{i:02d}" for i in range(1, 20))
    event = Event(players=players, rounds=2)
    last_week = optimizer.plan(event, **SOLVE).schedule
    assert last_week is not None
    burdened = {n for r in last_week.rounds for t in r.tables if len(t.players) == 3 for n in t.players}
    assert len(burdened) == 6
    planned = plan_night(event, [last_week], **SOLVE)
    assert planned.result.schedule is not None and planned.season is not None
    tonight = {n for r in planned.result.schedule.rounds for t in r.tables if len(t.players) == 3 for n in t.players}
    assert len(tonight) == 6 and not tonight & burdened
    assert planned.season.turns_out_of_order == 0


def test_sit_outs_count_too():
    """Under the sit-out policy the two who sat out last week play every round tonight."""
    players = tuple(f"P{i:02d}" for i in range(1, 11))
    last_week = night([list(players[:4]), list(players[4:8])], sit_outs=players[8:])
    event = Event(players=players, rounds=1, odd="sit-out")
    planned = plan_night(event, [last_week], **SOLVE)
    assert planned.result.schedule is not None
    assert not set(planned.result.schedule.rounds[0].sit_outs) & set(players[8:])


def test_seat_letters_balance_over_the_season():
    """Last week everyone sat one round; tonight's three rounds give each player the three other letters."""
    event = Event(players=SIXTEEN, rounds=3)
    earlier = night(BY_FOURS)
    planned = plan_night(event, [earlier], **SOLVE)
    assert planned.result.schedule is not None and planned.season is not None
    letters = {name: {seat} for table in earlier.rounds[0].tables for seat, name in enumerate(table.players)}
    for round_ in planned.result.schedule.rounds:
        for table in round_.tables:
            for seat, name in enumerate(table.players):
                assert seat not in letters[name], f"{name} sits in letter {'ABCD'[seat]} again"
                letters[name].add(seat)
    assert planned.season.seat_spread == 0


def _random_day(rng: np.random.Generator, players: int = 34, rounds: int = 4) -> np.ndarray:
    """Seats of `rounds` random rounds of `players`: tables of four, then tables of three."""
    threes = (-players) % 4
    sizes = [4] * ((players - 3 * threes) // 4) + [3] * threes
    seats = np.full((rounds, len(sizes), 4), EMPTY)
    for r in range(rounds):
        order, start = rng.permutation(players), 0
        for t, size in enumerate(sizes):
            seats[r, t, :size] = order[start : start + size]
            start += size
    return seats


def test_relettering_after_the_descents_trades_keeps_the_letters_it_had_when_afresh_is_worse():
    """The descent's trades keep each player's seat; lettering the day afresh over the season's letters
    lost the lettering it had on some days (3 of the 16 here): reletter keeps the better, by spread."""
    afresh_worse = 0
    for seed in range(220, 236):
        rng = np.random.default_rng(seed)
        so_far = sum(letter_counts(balance_letters(_random_day(rng)), 34) for _ in range(2))
        traded = balance_letters(_random_day(rng), letters_so_far=so_far, player_count=34)
        for _ in range(6):  # trades between tables of four, each player taking the other's seat
            r, (a, b), (i, j) = rng.integers(4), rng.choice(7, 2, replace=False), rng.integers(4, size=2)
            traded[r, a, i], traded[r, b, j] = traded[r, b, j], traded[r, a, i]
        out = reletter(traded, so_far, 34)
        assert all(sorted(out[r, t]) == sorted(traded[r, t]) for r in range(4) for t in range(9))
        afresh = seat_spread(balance_letters(traded, letters_so_far=so_far, player_count=34), 34, so_far)
        assert seat_spread(out, 34, so_far) <= min(afresh, seat_spread(traded, 34, so_far))
        afresh_worse += afresh > seat_spread(out, 34, so_far)
    assert afresh_worse >= 2


def test_the_descent_spreads_meetings_over_the_season():
    """Three nights of 12 players make every pair meet; tonight the season's plan leaves the most
    meetings of one pair no higher than planning tonight alone."""
    players = tuple(f"P{i:02d}" for i in range(1, 13))
    event = Event(players=players, rounds=3)
    earlier: list[Schedule] = []
    for _ in range(3):
        planned = plan_night(event, earlier, **SOLVE)
        assert planned.result.schedule is not None and planned.season is not None and planned.alone is not None
        assert planned.season.most_meetings <= planned.alone.most_meetings
        earlier.append(planned.result.schedule)


def test_the_descent_keeps_the_seasons_worst_pair_apart_before_spreading_the_rest():
    """Players 0 and 1 met 3 times (the season's most), and each met 4..7 twice. By squared counts alone
    the best night seats 0 and 1 with 2 and 3 (their meeting costs 7, splitting them makes 0 or 1 meet
    two or three of 4..7 at 5 each: 28 against 18); a fourth meeting passes the season's most, so the
    descent splits them, and no pair passes 3."""
    counts = np.zeros((8, 8), np.int64)
    counts[0, 1] = 3
    counts[np.ix_([0, 1], range(4, 8))] = 2
    counts = counts + counts.T
    costs = Costs.of_room(8, met_before=counts, recency=np.zeros((8, 8)))
    start = np.array([[[0, 1, 2, 3], [4, 5, 6, 7]]])
    budget = Budget.of(0.1, repeatable=True)  # 50 steps
    seats = spread_out(start, costs, rng=np.random.default_rng(0), budget=budget, step_work=1 / 500)
    tables = {p: t for t, table in enumerate(seats[0]) for p in table}
    assert tables[0] != tables[1]
    assert (counts + optimizer.seats.meetings(seats, 8)).max() == 3
    assert season_cost(seats, costs) < season_cost(start, costs)


def test_the_descent_never_seats_a_keep_apart_pair_together():
    """Players 0 and 1 must be kept apart and every other pair met twice: by the season's measure alone the
    best night seats 0 with 1 (their meeting costs 1, any other 5 or more); the descent keeps them apart."""
    counts = np.full((8, 8), 2)
    counts[0, 1] = counts[1, 0] = 0
    np.fill_diagonal(counts, 0)
    apart = np.zeros((8, 8), bool)
    apart[0, 1] = apart[1, 0] = True
    costs = Costs.of_room(8, met_before=counts, apart=apart, recency=np.zeros((8, 8)))
    start = np.array([[[0, 2, 3, 4], [1, 5, 6, 7]]])
    budget = Budget.of(0.1, repeatable=True)
    seats = spread_out(start, costs, rng=np.random.default_rng(0), budget=budget, step_work=1 / 500)
    tables = {p: t for t, table in enumerate(seats[0]) for p in table}
    assert tables[0] != tables[1]
    # the measure without the request would seat them together
    free = Costs.of_room(8, met_before=counts, recency=np.zeros((8, 8)))
    budget = Budget.of(0.1, repeatable=True)
    seats = spread_out(start, free, rng=np.random.default_rng(0), budget=budget, step_work=1 / 500)
    assert len({t for t, table in enumerate(seats[0]) if {0, 1} <= set(table.tolist())}) == 1


def test_the_descent_predicts_the_change_of_every_swap_of_every_round_as_it_walks():
    """The descent weighs every round at once, keeping each player's table between steps: after each of a
    few swaps, every swap it allows in every round (none moves a pinned or sitting-out player, none joins
    the keep-apart pair, tables of one size only) changes the season cost by what it predicted, and its
    kept tables allow what a fresh start from the same seating allows."""
    rng = np.random.default_rng(3)
    n = 12
    counts = rng.integers(0, 4, (n, n))
    counts = np.triu(counts, 1) + np.triu(counts, 1).T
    apart = np.zeros((n, n), bool)
    apart[0, 1] = apart[1, 0] = True
    pinned = np.zeros(n, bool)
    pinned[5] = True
    recency = rng.random((n, n))
    costs = Costs.of_room(n, met_before=counts, recency=recency + recency.T, apart=apart, pinned=pinned)
    seats = np.full((3, 3, 4), EMPTY)
    for r in range(3):  # tables of 4, 4 and 3; one player sits out, 0 and 1 apart
        order = [0, *rng.permutation(np.arange(2, n)).tolist()]
        order.insert(5, 1)
        seats[r, 0], seats[r, 1], seats[r, 2, :3] = order[:4], order[4:8], order[8:11]
    objective = _Season(seats, costs)
    for _ in range(6):
        (first, (trades,)), *others = list(objective.moves())
        assert first == 0 and not others and trades.change.shape == (3, n, n)
        fresh = _Season(objective.seats, costs)
        assert (np.isfinite(trades.change) == np.isfinite(next(fresh.moves())[1][0].change)).all()
        cost = season_cost(objective.seats, costs)
        moves = np.argwhere(np.isfinite(trades.change))
        assert len(moves) > 0
        for r, i, j in moves:
            p, q = trades.ins[i], trades.outs[j]
            assert not pinned[[p, q]].any() and p in objective.seats[r] and q in objective.seats[r]
            trial = objective.seats.copy()
            trial[r][objective.seats[r] == p], trial[r][objective.seats[r] == q] = q, p
            assert (trial[r] >= 0).sum(axis=1).tolist() == (objective.seats[r] >= 0).sum(axis=1).tolist()
            assert not any({0, 1} <= set(table.tolist()) for table in trial[r])
            assert abs(season_cost(trial, costs) - cost - trades.change[r, i, j]) < 1e-6
        r, i, j = moves[rng.integers(len(moves))]
        objective.apply(int(r), int(trades.ins[i]), int(trades.outs[j]), float(trades.change[r, i, j]))
        assert abs(objective.cost() - season_cost(objective.seats, costs)) < 1e-6


def test_the_season_floor_bounds_every_seating_and_ends_the_descent_when_reached():
    """No seating costs less than season_floor (random rooms, earlier meetings and recency); a first night
    without repeats costs exactly the floor, and the descent then takes no step."""
    rng = np.random.default_rng(5)
    for _ in range(50):
        n, rounds = int(rng.integers(6, 14)), int(rng.integers(1, 5))
        counts = np.triu(rng.integers(0, 4, (n, n)), 1)
        recency = np.triu(rng.random((n, n)), 1)
        costs = Costs.of_room(n, met_before=counts + counts.T, recency=recency + recency.T)
        seats = np.full((rounds, (n + 3) // 4, 4), EMPTY)
        for r in range(rounds):
            order = rng.permutation(n)
            for t in range(seats.shape[1]):
                seats[r, t, : len(order[4 * t : 4 * t + 4])] = order[4 * t : 4 * t + 4]
        assert season_floor(seats, costs) <= season_cost(seats, costs) + 1e-6
    costs = Costs.of_room(16)
    grid = np.arange(16).reshape(4, 4)
    first = np.stack([grid, grid.T])  # rows, then columns: no pair twice
    assert season_floor(first, costs) == season_cost(first, costs)
    budget = Budget.of(1.0, repeatable=True)
    assert (spread_out(first, costs, rng=np.random.default_rng(0), budget=budget, step_work=1 / 500) == first).all()
    assert budget.left() == 1.0  # not one step charged
    twice = np.stack([grid, grid[[1, 0, 2, 3]]])  # every pair of a row meets twice
    assert season_floor(twice, costs) < season_cost(twice, costs)


def test_a_half_life_must_be_positive():
    with pytest.raises(ValueError, match="half-life"):
        Season(Event(players=SIXTEEN, rounds=1), [], half_life=0)


def test_cli_plans_against_history_and_reports_the_season(tmp_path):
    runner = CliRunner()
    (tmp_path / "names.csv").write_text(
        "name,id\n" + "".join(f"{p},{i}\n" for i, p in enumerate(SIXTEEN, 1)), encoding="utf-8"
    )
    (tmp_path / "week1.json").write_text(night(BY_FOURS).model_dump_json(), encoding="utf-8")
    week2 = tmp_path / "week2.json"
    args = ["plan", "--names", str(tmp_path / "names.csv"), "--rounds", "2", "--time-limit", "2", "--workers", "1"]
    result = runner.invoke(cli, [*args, "--history", str(tmp_path / "week1.json"), "--json", str(week2)])
    assert result.exit_code == 0, result.output
    assert "Tonight's pairs who met on an earlier night: 0 of 48 (planning tonight alone: " in result.output
    assert "Season: 1 earlier night (a meeting's recency halves after 4 nights)" in result.output
    written = json.loads(week2.read_text(encoding="utf-8"))
    assert written["ids"]["P01"] == "1"  # the next night matches by id
    assert runner.invoke(cli, ["check", str(week2)]).exit_code == 0  # checked on its own
    again = runner.invoke(cli, [*args, "--history", str(tmp_path / "week1.json"), "--history", str(week2)])
    assert again.exit_code == 0 and "Season: 2 earlier nights" in again.output


def test_cli_refuses_a_bad_history_file_in_one_line(tmp_path):
    runner = CliRunner()
    (tmp_path / "bad.json").write_text("{not json", encoding="utf-8")
    args = ["plan", "--players", "16", "--rounds", "2", "--time-limit", "1", "--workers", "1"]
    result = runner.invoke(cli, [*args, "--history", str(tmp_path / "bad.json")])
    assert result.exit_code == 2 and "bad.json" in result.output and "Traceback" not in result.output
    missing = runner.invoke(cli, [*args, "--history", str(tmp_path / "nowhere.json")])
    assert missing.exit_code == 2
    zero = runner.invoke(cli, [*args, "--history", str(tmp_path / "bad.json"), "--half-life", "0"])
    assert zero.exit_code == 2 and "--half-life" in zero.output


def test_schedule_ids_name_players_of_the_schedule():
    with pytest.raises(ValueError, match="ids"):
        night(BY_FOURS, ids={"Nobody": "1"})
    with pytest.raises(ValueError, match="one id"):
        night(BY_FOURS, ids={"P01": "1", "P02": "1"})


def test_weighted_counts_stay_within_a_byte():
    event = Event(players=SIXTEEN[:8], rounds=1)
    many = [night([list(SIXTEEN[:4]), list(SIXTEEN[4:8])])] * 120
    season = Season(event, many, half_life=float("inf"))
    assert season.counted.dtype == np.int8 and int(season.counted.max()) <= 100


def test_cli_refuses_a_night_too_big_for_a_season(tmp_path):
    runner = CliRunner()
    (tmp_path / "week1.json").write_text(night(BY_FOURS).model_dump_json(), encoding="utf-8")
    args = ["plan", "--players", "2001", "--rounds", "1", "--history", str(tmp_path / "week1.json")]
    result = runner.invoke(cli, args)
    assert result.exit_code == 2 and "at most 2000 players" in result.output and "Traceback" not in result.output


def test_a_league_planned_against_history_spreads_pairs_within_the_bounds():
    """Four nights of a 14-member league, two members away each night: planning each night against the
    earlier ones lowers the most meetings of a pair and the season's squared pair counts below planning
    every night alone, and neither beats the bounds the attendance implies (benchmarks.season)."""
    members = tuple(f"M{i:02d}" for i in range(1, 15))
    weeks = [tuple(m for m in range(14) if m not in away) for away in ((0, 1), (2, 3), (4, 5), (6, 7))]
    alone: list[Schedule] = []
    season: list[Schedule] = []
    for here in weeks:
        event = Event(players=tuple(members[m] for m in here), rounds=2)
        alone.append(optimizer.plan(event, **SOLVE).schedule)
        season.append(plan_night(event, season, alone=False, **SOLVE).result.schedule)
        for schedule in (alone[-1], season[-1]):
            optimizer.check(schedule)
    bounds = season_bounds(weeks, len(members), 2)
    ours, theirs = season_figures(season, members), season_figures(alone, members)
    assert ours["most_meetings"] < theirs["most_meetings"]
    assert ours["squared_pair_counts"] < theirs["squared_pair_counts"]
    for figures in (ours, theirs):
        for measure in ("repeats", "most_meetings", "squared_pair_counts"):
            assert figures[measure] >= bounds[measure]
    assert bounds["pair_meetings"] == 4 * 2 * 3 * 6 and bounds["repeats"] == 144 - 91
