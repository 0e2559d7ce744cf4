"""What a command prints and writes: its outputs refused before any work if they cannot be written or would
replace an input, the report on standard output, and a set of files written all or nothing."""

from __future__ import annotations

import errno
import os
import secrets
import shutil
import stat
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import BinaryIO

import click

from rotation import stopping
from rotation.files.inputs import BadInput, file_in_path
from rotation.files.platform_paths import name_length, too_long_path


def check_outputs(outputs: dict[str, str | None], inputs: dict[str, str | None]) -> list[tuple[str, str]]:
    """Refuse, before any work, an output that cannot be written or that is an input or another output.

    `outputs` and `inputs` map what the path is ('--json', 'schedule file') to the path. Returns the
    (option, path) pairs to write."""
    chosen = [(what, path) for what, path in outputs.items() if path is not None]
    for what, path in chosen:
        _writable(what, path)
    named = [(what, path) for what, path in inputs.items() if path is not None] + chosen
    for i, (what, path) in enumerate(chosen):
        for other_what, other in named[: len(named) - len(chosen) + i]:
            if _same_file(path, other):
                raise BadInput(f"{what} {path!r} is the same file as the {other_what} {other!r}; choose another name")
    return chosen


def _same_file(a: str, b: str) -> bool:
    """The same file by path, through a symbolic link, or as a hard link."""
    if os.path.realpath(a) == os.path.realpath(b):
        return True
    try:
        return os.path.samefile(a, b)  # hard links
    except OSError:
        return False


def _writable(what: str, path: str) -> None:
    """BadInput in one line unless `path` can be written as a file: not standard output, not a folder, in a
    folder that exists and takes files (a probe file is made and removed), not read-only, a name short enough."""
    where = f"cannot write {what} {path!r}"
    if path == "-":
        raise BadInput(f"{where}: standard output is not an output file here; write ./- for a file named '-'")
    if not path or path.endswith(("/", os.sep)):
        raise BadInput(f"{where}: not a file name")
    folder = os.path.dirname(path) or "."
    long_path = too_long_path(path)
    if not os.path.exists(folder):
        raise BadInput(f"{where}: {long_path or f'folder {folder!r} does not exist'}")
    if not os.path.isdir(folder):
        raise BadInput(f"{where}: {file_in_path(path)!r} is not a folder")
    if os.path.isdir(path):
        raise BadInput(f"{where}: it is a folder")
    if os.path.exists(path) and not os.path.isfile(path):
        raise BadInput(f"{where}: it exists and is not a regular file")
    if os.path.isfile(path) and not (os.stat(path).st_mode & 0o222 and os.access(path, os.W_OK)):
        raise BadInput(f"{where}: the file is read-only")
    try:
        longest = os.pathconf(folder, "PC_NAME_MAX")
    except (AttributeError, OSError, ValueError):  # Windows has no os.pathconf; 255 is NTFS's limit too
        longest = 255
    length, unit = name_length(os.path.basename(path))
    if length > longest:
        raise BadInput(f"{where}: the file name is longer than {longest} {unit}")
    target_folder = os.path.dirname(os.path.realpath(path))  # a symbolic link's file is the one replaced
    if not os.path.isdir(target_folder):
        raise BadInput(f"{where}: it is a link into folder {target_folder!r}, which does not exist")
    try:  # the folder may look writable and still refuse files (/proc, a read-only disk)
        with stopping.held():  # a signal between the two steps would leave the probe behind
            fd, probe = tempfile.mkstemp(dir=target_folder, prefix=".rotation-", suffix=".tmp")
            os.close(fd)
            os.unlink(probe)
    except OSError as error:
        raise BadInput(f"{where}: {long_path or error.strerror or error}") from None


class StdoutLost(Exception):
    """The report could not be printed (a closed pipe, a full disk); the files were already written."""

    def __init__(self, error: OSError):
        super().__init__(error.strerror or str(error))
        self.error = error


def say(text: str = "") -> None:
    """Print the report on standard output; a closed or full stdout becomes StdoutLost, not a traceback."""
    if sys.stdout is None:  # the program was started with stdout closed (`>&-`)
        raise StdoutLost(OSError(errno.EBADF, "standard output is closed"))
    try:
        click.echo(text)
    except OSError as error:
        raise StdoutLost(error) from None


Content = str | bytes | Callable[[BinaryIO], object]  # text, bytes, or a function writing them in pieces


def write_outputs(files: Sequence[tuple[str, Content]]) -> None:
    """Write a set of outputs all or nothing, never losing an earlier file (a content given as a
    function writes its bytes itself, so a big output is never held whole).

    Every file is first written in full to a temporary file in its target's folder, and every target
    that already exists is kept aside under a hard link (a copy where links are not allowed); only then
    is each temporary renamed into place. If any step fails, the targets already replaced get their
    earlier version back (or are removed, when there was none), and BadInput says in one line why and
    what state the set is in. No stop signal interrupts any of this (it takes effect once the set is
    written or restored), and no temporary file is left on any path. Then one line `wrote FILE` per
    output on stderr."""
    with stopping.held():
        staged = _Staged()
        try:
            for path, content in files:
                staged.add(path, content)
            staged.replace_all()
        except BaseException as error:
            state = staged.roll_back()
            if not isinstance(error, (OSError, UnicodeError)):
                raise
            reason = getattr(error, "strerror", None) or str(error)
            raise BadInput(f"cannot write {staged.current!r}: {reason}; {state}") from None
        finally:
            staged.clean()
        for path, _ in files:
            try:
                click.echo(f"wrote {path}", err=True)
            except OSError:
                pass  # stderr closed: the files are written all the same


@dataclass
class _Output:
    path: str  # as given, for messages
    target: str  # through a symbolic link: the link stays, the file it points to is replaced
    temporary: str = ""
    earlier: str | None = None  # a second name for the file the target held, if any
    replaced: bool = False
    stuck: bool = False  # could not be put back: its earlier version stays under the second name


class _Staged:
    """The steps of one set of outputs: temporaries written, earlier files kept aside, renames done."""

    def __init__(self) -> None:
        self.current = ""  # the output being worked on, for the message
        self.outputs: list[_Output] = []

    def add(self, path: str, content: Content) -> None:
        self.current = path
        output = _Output(path, os.path.realpath(path))
        self.outputs.append(output)
        folder = os.path.dirname(output.target)
        fd, output.temporary = tempfile.mkstemp(dir=folder, prefix=".rotation-", suffix=".tmp")
        with os.fdopen(fd, "wb") as handle:
            if callable(content):
                content(handle)
            else:
                handle.write(content if isinstance(content, bytes) else content.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())  # a full disk shows here at the latest, not after the rename
        mode = _mode(output.target)
        # mkstemp makes files private; a new output is for sharing, a replaced one keeps its mode.
        os.chmod(output.temporary, 0o666 & ~_umask() if mode is None else mode)
        if mode is not None:
            output.earlier = _keep_aside(output.target, folder)

    def replace_all(self) -> None:
        for output in self.outputs:
            self.current = output.path
            os.replace(output.temporary, output.target)
            output.temporary, output.replaced = "", True

    def roll_back(self) -> str:
        """Put every replaced target back as it was; the state of the set, in words."""
        stuck = []
        for output in reversed([o for o in self.outputs if o.replaced]):
            try:
                if output.earlier is None:
                    os.unlink(output.target)
                else:
                    os.replace(output.earlier, output.target)
                    output.earlier = None
            except OSError:
                output.stuck = True
                stuck.append(output)
        if stuck:  # the earlier versions are kept where they are, and named
            return "; ".join(
                f"{o.path!r} holds the new version"
                + ("" if o.earlier is None else f", the earlier one is in {o.earlier!r}")
                for o in reversed(stuck)
            )
        kept = any(_mode(o.target) is not None for o in self.outputs)
        return "no output written" + (", earlier files kept" if kept else "")

    def clean(self) -> None:
        """Remove the temporaries and the second names no longer needed."""
        for output in self.outputs:
            for leftover in (output.temporary, None if output.stuck else output.earlier):
                if not leftover:
                    continue
                try:
                    os.unlink(leftover)
                except OSError:
                    pass  # a temporary already renamed into place


def _mode(target: str) -> int | None:
    """The permission bits of an existing regular file, None when there is none."""
    try:
        status = os.stat(target)
    except FileNotFoundError:
        return None
    return stat.S_IMODE(status.st_mode) if stat.S_ISREG(status.st_mode) else None


def _keep_aside(target: str, folder: str) -> str:
    """A second name for the earlier version of `target` in its folder, to put back on failure."""
    for _ in range(100):
        aside = os.path.join(folder, f".rotation-{secrets.token_hex(8)}.old")
        try:
            os.link(target, aside)
            return aside
        except FileExistsError:
            continue
        except OSError:  # no hard links here (some network and FAT file systems): a copy will do
            shutil.copy2(target, aside)
            return aside
    raise FileExistsError(errno.EEXIST, "no free temporary name", folder)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
