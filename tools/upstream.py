"""Upstream drift: what changed in the LLM Inference Handbook since the revisions we pinned.

Answers "which upstream pages changed, appeared or disappeared since our pin, which of our
reference pages does each one feed, and which pinned paragraphs have no close match in the
newer text?" The pins and the page map live in ``tools/data/upstream.json``.

How the check works, per repository (the Modular base and the older BentoML revision):

1. resolve the ref (``GET /repos/{repo}/commits/{ref}``) to a commit and its date;
2. list both trees (``GET /repos/{repo}/git/trees/{commit}?recursive=1``) and compare blob
   SHAs of the tracked files (``docs/**/*.md[x]`` plus component files named in the map):
   equal SHA = unchanged, otherwise changed, added or removed;
3. audit (optional): fetch the changed, added and removed pages from
   ``raw.githubusercontent.com`` at both commits, cut them into units (paragraphs, list
   items, table rows, code blocks; headings, MDX imports and admonition markers are not
   units) and normalise them (link targets dropped, images to ``[IMG]``, tags and emphasis
   stripped, quotes and whitespace unified). A pinned unit is *retained verbatim* when its
   normalised text occurs in the newer text, *retained* when its token-set containment
   against the best newer unit (or two adjacent newer units) reaches the threshold, and
   *dropped* otherwise. The same test run the other way lists *added* units.

Token-set containment = |content words of the old unit found in the new unit| / |content
words of the old unit|, after lower-casing, dropping stop words and a trailing plural "s".
A unit with fewer than ``MIN_UNIT_WORDS`` content words is too short to judge and is only
counted. The threshold (default 0.6, ``RETAINED_THRESHOLD``) is the one the merge audit
used to find counterparts: a reworded sentence keeps well over half of its content words, a
removed concept keeps a few generic ones.

Units are compared with the changed and added pages only: a paragraph that moved to
another page makes that page change too. A paragraph whose only surviving copy already sat
verbatim on an unchanged page is reported as dropped; check such hits by hand.

Set ``GITHUB_TOKEN`` to raise the GitHub API rate limit (60 requests an hour without it;
one check makes at most six API requests, the raw page fetches are not API requests).
Without network the check raises ``NetworkUnavailableError``.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Callable, Mapping
from importlib.resources import files
from typing import TYPE_CHECKING, Any, Literal, get_args
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .errors import InputFormatError, NetworkUnavailableError, UnknownRefError

if TYPE_CHECKING:
    import httpx

__all__ = [
    "AuditResult",
    "AuditUnit",
    "MIN_UNIT_WORDS",
    "PageChange",
    "PageMapEntry",
    "PinnedRevision",
    "REFERENCE_PAGE_IDS",
    "RETAINED_THRESHOLD",
    "RepoDrift",
    "Unit",
    "UpstreamData",
    "UpstreamReport",
    "UpstreamRequest",
    "audit_revisions",
    "check_upstream",
    "containment",
    "content_words",
    "split_units",
    "upstream_data",
]

GITHUB_API = "https://api.github.com"
GITHUB_RAW = "https://raw.githubusercontent.com"

RETAINED_THRESHOLD = 0.6
"""A pinned unit whose best containment score is below this counts as not retained."""

MIN_UNIT_WORDS = 4
"""Units with fewer content words than this are too short to judge (counted, not listed)."""

EXCERPT_CHARS = 100
MAX_FILE_BYTES = 1_000_000
"""Pages larger than this are listed as changed but left out of the audit."""

TIMEOUT_S = 30.0
FETCH_WORKERS = 8

PageId = Literal[
    "inference-mechanics",
    "metrics",
    "benchmarking",
    "memory-sizing",
    "batching",
    "prefix-caching",
    "speculative-decoding",
    "parallelism",
    "gpu-fundamentals",
    "infrastructure",
    "deployment",
]

REFERENCE_PAGE_IDS: tuple[str, ...] = get_args(PageId)
"""The eleven reference pages (``references/<id>.md``), in SKILL.md route order."""

_REF = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._/-]{0,199}$")


# --- the data file ------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class HandbookInfo(_Strict):
    title: str
    attribution: str
    docs_license: str
    code_license: str
    source: str


class PinnedRevision(_Strict):
    """One pinned upstream commit and the part it plays in the corpus."""

    key: Literal["modular", "bentoml"] = Field(description="Short name; also the CLI flag --<key>-ref.")
    repo: str = Field(description="GitHub owner/name.", pattern=r"^[\w.-]+/[\w.-]+$")
    commit: str = Field(description="Full commit SHA of the pin.", pattern=r"^[0-9a-f]{40}$")
    date: str = Field(description="Commit date (YYYY-MM-DD).", pattern=r"^\d{4}-\d{2}-\d{2}$")
    role: Literal["base", "older"] = Field(
        description="base: primary source of every page; older: used only for concepts the base dropped."
    )
    source: str


class TrackedFiles(_Strict):
    prefix: str
    suffixes: list[str]
    source: str


class PageMapEntry(_Strict):
    """Which reference pages one upstream file feeds."""

    feeds: list[PageId] = Field(description="Reference page ids fed by this file; empty when out of scope.")
    scope: Literal["in_scope", "fragments_only", "out_of_scope", "data_only"] = Field(
        description="in_scope: the page feeds ours directly; fragments_only: judged out of scope, a few "
        "fragments extracted; out_of_scope: feeds nothing; data_only: Apache-2.0 code, numbers and formulas only."
    )
    source: str
    note: str | None = None


class UpstreamData(_Strict):
    """``tools/data/upstream.json``: the pins, the licence facts and the page map."""

    about: str = Field(alias="_about")
    handbook: HandbookInfo
    revisions: list[PinnedRevision]
    tracked: TrackedFiles
    pages: dict[str, PageMapEntry]

    @field_validator("pages")
    @classmethod
    def _scope_matches_feeds(cls, pages: dict[str, PageMapEntry]) -> dict[str, PageMapEntry]:
        for path, entry in pages.items():
            if (entry.scope == "out_of_scope") != (not entry.feeds):
                raise ValueError(f"pages[{path!r}]: scope 'out_of_scope' exactly when feeds is empty")
        return pages

    def revision(self, key: str) -> PinnedRevision:
        return next(r for r in self.revisions if r.key == key)

    def is_tracked(self, path: str) -> bool:
        if path in self.pages:
            return True
        return path.startswith(self.tracked.prefix) and path.endswith(tuple(self.tracked.suffixes))


@functools.cache
def upstream_data() -> UpstreamData:
    """The pinned revisions and the upstream-page map (read and validated once)."""
    text = files(__package__).joinpath("data/upstream.json").read_text(encoding="utf-8")
    return UpstreamData.model_validate(json.loads(text))


# --- request and report ---------------------------------------------------------


class UpstreamRequest(BaseModel):
    """Which upstream refs to compare with the pins, and whether to run the paragraph audit."""

    model_config = ConfigDict(extra="forbid")

    modular_ref: str = Field(
        "main",
        min_length=1,
        max_length=200,
        description="Branch, tag or commit of modular/llm-inference-handbook to compare with the pinned base "
        "revision (default: main).",
    )
    bentoml_ref: str = Field(
        "main",
        min_length=1,
        max_length=200,
        description="Branch, tag or commit of bentoml/llm-inference-handbook to compare with the pinned older "
        "revision (default: main).",
    )
    audit: bool = Field(
        True,
        description="Run the paragraph-level audit on the pages that changed (fetches their text at both commits).",
    )
    threshold: float = Field(
        RETAINED_THRESHOLD,
        ge=0.05,
        le=1.0,
        description="Token-set containment below which an older paragraph counts as not retained (0.05-1.0).",
    )

    @field_validator("modular_ref", "bentoml_ref")
    @classmethod
    def _git_ref(cls, value: str) -> str:
        if not _REF.match(value) or ".." in value or value.endswith(("/", ".lock")):
            raise ValueError(
                "must be a branch, tag or commit SHA: letters, digits and . _ / -, starting with a letter or "
                "digit, no '..'"
            )
        return value


class PageChange(BaseModel):
    """One tracked upstream file that differs between the pin and the ref."""

    path: str = Field(description="Path in the upstream repository.")
    change: Literal["changed", "added", "removed"]
    feeds: list[str] = Field(description="Reference page ids this file feeds (from the page map).")
    status: Literal["mapped", "out_of_scope", "unmapped"] = Field(
        description="mapped: feeds our pages; out_of_scope: in the map, feeds none; unmapped: not in the map yet."
    )


class AuditUnit(BaseModel):
    """One unit (paragraph, list item, table row or code block) without a close match on the other side."""

    path: str = Field(description="The file the unit comes from.")
    index: int = Field(description="0-based position of the unit among the file's units.")
    section: str | None = Field(description="The nearest heading above the unit.")
    kind: Literal["paragraph", "list_item", "table_row", "code_block"]
    score: float = Field(description="Best token-set containment found on the other side (0-1).")
    best_match: str | None = Field(description="File of the best-matching unit on the other side.")
    excerpt: str = Field(description="The start of the normalised unit text.")
    feeds: list[str] = Field(description="Reference page ids fed by the unit's file.")


class AuditResult(BaseModel):
    """Paragraph-level comparison of the pinned and the newer text of the changed pages."""

    threshold: float
    files_compared: int = Field(description="Changed, added and removed pages whose text was compared.")
    units_checked: int = Field(description="Units of the pinned text that were tested.")
    retained_verbatim: int
    retained_close: int = Field(description="Retained after rewording (containment >= threshold).")
    too_short: int = Field(description="Units with fewer than MIN_UNIT_WORDS content words and no verbatim match.")
    dropped: list[AuditUnit] = Field(description="Pinned units whose concept has no close match in the newer text.")
    added: list[AuditUnit] = Field(description="Newer units with no close match in the pinned text.")
    skipped: list[str] = Field(default_factory=list, description="Pages left out of the audit, with the reason.")


class RepoDrift(BaseModel):
    """One upstream repository: its pin, the ref it was compared with, and what changed."""

    key: str
    repo: str
    role: Literal["base", "older"]
    pinned_commit: str
    pinned_date: str
    ref: str
    resolved_commit: str = Field(description="The commit the ref pointed to at check time.")
    resolved_date: str | None = Field(description="Committer date of the resolved commit (ISO 8601).")
    up_to_date: bool = Field(description="True when the ref resolves to the pinned commit or no tracked file differs.")
    tree_truncated: bool = Field(
        description="True when GitHub truncated a tree listing (the file list may be incomplete)."
    )
    changes: list[PageChange]
    audit: AuditResult | None = Field(description="None when the audit was not requested or nothing changed.")


class UpstreamReport(BaseModel):
    """Drift of the upstream handbook since the pins, and the reference pages it touches."""

    repos: list[RepoDrift]
    pages_to_review: list[str] = Field(description="Reference page ids fed by any changed, added or removed file.")
    unmapped: list[str] = Field(
        description="Upstream files not in the page map yet (add them to tools/data/upstream.json)."
    )
    notes: list[str] = Field(default_factory=list)

    def to_text(self) -> str:
        lines: list[str] = []
        for drift in self.repos:
            resolved = drift.resolved_commit[:7] + (f" ({drift.resolved_date[:10]})" if drift.resolved_date else "")
            lines.append(
                f"{drift.repo} [{drift.role}]: pin {drift.pinned_commit[:7]} ({drift.pinned_date}), "
                f"{drift.ref} -> {resolved}"
            )
            if drift.up_to_date:
                lines.append("  no tracked file changed since the pin")
            width = max((len(c.path) for c in drift.changes), default=0)
            for change in drift.changes:
                target = ", ".join(change.feeds) if change.feeds else change.status.replace("_", " ")
                lines.append(f"  {change.change:<8} {change.path:<{width}}  -> {target}")
            if drift.tree_truncated:
                lines.append("  warning: GitHub truncated a tree listing; the file list may be incomplete")
            if drift.audit is not None:
                lines.extend(_audit_lines(drift.audit))
            lines.append("")
        lines.append("Reference pages to review: " + (", ".join(self.pages_to_review) or "none"))
        if self.unmapped:
            lines.append("Unmapped upstream files (add to tools/data/upstream.json): " + ", ".join(self.unmapped))
        lines.extend(f"Note: {note}" for note in self.notes)
        return "\n".join(lines)


def _audit_lines(audit: AuditResult) -> list[str]:
    lines = [
        f"  audit of {audit.files_compared} files: {audit.units_checked} pinned units, "
        f"{audit.retained_verbatim} verbatim, {audit.retained_close} reworded, {audit.too_short} too short, "
        f"{len(audit.dropped)} dropped, {len(audit.added)} added (containment < {audit.threshold:.2f})"
    ]
    for label, units in (("dropped", audit.dropped), ("added", audit.added)):
        for unit in units:
            lines.append(f"    {label:<7} {unit.path} #{unit.index} {unit.kind} {unit.score:.2f}: {unit.excerpt}")
    lines.extend(f"    skipped {reason}" for reason in audit.skipped)
    return lines


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


# --- GitHub ---------------------------------------------------------------------------


class _GitHub:
    """The few GitHub requests the check needs, with errors a user can act on."""

    def __init__(self, client: httpx.Client):
        self.client = client

    def _get(self, url: str, *, what: str) -> httpx.Response:
        import httpx

        try:
            response = self.client.get(url)
        except httpx.TransportError as exc:
            host = httpx.URL(url).host
            raise NetworkUnavailableError(
                f"could not reach {host} ({type(exc).__name__}: {exc or 'no detail'}); the upstream check needs "
                "network access to api.github.com and raw.githubusercontent.com"
            ) from None
        if response.status_code == 401:
            raise NetworkUnavailableError("GitHub rejected the token in GITHUB_TOKEN (401); unset it or renew it")
        if response.status_code in (403, 429) and (
            response.headers.get("x-ratelimit-remaining") == "0" or "rate limit" in response.text.lower()
        ):
            raise NetworkUnavailableError(
                f"GitHub API rate limit reached while fetching {what} ({response.status_code}); set GITHUB_TOKEN "
                "to a personal access token, or retry after the reset time"
            )
        return response

    def _json(self, response: httpx.Response, what: str) -> Any:
        if response.status_code != 200:
            raise NetworkUnavailableError(f"GitHub answered {response.status_code} for {what} ({response.url})")
        try:
            return response.json()
        except ValueError:
            raise InputFormatError(f"GitHub's answer for {what} is not JSON ({response.url})") from None

    def resolve(self, repo: str, ref: str, *, flag: str) -> tuple[str, str | None]:
        what = f"ref {ref!r} of {repo}"
        response = self._get(f"{GITHUB_API}/repos/{repo}/commits/{quote(ref, safe='/')}", what=what)
        if response.status_code in (404, 422):
            raise UnknownRefError(
                f"{flag}: ref {ref!r} not found in {repo} (GitHub answered {response.status_code}); give a branch, "
                "a tag or a commit SHA of that repository"
            )
        data = self._json(response, what)
        try:
            return str(data["sha"]), data.get("commit", {}).get("committer", {}).get("date")
        except (KeyError, AttributeError, TypeError):
            raise InputFormatError(f"GitHub's answer for {what} has no commit sha ({response.url})") from None

    def tree(self, repo: str, commit: str) -> tuple[dict[str, tuple[str, int]], bool]:
        what = f"the file tree of {repo}@{commit[:12]}"
        response = self._get(f"{GITHUB_API}/repos/{repo}/git/trees/{commit}?recursive=1", what=what)
        if response.status_code in (404, 422):
            raise UnknownRefError(f"commit {commit} not found in {repo} (tree listing answered {response.status_code})")
        data = self._json(response, what)
        try:
            entries = {
                e["path"]: (e["sha"], int(e.get("size") or 0)) for e in data["tree"] if e.get("type") == "blob"
            }
        except (KeyError, TypeError, ValueError):
            raise InputFormatError(f"GitHub's answer for {what} is not a tree listing ({response.url})") from None
        return entries, bool(data.get("truncated"))

    def raw(self, repo: str, commit: str, path: str) -> str:
        url = f"{GITHUB_RAW}/{repo}/{commit}/{quote(path)}"
        response = self._get(url, what=f"{path} at {repo}@{commit[:12]}")
        if response.status_code != 200:
            raise NetworkUnavailableError(f"could not fetch {path} at {repo}@{commit[:12]} ({response.status_code})")
        return response.text


def _client(transport: httpx.BaseTransport | None) -> httpx.Client:
    import httpx

    headers = {
        "Accept": "application/vnd.github+json",
        "X-GitHub-Api-Version": "2022-11-28",
        "User-Agent": "llm-inference-fundamentals-upstream-check",
    }
    token = os.environ.get("GITHUB_TOKEN", "").strip()
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return httpx.Client(transport=transport, headers=headers, timeout=TIMEOUT_S, follow_redirects=True)


def _fetch_all(github: _GitHub, jobs: list[tuple[str, str, str]]) -> dict[tuple[str, str], str]:
    """Fetch (repo, commit, path) jobs in a small thread pool; keyed by (commit, path)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=FETCH_WORKERS) as pool:
        texts = list(pool.map(lambda job: github.raw(*job), jobs))
    return {(commit, path): text for (_, commit, path), text in zip(jobs, texts, strict=True)}


def _drift(
    github: _GitHub, data: UpstreamData, pin: PinnedRevision, ref: str, request: UpstreamRequest
) -> RepoDrift:
    resolved, resolved_date = github.resolve(pin.repo, ref, flag=f"--{pin.key}-ref")
    base = dict(
        key=pin.key, repo=pin.repo, role=pin.role, pinned_commit=pin.commit, pinned_date=pin.date,
        ref=ref, resolved_commit=resolved, resolved_date=resolved_date,
    )
    if resolved == pin.commit:
        return RepoDrift(**base, up_to_date=True, tree_truncated=False, changes=[], audit=None)

    old_tree, old_cut = github.tree(pin.repo, pin.commit)
    new_tree, new_cut = github.tree(pin.repo, resolved)
    old = {p: v for p, v in old_tree.items() if data.is_tracked(p)}
    new = {p: v for p, v in new_tree.items() if data.is_tracked(p)}
    changes = []
    for path in sorted(set(old) | set(new)):
        if path in old and path in new:
            if old[path][0] == new[path][0]:
                continue
            change = "changed"
        else:
            change = "removed" if path in old else "added"
        entry = data.pages.get(path)
        status = "unmapped" if entry is None else ("mapped" if entry.feeds else "out_of_scope")
        changes.append(PageChange(path=path, change=change, feeds=list(entry.feeds) if entry else [], status=status))

    audit = None
    if request.audit and changes:
        audit = _audit(github, data, pin, resolved, changes, old, new, request.threshold)
    return RepoDrift(
        **base, up_to_date=not changes, tree_truncated=old_cut or new_cut, changes=changes, audit=audit
    )


def _audit(
    github: _GitHub,
    data: UpstreamData,
    pin: PinnedRevision,
    resolved: str,
    changes: list[PageChange],
    old: dict[str, tuple[str, int]],
    new: dict[str, tuple[str, int]],
    threshold: float,
) -> AuditResult:
    skipped: list[str] = []
    jobs: list[tuple[str, str, str]] = []
    for change in changes:
        if not change.path.endswith((".md", ".mdx")):
            continue
        sizes = [old.get(change.path, ("", 0))[1], new.get(change.path, ("", 0))[1]]
        if max(sizes) > MAX_FILE_BYTES:
            skipped.append(f"{change.path}: larger than {MAX_FILE_BYTES:,} bytes")
            continue
        if change.path in old:
            jobs.append((pin.repo, pin.commit, change.path))
        if change.path in new:
            jobs.append((pin.repo, resolved, change.path))
    texts = _fetch_all(github, jobs)
    older = {path: text for (commit, path), text in texts.items() if commit == pin.commit}
    newer = {path: text for (commit, path), text in texts.items() if commit == resolved}

    def feeds_of(path: str) -> list[str]:
        entry = data.pages.get(path)
        return list(entry.feeds) if entry else []

    result = audit_revisions(older, newer, threshold=threshold, feeds_of=feeds_of)
    return result.model_copy(update={"skipped": skipped})


def check_upstream(request: UpstreamRequest, *, transport: httpx.BaseTransport | None = None) -> UpstreamReport:
    """Compare the upstream handbook at the given refs with our pinned revisions.

    Args:
        request: the refs to compare (default ``main`` for both repositories), whether to run the
            paragraph audit, and its threshold.
        transport: an httpx transport to use instead of the network (tests pass
            ``httpx.MockTransport``).

    Raises ``NetworkUnavailableError`` when GitHub cannot be reached (or rate-limits the check)
    and ``UnknownRefError`` when a ref does not exist.

    >>> report = check_upstream(UpstreamRequest(modular_ref="main", audit=False))  # doctest: +SKIP
    >>> report.pages_to_review  # doctest: +SKIP
    ['speculative-decoding', 'deployment']
    """
    data = upstream_data()
    refs = {"modular": request.modular_ref, "bentoml": request.bentoml_ref}
    with _client(transport) as client:
        github = _GitHub(client)
        repos = [_drift(github, data, pin, refs[pin.key], request) for pin in data.revisions]

    touched = {page for drift in repos for change in drift.changes for page in change.feeds}
    unmapped = sorted(
        {c.path for drift in repos for c in drift.changes if c.status == "unmapped" and c.change != "removed"}
    )
    notes = []
    if any(d.audit and d.audit.dropped for d in repos):
        notes.append(
            "dropped units are candidates, not verdicts: check each against the newer text before deciding that "
            "a concept is gone; concepts the base dropped stay in the corpus, sourced from the older revision "
            "(see references/README.md)"
        )
    if unmapped:
        notes.append("map new pages in tools/data/upstream.json (feeds: [] with scope out_of_scope if they feed none)")
    return UpstreamReport(
        repos=repos,
        pages_to_review=[p for p in REFERENCE_PAGE_IDS if p in touched],
        unmapped=unmapped,
        notes=notes,
    )
