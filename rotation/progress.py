"""Progress while the solver thinks: one live line on a terminal, nothing when piped."""

from __future__ import annotations

from contextlib import contextmanager

from rich.console import Console

from models import Progress


@contextmanager
def progress_display():
    console = Console(stderr=True)
    if not console.is_terminal:
        yield None
        return
    with console.status("planning...") as status:

        def show(progress: Progress) -> None:
            best = "-" if progress.repeats is None else progress.repeats
            status.update(
                f"best repeats {best}  lower bound {progress.bound}  {progress.elapsed:5.1f} s  ({progress.note})"
            )

        yield show
