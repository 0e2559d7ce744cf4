"""`rotation serve`: start the desk and say where it is: on the next free port when the default one is taken,
with a word when the browser cannot be opened or the file sits in a synced or network folder, and a log
beside the desk's file (linked from the Backups page)."""

from __future__ import annotations

import errno
import ipaddress
import logging
import os
import socket
import threading
import time
import webbrowser
from pathlib import Path
from urllib.parse import urlparse

import click

from rotation import tool_version
from rotation.desk.folders import log_file, risky_folder
from rotation.desk.security import answered_hosts, is_local

DEFAULT_PORT = 8765
PORTS_TRIED = 20  # the default port and the next ones, when another program (another desk) holds it


def default_db() -> Path:
    """The desk's file in the user's data directory (for example ~/.local/share/rotation/desk.sqlite3)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("rotation", appauthor=False)) / "desk.sqlite3"


def room_address() -> str | None:
    """This machine's address on the network its default route leaves by (the room's Wi-Fi), found
    without sending anything: a UDP socket "connected" to a documentation address picks the interface
    the system would use. None when there is no network (then phones cannot reach the desk anyway)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1 (RFC 5737): routed like the internet, never reached
            found = probe.getsockname()[0]
    except OSError:
        return None
    return None if ipaddress.ip_address(found).is_loopback or found == "0.0.0.0" else found


def players_base(host: str, port: int, public_url: str = "") -> str:
    """The address the room's phones use: --public-url if given; for an "every address" host this
    machine's address on the room's network (a bare host name does not resolve on most phones); else the
    host served on. "" when served on this machine only: phones cannot reach it."""
    if public_url:
        return public_url.rstrip("/") + "/"
    if is_local(host):
        return ""
    if host in ("0.0.0.0", "::"):
        host = room_address() or socket.gethostname()
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/"


def address(host: str, port: int, guard, public_url: str = "") -> str:
    """The start-up URL: the players' base address, served beyond this machine with the key in it."""
    shown = f"[{host}]" if ":" in host else host
    base = players_base(host, port, public_url) or f"http://{shown}:{port}/"
    return base + (f"?key={guard.secret}" if guard and guard.exposed else "")


def check_public_url(url: str) -> str:
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise click.BadParameter("give the address phones open, e.g. http://192.168.1.20:8765/")
    return url


@click.command()
@click.option("--db", "db_path", metavar="FILE", help="The desk's SQLite file (default: in your data directory).")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to serve on; 0.0.0.0 serves the room's network (phones, a tablet), with the printed key.",
)
@click.option(
    "--port",
    type=click.IntRange(1, 65535),
    help=f"The port [default: {DEFAULT_PORT}, or the next free one when another program holds it, said so].",
)
@click.option(
    "--public-url",
    metavar="URL",
    default="",
    callback=lambda ctx, param, value: check_public_url(value) if value else "",
    help="The address phones use to reach the desk, for the QR codes (default: found on the room's network).",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the desk in the web browser once it is listening.")
@click.option(
    "--new-key", is_flag=True, help="Make the desk a new key: addresses and cookies with the old one stop working."
)
def serve(db_path, host, port, public_url, open_browser, new_key):
    """The director's desk: a local web page for the whole tournament day."""
    import uvicorn

    from rotation.desk.app import create_app
    from rotation.desk.storage import NewerDatabase
    from rotation.desk.storage.lock import DeskBusy
    from rotation.files.inputs import BadInput

    path = Path(db_path) if db_path else default_db()
    chosen = port is not None
    port = port_free(host, port) if chosen else free_port(host, DEFAULT_PORT)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        exposed = not is_local(host)
        app = create_app(
            path,
            exposed=exposed,
            hosts=answered_hosts(host),
            public_url=players_base(host, port, public_url),
            new_key=new_key,
        )
    except DeskBusy as error:
        raise BadInput(str(error)) from None
    except (OSError, NewerDatabase) as error:
        raise BadInput(f"cannot open the desk's file {str(path)!r}: {error}") from None
    except Exception as error:  # sqlite3.DatabaseError: not a database, or a damaged one
        raise BadInput(f"cannot open the desk's file {str(path)!r}: {error}") from None
    url = address(host, port, app.state.desk.guard, public_url)
    if port != DEFAULT_PORT and not chosen:
        click.echo(f"Port {DEFAULT_PORT} is in use (another desk?): this desk takes port {port}.", err=True)
    click.echo(f"The desk is at {url}  (data: {path}; Ctrl-C stops it)", err=True)
    risk = risky_folder(path)
    if risk:
        click.echo(f"Warning: {risk}", err=True)
    if not exposed and not public_url:
        click.echo(
            "Served on this machine only: phones cannot reach the players' page. "
            "For the room, start it with --host 0.0.0.0.",
            err=True,
        )
    logs = log_config(log_file(path))
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_config=logs, log_level="info"))
    logging.getLogger("rotation.desk").info("rotation %s serves %s at %s", tool_version(), path, url.split("?")[0])
    if open_browser:
        threading.Thread(target=open_when_listening, args=(server, url), daemon=True).start()
    server.run()


def free_port(host: str, first: int) -> int:
    """The first of `first` and the ports after it that no program listens on; the last one tried is refused
    as port_free says."""
    last = min(first + PORTS_TRIED, 65536) - 1
    for port in range(first, last):
        error = _probe(host, port)
        if error is None:
            return port
        if not _in_use(error):
            return port_free(host, port)  # refused with its reason
    return port_free(host, last)


def port_free(host: str, port: int) -> int:
    """`port`, unless another program (another desk) listens on it: refused before any address is printed,
    as that address would open the other desk and its data. A probe: the port could still be taken before
    the desk binds it, and then uvicorn says so."""
    from rotation.files.inputs import BadInput

    error = _probe(host, port)
    if error is None:
        return port
    if _in_use(error):
        raise BadInput(f"port {port} is in use on {host} (another desk?): stop that one, or choose another with --port")
    raise BadInput(f"cannot serve on {host} port {port}: {error.strerror or error}")


def _probe(host: str, port: int) -> OSError | None:
    """Bind `port` as uvicorn will and let it go: the error, if it cannot be bound."""
    try:
        family = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)[0][0]
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            if os.name != "nt":  # as uvicorn binds: a desk stopped a moment ago leaves the port usable
                probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind((host.strip("[]"), port))
    except OSError as error:
        return error
    return None


def _in_use(error: OSError) -> bool:
    return error.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", errno.EADDRINUSE))


def open_when_listening(server, url: str) -> None:
    """The browser opens the desk once it answers (a page opened sooner would fail to load)."""
    while not server.started:
        if server.should_exit:
            return
        time.sleep(0.05)
    try:
        opened = webbrowser.open(url)
    except webbrowser.Error:
        opened = False
    if not opened:
        click.echo(f"No web browser could be opened here: open {url} in one yourself.", err=True)


def log_config(file: Path) -> dict:
    """uvicorn's logging: warnings on the terminal as before, and everything from INFO up in the log file
    (a megabyte, then one older file kept)."""
    line = {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": line, "terminal": {"format": "%(levelname)s: %(message)s"}},
        "handlers": {
            "terminal": {"class": "logging.StreamHandler", "formatter": "terminal", "level": "WARNING"},
            "file": {
                "class": "logging.handlers.RotatingFileHandler",
                "filename": str(file),
                "maxBytes": 2**20,
                "backupCount": 1,
                "encoding": "utf-8",
                "formatter": "line",
            },
        },
        "loggers": {
            "uvicorn": {"handlers": ["terminal", "file"], "level": "INFO", "propagate": False},
            "uvicorn.access": {"handlers": [], "level": "WARNING", "propagate": False},
            "rotation": {"handlers": ["terminal", "file"], "level": "INFO", "propagate": False},
        },
    }
