"""The desk's data kept safe and moved: backups (made, listed, downloaded, restored), an event exported
and imported, archived or deleted. Pages and JSON endpoints over rotation.desk.storage.backup and
rotation.desk.data.transfer."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Annotated

from fastapi import File, Request, UploadFile
from fastapi.responses import FileResponse, HTMLResponse, PlainTextResponse, RedirectResponse, Response
from pydantic import BaseModel, Field
from starlette.background import BackgroundTask
from starlette.concurrency import run_in_threadpool

from rotation.desk.core.errors import DeskError, NotFound, Unconfirmed
from rotation.desk.data import transfer
from rotation.desk.deps import Id, JsonIn, StoreDep, Text, api_router, desk_of, page, pages_router
from rotation.desk.events import service
from rotation.desk.folders import log_file
from rotation.desk.security import MAX_IMPORT_BYTES
from rotation.desk.storage import Store, backup

router = pages_router()
api = api_router(tags=["data"])


SQLITE = "application/vnd.sqlite3"  # the desk's file, as IANA registers it


class BackupOut(BaseModel):
    name: str
    size: int = Field(description="Bytes.")
    made: float = Field(description="When it was made (seconds since 1970, the file's time).")


class ArchiveIn(JsonIn):
    archived: bool


class ConfirmIn(JsonIn):
    confirm: bool = False


def _backups(request: Request) -> list[BackupOut]:
    return [
        BackupOut(name=path.name, size=path.stat().st_size, made=path.stat().st_mtime)
        for path in backup.listed(desk_of(request).db_path)
    ]


def _named(request: Request, name: str) -> Path:
    found = next((path for path in backup.listed(desk_of(request).db_path) if path.name == name), None)
    if found is None:
        raise NotFound(f"backup {name!r}")
    return found


def _back_up_now(request: Request, reason: str = "by-hand") -> Path:
    try:
        made = backup.automatic(desk_of(request).db_path, reason)
    except backup.BackupError as error:
        raise DeskError(str(error), field="backup", status=507) from None
    assert made is not None  # the desk's own file exists while it runs
    return made


def _restore(request: Request, store: Store, name: str, confirm: bool) -> None:
    chosen = _named(request, name)
    if store.running():
        raise DeskError("a plan is running: stop it or wait for it before restoring", field="restore")
    if not confirm:
        lines = [
            f"every event goes back to how it was at {chosen.name[:17]}: changes made since are replaced",
            "the desk's file as it is now is backed up first, so this can be undone by restoring that backup",
        ]
        raise Unconfirmed(
            f"restoring {name} replaces the desk's data; confirm to restore",
            {"note": f"Restore the backup {name}", "effects": {"lines": lines}},
            field="restore-backup",
        )
    try:
        backup.restore(chosen, desk_of(request).db_path)
    except backup.BackupError as error:
        raise DeskError(str(error), field="restore", status=422) from None


def _delete(request: Request, store: Store, event_id: Id, confirm: bool) -> None:
    event = service.load_event(store, event_id)
    if any(run.running for run in store.runs(event_id)):
        raise DeskError("a plan is running for this event; stop it first", field="delete")
    if not confirm:
        rows = store.event_rows(event_id)
        title = event.settings.title or f"Event {event_id}"
        lines = [
            f"{title}: {len(rows['versions'])} schedule versions, {len(rows['releases'])} rounds released and "
            f"{len(rows['cards'])} score card entries are deleted",
            "a backup of the desk is made first (Backups page); to keep the event out of sight instead, archive it",
        ]
        raise Unconfirmed(
            f"deleting {title!r} removes it and all its data; confirm to delete",
            {"note": f"Delete {title}", "effects": {"lines": lines}},
            field="delete",
        )
    _back_up_now(request, f"before-deleting-event-{event_id}")
    store.delete_event(event_id)


# ---- JSON ----------------------------------------------------------------------------------------


@api.get("/backups")
def list_backups(request: Request) -> list[BackupOut]:
    """The desk's automatic backups, newest first."""
    return _backups(request)


@api.post("/backups", status_code=201)
def make_backup(request: Request) -> BackupOut:
    """A backup now, consistent while the desk runs (SQLite's online backup), kept with the others."""
    made = _back_up_now(request)
    return BackupOut(name=made.name, size=made.stat().st_size, made=made.stat().st_mtime)


@api.get(
    "/backup.sqlite3",
    response_class=FileResponse,
    responses={200: {"description": "The desk's file.", "content": {SQLITE: {}}}},
)
def download_backup(request: Request) -> FileResponse:
    """A consistent copy of the desk's whole file, to keep elsewhere."""
    folder = Path(tempfile.mkdtemp(prefix="rotation-backup-"))
    made = backup.backup(desk_of(request).db_path, folder / "desk-backup.sqlite3")

    def clean() -> None:
        made.unlink(missing_ok=True)
        folder.rmdir()

    return FileResponse(made, media_type=SQLITE, filename="desk-backup.sqlite3", background=BackgroundTask(clean))


@api.post("/backups/{name}/restore")
def restore_backup(request: Request, store: StoreDep, name: str, body: ConfirmIn) -> list[BackupOut]:
    """The desk's data replaced by a backup (the present state backed up first); 409 unless confirmed."""
    _restore(request, store, name, body.confirm)
    return _backups(request)


@api.get("/events/{event_id}/export")
def export_event(store: StoreDep, event_id: Id) -> Response:
    """The event whole, as one file for another desk's import: written row by row from one read of the
    desk's file into a temporary file (in this worker thread), then sent from there and deleted, so an
    event of any size is never held whole and the pages and phones go on being answered."""
    handle = tempfile.NamedTemporaryFile(prefix="rotation-export-", suffix=".json", delete=False)
    try:
        with handle:
            name = transfer.write_event(store, event_id, handle)
    except BaseException:
        os.unlink(handle.name)
        raise
    clean = BackgroundTask(os.unlink, handle.name)
    sent = FileResponse(handle.name, media_type="application/json", filename=name, background=clean)
    sent.chunk_size = 1 << 20  # sent in MB pieces, not 64 KB ones: each is a hop to a worker thread and back
    return sent


EXPORTED = {"required": True, "content": {"application/json": {"schema": {"type": "object"}}}}


@api.post("/events/import", status_code=201, openapi_extra={"requestBody": EXPORTED})
async def import_event(request: Request, store: StoreDep, as_copy: bool = False) -> dict:
    """An exported event (the file's JSON as the body) as a new event of this desk; 409 naming the event
    when this desk has it already, unless `as_copy` (then a copy with a new public id)."""
    return {"id": await _imported(store, await request.body(), as_copy)}


async def _imported(store: Store, data: bytes, copy: bool) -> int:
    """The import checked and stored in a worker thread (with the request's connection): the pages and the
    phones go on being answered while a big file is read."""
    return await run_in_threadpool(lambda: transfer.import_event(store, data, copy))


@api.post("/events/{event_id}/archive")
def archive(store: StoreDep, event_id: Id, body: ArchiveIn) -> dict:
    service.load_event(store, event_id)
    store.set_archived(event_id, body.archived)
    return {"id": event_id, "archived": body.archived}


@api.delete("/events/{event_id:int}")  # not /events/import (events/api.py)
def delete(request: Request, store: StoreDep, event_id: Id, confirm: bool = False) -> dict:
    """The event and all its data; 409 unless `confirm` (a backup of the desk is made first)."""
    _delete(request, store, event_id, confirm)
    return {"deleted": event_id}


# ---- pages ---------------------------------------------------------------------------------------


@router.get("/backups", response_class=HTMLResponse)
def backups_page(request: Request, done: str = ""):
    db_path = desk_of(request).db_path
    return page(
        request,
        "backups.html.j2",
        backups=_backups(request),
        done=done,
        folder=backup.folder(db_path),
        log=log_file(db_path),
    )


@router.get("/backups/log", response_class=PlainTextResponse)
def desk_log(request: Request) -> str:
    """The desk's log (rotation serve writes it beside the file): its start-ups, warnings and errors."""
    log = log_file(desk_of(request).db_path)
    return log.read_text(encoding="utf-8", errors="replace") if log.is_file() else "Nothing logged yet.\n"


@router.post("/backups")
def backup_form(request: Request):
    made = _back_up_now(request)
    return RedirectResponse(f"/backups?done=Backed+up+as+{made.name}", status_code=303)


@router.post("/backups/{name}/restore")
def restore_form(request: Request, store: StoreDep, name: str, confirm: Text = ""):
    try:
        _restore(request, store, name, bool(confirm))
    except Unconfirmed as asked:
        return _confirm(request, asked, "Restore this backup?", "Restore it", f"/backups/{name}/restore", "/backups")
    return RedirectResponse(f"/backups?done=Restored+{name}", status_code=303)


@router.post("/events/import")
async def import_form(store: StoreDep, event_file: Annotated[UploadFile, File()], as_copy: Text = ""):
    data = await event_file.read(MAX_IMPORT_BYTES + 1)
    event_id = await _imported(store, data, bool(as_copy))
    return RedirectResponse(f"/events/{event_id}", status_code=303)


@router.post("/events/{event_id}/archive")
def archive_form(store: StoreDep, event_id: Id, archived: Text = ""):
    service.load_event(store, event_id)
    store.set_archived(event_id, bool(archived))
    return RedirectResponse("/", status_code=303)


@router.post("/events/{event_id}/delete")
def delete_form(request: Request, store: StoreDep, event_id: Id, confirm: Text = ""):
    try:
        _delete(request, store, event_id, bool(confirm))
    except Unconfirmed as asked:
        back = f"/events/{event_id}/edit"
        return _confirm(
            request, asked, "Delete this event?", "Delete it", f"/events/{event_id}/delete", back, event_id=event_id
        )
    return RedirectResponse("/", status_code=303)


def _confirm(request: Request, asked: Unconfirmed, heading: str, button: str, action: str, back: str, **context):
    return page(
        request,
        "confirm.html.j2",
        heading=heading,
        button=button,
        preview=asked.preview,
        action=action,
        fields={},
        back=back,
        **context,
    )
