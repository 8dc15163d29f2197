"""What a document look-up gives back: spans that quack like ``re.Match``, and matches read as far as asked.

``Spot`` is a found span that is no regex match (a parsed flag, a table cell). ``_Shifted`` is a match found in a
batch of joined blocks with its offsets made relative to its own block. ``_Memo`` keeps the matches of one pattern
as far as some reader has read them, so that every reader gets the same matches in the same order.
"""

from __future__ import annotations

import re

__all__ = ["Spot"]


class Spot:
    """A found span that is not a regex match (a parsed flag, a table cell): quacks like ``re.Match``."""

    __slots__ = ("_start", "_end", "_text")

    def __init__(self, start: int, end: int, text: str):
        self._start, self._end, self._text = start, end, text

    def start(self, group: int = 0) -> int:
        return self._start

    def end(self, group: int = 0) -> int:
        return self._end

    def span(self, group: int = 0) -> tuple[int, int]:
        return self._start, self._end

    def group(self, group: int = 0) -> str:
        return self._text


class _Shifted:
    """A regex match in a batch of joined blocks, with offsets relative to its own block."""

    __slots__ = ("_m", "_base")

    def __init__(self, m: re.Match[str], base: int):
        self._m, self._base = m, base

    def start(self, group: int | str = 0) -> int:
        s = self._m.start(group)
        return s - self._base if s >= 0 else s

    def end(self, group: int | str = 0) -> int:
        e = self._m.end(group)
        return e - self._base if e >= 0 else e

    def span(self, group: int | str = 0) -> tuple[int, int]:
        return self.start(group), self.end(group)

    def group(self, *groups):
        return self._m.group(*groups)

    def groups(self, default=None):
        return self._m.groups(default)

    def groupdict(self, default=None):
        return self._m.groupdict(default)

    def __getitem__(self, group):
        return self._m[group]


class _Memo:
    """The matches of one pattern, scanned only as far as some caller has read, and kept: a rule that wants the
    first match (``Document.first``, ``any``) does not pay for a scan of the whole budget, and a later reader
    of the same pattern gets the same matches in the same order."""

    __slots__ = ("_found", "_more")

    def __init__(self, more):
        self._found: list = []
        self._more = more

    def __iter__(self):
        k = 0
        while True:
            if k < len(self._found):
                yield self._found[k]
                k += 1
            elif self._more is None:
                return
            else:
                step = next(self._more, None)
                if step is None:
                    self._more = None
                    return
                self._found.append(step)
