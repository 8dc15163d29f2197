"""A first-character guard for patterns that Python's regex engine cannot skip ahead for.

``re`` finds a pattern fast when every match starts with a known literal or character class (it
skips positions that cannot start a match). A pattern whose alternatives start with ``\\b``, a
look-behind or an optional group (``\\bvs\\b|compared\\s+to|(?<![\\w-])\\d+\\s+draft...``) gets no
such skip: at every position of the text each alternative is tried in turn. ``guarded`` returns the
same pattern behind a look-ahead for the characters a match can start with,
``(?=[-\\dbc...])(?:pattern)``: at most positions one class test fails it, and the matches (spans,
groups, order) are the same, since a non-empty match consumes its first character where it starts.
A pattern that can match the empty string, or whose first character cannot be bounded, is left as is.
"""

from __future__ import annotations

import functools
import re
from re import _constants as c
from re import _parser

__all__ = ["first_class", "guard", "guarded"]

_CATEGORIES = {c.CATEGORY_DIGIT: r"\d", c.CATEGORY_NOT_DIGIT: r"\D", c.CATEGORY_SPACE: r"\s",
               c.CATEGORY_NOT_SPACE: r"\S", c.CATEGORY_WORD: r"\w", c.CATEGORY_NOT_WORD: r"\W"}
_ZERO_WIDTH = (c.AT, c.ASSERT, c.ASSERT_NOT)
_REPEATS = (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT)


class _Unbounded(Exception):
    """The first character of a match cannot be written as a character class."""


def _class_items(av, out: set[str]) -> None:
    for op, a in av:
        if op is c.LITERAL:
            out.add(re.escape(chr(a)))
        elif op is c.RANGE:
            out.add(re.escape(chr(a[0])) + "-" + re.escape(chr(a[1])))
        elif op is c.CATEGORY and a in _CATEGORIES:
            out.add(_CATEGORIES[a])
        else:
            raise _Unbounded  # a negated class or another category


def _first(items, out: set[str]) -> bool:
    """Add to ``out`` the characters a match of ``items`` can start with; True if it can match empty."""
    for op, av in items:
        if op is c.LITERAL:
            out.add(re.escape(chr(av)))
            return False
        if op is c.IN:
            _class_items(av, out)
            return False
        if op in _ZERO_WIDTH:
            continue  # \b, ^, look-arounds consume nothing: the next item starts the match
        if op is c.SUBPATTERN:
            if not _first(av[3], out):
                return False
        elif op is c.ATOMIC_GROUP:
            if not _first(av, out):
                return False
        elif op is c.BRANCH:
            if not any([_first(alt, out) for alt in av[1]]):  # a list: every alternative adds its characters
                return False
        elif op in _REPEATS:
            if not _first(av[2], out) and av[0] >= 1:
                return False
        else:
            raise _Unbounded  # '.', a back-reference, a conditional group
    return True


def _skips_already(items) -> bool:
    """Whether ``re`` itself skips ahead for this pattern (it starts with a literal or class, or with
    alternatives that all start with a literal): a guard would only add a test per position."""
    items = list(items)
    while items and items[0][0] is c.SUBPATTERN:
        items = list(items[0][1][3])
    if not items:
        return False
    op, av = items[0]
    if op in (c.LITERAL, c.IN):
        return True
    return op is c.BRANCH and all(alt and alt[0][0] is c.LITERAL for alt in av[1])


@functools.cache
def first_class(pattern: str, flags: int) -> str | None:
    """The characters a match of ``pattern`` can start with, as the inside of a class, or None when a guard
    cannot help or be exact (see ``guarded``)."""
    if flags & re.VERBOSE or pattern.startswith("(?") and pattern[2:3].isalpha():
        return None
    try:
        tree = _parser.parse(pattern, flags)
        if tree.state.flags & re.VERBOSE or _skips_already(tree):
            return None
        chars: set[str] = set()
        if _first(tree, chars):
            return None  # it can match the empty string anywhere
        return "".join(sorted(chars))
    except (_Unbounded, re.error, RecursionError):
        return None


@functools.cache
def guarded(pattern: str, flags: int) -> re.Pattern[str] | None:
    """``pattern`` behind a look-ahead for its first characters, or None when that cannot help or be exact.

    A case-insensitive pattern gets a case-insensitive class: the class and the pattern's own first item are
    matched by the same case rules. Verbose patterns and patterns that start with inline flags are left alone.
    """
    chars = first_class(pattern, flags)
    if chars is None:
        return None
    try:
        return re.compile("(?=[" + chars + "])(?:" + pattern + ")", flags)
    except (re.error, RecursionError):
        return None


def guard(rx: re.Pattern[str]) -> re.Pattern[str]:
    """``rx`` behind its first-character guard when it has one, else ``rx`` itself."""
    return guarded(rx.pattern, rx.flags) or rx
