"""Which of many texts hold a match of a pattern: the answers of ``rx.search`` on each, from one look over them all.

``Document`` asks, for thousands of blocks, whether each names an accelerator: a search of every block with a
pattern of dozens of product names, tried at most positions (the names start with a dozen different letters and
digits). ``holding`` looks for where the pattern's alternatives can start (reading.starts) once in the texts
joined, and tries the pattern only there, each try in the text's own string: the literal starts are found with
``str.find`` over the joined texts, and the other alternatives (``rest``) are searched text by text, behind the
first-character skip ``re`` runs in C.

Why the same: ``rx.search(t)`` finds a match exactly when ``rx.match(t, q)`` succeeds at some position q, and
there one of the top-level alternatives matches. A literal-led one starts with one of the plan's literals, which
then occurs in the joined texts at the text's offset plus q; a walked one (reading.walkback) starts where the walk
back from such an occurrence leads (the walk inside one text is the same in the joined texts) or, led by ``^``, at
q = 0; the others match where ``rest.search(t)`` finds them. Each candidate is tried with ``rx.match`` on its own
text, which sees that text as a search of it does (look-behind at its start, look-ahead and ``$`` at its end).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from re import _constants as c
from re import _parser

from .firstchars import guarded
from .starts import _occurrences, match_starts, narrowed
from .walkback import walk_starts

__all__ = ["holding", "optional"]

_JOIN = "\n\x1e\n"


def holding(rx: re.Pattern[str], texts: list[str], may_occur=None) -> list[bool]:
    """Per text, whether ``rx.search(text)`` finds a match (the same answers, found from fewer tries). A start literal
    ``may_occur`` rules out (it occurs in none of the texts) is not looked for (starts.narrowed)."""
    plan = match_starts(rx.pattern, rx.flags)
    if may_occur is not None:
        plan = narrowed(plan, may_occur)
    if plan is None:
        search = (guarded(rx.pattern, rx.flags) or rx).search  # (same matches, positions that cannot start one skipped)
        return [search(text) is not None for text in texts]
    bases, at = [], 0
    for text in texts:
        bases.append(at)
        at += len(text) + len(_JOIN)
    joined = _JOIN.join(texts)
    starts = set(_occurrences(joined, plan.literals, 0, len(joined)))
    for walk in plan.walks:
        starts |= set(bases) if walk.first_only else walk_starts(joined, walk, _occurrences(joined, walk.literals, 0, len(joined)))
    found = [False] * len(texts)
    match = rx.match
    for p in sorted(starts):
        k = bisect_right(bases, p) - 1
        if not found[k] and p - bases[k] < len(texts[k]) and match(texts[k], p - bases[k]):
            found[k] = True
    if plan.rest is not None:
        search = plan.rest.search
        for k, text in enumerate(texts):
            if not found[k] and search(text):
                found[k] = True
    return found


def optional(pattern: str) -> bool:
    """Whether ``pattern`` is one repeat that may be taken no times and holds no capturing group (``(?:NVIDIA\\s+)?``):
    a text holds a match of it followed by X exactly when it holds a match of X (the repeat taken no times where
    X matches; where it is taken, X matches where it ends)."""
    try:
        items = list(_parser.parse(pattern))
    except (re.error, RecursionError):
        return False
    return (len(items) == 1 and items[0][0] in (c.MAX_REPEAT, c.MIN_REPEAT) and items[0][1][0] == 0
            and "(" not in pattern.replace("(?:", ""))
