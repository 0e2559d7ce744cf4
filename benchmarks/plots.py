"""PNG plots: solve time by room size, and E of the fixed rule vs the variety rotation vs the bound."""

from __future__ import annotations

import statistics
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING

try:
    import matplotlib
    import matplotlib.ticker
except ImportError:  # the app's install leaves matplotlib out; `make setup` brings it with the test tools
    raise SystemExit("benchmarks: the plots need matplotlib: install the plots extra, rotation[plots]") from None

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

if TYPE_CHECKING:
    from matplotlib.artist import Artist

SIZE_TICKS = (8, 12, 16, 24, 32, 48, 64, 100, 200, 500, 1000)
E_TICKS = (0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000)
TIME_TICKS = (0.01, 0.1, 1, 10, 60)
COLOURS = {4: "#1f77b4", 5: "#ff7f0e", 6: "#2ca02c", 8: "#d62728", 10: "#9467bd"}


def _s(row, which="warm"):
    return ((row.get(which) or {}).get("summary")) or {}


def _size_axis(ax, sizes) -> None:
    ax.set_xscale("log")
    low, high = min(sizes), max(sizes)
    ax.set_xticks([t for t in SIZE_TICKS if low <= t <= high] or sorted(set(sizes)))
    ax.get_xaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.get_xaxis().set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_xlim(low / 1.12, high * 1.12)


def draw(data: dict, out: Path) -> list[Path]:
    rows = [row for row in data["grid"] if _s(row)]
    if not rows:
        return []
    return [_times(data, rows, out / "solve_time.png"), _repeats(data, rows, out / "repeats.png")]


def _times(data, rows, path: Path) -> Path:
    limit = data["settings"]["time_limit_per_room"]
    fig, axes = plt.subplots(1, 2, figsize=(13, 5), sharey=True)
    floor = 0.005  # instant rooms drawn at 5 ms so the log axis can show them
    for ax, which, title in (
        (axes[0], "warm", "with the warm start (as shipped)"),
        (axes[1], "cold", "warm_start=False"),
    ):
        medians = defaultdict(list)
        for row in rows:
            s = _s(row, which)
            if not s:
                continue
            n, r = row["room"]["players"], row["room"]["rounds"]
            odd = n % 4 != 0
            marker = "o" if not odd else ("^" if row["room"]["odd"] == "three-handed" else "s")
            ax.scatter(
                n,
                max(s["runtime"], floor),
                color=COLOURS.get(r, "grey"),
                marker=marker,
                facecolors="none" if s["status"] != "optimal" else COLOURS.get(r, "grey"),
                s=36,
                alpha=0.8,
            )
            if not odd:
                medians[n].append(s["runtime"])
        if medians:
            xs = sorted(medians)
            ax.plot(
                xs,
                [max(statistics.median(medians[x]), floor) for x in xs],
                color="black",
                lw=1.2,
                marker="_",
                label="median over the round counts (multiples of 4)",
            )
        ax.axhline(limit, color="grey", ls="--", lw=1, label=f"time limit {limit:g} s")
        _size_axis(ax, [row["room"]["players"] for row in rows])
        ax.set_yscale("log")
        ax.set_yticks([t for t in TIME_TICKS if t <= 2 * limit] + ([limit] if limit not in TIME_TICKS else []))
        ax.get_yaxis().set_major_formatter(matplotlib.ticker.FuncFormatter(lambda v, _: f"{v:g} s"))
        ax.set_xlabel("players (log scale)")
        ax.set_title(title)
        ax.grid(True, which="both", alpha=0.25)
    axes[0].set_ylabel("seconds to finish (log scale; 5 ms = instant)")
    handles = [plt.Line2D([], [], color=c, marker="o", ls="", label=f"{r} rounds") for r, c in COLOURS.items()]
    handles += [
        plt.Line2D([], [], color="grey", marker="o", ls="", label="multiple of 4"),
        plt.Line2D([], [], color="grey", marker="^", ls="", label="three-handed"),
        plt.Line2D([], [], color="grey", marker="s", ls="", label="sit-out"),
        plt.Line2D([], [], color="grey", marker="o", ls="", markerfacecolor="none", label="hollow: stopped with a gap"),
    ]
    handles += axes[0].get_legend_handles_labels()[0]
    fig.legend(handles=handles, loc="lower center", ncol=5, fontsize=9, frameon=False)
    runs = data["settings"]["timing_repeats"]
    fig.suptitle(f"Solve time by room size ({data['settings']['name']} run; fast rooms: median of {runs} runs)")
    fig.tight_layout(rect=(0, 0.14, 1, 0.95))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _repeats(data, rows, path: Path) -> Path:
    """One panel per round count for 8 to 64 players (past 64 every room in the grid reaches E = 0, which
    the title says when it is so), and one for the odd counts."""
    rounds = sorted({row["room"]["rounds"] for row in rows})
    panels = len(rounds) + 1
    cols = 3
    fig, axes = plt.subplots(
        (panels + cols - 1) // cols, cols, figsize=(15, 4.3 * ((panels + cols - 1) // cols)), squeeze=False
    )
    flat = list(axes.ravel())
    large = [row for row in rows if row["room"]["players"] > 64]
    for ax, r in zip(flat, rounds):
        group = sorted(
            (
                row
                for row in rows
                if row["room"]["rounds"] == r and row["room"]["players"] % 4 == 0 and row["room"]["players"] <= 64
            ),
            key=lambda row: row["room"]["players"],
        )
        xs = [row["room"]["players"] for row in group]
        if not xs:
            ax.set_visible(False)
            continue
        ax.plot(xs, [row["warm"]["fixed_repeats"] for row in group], "s-", color="#7f7f7f", ms=4, label="fixed rule")
        ax.plot(xs, [_s(row)["repeats"] for row in group], "o-", color="#1f77b4", ms=5, label="variety rotation")
        cold = [(x, _s(row, "cold").get("repeats")) for x, row in zip(xs, group) if _s(row, "cold")]
        if cold:
            ax.plot(
                [x for x, e in cold if e is not None],
                [e for _, e in cold if e is not None],
                "x",
                color="#ff7f0e",
                ms=8,
                mew=2,
                label="variety, warm_start=False",
            )
        ax.plot(xs, [_s(row)["bound"] for row in group], "--", color="#2ca02c", lw=1.5, label="lower bound")
        ax.set_xticks(xs)
        ax.tick_params(axis="x", labelsize=8)
        ax.set_yscale("symlog", linthresh=10)
        top = max([row["warm"]["fixed_repeats"] for row in group] + [1])
        ax.set_yticks([t for t in E_TICKS if t <= top * 1.5])
        ax.get_yaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax.set_ylim(-0.5, top * 1.6)
        ax.set_title(f"{r} rounds")
        ax.set_xlabel("players")
        ax.grid(True, which="both", alpha=0.25)
    for ax in axes[:, 0]:
        ax.set_ylabel("E = repeats (linear below 10, log above)")
    _odd_panel(flat[len(rounds)], rows)
    for ax in flat[len(rounds) + 1 :]:
        ax.set_visible(False)
    handles: dict[str, Artist] = {}
    for ax in flat:
        for h, label in zip(*ax.get_legend_handles_labels()):
            handles.setdefault(label, h)
    fig.legend(list(handles.values()), list(handles), loc="lower center", ncol=5, frameon=False)
    note = ""
    if large:
        zero = all(_s(row)["repeats"] == 0 for row in large)
        sizes = ", ".join(str(n) for n in sorted({row["room"]["players"] for row in large}))
        note = f"; {sizes} players: variety E = 0 in every room" if zero else f"; {sizes} players: see results.md"
    fig.suptitle(
        f"Repeats by room size ({data['settings']['name']} run, "
        f"{data['settings']['time_limit_per_room']:g} s per room{note})"
    )
    fig.tight_layout(rect=(0, 0.05, 1, 0.96))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _odd_panel(ax, rows) -> None:
    odd = sorted(
        (row for row in rows if row["room"]["players"] % 4),
        key=lambda row: (row["room"]["rounds"] != 6, row["room"]["players"], row["room"]["rounds"], row["room"]["odd"]),
    )
    odd = [row for row in odd if row["room"]["rounds"] == 6] or odd
    if not odd:
        ax.set_visible(False)
        return
    xs = range(len(odd))
    width = 0.27
    ax.bar([x - width for x in xs], [row["warm"]["fixed_repeats"] for row in odd], width, color="#7f7f7f")
    ax.bar(list(xs), [_s(row)["repeats"] or 0 for row in odd], width, color="#1f77b4")
    ax.bar(
        [x + width for x in xs],
        [_s(row)["bound"] for row in odd],
        width,
        color="#2ca02c",
        alpha=0.6,
        label="lower bound (bars, odd counts)",
    )
    ax.set_xticks(list(xs))
    ax.set_xticklabels(
        [f"{row['room']['players']}{'T' if row['room']['odd'] == 'three-handed' else 'S'}" for row in odd], fontsize=8
    )
    rounds = sorted({row["room"]["rounds"] for row in odd})
    ax.set_title(f"odd counts, {', '.join(map(str, rounds))} rounds (T three-handed, S sit-out)")
    ax.set_xlabel("players and policy")
    ax.grid(True, axis="y", alpha=0.25)
