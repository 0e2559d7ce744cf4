"""Progress while the solver thinks: one live line on a terminal, nothing when piped.

The line shows the best repeats found so far (it never goes up), the best lower bound (it never goes
down), and the time used out of the limit; it ticks every second even while the solver is quiet. The
methods at work are not on it (a director does not need them): `--verbose` and the file's provenance
name them. rich is imported only where a line may be shown (a run piped or in the desk's worker does
without its import, a tenth of the program's start-up).
"""

from __future__ import annotations

import io
import os
import sys
import time
from contextlib import contextmanager
from typing import TYPE_CHECKING, TextIO, cast

from models import Progress

if TYPE_CHECKING:
    from rich.spinner import Spinner


class LiveLine:
    """What the line says; rich re-renders it every refresh, so the clock moves on its own."""

    def __init__(self, time_limit: float | None, label: str = "", encoding: str = "utf-8"):
        self.time_limit, self.label = time_limit, label
        self.best: int | None = None
        self.lower_bound: int | None = None
        self.started = time.monotonic()
        self.spinner = spinner(encoding)

    def update(self, progress: Progress) -> None:
        if progress.repeats is not None and (self.best is None or progress.repeats < self.best):
            self.best = progress.repeats
        if self.lower_bound is None or progress.lower_bound > self.lower_bound:
            self.lower_bound = progress.lower_bound

    def text(self) -> str:
        elapsed = time.monotonic() - self.started
        limit = f" / {self.time_limit:g} s" if self.time_limit else " s"
        best = "-" if self.best is None else str(self.best)
        bound = "-" if self.lower_bound is None else str(self.lower_bound)
        label = f"{self.label}: " if self.label else ""
        return f"{label}best repeats {best}  lower bound {bound}  {elapsed:.0f}{limit}"

    def __rich__(self):
        from rich.table import Table

        grid = Table.grid(padding=(0, 1))
        grid.add_row(self.spinner, self.text())
        return grid


def spinner(encoding: str) -> Spinner:
    """Braille dots where the terminal can show them; plain - \\ | / on a legacy console (Windows' cp1252
    or cp437), which would otherwise show each frame as an escape like \\u280b."""
    from rich.spinner import Spinner

    dots = Spinner("dots")
    try:
        "".join(dots.frames).encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return Spinner("line")
    return dots


class _Terminal(io.TextIOBase):
    """stderr for the live line: once the terminal is gone (a closed SSH session, whose SIGHUP stops the
    run), writes are dropped, so the run still writes its files instead of failing on the line."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            self.stream.write(text)
        except (OSError, ValueError):
            pass
        return len(text)

    def flush(self) -> None:
        try:
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def isatty(self) -> bool:
        return self.stream.isatty()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.stream, "encoding", None) or "utf-8"

    def fileno(self) -> int:
        return self.stream.fileno()


def _may_be_terminal(stream: TextIO | None) -> bool:
    """Whether rich could take `stream` for a terminal: a tty, or an environment saying so (rich's
    TTY_COMPATIBLE=1 or FORCE_COLOR); rich decides the rest."""
    if stream is None:
        return False
    if os.environ.get("TTY_COMPATIBLE") == "1" or os.environ.get("FORCE_COLOR"):
        return True
    try:
        return stream.isatty()
    except (OSError, ValueError):
        return False


@contextmanager
def progress_display(time_limit: float | None = None, label: str = ""):
    if not _may_be_terminal(sys.stderr):  # piped, or started with stderr closed
        yield None
        return
    from rich.console import Console
    from rich.live import Live

    console = Console(file=cast(TextIO, _Terminal(sys.stderr)))
    if not console.is_terminal:
        yield None
        return
    line = LiveLine(time_limit, label, console.encoding)
    with Live(line, console=console, refresh_per_second=4, transient=True):
        yield line.update
