"""The `rotation` program: stop signals are handled from its first instant, so Ctrl-C while the
commands are still being imported (numpy, OR-Tools: about a second) is one line, not a traceback."""

from __future__ import annotations

import signal
import sys

from rotation import stopping


def run() -> None:
    stopping.install()
    try:
        from rotation.cli import main
    except KeyboardInterrupt:
        stopping.ignore()
        try:
            print(f"rotation: stopped by {stopping.stopped_by()}", file=sys.stderr)
        except OSError:
            pass
        sys.exit(stopping.exit_status(stopping.received() or signal.SIGINT))
    status = main()
    stopping.ignore()
    sys.exit(status)


if __name__ == "__main__":
    run()
