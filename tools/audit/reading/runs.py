"""Over-long runs cut in the scanned copy of a block, so that no pattern can backtrack over them.

Runs longer than ``LONG_RUN`` allows (digits and number punctuation past 24 characters, word characters and
token punctuation past 80, blanks past 32) get a separator (``CUT``) every so many characters in the copy of a
block the patterns read: a megabyte-long "word" would otherwise be scanned position by position by every
pattern (real tokens, Hub ids and hashes are far shorter). The copy keeps its length, so offsets and line
numbers are unchanged. Most blocks hold no such run: a quick look at their word lengths skips the pattern.
"""

from __future__ import annotations

import re

__all__ = ["CUT", "LONG_RUN", "cut_runs"]

LONG_RUN = re.compile(r"[\d,.]{25,}|[\w.,:/+\-]{81,}|[ \t]{33,}")
CUT = "\x7f"


def _may_hold_long_run(text: str) -> bool:
    """Whether ``text`` can hold a run that ``LONG_RUN`` cuts (False: it holds none, and the regex need not
    try every position). A run of word characters and token punctuation holds no blank (no whitespace is a
    word character), so it lies inside one of ``text.split()``'s words: with every word shorter than the
    shortest such run (25) and no tab or 33 spaces in a row, nothing is cut."""
    return "\t" in text or " " * 33 in text or max(map(len, text.split()), default=0) >= 25


# The pieces of a text that can hold such a run: a word of 25 characters or more, 33 blanks or more.
_LONG_PIECE = re.compile(r"\S{25,}|\s{33,}")


def _cut(m: re.Match[str]) -> str:
    run = m.group(0)
    keep = 32 if run[0] in " \t" else 24 if not run.strip("0123456789,.") else 80
    return re.sub(r"(.{%d})." % keep, lambda x: x.group(1) + CUT, run, flags=re.S)


def cut_runs(text: str) -> str:
    """``text`` with every ``LONG_RUN`` cut, the run pattern tried only inside the pieces that can hold one.

    Same result as ``LONG_RUN.sub`` over the whole text: the pattern has no look-arounds and each of its runs is
    all non-blank or all blank, so a match lies inside one word or one blank stretch, and is found there as it is
    in the whole text; a shorter word or blank stretch holds none."""
    if not _may_hold_long_run(text):
        return text
    return _LONG_PIECE.sub(lambda piece: LONG_RUN.sub(_cut, piece.group(0)), text)
