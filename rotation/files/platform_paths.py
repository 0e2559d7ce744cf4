"""File names and paths as the platform counts them, so that a name or path it would refuse is refused in
the director's words, before any work.

Windows (NTFS, exFAT) limits a file name to 255 UTF-16 code units, and a whole path to MAX_PATH, 260 with
the terminating NUL, unless long paths are turned on (a registry setting, off by default); beyond it the
system answers "not found", which would read as a missing folder. POSIX file systems count a name's bytes
as the system encodes it (UTF-8): 255 on ext4, APFS and most others (os.pathconf says)."""

from __future__ import annotations

import os
import sys

PLATFORM = sys.platform
WINDOWS_MAX_PATH = 260


def name_length(name: str) -> tuple[int, str]:
    """The name's length and its unit, as the platform's file system counts it."""
    if PLATFORM == "win32":
        return len(name.encode("utf-16-le", "surrogatepass")) // 2, "characters"
    return len(name.encode("utf-8", "surrogateescape")), "bytes"


def too_long_path(path: str) -> str | None:
    """Why Windows would not find `path` though it may exist: its full path is MAX_PATH long or longer.
    None elsewhere, and for a shorter path."""
    if PLATFORM != "win32":
        return None
    length = len(os.path.abspath(path))
    if length < WINDOWS_MAX_PATH:
        return None
    return (
        f"its full path is {length} characters long, and Windows allows {WINDOWS_MAX_PATH - 1} unless long paths"
        " are turned on: choose a shorter folder or name"
    )
