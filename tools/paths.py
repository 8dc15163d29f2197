"""Which files a server may read on a client's behalf.

The calculators take file paths (a config.json, a result file, a write-up).
From the command line any path the user names is theirs to read. Through the
MCP server, especially over HTTP, a path comes from a remote model, so the
server confines it to the folders it was told to serve (by default the folder
it started in). Symlinks are resolved first, so a link cannot point outside.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from .errors import PathNotAllowedError

__all__ = ["ALLOWED_DIRS_ENV", "allowed_dirs", "ensure_within"]

ALLOWED_DIRS_ENV = "LIF_ALLOWED_DIRS"
"""Extra folders the server may read, separated by the OS path separator (':' on Unix)."""


def allowed_dirs(extra: Sequence[str | Path] = ()) -> list[Path]:
    """The folders a server may read: the working directory, ``extra``, and those in ``LIF_ALLOWED_DIRS``."""
    named = [Path.cwd(), *map(Path, extra)]
    named += [Path(p) for p in os.environ.get(ALLOWED_DIRS_ENV, "").split(os.pathsep) if p.strip()]
    roots: list[Path] = []
    for root in named:
        resolved = root.expanduser().resolve()
        if resolved not in roots:
            roots.append(resolved)
    return roots


def ensure_within(path: str, roots: Sequence[Path], *, field: str) -> Path:
    """``path`` resolved (symlinks followed), if it lies inside one of ``roots``; else PathNotAllowedError."""
    resolved = Path(path).expanduser().resolve()
    if any(resolved.is_relative_to(root) for root in roots):
        return resolved
    shown = path if len(path) <= 120 else path[:117] + "..."
    raise PathNotAllowedError(
        f"{field}: {shown!r} is outside the folders this server may read "
        f"({', '.join(str(r) for r in roots)}); pass the content inline instead, or start the server "
        f"with --allow-dir DIR (or {ALLOWED_DIRS_ENV})"
    )
