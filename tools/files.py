"""Reading a file a caller named: only by consent, opened once, checked, bounded.

Every tool that takes a file path reads it through ``read_user_file`` (all
at once) or ``open_user_file`` (one checked descriptor, read in a stream):

- **Consent.** Inside ``readable_folders(folders)`` only files whose real
  location lies in one of ``folders`` are read (an empty list: no file at
  all). Outside such a block (the command line: a local user naming their own
  files) any path is read. The MCP server sets the folders for each call: the
  client's roots and the user's ``--allow-dir`` over stdio, the operator's
  folders over HTTP.
- **Open once, check what was opened.** The path is opened once, without
  blocking (a FIFO cannot stall the call). The folder check is made on the
  opened descriptor's own path (``/proc/self/fd`` on Linux, ``F_GETPATH`` on
  macOS) and it must be a regular file (``fstat``), so swapping a symlink
  between a check and the read cannot redirect the read.
- **Bounded.** At most ``max_bytes`` are read, in chunks; a file larger than
  that, or one that grows past it while being read, is an error, not a
  truncated input.

Errors name the argument, say how to grant access, and never quote the file.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import BinaryIO

from .errors import PathNotAllowedError, UnreadableFileError, argument

__all__ = [
    "GRANT_HINT",
    "MAX_PATH_CHARS",
    "REMOTE_GRANT_HINT",
    "is_granted_folder",
    "open_user_file",
    "read_user_file",
    "readable_folders",
    "reading_policy",
]

MAX_PATH_CHARS = 4096
"""Longest path accepted (Linux PATH_MAX); each part at most 255 bytes (NAME_MAX)."""

GRANT_HINT = (
    "pass the content inline instead, or grant the folder: start the server with --allow-dir DIR "
    "(or LIF_ALLOWED_DIRS), or share it as a root from your MCP client"
)
"""How a user lets a local (stdio) server read a folder (said by every refusal)."""

REMOTE_GRANT_HINT = (
    "pass the content inline instead (text, records, config_json); the server's operator can enable a folder "
    "with --allow-dir DIR (or LIF_ALLOWED_DIRS)"
)
"""The same for a remote (HTTP) caller, who cannot grant anything but can send content inline."""

_CHUNK = 1 << 20
_FOLDERS: ContextVar[tuple[tuple[str, ...], str] | None] = ContextVar("readable_folders", default=None)


@contextmanager
def readable_folders(folders: Sequence[str | Path], *, grant_hint: str = GRANT_HINT) -> Iterator[None]:
    """Within the block, ``read_user_file`` reads only inside ``folders`` (none: no file at all).

    ``grant_hint`` ends every refusal: how this caller can get access.
    """
    real = tuple(dict.fromkeys(os.path.realpath(os.path.expanduser(os.fspath(f))) for f in folders))
    token = _FOLDERS.set((real, grant_hint))
    try:
        yield
    finally:
        _FOLDERS.reset(token)


def reading_policy() -> tuple[str, ...] | None:
    """The folders readable now (real paths), or None when any file may be read (the command line)."""
    policy = _FOLDERS.get()
    return None if policy is None else policy[0]


def _shown(path: str) -> str:
    return repr(path if len(path) <= 120 else path[:117] + "...")


def _check_name(path: str, name: str) -> bytes:
    if not path:
        raise UnreadableFileError(f"{name}: the path is empty")
    if "\x00" in path:
        raise UnreadableFileError(f"{name}: the path contains a NUL byte")
    try:
        raw = os.fsencode(os.path.expanduser(path))
    except (UnicodeError, ValueError):
        raise UnreadableFileError(f"{name}: the path is not valid text for this file system") from None
    if len(raw) > MAX_PATH_CHARS:
        raise UnreadableFileError(f"{name}: the path is {len(raw):,} bytes long; the limit is {MAX_PATH_CHARS:,}")
    if any(len(part) > 255 for part in raw.split(b"/")):
        raise UnreadableFileError(f"{name}: a part of the path is longer than 255 bytes")
    return raw


def _opened_path(fd: int) -> str | None:
    """The real path of what ``fd`` refers to, from the kernel; None where it cannot tell."""
    if sys.platform.startswith("linux"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            return None
        return target if target.startswith("/") and not target.endswith(" (deleted)") else None
    if sys.platform == "darwin":
        import fcntl

        try:
            raw = fcntl.fcntl(fd, fcntl.F_GETPATH, bytes(1024))  # type: ignore[attr-defined]
        except OSError:
            return None
        return os.fsdecode(raw.split(b"\0", 1)[0])
    return None


def _inside(real: str, folders: tuple[str, ...]) -> bool:
    return any(real == f or real.startswith(f.rstrip(os.sep) + os.sep) for f in folders)


_OS_ERRORS = {
    errno.ENOENT: "does not exist",
    errno.ENOTDIR: "does not name a file (a part of the path is not a folder)",
    errno.ELOOP: "has a symbolic link loop in its path",
    errno.ENAMETOOLONG: "is too long (the path or a part of it)",
    errno.EACCES: "cannot be read (permission denied)",
    errno.EPERM: "cannot be read (permission denied)",
    errno.EISDIR: "is a directory, not a file",
    errno.ENXIO: "is a socket or device, not a file",
}


def _os_error(name: str, path: str, exc: OSError) -> UnreadableFileError:
    reason = _OS_ERRORS.get(exc.errno or 0, f"cannot be read ({exc.strerror or 'error'})")
    return UnreadableFileError(f"{name}: {_shown(path)} {reason}")


def is_granted_folder(path: str) -> bool:
    """True when ``path`` is a folder this call may look into: inside the readable folders (or any folder on the
    command line). A folder outside is never looked at, so its existence is not revealed."""
    policy = _FOLDERS.get()
    try:
        real = os.path.realpath(os.path.expanduser(path))
    except (ValueError, OSError):
        return False
    if policy is not None and not _inside(real, policy[0]):
        return False
    return os.path.isdir(real)


def open_user_file(path: str, *, field: str, max_bytes: int) -> BinaryIO:
    """The regular file at ``path``, opened once and checked, as a binary file positioned at its start.

    The caller reads from this one descriptor (``seek(0)`` to read again) and
    closes it; it must still stop at ``max_bytes`` (the file may grow after this
    check). ``field`` names the tool argument in messages. Raises
    PathNotAllowedError (outside the readable folders) or UnreadableFileError
    (missing, not a regular file, over ``max_bytes``, a symlink loop, a
    malformed name).
    """
    name = argument(field)
    policy = _FOLDERS.get()
    folders, hint = (None, GRANT_HINT) if policy is None else policy
    if folders is not None and not folders:
        raise PathNotAllowedError(f"{name}: this server reads no files (no folder has been granted); {hint}")
    raw = _check_name(path, name)
    if folders is not None and not _inside(os.fsdecode(os.path.realpath(raw)), folders):
        # refused before any stat or open, so a caller cannot learn whether a file outside exists
        raise PathNotAllowedError(
            f"{name}: {_shown(path)} is outside the folders this server may read ({', '.join(folders)}); {hint}")
    try:
        before = os.stat(raw)  # refuse devices and FIFOs before opening them
    except OSError as exc:
        raise _os_error(name, path, exc) from None
    if stat.S_ISDIR(before.st_mode):
        raise UnreadableFileError(f"{name}: {_shown(path)} is a directory; name a file in it")
    if not stat.S_ISREG(before.st_mode):
        raise UnreadableFileError(f"{name}: {_shown(path)} is not a regular file (a FIFO, socket or device)")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)
    try:
        fd = os.open(raw, flags)
    except OSError as exc:
        raise _os_error(name, path, exc) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise UnreadableFileError(f"{name}: {_shown(path)} is not a regular file")
        if folders is not None:
            real = _opened_path(fd)
            if real is None:  # no kernel answer: the resolved name must still be the very file opened
                real = os.fsdecode(os.path.realpath(raw))
                try:
                    again = os.stat(real, follow_symlinks=False)
                except OSError:
                    again = None
                if again is None or (again.st_dev, again.st_ino) != (info.st_dev, info.st_ino):
                    raise PathNotAllowedError(f"{name}: {_shown(path)} changed while it was opened; try again")
            if not _inside(real, folders):
                raise PathNotAllowedError(
                    f"{name}: {_shown(path)} is outside the folders this server may read "
                    f"({', '.join(folders)}); {hint}")
        if info.st_size > max_bytes:
            raise UnreadableFileError(f"{name}: {_shown(path)} is {info.st_size:,} bytes, over the {max_bytes:,}-byte cap")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_user_file(path: str, *, field: str, max_bytes: int) -> bytes:
    """The bytes of the regular file at ``path`` (at most ``max_bytes``), read by consent from one descriptor.

    Same checks and errors as ``open_user_file``; a file that grows past
    ``max_bytes`` while it is read is an error, not a truncated input.
    """
    with open_user_file(path, field=field, max_bytes=max_bytes) as handle:
        chunks: list[bytes] = []
        total = 0
        try:
            while True:
                chunk = handle.read1(min(_CHUNK, max_bytes + 1 - total)) if total <= max_bytes else b""
                if not chunk:
                    break
                total += len(chunk)
                if total > max_bytes:
                    raise UnreadableFileError(f"{argument(field)}: {_shown(path)} grew past the limit of "
                                              f"{max_bytes:,} bytes while it was read")
                chunks.append(chunk)
        except OSError as exc:
            raise _os_error(argument(field), path, exc) from None
        return b"".join(chunks)
