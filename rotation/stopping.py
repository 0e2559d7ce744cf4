"""Stop signals: Ctrl-C (SIGINT), SIGTERM (`timeout`, a desk stopping a worker) and SIGHUP (a closed
SSH session) all ask the run to stop, and all get the same answer.

Every stop signal sets the optimizer's stop token (optimizer.budget.STOP), which every stage of a
planning run polls: inside `polled()` (the optimizer planning) that is all it does, and the run returns
the best schedule so far, which the command then checks and writes. Elsewhere the first stop signal
raises KeyboardInterrupt, which ends the command. Later signals are only noted: the run is already
stopping, and interrupting its cleanup or its writing would lose the work it is saving. Inside `held()`
(writing a set of outputs, removing temporaries) even the first signal waits until the section ends, so
a set of files is never left half replaced.

Kept free of heavy imports: the entry point installs it before importing the commands (the stop token is
set only once the optimizer is imported, as it is before any run).
"""

from __future__ import annotations

import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

NAMES = {
    getattr(signal, name): words
    for name, words in (("SIGINT", "Ctrl-C"), ("SIGTERM", "SIGTERM"), ("SIGHUP", "SIGHUP"))
    if hasattr(signal, name)  # Windows has no SIGHUP
}
STOP_SIGNALS = tuple(NAMES)


class _State:
    received: int | None = None  # the first stop signal of this run
    told = False  # whether the run was told to stop yet (KeyboardInterrupt raised, or the token set while polled)
    held = 0  # depth of sections no signal may interrupt
    polled = 0  # depth of sections that poll the stop token instead
    signalled = False  # whether the process ever received a stop signal (kept when a run's state is reset)


_state = _State()


def _on_stop(signum: int, frame) -> None:
    _state.signalled = True
    if _state.received is None:
        _state.received = signum
    _token_set()
    if _state.polled and not _state.held:
        _state.told = True  # the run polls the token: it stops and keeps its best
        return
    if _state.held or _state.told:
        return  # held: raised when the section ends; already told: the run is stopping
    _state.told = True
    raise KeyboardInterrupt


def _token(action: str) -> None:
    """Set or clear the optimizer's stop token, if the optimizer is imported (no run without it). A
    signal while optimizer.budget is still being imported finds the module without its token yet: no
    run has started, and the signal ends the import instead."""
    token = getattr(sys.modules.get("optimizer.budget"), "STOP", None)
    if token is not None:
        getattr(token, action)()


def _token_set() -> None:
    _token("set")


@contextmanager
def handled() -> Iterator[None]:
    """Stop signals handled as above for the duration (one command's run), the earlier handlers
    restored after. Outside the main thread signals cannot be handled: nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    earlier = {number: signal.signal(number, _on_stop) for number in _taken()}
    saved = (_state.received, _state.told)
    _state.received, _state.told = None, False
    _token("clear")
    try:
        yield
    finally:
        for number, handler in earlier.items():
            signal.signal(number, handler)
        _state.received, _state.told = saved
        _token("clear")


def install() -> None:
    """From the very start of the process (while the commands are still being imported)."""
    for number in _taken():
        signal.signal(number, _on_stop)


def _taken() -> tuple[int, ...]:
    """The stop signals to handle: not one the parent set to be ignored (`nohup` ignores SIGHUP, a
    shell script's `&` ignores SIGINT), which stays ignored."""
    return tuple(number for number in STOP_SIGNALS if signal.getsignal(number) is not signal.SIG_IGN)


def ignore() -> None:
    """For the last instant of the process (its status decided, stdout being flushed): a signal then
    would only print a traceback."""
    for number in STOP_SIGNALS:
        signal.signal(number, signal.SIG_IGN)


@contextmanager
def held() -> Iterator[None]:
    """A section no stop signal interrupts: one that arrives inside raises KeyboardInterrupt at its end
    (unless the run is already stopping). Without our handlers installed, Ctrl-C is not held."""
    _state.held += 1
    try:
        yield
    finally:
        _state.held -= 1
    if not _state.held and _state.received is not None and not _state.told:
        _state.told = True
        raise KeyboardInterrupt


@contextmanager
def polled() -> Iterator[None]:
    """A section whose work polls the optimizer's stop token (a planning run): a stop signal inside only
    sets the token, and the run returns its best so far. One that came before it has set the token
    already: the run stops at once."""
    _state.polled += 1
    try:
        yield
    finally:
        _state.polled -= 1


def received() -> int | None:
    """The stop signal this run received, if any."""
    return _state.received


def signalled() -> bool:
    """Whether this process received a stop signal, in any run so far."""
    return _state.signalled


def stopped_by() -> str:
    """How the run was stopped, in the report's words ("Ctrl-C" when no signal was recorded: a
    library caller's own KeyboardInterrupt)."""
    return NAMES.get(_state.received, "Ctrl-C")


def exit_status(signum: int) -> int:
    """The shell's convention for a run ended by a signal: 128 + its number (130, 143, 129)."""
    return 128 + signum
