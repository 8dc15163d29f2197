"""The cyclic garbage collector paused while one audit runs.

An audit of a long write-up allocates hundreds of thousands of objects that live until it ends (markdown
tokens, blocks, scanned copies, matches, table cells). CPython's collector counts allocations and, every so
many, walks every tracked object: on a megabyte write-up its full passes cost about a seventh of the audit
and free nothing (what the audit drops is freed by reference counting). ``paused_collection`` turns the
collector off for the duration and back on afterwards, only if it was on: a caller that turned it off keeps
it off, and nested or concurrent audits leave it on once the first one that paused it is done.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused_collection"]


@contextmanager
def paused_collection() -> Iterator[None]:
    """Run the body with the cyclic collector off; turn it back on after (also on an error) if it was on."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
