"""Where a pattern's matches can start, found faster than ``re`` finds them by itself.

``re`` tries a pattern at every position of a text unless the pattern starts with a literal or a character
class (reading.firstchars). The audit's patterns are alternations of phrases behind ``\\b`` or look-behinds,
so a quarter megabyte is a quarter million tries of dozens of alternatives. ``matches`` gives the matches of
``rx.finditer(text)`` from far fewer tries:

- a top-level alternative whose every match starts with one of a few literals (after zero-width items:
  ``\\bvs``, ``(?:measured?|observed)\\s+``) can match only where one of them occurs, which ``str.find``
  finds in C;
- an alternative led by runs of character classes and then such a literal (``[\\w./-]+\\.sh``,
  ``\\b(?:\\w+\\s+)?(?:runs?|results?)``) can start only where walking back from an occurrence of the literal
  leads (reading.walkback): a word-class start would otherwise be tried at nearly every position;
- the other alternatives are searched as one regex (``rest``), behind a first-character skip that ``re``
  runs in C when their first characters leave out the common letters.

At each position where some alternative can match, in increasing order, the whole pattern is tried with
``rx.match(text, s)``: the very try ``finditer`` makes at ``s`` (it sees the whole text: look-behind and
``\\b`` before ``s``, look-ahead and ``$`` after). Spans, groups and the choice between alternatives are
therefore those of ``finditer``; only the positions where no alternative can match are not tried.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
import re
from dataclasses import dataclass
from re import _constants as c
from re import _parser

from .firstchars import first_class, guarded
from .searchform import search_form
from .walkback import Walk, walk_led, walk_starts

__all__ = ["Starts", "match_starts", "matches", "narrowed"]

_ZERO_WIDTH = (c.AT, c.ASSERT, c.ASSERT_NOT)
_REPEATS = (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT)
_LONGEST = 6
"""Literal starts are read up to this many characters: longer ones are no rarer in a write-up."""
_SHORTEST = 2
"""An alternative that can start with a shorter literal (a single digit, '-') is searched with the rest."""
_MOST = 300
_CHUNK = 32_768
"""Literal starts are looked up one chunk of text at a time: a reader that wants only the first match
(``Document.first``) does not pay for looking them up in the whole text."""
_BROAD = (r"\w", r"\W", r"\S", r"\D")
_MOST_FIRST = 32
"""A pattern with no literal-led or walked alternative is searched from its first characters (``_class_led``) only when
fewer than this many printable ASCII characters can start a match (a third of them): past that, nearly every position
of a text is tried either way, and each start found costs a try in Python."""
# Groups referred to by number or name: an alternative read on its own would refer to another group.
_REFERENCES = re.compile(r"\\[1-9]|\(\?P=|\(\?\(")


class _Open(Exception):
    """Some match can start without a literal of the wanted length."""


@dataclass(frozen=True)
class Starts:
    """The literals the literal-led alternatives of a pattern start with, the alternatives led by class runs
    (reading.walkback), and the other alternatives as one regex (None when there are none)."""

    literals: tuple[str, ...]
    rest: re.Pattern[str] | None
    walks: tuple[Walk, ...] = ()


def _alternatives(pattern: str) -> list[str]:
    """The top-level alternatives of ``pattern`` as written (split at each '|' outside groups and classes)."""
    parts, depth, start, k = [], 0, 0, 0
    while k < len(pattern):
        ch = pattern[k]
        if ch == "\\":
            k += 1
        elif ch == "[":  # a class: ']' right after '[' or '[^' is a literal, escapes are skipped
            k += 1
            k += pattern[k:k + 1] == "^"
            k += pattern[k:k + 1] == "]"
            while k < len(pattern) and pattern[k] != "]":
                k += 2 if pattern[k] == "\\" else 1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "|" and depth == 0:
            parts.append(pattern[start:k])
            start = k + 1
        k += 1
    parts.append(pattern[start:])
    return parts


def _literal_starts(items: list, prefix: str, out: set[str]) -> None:
    """Add to ``out`` the literal each match of ``items`` starts with (read up to ``_LONGEST`` characters,
    through groups, alternatives, required repeats and small classes of literals; a path stops at the first
    item that is none of these)."""
    if len(out) > _MOST:
        raise _Open
    if len(prefix) >= _LONGEST:
        out.add(prefix)
        return
    k = 0
    while k < len(items) and items[k][0] in _ZERO_WIDTH:
        k += 1  # \b, look-arounds: they consume nothing
    if k == len(items):
        out.add(prefix)
        return
    (op, av), rest = items[k], items[k + 1:]
    if op is c.LITERAL:
        _literal_starts(rest, prefix + chr(av), out)
    elif op is c.IN and len(av) <= 4 and all(o is c.LITERAL for o, _ in av):
        for _, a in av:
            _literal_starts(rest, prefix + chr(a), out)
    elif op is c.SUBPATTERN:
        if av[1] or av[2]:
            raise _Open  # inline flags in a group ('(?i:...)')
        _literal_starts(list(av[3]) + rest, prefix, out)
    elif op is c.ATOMIC_GROUP:
        _literal_starts(list(av) + rest, prefix, out)
    elif op is c.BRANCH:
        for alternative in av[1]:
            _literal_starts(list(alternative) + rest, prefix, out)
    elif op in _REPEATS and av[0] >= 1 and av[2].getwidth()[0] >= 1:  # one pass through the body, then the rest
        again = (op, (av[0] - 1, av[1] if av[1] == c.MAXREPEAT else av[1] - 1, av[2]))
        _literal_starts(list(av[2]) + [again] + rest, prefix, out)
    else:
        out.add(prefix)


def _led_literals(items: list) -> tuple[str, ...] | None:
    """The literals every match of ``items`` starts with (``_literal_starts``), when all are at least ``_SHORTEST``
    long and none starts with another one (it occurs only where that one does); else None."""
    found: set[str] = set()
    try:
        _literal_starts(items, "", found)
    except _Open:
        return None
    if not found or min(map(len, found)) < _SHORTEST:
        return None
    return tuple(sorted(lit for lit in found if not any(lit != o and lit.startswith(o) for o in found)))


def _rest(alternatives: list[str], flags: int) -> re.Pattern[str]:
    """The alternatives as one regex, behind a first-character skip that ``re`` runs in C
    (``[chars](?<=(?=rest)[\\s\\S])``: a character that can start a match, where the alternatives match),
    when their first characters leave out the word characters; else behind their first-character guard. Only where
    it matches is read: it is compiled in its search form (reading.searchform: alike alternatives share their start,
    runs that can give nothing back are possessive)."""
    pattern = "|".join(alternatives)
    chars = first_class(pattern, flags)
    if chars is None or any(broad in chars for broad in _BROAD):
        guard = guarded(pattern, flags)
        return search_form(guard.pattern if guard else pattern, flags)
    return search_form("[" + chars + "](?<=(?=" + pattern + r")[\s\S])", flags)


@functools.cache
def match_starts(pattern: str, flags: int) -> Starts | None:
    """How to find where the matches of a case-sensitive ``pattern`` can start, or None when that cannot be
    exact (verbose, inline flags, references to groups, matches of the empty string) or cannot help (no
    alternative starts with a literal or is walked, and the characters a match can start with are many: ``_class_led``)."""
    if (flags & (re.VERBOSE | re.IGNORECASE | re.LOCALE) or "(?#" in pattern or _REFERENCES.search(pattern)
            or pattern.startswith("(?") and pattern[2:3].isalpha()):
        return None
    try:
        tree = _parser.parse(pattern, flags)
        if tree.state.flags & (re.VERBOSE | re.IGNORECASE | re.LOCALE) or tree.getwidth()[0] == 0:
            return None
        literals: set[str] = set()
        rest: list[str] = []
        walks: list[Walk] = []
        for alternative in _alternatives(pattern):
            parsed = _parser.parse(alternative, flags)
            found: set[str] = set()
            try:
                _literal_starts(list(parsed), "", found)
            except _Open:
                found = set()
            if found and min(map(len, found)) >= _SHORTEST:
                literals |= found
            elif (walk := walk_led(parsed, flags, _led_literals)) is not None:
                walks.append(walk)
            else:
                rest.append(alternative)
        if not literals and not walks:
            return _class_led(pattern, flags)
        # a literal that starts with another one occurs only where that one does
        kept = tuple(sorted(lit for lit in literals if not any(lit != o and lit.startswith(o) for o in literals)))
        return Starts(kept, _rest(rest, flags) if rest else None, tuple(walks))
    except (re.error, RecursionError):
        return None


def _class_led(pattern: str, flags: int) -> Starts | None:
    """A plan for a pattern none of whose alternatives starts with a literal or is walked: the whole pattern as the
    ``rest``, led by the class of the characters a match can start with (``_rest``), when that class is narrow (no
    ``\\w``, ``\\W``, ``\\S``, ``\\D``; fewer than ``_MOST_FIRST`` printable ASCII characters, such as the digits of
    ``(?<![\\w.])(\\d+)\\s*x``). ``re`` then skips in C to the characters that can start a match, where the guarded
    pattern (reading.firstchars) is tested at every position; ``matches`` tries the pattern where the rest finds a
    start, which is where the pattern matches. None otherwise (``re`` skips ahead by itself, or the class is broad)."""
    chars = first_class(pattern, flags)
    if chars is None or any(broad in chars for broad in _BROAD):
        return None
    leading = re.compile("[" + chars + "]")
    if sum(1 for k in range(32, 127) if leading.match(chr(k))) >= _MOST_FIRST:
        return None
    return Starts((), _rest([pattern], flags))


def narrowed(starts: Starts | None, may_occur) -> Starts | None:
    """``starts`` without the literals ``may_occur`` says occur nowhere in the text to be read: a literal-led start
    that does not occur starts no match, and a walk none of whose literals occurs starts nothing (it is dropped).
    The same positions are tried; each literal left out is a search of every chunk saved."""
    if starts is None:
        return starts
    kept = tuple(lit for lit in starts.literals if may_occur(lit))
    walks = []
    for walk in starts.walks:
        if walk.first_only:
            walks.append(walk)
        elif held := tuple(lit for lit in walk.literals if may_occur(lit)):
            walks.append(walk if len(held) == len(walk.literals) else dataclasses.replace(walk, literals=held))
    if len(kept) == len(starts.literals) and len(walks) == len(starts.walks) and all(map(operator.is_, walks, starts.walks)):
        return starts
    return dataclasses.replace(starts, literals=kept, walks=tuple(walks))


def _occurrences(text: str, literals: tuple[str, ...], lo: int, hi: int) -> list[int]:
    """Positions in [lo, hi) where one of ``literals`` starts, in increasing order."""
    out = []
    for lit in literals:
        end = hi + len(lit) - 1
        k = text.find(lit, lo, end)
        while k >= 0:
            out.append(k)
            k = text.find(lit, k + 1, end)
    return sorted(out)


def _starts(text: str, starts: Starts, lo: int, hi: int) -> list[int]:
    """Positions in [lo, hi) where a literal-led or a walked alternative can start, in increasing order."""
    found = _occurrences(text, starts.literals, lo, hi)
    if starts.walks:  # (found for the whole text at once: a walk's starts lie before its literal, in any chunk)
        found = sorted(set(found).union(*(walk_starts(text, w, _occurrences(text, w.literals, 0, len(text)))
                                          for w in starts.walks)))
    return found


def matches(rx: re.Pattern[str], starts: Starts, text: str):
    """The matches of ``rx.finditer(text)``, in order, tried only where an alternative of ``rx`` can start.

    Why the same: ``finditer`` yields the match of ``rx`` at the least position ``s >= cur`` where ``rx``
    matches, then goes on from its end (``cur``; the match is not empty: ``match_starts`` refuses patterns
    that match the empty string). ``rx`` matches at ``s`` exactly when one of its top-level alternatives
    does (nothing follows them); a literal-led one only where one of ``starts.literals`` occurs, one led by class
    runs only where walking back from one of its literals leads (reading.walkback), the others
    where ``starts.rest`` matches, whose search from ``cur`` gives the least such position. So the least
    ``s`` is the first of these positions, tried in increasing order, where ``rx.match(text, s)`` succeeds,
    and that match is the one ``finditer`` makes there.
    """
    rest, cur = starts.rest, 0
    chunk = max(len(text), 1) if starts.walks else _CHUNK
    if rest is None:  # every alternative is literal-led: the same loop with no rest match to merge in
        match = rx.match
        for lo in range(0, len(text), chunk):
            for s in _starts(text, starts, lo, lo + chunk):
                if s >= cur:
                    m = match(text, s)
                    if m is not None:
                        yield m
                        cur = m.end()
        return
    following = rest.search(text)  # least start >= cur of a rest alternative
    for lo in range(0, len(text), chunk):
        hi = lo + chunk
        found = _starts(text, starts, lo, hi)
        k = 0
        while True:
            while k < len(found) and found[k] < cur:
                k += 1
            if following is not None and following.start() < cur:
                following = rest.search(text, cur)
            s = found[k] if k < len(found) else hi
            if following is not None and following.start() < s:
                s = following.start()
            if s >= hi:
                break  # nothing more starts in this chunk
            m = rx.match(text, s)
            if m is None:
                cur = s + 1
            else:
                yield m
                cur = m.end()
