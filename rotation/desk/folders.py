"""Where the desk's files sit: its log beside it (log_file), and its folder: a synced folder
(OneDrive, Dropbox, iCloud Drive, Google Drive) or a network
folder is warned about at start. SQLite keeps a journal (`-wal`) beside its file and locks it while the desk
runs: a sync service may copy the file without its journal or lock it mid-change, and a network file
system's locks are not reliable (sqlite.org, "How To Corrupt An SQLite Database File", 2.1 and 6.1)."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from pathlib import Path, PurePath, PurePosixPath, PureWindowsPath

# Folder names the sync services make (OneDrive's may read "OneDrive - Company"; macOS keeps File Provider
# folders in ~/Library/CloudStorage and iCloud Drive in ~/Library/Mobile Documents).
SYNCED = {
    "onedrive": "OneDrive",
    "dropbox": "Dropbox",
    "icloud drive": "iCloud Drive",
    "iclouddrive": "iCloud Drive",
    "mobile documents": "iCloud Drive",
    "google drive": "Google Drive",
    "googledrive": "Google Drive",
    "my drive": "Google Drive",
    "cloudstorage": "a cloud storage folder",
}
NETWORK_FILE_SYSTEMS = {"nfs", "nfs4", "cifs", "smb3", "smbfs", "sshfs", "fuse.sshfs", "afpfs", "9p", "davfs"}
ADVICE = "keep the desk's file in a local folder (leave out --db for the default) and back up from the Backups page"


def log_file(db_path: str | Path) -> Path:
    """The desk's log, beside its file (`desk.sqlite3.log`): start-ups, warnings and errors; not the requests,
    whose addresses may carry the key."""
    path = Path(db_path)
    return path.with_name(path.name + ".log")


def risky_folder(path: Path) -> str | None:
    """The warning for this machine's desk file `path`, or None."""
    mounts = ""
    if sys.platform.startswith("linux"):
        try:
            mounts = Path("/proc/mounts").read_text(encoding="utf-8", errors="replace")
        except OSError:
            pass
    full = os.path.abspath(path)
    remote = sys.platform == "win32" and _windows_drive_is_remote(full)
    return warning(full, sys.platform, os.environ, mounts, remote)


def warning(path: str, platform: str, environ: Mapping[str, str], mounts: str = "", remote_drive: bool = False):
    """The warning for the absolute `path` on `platform`: in a synced folder (by its folders' names, or under
    the OneDrive folder Windows names in the environment), or in a network folder (a UNC path or a network
    drive on Windows; a network file system in /proc/mounts on Linux). None for a local folder."""
    pure: PurePath = PureWindowsPath(path) if platform == "win32" else PurePosixPath(path)
    service = _synced(pure, platform, environ)
    if service:
        return (
            f"the desk's file is in a folder {service} syncs ({pure.parent}): a sync can copy it half-changed; {ADVICE}"
        )
    network = _network(pure, platform, mounts, remote_drive)
    if network:
        return f"the desk's file is in a network folder ({network}): its locks are not reliable there; {ADVICE}"
    return None


def _synced(path: PurePath, platform: str, environ: Mapping[str, str]) -> str | None:
    for part in path.parts[:-1]:
        folder = part.lower()
        for name, service in SYNCED.items():
            if folder == name or folder.startswith(name + " - "):
                return service
    if platform == "win32":
        for variable in ("OneDrive", "OneDriveConsumer", "OneDriveCommercial"):
            root = environ.get(variable)
            if root and PureWindowsPath(root) in path.parents:
                return "OneDrive"
    return None


def _network(path: PurePath, platform: str, mounts: str, remote_drive: bool) -> str | None:
    if platform == "win32":
        if str(path).startswith("\\\\"):
            return path.anchor
        return path.drive if remote_drive else None
    best, kind = "", ""
    for line in mounts.splitlines():
        fields = line.split()
        if len(fields) < 3:
            continue
        point = fields[1].replace("\\040", " ")
        if (point == "/" or str(path).startswith(point.rstrip("/") + "/")) and len(point) > len(best):
            best, kind = point, fields[2]
    return f"{kind} at {best}" if kind in NETWORK_FILE_SYSTEMS else None


def _windows_drive_is_remote(path: str) -> bool:
    """Whether `path`'s drive letter is a mapped network drive (GetDriveTypeW: DRIVE_REMOTE, 4)."""
    import ctypes

    drive = PureWindowsPath(path).drive
    if not drive or drive.startswith("\\\\"):
        return False
    return ctypes.windll.kernel32.GetDriveTypeW(drive + "\\") == 4  # type: ignore[attr-defined]
