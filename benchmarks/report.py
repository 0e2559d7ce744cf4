"""results.md: the headline first, then the frontier, the rooms past it, time by size, every room."""

from __future__ import annotations

import statistics
from collections import defaultdict


def _s(row: dict, which: str = "warm") -> dict:
    return ((row.get(which) or {}).get("summary")) or {}


def _t(seconds) -> str:
    if seconds is None:
        return "-"
    return f"{seconds:.2f}" if seconds < 10 else f"{seconds:.0f}"


def _v(value) -> str:
    return "-" if value is None else str(value)


def at_bound(row: dict, which: str = "warm") -> bool:
    s = _s(row, which)
    return s.get("repeats") is not None and s["repeats"] <= s["bound"]


def failures(data: dict) -> list[str]:
    """Rooms where a child failed: the checker rejected a schedule, or it crashed or hung."""
    out = []
    for row in data.get("grid", []):
        for which in ("warm", "cold"):
            if row.get(which) and "error" in row[which]:
                out.append(f"{row['key']} ({which}): {row[which]['error'].strip().splitlines()[-1]}")
    for row in data.get("frontier", []):
        for attempt in row["attempts"]:
            if "error" in attempt:
                out.append(
                    f"frontier {row['players']}x{attempt['rounds']}: {attempt['error'].strip().splitlines()[-1]}"
                )
    for row in data.get("past_frontier", []):
        if "error" in row["measured"]:
            out.append(f"past frontier {row['key']}: {row['measured']['error'].strip().splitlines()[-1]}")
    return out


def by_size(rows: list[dict]) -> dict[int, list[dict]]:
    sizes = defaultdict(list)
    for row in rows:
        sizes[row["room"]["players"]].append(row)
    return dict(sorted(sizes.items()))


def markdown(data: dict) -> str:
    m, st = data["machine"], data["settings"]
    rows = [row for row in data["grid"] if _s(row)]
    lines: list[str] = []
    add = lines.append
    add(f"# Benchmarks: solver time and quality by room size ({st['name']} run)\n")
    add(
        f"{m['date']}, code measured: {m.get('code', m['commit'])}; {m['cpu']}, {m['usable_cores']} cores; "
        f"Python {m['python']}, "
        f"OR-Tools {m['ortools']}, numpy {m['numpy']}. **Time limit {st['time_limit_per_room']:g} s per room** "
        f"(frontier attempts {st['frontier_time_limit']:g} s), {st['workers']} CP-SAT workers, seed {st['seed']}. "
        f"Each room ran in a fresh process; rooms whose first run took under {st['repeat_below_seconds']:g} s "
        f"were run {st['timing_repeats']} times and times are medians of those runs (E is the median too; "
        f"the spread is in results.json); slower rooms ran once. "
        f"Whole run: {data.get('wall_seconds', 0) / 60:.0f} min. "
        f"Regenerate with `make bench` (full) or `make bench-quick`.\n"
    )
    if not data.get("complete"):
        add("**This run did not finish: the tables hold the rooms measured so far.**\n")

    # Headline
    add("## Headline\n")
    reached = [row for row in rows if at_bound(row)]
    add(
        f"- **{len(reached)} of {len(rows)} rooms reach the lower bound** (E equals a proven bound, so the "
        f"schedule is optimal); {len(rows) - len(reached)} stop at the time limit with a gap."
    )
    fixed_worse = sum(
        1 for row in rows if _s(row)["repeats"] is not None and _s(row)["repeats"] < row["warm"]["fixed_repeats"]
    )
    add(
        f"- The variety rotation beats the fixed rule in {fixed_worse} rooms and does worse in none of them "
        f"(a fair fixed rule is one of its starts; under three-handed tables the fixed rule is not fair)."
        if all(_s(row)["repeats"] is None or _s(row)["repeats"] <= row["warm"]["fixed_repeats"] for row in rows)
        else f"- The variety rotation beats the fixed rule in {fixed_worse} rooms."
    )
    frontier = data.get("frontier") or []
    if frontier:
        hit = [
            f
            for f in frontier
            if f["reached"] is not None and f["literature"] is not None and f["reached"] >= f["literature"]
        ]
        add(
            f"- **Zero-repeat frontier: {len(hit)} of {len(frontier)} sizes reach the best known round count**"
            + (
                "; short at "
                + ", ".join(
                    f"{f['players']} ({_v(f['reached'])} of {f['literature']})" for f in frontier if f not in hit
                )
                if len(hit) < len(frontier)
                else ""
            )
            + "."
        )
    times = [_s(row)["runtime"] for row in rows]
    if times:
        add(
            f"- Solve time over all rooms: median {_t(statistics.median(times))} s, worst {_t(max(times))} s; "
            f"{sum(1 for t in times if t >= 0.95 * st['time_limit_per_room'])} rooms use the whole limit."
        )
    cold_rows = [row for row in rows if _s(row, "cold")]
    if cold_rows:
        better = sum(1 for row in cold_rows if _cmp(_s(row)["repeats"], _s(row, "cold")["repeats"]) < 0)
        worse = sum(1 for row in cold_rows if _cmp(_s(row)["repeats"], _s(row, "cold")["repeats"]) > 0)
        warm_t = statistics.median(_s(row)["runtime"] for row in cold_rows)
        cold_t = statistics.median(_s(row, "cold")["runtime"] for row in cold_rows)
        cold_bound = sum(1 for row in cold_rows if at_bound(row, "cold"))
        warm_bound = sum(1 for row in cold_rows if at_bound(row))
        add(
            f"- **Warm start vs none** ({len(cold_rows)} rooms): with it {warm_bound} reach the bound, without it "
            f"{cold_bound}; the warm start gives lower E in {better} rooms and higher in {worse}; median time "
            f"{_t(warm_t)} s with it, {_t(cold_t)} s without."
        )
    balanced = [row for row in rows if _s(row).get("seat_spread") is not None]
    if balanced:  # results.json files from before issue 11 lack these figures
        add(
            f"- **What players notice** ({len(balanced)} rooms measured): seat spread at most 1 in "
            f"{sum(1 for row in balanced if _s(row)['seat_spread'] <= 1)}; table visits above even "
            f"{sum(_s(row)['table_visits_above_even'] for row in balanced)} in all (rooms with any: "
            f"{sum(1 for row in balanced if _s(row)['table_visits_above_even'] > 0)}); trios again "
            f"{sum(_s(row)['trios_again'] for row in balanced)}; back-to-back "
            f"{sum(_s(row)['back_to_back'] for row in balanced)}."
        )
    short = [row for row in rows if not at_bound(row)]
    if short:
        worst = sorted(short, key=lambda row: -(_s(row)["repeats"] - _s(row)["bound"]))[:8]
        add(
            "- **Where it falls short** (largest gaps E - bound): "
            + ", ".join(f"{row['key']} (E {_s(row)['repeats']}, bound {_s(row)['bound']})" for row in worst)
            + ". A gap is not necessarily a bad schedule: the counting bound is weak near and past the frontier "
            "and for three-handed tables."
        )
    add("")

    add("## Median and worst solve time by size\n")
    add("| players | rooms | at bound | median s | worst s | median first s | peak MiB |")
    add("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for players, group in by_size(rows).items():
        ts = [_s(r)["runtime"] for r in group]
        first = [_s(r)["time_to_first"] for r in group if _s(r)["time_to_first"] is not None]
        add(
            f"| {players} | {len(group)} | {sum(map(at_bound, group))} | {_t(statistics.median(ts))} | {_t(max(ts))} "
            f"| {_t(statistics.median(first)) if first else '-'} | {max(_s(r)['peak_mib'] for r in group):.0f} |"
        )
    add("")

    if frontier:
        add("## Zero-repeat frontier\n")
        add(
            "The most rounds for which the tool finds a schedule with no repeat opponent (`zero_repeat_verdict`, "
            f"up to {st['frontier_time_limit']:g} s per attempt), beside the best known from the literature and "
            "the counting limit floor((N-1)/3).\n"
        )
        add("Time s is the attempt that found the reached round count; search s is the whole walk for the size.\n")
        add("| players | tool | literature | counting limit | time s | search s | how | tried (rounds: answer) |")
        add("| ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |")
        for f in frontier:
            tried = ", ".join(f"{a['rounds']}: {a.get('answer', 'error')}" for a in f["attempts"])
            mark = "" if f["reached"] is not None and f["reached"] >= (f["literature"] or 0) else " (short)"
            add(
                f"| {f['players']} | {_v(f['reached'])}{mark} | {_v(f['literature'])} | {f['counting_limit']} | "
                f"{_t(f['time_at_reached'])} | {_t(f['search_wall'])} | {f['how'] or '-'} | {tried} |"
            )
        add("")

    past = data.get("past_frontier") or []
    if past:
        add("## Past the frontier\n")
        add("| room | target E | E | bound | status | time s | met | from |")
        add("| --- | ---: | ---: | ---: | --- | ---: | --- | --- |")
        for p in past:
            s = (p["measured"].get("summary")) or {}
            add(
                f"| {p['key']} | {p['target_kind']} {p['target']} | {_v(s.get('repeats'))} | {_v(s.get('bound'))} | "
                f"{_v(s.get('status'))} | {_t(s.get('runtime'))} | {'yes' if p['meets_target'] else '**no**'} "
                f"| {p['source']} |"
            )
        add("")

    if cold_rows:
        add("## What the warm start buys\n")
        add(
            "The same room planned with `warm_start=False`, once each. That skips every start: the fixed rule, "
            "the zero-repeat constructions (library, affine geometry, speed rule, rotational) and the greedy "
            "seating with its tabu search, so CP-SAT searches from nothing; rooms too large for the CP-SAT model "
            "still need the greedy seating and local search.\n"
        )
        add(
            "| room | E warm | E cold | bound | status warm | status cold | s warm | s cold "
            "| first s warm | first s cold |"
        )
        add("| --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: |")
        for row in cold_rows:
            w, c = _s(row), _s(row, "cold")
            add(
                f"| {row['key']} | {_v(w['repeats'])} | {_v(c['repeats'])} | {max(w['bound'], c['bound'])} "
                f"| {w['status']} "
                f"| {c['status']} | {_t(w['runtime'])} | {_t(c['runtime'])} | {_t(w['time_to_first'])} "
                f"| {_t(c['time_to_first'])} |"
            )
        add("")

    add("## Every room\n")
    add(
        "E is repeats, sum over pairs of max(0, meetings - 1). Times in seconds: first = first schedule, "
        "best = the returned schedule, proof = E met the bound (the runtime when optimal). "
        "Cold = the same room with `warm_start=False`. Of the variety rotation (the run with the median E): "
        "seats = seat spread (the worst player's most - fewest rounds in one seat letter), visits = table visits "
        "above even, trios = trios again, b2b = back-to-back (`optimizer.check`; - in runs from before they "
        "were measured).\n"
    )
    add(
        "| room | fixed E | variety E | bound | proof | status | first | best | proof s | runs | MiB | method "
        "| seats | visits | trios | b2b | cold E | cold status | cold s |"
    )
    add(
        "| --- | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: "
        "| ---: | --- | ---: |"
    )
    for row in data["grid"]:
        s, c = _s(row), _s(row, "cold")
        if not s:
            add(f"| {row['key']} | error | | | | | | | | | | | | | | | | | |")
            continue
        add(
            f"| {row['key']} | {row['warm']['fixed_repeats']} | {_v(s['repeats'])} | {s['bound']} "
            f"| {_proof(s['proof'])} "
            f"| {s['status']} | {_t(s['time_to_first'])} | {_t(s['time_to_best'])} | {_t(s['time_to_proof'])} "
            f"| {s['timing_runs']} | {s['peak_mib']:.0f} | {s['method']} | {_v(s.get('seat_spread'))} "
            f"| {_v(s.get('table_visits_above_even'))} | {_v(s.get('trios_again'))} | {_v(s.get('back_to_back'))} "
            f"| {_v(c.get('repeats'))} | {c.get('status', '-')} | {_t(c.get('runtime'))} |"
        )
    add("")
    return "\n".join(lines)


def _cmp(a, b) -> int:
    if a is None and b is None:
        return 0
    if a is None:
        return 1
    if b is None:
        return -1
    return (a > b) - (a < b)


def _proof(proof: str) -> str:
    short = proof.split(":")[0] if proof else "-"
    return short.replace("|", "/")
