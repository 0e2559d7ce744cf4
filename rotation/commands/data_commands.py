"""`rotation backup`, `restore`, `export` and `import`: the desk's file kept safe and its events moved,
from the command line (the desk may be running meanwhile)."""

from __future__ import annotations

from pathlib import Path

import click

from rotation.files.inputs import BadInput, read_bytes

DB_OPTION = click.option(
    "--db", "db_path", metavar="FILE", help="The desk's SQLite file (default: the one in your data directory)."
)


def _db(db_path: str | None, must_exist: bool = True) -> Path:
    from rotation.desk.serve import default_db

    path = Path(db_path) if db_path else default_db()
    if must_exist and not path.is_file():
        raise BadInput(f"the desk's file {str(path)!r} {'is not a file' if path.exists() else 'does not exist'}")
    return path


@click.command("backup")
@DB_OPTION
@click.argument("out", metavar="OUT")
def backup_command(db_path, out):
    """A consistent backup of the desk's file at OUT, safe while the desk runs (SQLite's online backup)."""
    from rotation.desk.storage import backup

    source = _db(db_path)
    try:
        made = backup.backup(source, out)
    except backup.BackupError as error:
        raise BadInput(str(error)) from None
    click.echo(f"backed up {source} to {made} ({made.stat().st_size // 1024} KB, integrity checked)")


@click.command("restore")
@DB_OPTION
@click.argument("backup_file", metavar="BACKUP")
@click.option("--yes", is_flag=True, help="Replace the desk's data without asking.")
def restore_command(db_path, backup_file, yes):
    """Replace the desk's data by a backup; the data as it is now is backed up first (beside the file)."""
    from rotation.desk.storage import backup

    target = _db(db_path, must_exist=False)
    if not Path(backup_file).is_file():
        raise BadInput(
            f"the backup {backup_file!r} {'is not a file' if Path(backup_file).exists() else 'does not exist'}"
        )
    try:
        backup.restorable(backup_file, target)  # a backup that cannot be restored is refused before asking
        if not yes and not click.confirm(f"Replace every event in {target} by the backup {backup_file}?"):
            raise BadInput("nothing restored")
        backup.restore(backup_file, target)
    except backup.BackupError as error:
        raise BadInput(str(error)) from None
    click.echo(f"restored {backup_file} into {target} (the data before is in {backup.folder(target)})")


@click.command("export")
@DB_OPTION
@click.argument("event_id", metavar="EVENT", type=click.IntRange(min=1))
@click.argument("out", metavar="OUT")
def export_command(db_path, event_id, out):
    """Event number EVENT to one file, with everything, for `rotation import` or a desk's Import."""
    from rotation.desk.data import transfer
    from rotation.desk.events import service
    from rotation.desk.storage import Store, backup
    from rotation.files.writing import write_outputs

    try:
        backup.refuse_out(_db(db_path), out, "event.rotation.json")  # would replace the desk's own file
    except backup.BackupError as error:
        raise BadInput(str(error)) from None
    store = Store(_db(db_path))
    try:  # written row by row from one read of the desk's file: an event of any size is never held whole
        write_outputs([(out, lambda handle: transfer.write_event(store, event_id, handle))])
    except service.DeskError as error:
        raise BadInput(str(error)) from None
    finally:
        store.close()


@click.command("import")
@DB_OPTION
@click.argument("event_file", metavar="FILE")
@click.option("--copy", is_flag=True, help="Import it again as a copy, if the desk has the event already.")
def import_command(db_path, event_file, copy):
    """An exported event into the desk's file as a new event (all or nothing); refused, naming it, when
    the desk has the event already (unless --copy)."""
    from rotation.desk.data import transfer
    from rotation.desk.events import service
    from rotation.desk.security import MAX_IMPORT_BYTES
    from rotation.desk.storage import Store

    data = read_bytes(event_file, "event", MAX_IMPORT_BYTES)
    path = _db(db_path, must_exist=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    store = Store(path)
    try:
        event_id = transfer.import_event(store, data, copy)
    except service.DeskError as error:
        raise BadInput(f"{error}{' (--copy)' if error.field == 'as_copy' else ''}") from None
    finally:
        store.close()
    click.echo(f"imported {event_file} as event {event_id} of {path}")
