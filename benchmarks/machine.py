"""What the numbers were measured on: cores, CPU, Python, OR-Tools, numpy, date, git commit."""

from __future__ import annotations

import datetime
import os
import platform
import subprocess


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10)
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--", "optimizer", "models"], capture_output=True, text=True, timeout=10
        )
        return out.stdout.strip() + (" (optimizer/models modified)" if dirty.stdout.strip() else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def describe() -> dict:
    from importlib.metadata import version

    import numpy

    usable: int | None
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count()
    return {
        "cores": os.cpu_count(),
        "usable_cores": usable,
        "cpu": _cpu_model(),
        "python": platform.python_version(),
        "ortools": version("ortools"),  # ortools.__version__, which mypy cannot see past ortools' partial py.typed
        "numpy": numpy.__version__,
        "platform": platform.platform(),
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "commit": _commit(),
        "load": [round(figure, 2) for figure in os.getloadavg()],  # 1, 5, 15 minutes: other work on the cores
    }
