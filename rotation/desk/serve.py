"""`rotation serve`: start the desk and say where it is."""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path
from urllib.parse import urlparse

import click

from rotation.desk.security import LOCAL_HOSTS


def default_db() -> Path:
    """The desk's file in the user's data directory (for example ~/.local/share/rotation/desk.sqlite3)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("rotation", appauthor=False)) / "desk.sqlite3"


def is_local(host: str) -> bool:
    if host in LOCAL_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


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
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
@click.option(
    "--public-url",
    metavar="URL",
    default="",
    callback=lambda ctx, param, value: check_public_url(value) if value else "",
    help="The address phones use to reach the desk, for the QR codes (default: found on the room's network).",
)
def serve(db_path, host, port, public_url):
    """The director's desk: a local web page for the whole tournament day."""
    import uvicorn

    from rotation.desk.app import create_app
    from rotation.desk.storage import NewerDatabase
    from rotation.inputs import BadInput

    path = Path(db_path) if db_path else default_db()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        exposed = not is_local(host)
        app = create_app(path, exposed=exposed, public_url=players_base(host, port, public_url))
    except (OSError, NewerDatabase) as error:
        raise BadInput(f"cannot open the desk's file {str(path)!r}: {error}") from None
    except Exception as error:  # sqlite3.DatabaseError: not a database, or a damaged one
        raise BadInput(f"cannot open the desk's file {str(path)!r}: {error}") from None
    guard = app.state.desk.guard
    click.echo(f"The desk is at {address(host, port, guard, public_url)}  (data: {path}; Ctrl-C stops it)", err=True)
    if not exposed and not public_url:
        click.echo(
            "Served on this machine only: phones cannot reach the players' page. "
            "For the room, start it with --host 0.0.0.0.",
            err=True,
        )
    uvicorn.run(app, host=host, port=port, log_level="warning")
