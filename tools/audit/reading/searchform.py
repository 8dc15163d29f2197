"""A pattern compiled to find where it matches, not which match: alternatives that start alike share their start.

``starts.matches`` searches the alternatives of a pattern that no literal leads (its ``rest``) only for the least
position where one of them matches, then tries the whole pattern there. Many of them start alike
(``\\d[\\d,.]*k?\\s+tokens?\\s+of\\s+kv|\\d[\\d,.]*\\s*[km]?[- ]tokens?\\s+kv[- ]cache|...``): ``re`` reads the common
start once per alternative at every digit. ``search_form`` writes alternatives whose first items are the same as
one alternative, that item then a group of their remainders (``\\d(?:[\\d,.]*k?...|[\\d,.]*\\s*[km]?...)``), again
inside the group, and makes the runs that can give nothing back possessive (reading.possessive).

Where a match exists is unchanged: ``X A | X B`` matches at a position exactly when ``X (?:A|B)`` does (each way ``X``
can match is tried with each remainder). Which of the matches is found first can change, so the form is only for
searches whose start is all that is read (and its groups mean nothing).
"""

from __future__ import annotations

import functools
import re
from re import _compiler, _parser
from re import _constants as c

from .possessive import _settle

__all__ = ["search_form"]

_REPEATS = (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT)


def _key(item):
    """A parsed item as a value two equal items share (parsed sub-patterns compare by identity)."""
    if isinstance(item, _parser.SubPattern):
        return ("sub",) + tuple(_key(x) for x in item.data)
    if isinstance(item, (list, tuple)):
        return tuple(_key(x) for x in item)
    return item


def _shared(alternatives: list, state) -> list:
    """The alternatives with those of the same first item (not empty, each with more after it) written as one:
    that item, then a branch of their remainders (itself shared); in the order each first item is first seen."""
    groups: dict = {}
    order: list[list] = []
    for alternative in alternatives:
        head = _key(alternative[0]) if len(alternative) > 1 else None
        if head is not None and head in groups:
            groups[head].append(alternative)
        else:
            order.append([alternative])
            if head is not None:
                groups[head] = order[-1]
    out = []
    for group in order:
        if len(group) == 1:
            out.append(group[0])
            continue
        rest = _parser.SubPattern(state, [(c.BRANCH, (None, _shared([_parser.SubPattern(state, a.data[1:])
                                                                     for a in group], state)))])
        out.append(_parser.SubPattern(state, [group[0][0]] + rest.data))
    return out


def _share(items, state) -> None:
    """Share the starts of the alternatives of every branch in ``items`` (changed in place), inside groups too."""
    for k, (op, av) in enumerate(items):
        if op is c.BRANCH:
            alternatives = _shared(list(av[1]), state)
            for alternative in alternatives:
                _share(alternative, state)
            items[k] = ((c.BRANCH, (None, alternatives)) if len(alternatives) > 1
                        else (c.SUBPATTERN, (None, 0, 0, alternatives[0])))
        elif op is c.SUBPATTERN:
            _share(av[3], state)
        elif op is c.ATOMIC_GROUP:
            _share(av, state)
        elif op in _REPEATS:
            _share(av[2], state)
        elif op in (c.ASSERT, c.ASSERT_NOT):
            _share(av[1], state)


@functools.lru_cache(maxsize=1024)
def search_form(pattern: str, flags: int) -> re.Pattern[str]:
    """``pattern`` compiled for searches of where it matches: the starts of alike alternatives shared, runs that can
    give nothing back possessive. As written when it is case-insensitive, locale-dependent or verbose."""
    if flags & (re.IGNORECASE | re.LOCALE | re.VERBOSE):
        return re.compile(pattern, flags)
    try:
        tree = _parser.parse(pattern, flags)
        if tree.state.flags & (re.IGNORECASE | re.LOCALE | re.VERBOSE):
            return re.compile(pattern, flags)
        _share(tree, tree.state)
        _settle(tree, tree.state.flags)
        return _compiler.compile(tree, flags)
    except (re.error, RecursionError):
        return re.compile(pattern, flags)
