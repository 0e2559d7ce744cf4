"""Ctrl-C and SIGTERM at any moment of a run's first seconds (importing, reading, planning) end it in one line,
or with the best schedule kept and reported as stopped, never with a traceback.

The moments are drawn from when the program's own first line has run (its stop handlers installed, as
/proc/PID/status shows): before that the interpreter is still starting (tens of milliseconds, more with an
editable install's import hook) and Python's own default applies to Ctrl-C there."""

from __future__ import annotations

import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.slow,
    pytest.mark.subprocess,
    pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc/PID/status"),
]

WORDS = {signal.SIGINT: "Ctrl-C", signal.SIGTERM: "SIGTERM"}
NONE_YET = "rotation: error: stopped before a first schedule was found"


def handles_sigterm(pid: int) -> bool:
    """Whether the process has its own SIGTERM handler: the program's first line (rotation.stopping) has run."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signal.SIGTERM - 1) & 1)
    return False


def stop_once(tmp_path: Path, stop: signal.Signals, after: float) -> tuple[int, str, str]:
    day = tmp_path / "day.json"
    day.unlink(missing_ok=True)
    command = [sys.executable, "-m", "rotation", "plan", "--players", "23", "--rounds", "8", "--time-limit", "120"]
    process = subprocess.Popen(
        [*command, "--json", str(day)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        while process.poll() is None and not handles_sigterm(process.pid):
            time.sleep(0.001)
        time.sleep(after)
        process.send_signal(stop)
        out, err = process.communicate(timeout=300)
    finally:
        process.kill()
    return process.returncode, out, err


def test_a_stop_at_a_random_moment_of_the_first_seconds_ends_in_one_line(tmp_path):
    draw = random.Random(55)
    for attempt in range(20):
        stop = (signal.SIGINT, signal.SIGTERM)[attempt % 2]
        after = draw.uniform(0, 3)
        status, out, err = stop_once(tmp_path, stop, after)
        said = f"{WORDS[stop]} {after:.2f} s in: status {status}\n{err}"
        assert "Traceback" not in err and "Error" not in err, said
        lines = [line for line in err.splitlines() if line]
        if f"stopped early by {WORDS[stop]}" in out:  # stopped in the search: the best was kept
            assert status == (0 if stop == signal.SIGINT else 128 + stop), said
            assert (tmp_path / "day.json").is_file() and lines == [f"wrote {tmp_path / 'day.json'}"], said
        else:  # stopped before there was anything to keep: importing, reading, or searching for a first schedule
            assert lines in ([f"rotation: stopped by {WORDS[stop]}"], [NONE_YET]) and out == "", said
            assert status == (1 if stop == signal.SIGINT and lines == [NONE_YET] else 128 + stop), said
            assert not (tmp_path / "day.json").exists(), said
