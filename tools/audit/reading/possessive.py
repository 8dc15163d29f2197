"""Greedy runs that can give nothing back, made possessive: the same matches, without the useless backtracking.

A run of one character class, ``[\\d,.]*`` in ``\\d[\\d,.]*k?\\s+tokens``, is followed by items whose first character
cannot be one of the run's (``k`` or a blank). A match can then only take the run as far as it goes (or to its
upper bound): stopping earlier leaves a run character where the next item must start. ``re`` does not know that:
where the rest fails it gives the run back one character at a time and tries the rest again after each, which on
a table of numbers is most of the work. ``settled`` writes such a run possessive (``*+``, ``++``, ``{m,n}+``): it
takes the same characters and gives none back, so every match (span, groups, the alternative taken) is the one the
pattern as written finds.

A run is made possessive only when what follows it in its own sequence must consume a character (it cannot match
the empty string) and every character it can start with lies outside the run's class: proven for ASCII by trying
each character, and outside ASCII from the classes' parts (a non-ASCII letter by a match, ``\\d`` and ``\\w``
against ``\\s``: no Unicode character is both a word character and a blank); anything else is left as written.
"""

from __future__ import annotations

import functools
import re
from re import _compiler, _parser
from re import _constants as c

from .firstchars import _first as first
from .firstchars import _Unbounded as Unbounded

__all__ = ["settled"]

_REPEATS = (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT)
_ASCII = [chr(k) for k in range(128)]
# the parts of a class outside ASCII: a category, or a literal or range reaching past ASCII
_WORDS = {c.CATEGORY_DIGIT: "digit", c.CATEGORY_WORD: "word", c.CATEGORY_SPACE: "space"}
_APART = {frozenset({"digit", "space"}), frozenset({"word", "space"})}
"""Categories no Unicode character is in both of (\\d is part of \\w; a blank is never a word character)."""


class _Unknown(Exception):
    """A class part whose characters outside ASCII are not worked out here."""


def _outside_ascii(items) -> tuple[set[str], set[str]]:
    """(categories, literal characters) a class (``IN`` items, or one ``LITERAL``) can match outside ASCII."""
    categories, literals = set(), set()
    for op, av in items:
        if op is c.LITERAL:
            if av >= 128:
                literals.add(chr(av))
        elif op is c.RANGE:
            if av[1] >= 128:
                raise _Unknown
        elif op is c.CATEGORY and av in _WORDS:
            categories.add(_WORDS[av])
        else:  # a negated class, \D, \S, \W: most of Unicode
            raise _Unknown
    return categories, literals


def _apart(run, follow: set[str], flags: int) -> bool:
    """Whether no character matches both the run's item ``run`` and the class of ``follow`` (escaped class parts)."""
    op, av = run
    items = [run] if op is c.LITERAL else av if op is c.IN else None
    if items is None:
        return False
    try:
        mine = re.compile("[" + "".join(sorted(follow)) + "]", flags)
        theirs = _parser.parse("[" + "".join(sorted(follow)) + "]", flags)
        own = _compiler.compile(_parser.SubPattern(theirs.state, [run]), flags)
        if any(own.match(ch) and mine.match(ch) for ch in _ASCII):
            return False
        run_categories, run_literals = _outside_ascii(items)
        follow_categories, follow_literals = _outside_ascii(theirs[0][1] if theirs[0][0] is c.IN else list(theirs))
    except (_Unknown, re.error, IndexError):
        return False
    if any(mine.match(ch) for ch in run_literals) or any(own.match(ch) for ch in follow_literals):
        return False
    return all(frozenset({a, b}) in _APART for a in run_categories for b in follow_categories)


def _settle(items, flags: int) -> bool:
    """Make the eligible runs of the sequence ``items`` (a parsed pattern, changed in place) possessive, and those
    inside its groups, alternatives, repeats and look-aheads; True when one was."""
    changed = False
    for k, (op, av) in enumerate(items):
        if op is c.MAX_REPEAT and av[0] != av[1] and len(av[2]) == 1 and av[2][0][0] in (c.LITERAL, c.IN):
            follow: set[str] = set()
            try:
                empty = first(items[k + 1:], follow)
            except Unbounded:
                empty = True
            if not empty and _apart(av[2][0], follow, flags):
                items[k] = (c.POSSESSIVE_REPEAT, av)
                changed = True
        elif op is c.SUBPATTERN:
            changed |= _settle(av[3], flags)
        elif op is c.BRANCH:
            for alternative in av[1]:
                changed |= _settle(alternative, flags)
        elif op in _REPEATS:
            changed |= _settle(av[2], flags)
        elif op is c.ATOMIC_GROUP:
            changed |= _settle(av, flags)
        elif op in (c.ASSERT, c.ASSERT_NOT):  # (a look-behind's width is unchanged: a possessive run is as wide)
            changed |= _settle(av[1], flags)
    return changed


@functools.lru_cache(maxsize=1024)
def settled(pattern: str, flags: int) -> re.Pattern[str]:
    """``pattern`` compiled with every greedy run that can give nothing back made possessive (the same matches);
    as written when there is none, or when the pattern is case-insensitive, locale-dependent or verbose."""
    if flags & (re.IGNORECASE | re.LOCALE | re.VERBOSE):
        return re.compile(pattern, flags)
    try:
        tree = _parser.parse(pattern, flags)
        if tree.state.flags & (re.IGNORECASE | re.LOCALE | re.VERBOSE) or not _settle(tree, tree.state.flags):
            return re.compile(pattern, flags)
        return _compiler.compile(tree, flags)
    except (re.error, RecursionError):
        return re.compile(pattern, flags)
