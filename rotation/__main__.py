"""The `rotation` program: stop signals are handled from its first instant, so Ctrl-C while the
program or a command is still being imported (numpy, OR-Tools: about a second) is one line, not a traceback.
Only the light front is imported here (rotation.commands.program); a command imports what it needs."""

from __future__ import annotations

import io
import os
import signal
import sys

from rotation import stopping


def run() -> None:
    stopping.install()
    survive_any_console()
    try:
        from rotation.commands.program import main
    except (KeyboardInterrupt, Exception) as stopped:
        if not isinstance(stopped, KeyboardInterrupt) and stopping.received() is None:
            raise  # a real error, not a stop inside a compiled module's import
        stopping.ignore()
        try:
            print(f"rotation: stopped by {stopping.stopped_by()}", file=sys.stderr)
        except OSError:
            pass
        end(stopping.exit_status(stopping.received() or signal.SIGINT))
    end(main())


def end(status: int) -> None:
    """Exit with `status`. After a stop signal, at once (the outputs are whole, the streams flushed): a
    Ctrl-C inside a compiled module's import can leave CPython marked as interrupted, and under
    `python -m rotation` it would then end itself by SIGINT after our line, losing the status."""
    stopping.ignore()
    if not stopping.signalled():
        sys.exit(status)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass  # a closed pipe or terminal: the status still says how the run ended
    os._exit(status)


def survive_any_console() -> None:
    """A name the console's encoding lacks (王小明 or Łukasz where Windows redirects output in cp1252)
    is printed as an escape (\\u738b), not ended in a UnicodeEncodeError with the report lost."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            stream.reconfigure(errors="backslashreplace")


if __name__ == "__main__":
    run()
