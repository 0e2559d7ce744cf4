"""`rotation serve`: start the desk and say where it is."""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path

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


def address(host: str, port: int, guard) -> str:
    """The start-up URL; served beyond this machine it carries the key (without a guard: the address
    the room's phones open), and an 'every address' host is shown as this machine's name, which the
    other devices on the network can reach."""
    if host in ("0.0.0.0", "::"):
        host = socket.gethostname()
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}/" + (f"?key={guard.secret}" if guard and guard.exposed else "")


@click.command()
@click.option("--db", "db_path", metavar="FILE", help="The desk's SQLite file (default: in your data directory).")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to serve on; another than this machine's needs the printed key.",
)
@click.option("--port", type=click.IntRange(1, 65535), default=8765, show_default=True)
def serve(db_path, host, port):
    """The director's desk: a local web page for the whole tournament day."""
    import uvicorn

    from rotation.desk.app import create_app
    from rotation.desk.storage import NewerDatabase
    from rotation.desk.storage.lock import DeskBusy
    from rotation.inputs import BadInput

    path = Path(db_path) if db_path else default_db()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        exposed = not is_local(host)
        app = create_app(path, exposed=exposed, public_url=address(host, port, None) if exposed else "")
    except DeskBusy as error:
        raise BadInput(str(error)) from None
    except (OSError, NewerDatabase) as error:
        raise BadInput(f"cannot open the desk's file {str(path)!r}: {error}") from None
    except Exception as error:  # sqlite3.DatabaseError: not a database, or a damaged one
        raise BadInput(f"cannot open the desk's file {str(path)!r}: {error}") from None
    click.echo(f"The desk is at {address(host, port, app.state.desk.guard)}  (data: {path}; Ctrl-C stops it)", err=True)
    uvicorn.run(app, host=host, port=port, log_level="warning")
