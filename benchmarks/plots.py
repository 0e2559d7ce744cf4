"""PNG plots: solve time by room size, and E of the fixed rule vs the variety rotation vs the bound."""

from __future__ import annotations

import statistics
from collections import defaultdict
from pathlib import Path

import matplotlib
import matplotlib.ticker

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

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
    for ax, which, title in ((axes[0], "warm", "with the warm start (as shipped)"),
                             (axes[1], "cold", "warm_start=False")):
        medians = defaultdict(list)
        for row in rows:
            s = _s(row, which)
            if not s:
                continue
            n, r = row["room"]["players"], row["room"]["rounds"]
            odd = n % 4 != 0
            marker = "o" if not odd else ("^" if row["room"]["odd"] == "three-handed" else "s")
            ax.scatter(n, max(s["runtime"], floor), color=COLOURS.get(r, "grey"), marker=marker,
                       facecolors="none" if s["status"] != "optimal" else COLOURS.get(r, "grey"), s=36, alpha=0.8)
            medians[n].append(s["runtime"])
        if medians:
            xs = sorted(medians)
            ax.plot(xs, [max(statistics.median(medians[x]), floor) for x in xs], color="black", lw=1.2, marker="_",
                    label="median over the rooms of a size")
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
    rounds = sorted({row["room"]["rounds"] for row in rows})
    fig, axes = plt.subplots(1, len(rounds), figsize=(3.6 * len(rounds), 4.4), squeeze=False)
    for ax, r in zip(axes[0], rounds):
        group = sorted((row for row in rows if row["room"]["rounds"] == r and row["room"]["players"] % 4 == 0),
                       key=lambda row: row["room"]["players"])
        xs = [row["room"]["players"] for row in group]
        ax.plot(xs, [row["warm"]["fixed_repeats"] for row in group], "s-", color="#7f7f7f", ms=4, label="fixed rule")
        ax.plot(xs, [_s(row)["repeats"] for row in group], "o-", color="#1f77b4", ms=4, label="variety rotation")
        cold = [(x, _s(row, "cold").get("repeats")) for x, row in zip(xs, group) if _s(row, "cold")]
        if cold:
            ax.plot([x for x, _ in cold], [e for _, e in cold], "x", color="#ff7f0e", ms=6,
                    label="variety, no warm start")
        ax.plot(xs, [_s(row)["bound"] for row in group], "--", color="#2ca02c", lw=1.5, label="lower bound")
        if not xs:
            continue
        _size_axis(ax, xs)
        ax.set_yscale("symlog", linthresh=10)
        top = max([row["warm"]["fixed_repeats"] for row in group] + [1])
        ax.set_yticks([t for t in E_TICKS if t <= top * 1.5])
        ax.get_yaxis().set_major_formatter(matplotlib.ticker.ScalarFormatter())
        ax.set_ylim(-0.5, top * 1.6)
        ax.set_title(f"{r} rounds")
        ax.set_xlabel("players (log)")
        ax.grid(True, which="both", alpha=0.25)
    axes[0][0].set_ylabel("E = repeats (linear below 10, log above)")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=4, frameon=False)
    fig.suptitle(f"Repeats by room size, rooms of a multiple of four ({data['settings']['name']} run, "
                 f"{data['settings']['time_limit_per_room']:g} s per room)")
    fig.tight_layout(rect=(0, 0.08, 1, 0.95))
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
