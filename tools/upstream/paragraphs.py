"""The paragraph audit: pages cut into units, normalised, and compared across two revisions.

A page is cut into units (paragraphs, list items, table rows, code blocks; headings, MDX
imports and admonition markers are not units) and each unit is normalised (link targets
dropped, images to ``[IMG]``, tags and emphasis stripped, quotes and whitespace unified). A
pinned unit is *retained verbatim* when its normalised text occurs in the newer text,
*retained* when its token-set containment against the best newer unit (or two adjacent newer
units) reaches the threshold, and *dropped* otherwise. The same test run the other way lists
*added* units.

Token-set containment = |content words of the old unit found in the new unit| / |content
words of the old unit|, after lower-casing, dropping stop words and a trailing plural "s".
A unit with fewer than ``MIN_UNIT_WORDS`` content words is too short to judge and is only
counted. The threshold (default 0.6, ``RETAINED_THRESHOLD``) is the one the merge audit
used to find counterparts: a reworded sentence keeps well over half of its content words, a
removed concept keeps a few generic ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Literal

from pydantic import BaseModel, Field

from .models import RETAINED_THRESHOLD, AuditResult, AuditUnit

__all__ = ["MIN_UNIT_WORDS", "Unit", "audit_revisions", "containment", "content_words", "split_units"]

MIN_UNIT_WORDS = 4
"""Units with fewer content words than this are too short to judge (counted, not listed)."""

EXCERPT_CHARS = 100


# --- units and normalisation -----------------------------------------------------


class Unit(BaseModel):
    """One auditable piece of a markdown page."""

    path: str
    index: int
    section: str | None
    kind: Literal["paragraph", "list_item", "table_row", "code_block"]
    text: str = Field(description="Normalised text (case kept, for excerpts).")
    words: frozenset[str] = Field(description="Content words used for containment.")

    @property
    def key(self) -> str:
        return self.text.lower()


_FRONT_MATTER = re.compile(r"\A---\s*\n.*?\n---\s*(\n|\Z)", re.S)
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$")
_LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_TABLE_SEPARATOR = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_MDX_STATEMENT = re.compile(r"^\s*(import|export)\s")
_ADMONITION = re.compile(r"^\s*:::")
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_IMG_TAG = re.compile(r"<img\b[^>]*>", re.I)
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_REF_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
_TAG = re.compile(r"</?[A-Za-z][^<>]*?/?>")
_EMPHASIS = re.compile(r"(?<![\w*_])[*_]{1,3}|[*_]{1,3}(?![\w*_])")
_WORD = re.compile(r"[a-z0-9]+(?:[.'+-][a-z0-9]+)*")
_TYPOGRAPHY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-",
                             "\u2014": "-", "\u00a0": " ", "\u2026": "..."})

_STOP_WORDS = frozenset(
    """a about above after again all also an and any are as at be because been before being below between
    both but by can could did do does doing down during each few for from further had has have having he her
    here hers him his how i if in into is it its itself just may me might more most must my no nor not now of
    off on once only or other our ours out over own same she should so some such than that the their theirs
    them then there these they this those through to too under until up very was we were what when where which
    while who whom why will with would you your yours""".split()
)


def content_words(text: str) -> frozenset[str]:
    """Lower-cased words minus stop words, a trailing plural "s" dropped (``caches`` = ``cache``)."""
    out = set()
    for word in _WORD.findall(text.lower()):
        if word in _STOP_WORDS:
            continue
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.add(word)
    return frozenset(out)


def containment(old: frozenset[str], new: frozenset[str]) -> float:
    """Share of ``old``'s content words found in ``new`` (0 when ``old`` is empty)."""
    return len(old & new) / len(old) if old else 0.0


def _normalise(text: str, *, code: bool = False) -> str:
    text = text.translate(_TYPOGRAPHY)
    if not code:
        text = _COMMENT.sub(" ", text)
        text = _IMAGE.sub(" [IMG] ", text)
        text = _IMG_TAG.sub(" [IMG] ", text)
        text = _LINK.sub(r"\1", text)
        text = _REF_LINK.sub(r"\1", text)
        text = _TAG.sub(" ", text)
        text = text.replace("`", "")
        text = _EMPHASIS.sub("", text)
        text = re.sub(r"\s*\|\s*", " | ", text).strip(" |")
    return " ".join(text.split())


def split_units(path: str, markdown: str) -> list[Unit]:
    """Cut a markdown/MDX page into units: paragraphs, list items, table rows and fenced code blocks.

    Front matter, headings (they set ``section``), MDX import/export lines, admonition markers
    (``:::note``) and separator rows of tables are not units. A line that is neither blank nor
    a new block continues the current paragraph or list item.
    """
    units: list[Unit] = []
    section: str | None = None
    buffer: list[str] = []
    kind = "paragraph"

    def emit(lines: list[str], unit_kind: str) -> None:
        raw = "\n".join(lines)
        if unit_kind == "code_block":
            text = _normalise(raw, code=True)
        else:
            if unit_kind == "list_item":
                raw = _LIST_ITEM.sub("", raw, count=1)
            text = _normalise(raw)
        if not text:
            return
        words = content_words(text.replace("[IMG]", " "))
        units.append(Unit(path=path, index=len(units), section=section, kind=unit_kind, text=text, words=words))

    def flush() -> None:
        nonlocal buffer
        if buffer:
            emit(buffer, kind)
            buffer = []

    lines = _FRONT_MATTER.sub("", markdown.replace("\r\n", "\n"), count=1).split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if fence:
            flush()
            marker = fence.group(1)
            block = []
            i += 1
            while i < len(lines) and not lines[i].strip().startswith(marker[0] * len(marker)):
                block.append(lines[i])
                i += 1
            emit(block, "code_block")
            i += 1
            continue
        stripped = line.strip()
        heading = _HEADING.match(line)
        if not stripped or _MDX_STATEMENT.match(line) or _ADMONITION.match(line):
            flush()
        elif heading:
            flush()
            section = _normalise(heading.group(1)) or None
        elif stripped.startswith("|"):
            flush()
            if not _TABLE_SEPARATOR.match(stripped):
                emit([stripped], "table_row")
        elif _LIST_ITEM.match(line):
            flush()
            buffer, kind = [stripped], "list_item"
        else:
            if not buffer:
                kind = "paragraph"
            buffer.append(stripped.removeprefix(">").strip())
        i += 1
    flush()
    return units


# --- the audit (pure) ---------------------------------------------------------------


class _Side:
    """The units of one revision, indexed for verbatim and containment look-ups."""

    def __init__(self, texts: Mapping[str, str]):
        self.units = {path: split_units(path, text) for path, text in sorted(texts.items())}
        self.joined = {path: " ".join(u.key for u in units) for path, units in self.units.items()}
        self.everything = "\n".join(self.joined.values())
        # Candidates: each unit, and each pair of adjacent units (a paragraph split in two).
        self.candidates: list[tuple[str, frozenset[str]]] = []
        self.by_path: dict[str, range] = {}
        for path, units in self.units.items():
            first = len(self.candidates)
            for j, unit in enumerate(units):
                self.candidates.append((path, unit.words))
                if j + 1 < len(units):
                    self.candidates.append((path, unit.words | units[j + 1].words))
            self.by_path[path] = range(first, len(self.candidates))
        self.postings: dict[str, list[int]] = {}
        for idx, (_, words) in enumerate(self.candidates):
            for word in words:
                self.postings.setdefault(word, []).append(idx)

    def best(self, words: frozenset[str], *, near: str | None = None, enough: float = 1.0) -> tuple[float, str | None]:
        """Best containment of ``words`` in one candidate; the page ``near`` is tried first."""
        if not words:
            return 0.0, None
        local = max((len(words & self.candidates[i][1]) for i in self.by_path.get(near, ())), default=0)
        if local / len(words) >= enough:
            return local / len(words), near
        counts: dict[int, int] = {}
        for word in words:
            for idx in self.postings.get(word, ()):
                counts[idx] = counts.get(idx, 0) + 1
        if not counts:
            return 0.0, None
        idx = max(counts, key=counts.__getitem__)
        return counts[idx] / len(words), self.candidates[idx][0]


def _compare(
    source: _Side, target: _Side, threshold: float, feeds_of: Callable[[str], list[str]]
) -> tuple[int, int, int, int, list[AuditUnit]]:
    checked = verbatim = close = short = 0
    missing: list[AuditUnit] = []
    for path, units in source.units.items():
        same_page = target.joined.get(path, "")
        for unit in units:
            checked += 1
            if unit.key in same_page or unit.key in target.everything:
                verbatim += 1
                continue
            if len(unit.words) < MIN_UNIT_WORDS:
                short += 1
                continue
            score, where = target.best(unit.words, near=path, enough=threshold)
            if score >= threshold:
                close += 1
                continue
            excerpt = unit.text if len(unit.text) <= EXCERPT_CHARS else unit.text[: EXCERPT_CHARS - 3] + "..."
            missing.append(
                AuditUnit(
                    path=path, index=unit.index, section=unit.section, kind=unit.kind,
                    score=round(score, 2), best_match=where, excerpt=excerpt, feeds=feeds_of(path),
                )
            )
    return checked, verbatim, close, short, missing


def audit_revisions(
    older: Mapping[str, str],
    newer: Mapping[str, str],
    *,
    threshold: float = RETAINED_THRESHOLD,
    feeds_of: Callable[[str], list[str]] | None = None,
) -> AuditResult:
    """Compare two revisions of some pages, unit by unit, in both directions.

    ``older`` and ``newer`` map a file path to its markdown. Every older unit is tested against
    all newer units (verbatim first, then token-set containment); ``dropped`` lists those below
    ``threshold``, ``added`` does the same the other way. ``feeds_of(path)`` names the reference
    pages a file feeds (default: none).

    >>> audit_revisions({"a.md": "KV cache grows with context length and batch size."},
    ...                 {"a.md": "The KV cache grows with batch size and context length."}).dropped
    []
    """
    feeds = feeds_of or (lambda _path: [])
    old_side, new_side = _Side(older), _Side(newer)
    checked, verbatim, close, short, dropped = _compare(old_side, new_side, threshold, feeds)
    *_, added = _compare(new_side, old_side, threshold, feeds)
    return AuditResult(
        threshold=threshold,
        files_compared=len(set(older) | set(newer)),
        units_checked=checked,
        retained_verbatim=verbatim,
        retained_close=close,
        too_short=short,
        dropped=dropped,
        added=added,
    )

