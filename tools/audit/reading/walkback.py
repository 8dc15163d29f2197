"""Where an alternative led by runs of character classes can start, walked back from the literal that follows them.

A pattern alternative such as ``(?<![\\w/.-])[\\w./-]+\\.sh\\b``, ``\\b(?:\\w+\\s+)?(?:runs?|results?)\\s+were`` or
``\\d[\\d,]*\\s+(?:of\\s+[\\d,]+\\s+)?(?:failed|errored)`` starts with a class (``\\w``, ``\\d``): ``re`` tries it at
nearly every position of a text. Each of its matches is, however, a stretch of characters that the leading items
(classes, repeats and optional groups of them) consume, followed by one of a few literals (``.sh``, ``run``,
``failed``). ``Walk`` keeps those leading items; ``walk_starts`` finds the literals with ``str.find`` and walks back
from each occurrence through the items, last to first, collecting every position where the items could have
started to consume exactly the text up to it. That is a superset of the alternative's match starts (look-arounds
and anchors are not checked: ``starts.matches`` tries the whole pattern at each position), found in the few places
where the literals occur instead of at every position.

An alternative whose leading zero-width items hold ``^`` (``\\A``) and whose pattern is not multi-line can start only
at position 0 (``Walk.first_only``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from re import _compiler, _parser
from re import _constants as c

from .firstchars import _first as first
from .firstchars import _Unbounded as Unbounded

__all__ = ["Walk", "walk_led", "walk_starts"]

_ZERO_WIDTH = (c.AT, c.ASSERT, c.ASSERT_NOT)
_REPEATS = (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT)
_ONE_CHARACTER = (c.IN, c.LITERAL, c.NOT_LITERAL, c.ANY)
_AT_START = (c.AT_BEGINNING, c.AT_BEGINNING_STRING)
_BROAD_CHARACTERS = 12
"""A start class matching this many printable ASCII characters is broad (``[a-z]``, a dozen first letters); the
digits (10) are not."""


@dataclass(frozen=True)
class Walk:
    """The leading items of an alternative (``steps``, see ``_steps``) and the literals the rest of it starts with;
    or, with ``first_only``, an alternative that can match only at position 0."""

    steps: tuple
    literals: tuple[str, ...]
    first_only: bool = False


def _steps(items, state) -> tuple | None:
    """``items`` as steps to walk back through, or None when one cannot be walked: ('char', rx) consumes one
    character that ``rx`` matches; ('run', rx, least, most) consumes least..most of them; ('rep', steps, least,
    most) repeats a group of steps, each pass consuming at least one character; ('alt', branches) takes one of
    several. Zero-width items are left out."""
    out = []
    for op, av in items:
        if op in _ZERO_WIDTH:
            continue
        if op in _ONE_CHARACTER:
            out.append(("char", _compiler.compile(_parser.SubPattern(state, [(op, av)]), state.flags)))
        elif op is c.SUBPATTERN and not av[1] and not av[2]:
            inner = _steps(av[3], state)
            if inner is None:
                return None
            out.extend(inner)
        elif op in _REPEATS:
            least, most, body = av
            if len(body) == 1 and body[0][0] in _ONE_CHARACTER:
                out.append(("run", _compiler.compile(_parser.SubPattern(state, list(body)), state.flags), least, most))
                continue
            inner = _steps(body, state)
            if inner is None or body.getwidth()[0] < 1:
                return None
            out.append(("rep", inner, least, most))
        elif op is c.BRANCH:
            branches = [_steps(branch, state) for branch in av[1]]
            if any(b is None for b in branches):
                return None
            out.append(("alt", tuple(branches)))
        else:
            return None
    return tuple(out)


def _broad(tree) -> bool:
    """Whether a match of ``tree`` can start with a character of a broad class (``\\w``, ``\\S``, ``[a-z]``, a dozen
    letters), or with one not written as a class: ``re`` then tries it at most positions. A narrow start (a digit, a bar) is
    skipped to in C by ``re`` itself, which costs less than a walk back from every occurrence of a common literal."""
    chars: set[str] = set()
    try:
        first(tree, chars)
    except Unbounded:
        return True
    if any(broad in chars for broad in (r"\w", r"\W", r"\S", r"\D")):
        return True
    ascii_class = re.compile("[" + "".join(chars) + "]", tree.state.flags & re.IGNORECASE)
    return sum(1 for k in range(32, 127) if ascii_class.match(chr(k))) >= _BROAD_CHARACTERS


def walk_led(tree, flags: int, led_literals) -> Walk | None:
    """The parsed alternative ``tree`` as a ``Walk``: walkable items, then items whose every match starts with one of
    a few literals (``led_literals`` gives them, or None); the first split that works; or one led by ``^`` (only at
    0). None when there is none, or when the alternative starts narrowly (``_broad``)."""
    items = list(tree)
    k = 0
    while k < len(items) and items[k][0] in _ZERO_WIDTH:
        if items[k][0] is c.AT and items[k][1] in _AT_START and not tree.state.flags & re.MULTILINE:
            return Walk((), (), first_only=True)
        k += 1
    if not _broad(tree):
        return None
    try:
        for j in range(k + 1, len(items)):
            literals = led_literals(items[j:])
            if literals is not None:
                steps = _steps(items[k:j], tree.state)
                return Walk(steps, literals) if steps is not None else None
    except (re.error, RecursionError):
        return None
    return None


def _back(text: str, ends: set[int], steps) -> set[int]:
    """Every position s from which ``steps`` can consume exactly text[s:q], for some q in ``ends``."""
    for step in reversed(steps):
        if not ends:
            break
        kind = step[0]
        if kind == "char":
            match = step[1].match
            ends = {q - 1 for q in ends if q > 0 and match(text, q - 1)}
        elif kind == "run":
            ends = _run_back(text, ends, step[1].match, step[2], step[3])
        elif kind == "alt":
            ends = set().union(*(_back(text, ends, branch) for branch in step[1]))
        else:
            inner, least, most = step[1], step[2], step[3]
            found = set(ends) if least == 0 else set()
            expanded = set(ends) if least == 0 else set()
            cur, n = ends, 0
            while cur and n < most:
                cur = _back(text, cur, inner)
                n += 1
                if n >= least:  # a position reached again after enough passes has been walked on from already
                    cur = cur - expanded
                    expanded |= cur
                    found |= cur
            ends = found
    return ends


def _run_back(text: str, ends: set[int], match, least: int, most: int) -> set[int]:
    """Positions s with least <= q - s <= most and text[s:q] all matched by ``match``, for q in ``ends``. The run of
    matching characters before q is walked once per run (ends in one run share its start), and the ranges are merged
    before they are listed, so ends close together in a long run do not cost the run's length each."""
    spans: list[tuple[int, int]] = []
    run_start, run_end = -1, -1
    for q in sorted(ends, reverse=True):
        if not run_start <= q <= run_end:  # (within [run_start, run_end] every character before q matches)
            run_start = q
            while run_start > 0 and match(text, run_start - 1):
                run_start -= 1
            run_end = q
        lo, hi = max(run_start, q - most), q - least
        if lo <= hi:
            spans.append((lo, hi))
    out: set[int] = set()
    reach = -1
    for lo, hi in sorted(spans):
        lo = max(lo, reach + 1)
        if lo <= hi:
            out.update(range(lo, hi + 1))
            reach = hi
    return out


def walk_starts(text: str, walk: Walk, occurrences: list[int]) -> set[int]:
    """Positions of ``text`` where the walked alternative can start, given where its literals occur."""
    if walk.first_only:
        return {0} if text else set()
    return _back(text, set(occurrences), walk.steps)
