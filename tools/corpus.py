"""The reference corpus: pages split into sections, BM25 search, and paged reading.

Every ``references/*.md`` page is parsed with markdown-it-py and split at its
headings (levels 1 to 3) into sections that know their page, heading path,
anchor (GitHub's slug rules) and line range. Search ranks sections with BM25
(rank-bm25) over two fields, heading text (with the page title) weighted above
body text, after expanding acronyms both ways from ``data/glossary.json``.
Answers are cut to a token budget and say where to read on.
"""

from __future__ import annotations

import functools
import json
import re
import threading
from importlib import resources
from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from .errors import InvalidQueryError, UnknownPageError, UnknownSectionError

__all__ = [
    "CHARS_PER_TOKEN",
    "Corpus",
    "PageIndex",
    "PageInfo",
    "ReadRequest",
    "ReadResult",
    "SearchHit",
    "SearchRequest",
    "SearchResults",
    "Section",
    "SectionInfo",
    "default_corpus",
    "list_pages",
    "page_text",
    "read_reference",
    "search_references",
    "skill_text",
    "slugify",
]

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
"""The repository root in a checkout; the ``llm_inference_fundamentals`` folder when installed."""

CHARS_PER_TOKEN = 4
"""Budgets are in tokens, estimated as characters / 4 (English prose with markdown)."""

HEADING_WEIGHT = 1.25
"""How much a match in the heading path counts against a match in the body."""

EXPANSION_WEIGHT = 0.3
"""Weight of query terms added by the glossary, against the user's own terms."""

MIN_RELATIVE_SCORE = 0.2
"""Hits scoring below this fraction of the best hit are dropped as noise."""

DISTINCT_PAGES_FIRST = 3
"""How many leading hits come from different pages (when that many pages match)."""

GLOSSARY_PAGE_BOOST = 0.1
"""Light page prior: each glossary term found in the query (up to two) raises its defining page's sections by this fraction."""

TYPO_MIN_CHARS = 4
"""Query words (stemmed) at least this long that the corpus and glossary never use are matched to a corpus word one edit away."""

PAGE_ID = r"^[a-z0-9][a-z0-9-]{0,63}$"
MAX_QUERY_CHARS = 1000


# --- models -------------------------------------------------------------------


class Section(BaseModel):
    """One heading of a page and the lines under it, up to the next heading (levels 1-3)."""

    page: str = Field(description="Page id: the file name without .md.")
    page_title: str
    heading: str = Field(description="The heading text.")
    heading_path: list[str] = Field(description="Page title, then the parent headings, then this heading.")
    anchor: str = Field(description="The heading's anchor (GitHub slug rules).")
    level: int = Field(description="Heading level, 1 for the page title.")
    line_start: int = Field(description="First line (1-based) of the section, its heading.")
    line_end: int = Field(description="Last line (1-based) of the section, before the next heading.")
    text: str = Field(description="The section's markdown, heading included.")


class SearchRequest(BaseModel):
    """Arguments of ``search_references``."""

    model_config = ConfigDict(extra="forbid")

    query: Annotated[str, Field(min_length=1, max_length=MAX_QUERY_CHARS)] = Field(
        description="What to look for, in words: a question, acronyms or keywords."
    )
    k: int = Field(5, ge=1, le=20, description="How many sections to return at most (1-20).")
    page: str | None = Field(None, description="Only search this page id, e.g. 'metrics'. Omit for all pages.")
    max_tokens: int = Field(
        2000, ge=100, le=20000, description="Token budget for the whole answer (about 4 characters a token)."
    )


class SearchHit(BaseModel):
    """One matching section; ``text`` is cut to the budget when ``truncated``."""

    page: str = Field(description="Page id, usable with read_reference.")
    section: str = Field(description="Heading of the section.")
    anchor: str = Field(description="Anchor of the section; pass it as read_reference's section.")
    heading_path: list[str]
    lines: str = Field(description="Line range of the section in references/<page>.md, e.g. '40-72'.")
    score: float = Field(description="BM25 score (higher is better); only comparable within one answer.")
    text: str
    truncated: bool = Field(description="True when text stops before the end of the section.")
    next_offset: int | None = Field(
        description="When truncated: pass as read_reference's offset (with this page and section) to read on."
    )


class SearchResults(BaseModel):
    """The answer of ``search_references``."""

    query: str
    expanded_terms: list[str] = Field(description="Terms the glossary added to the query.")
    hits: list[SearchHit]
    truncated: bool = Field(description="True when the budget cut a hit's text or left out hits.")
    note: str = Field(description="How to read on, or why nothing was found.")

    def to_text(self) -> str:
        if not self.hits:
            return self.note
        parts = []
        for n, hit in enumerate(self.hits, 1):
            where = f"references/{hit.page}.md#{hit.anchor} (lines {hit.lines})"
            parts.append(f"[{n}] {' > '.join(hit.heading_path)}\n    {where}  score {hit.score:.2f}\n\n{hit.text.rstrip()}\n")
        if self.note:
            parts.append(self.note)
        return "\n".join(parts)


class ReadRequest(BaseModel):
    """Arguments of ``read_reference``."""

    model_config = ConfigDict(extra="forbid")

    page: Annotated[str, Field(min_length=1, max_length=200)] = Field(
        description="Page id, e.g. 'memory-sizing' (see the references index)."
    )
    section: str | None = Field(
        None, max_length=300, description="A heading's anchor or text, e.g. 'kv-cache-per-token'. Omit for the page."
    )
    offset: int = Field(0, ge=0, description="Character offset to start from (a previous answer's next_offset).")
    max_tokens: int = Field(
        2000, ge=100, le=20000, description="Token budget for the answer (about 4 characters a token)."
    )


class ReadResult(BaseModel):
    """The answer of ``read_reference``: a page or section, possibly cut to the budget."""

    page: str
    section: str | None = Field(description="Heading of the section read; None for the whole page.")
    anchor: str | None
    lines: str = Field(description="Line range read from references/<page>.md.")
    offset: int
    text: str
    truncated: bool
    next_offset: int | None = Field(description="When truncated: the offset to pass next time to read on.")
    total_chars: int = Field(description="Length of the whole page or section.")

    def to_text(self) -> str:
        return self.text


class SectionInfo(BaseModel):
    heading: str
    anchor: str
    level: int
    line: int


class PageInfo(BaseModel):
    id: str
    title: str
    scope: str = Field(description="The page's scope paragraph.")
    sections: list[SectionInfo]


class PageIndex(BaseModel):
    """Every reference page with its sections."""

    pages: list[PageInfo]

    def to_text(self) -> str:
        lines = ["# Reference corpus", ""]
        for page in self.pages:
            lines.append(f"## {page.id}: {page.title}")
            lines.append("")
            if page.scope:
                lines += [page.scope, ""]
            for s in page.sections:
                if s.level > 1:
                    lines.append(f"{'  ' * (s.level - 2)}- {s.heading} (#{s.anchor})")
            lines.append("")
        return "\n".join(lines).rstrip() + "\n"


# --- text processing ---------------------------------------------------------

_WORD = re.compile(r"[a-z0-9]+(?:[.'][a-z0-9]+)*")
_STOPWORDS = frozenset(
    """a an and are as at be been but by can could do does did for from had has have how i if in into is it
    its me my of on or our should so than that the their them then there these they this to us was we were
    what when where which while who why will with would you your i'm it's vs about any some get
    whats i've i'd i'll you're we're they're that's there's here's let's""".split()
)
_CLITIC = re.compile(r"'(?:s|re|ve|ll|d|m)$")
_MODEL_PLURAL = re.compile(r"^[a-z]+\d+s$")
_NUMBER_UNIT = re.compile(r"^(\d+(?:\.\d+)?)(gb|gib|mb|mib|tb|tib|ms|gbps)$")
"""'16gb' and '16 GB' are one quantity: the number and the unit become two words (model sizes like 70b stay whole)."""


@functools.lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    """A deliberately small stemmer (plurals, -ing, -ed, final e), enough to join cache/caches/caching/cached."""
    if len(word) <= 3 or not word.isalpha():
        return word[:-1] if _MODEL_PLURAL.match(word) else word  # h100s -> h100
    if word.endswith("ies") and len(word) > 4:
        word = word[:-3] + "y"
    elif word.endswith(("sses", "shes", "ches", "xes")):
        word = word[:-2]
    elif word.endswith("s") and (not word.endswith(("ss", "us", "is")) or word.endswith("pus")):  # gpus, cpus
        word = word[:-1]
    for suffix in ("ing", "ed"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("eed"):
            word = word[: -len(suffix)]
            if word[-1] == word[-2] and word[-1] not in "lsz":  # running -> run, but prefill, pass stay
                word = word[:-1]
            break
    if word.endswith("e") and len(word) > 3 and not word.endswith("ee"):
        word = word[:-1]
    return word


def tokenize(text: str) -> list[str]:
    """Lower-cased, stemmed words without stopwords; digits and dotted versions kept (p99, fp8, 3.1).

    Contractions and possessives lose their clitic ("vendor's" -> vendor, "doesn't" is a stopword), and a
    number glued to a memory or time unit is split ("80gb" -> 80 gb) to match how the pages write it.
    """
    words: list[str] = []
    for w in _WORD.findall(text.lower().replace("\u2019", "'")):
        if "'" in w:
            if w in _STOPWORDS or w.endswith("n't"):
                continue
            w = _CLITIC.sub("", w)
        if w in _STOPWORDS:
            continue
        if m := _NUMBER_UNIT.match(w):
            words += [m.group(1), m.group(2)]
        else:
            words.append(_stem(w))
    return words


def slugify(heading: str, seen: dict[str, int] | None = None) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens, repeats numbered."""
    slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
    if seen is not None:
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        if count:
            slug = f"{slug}-{count}"
    return slug


# --- glossary ----------------------------------------------------------------


class GlossaryEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    term: str
    forms: list[str] = Field(min_length=1, description="Other ways to write the term: expansions, spellings.")
    definition: str
    page: str
    source: str


@functools.cache
def glossary() -> tuple[GlossaryEntry, ...]:
    """The glossary that drives query expansion (``data/glossary.json``), validated once."""
    raw = json.loads(resources.files(__package__).joinpath("data/glossary.json").read_text(encoding="utf-8"))
    return tuple(GlossaryEntry.model_validate(entry) for entry in raw["entries"])


@functools.cache
def _expansion_table() -> dict[str, tuple[tuple[tuple[str, ...], tuple[tuple[str, ...], ...], int], ...]]:
    """First token -> (form tokens, other forms' tokens, entry number) for every form of every glossary term."""
    table: dict[str, list] = {}
    for n, entry in enumerate(glossary()):
        forms = [tuple(tokenize(f)) for f in [entry.term, *entry.forms]]
        forms = [f for f in dict.fromkeys(forms) if f]
        for f in forms:
            table.setdefault(f[0], []).append((f, tuple(o for o in forms if o != f), n))
    return {first: tuple(rows) for first, rows in table.items()}


def _glossary_matches(tokens: list[str]) -> tuple[list[str], list[int]]:
    """The terms the glossary adds (every other form of each term found) and the entries found, in order."""
    added: list[str] = []
    found: list[int] = []
    present = set(tokens)
    table = _expansion_table()
    for i, first in enumerate(tokens):
        for form, others, n in table.get(first, ()):
            if tuple(tokens[i : i + len(form)]) != form:
                continue
            if n not in found:
                found.append(n)
            for other in others:
                for tok in other:
                    if tok not in present and tok not in added:
                        added.append(tok)
    return added, found


def expand_query(tokens: list[str]) -> list[str]:
    """Terms the glossary adds: every other form of each term found in the query."""
    return _glossary_matches(tokens)[0]


@functools.cache
def _glossary_vocabulary() -> frozenset[str]:
    return frozenset(tok for entry in glossary() for f in [entry.term, *entry.forms] for tok in tokenize(f))


# --- parsing -----------------------------------------------------------------


@functools.cache
def _block_parser():
    """A CommonMark block parser; inline parsing is switched off (heading text is all we need)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark").enable("table").disable("inline")


def parse_page(page_id: str, markdown: str) -> list[Section]:
    """Split one page at its level 1-3 headings (markdown-it-py, so fenced '#' lines are not headings)."""
    tokens = _block_parser().parse(markdown)
    lines = markdown.splitlines()
    heads: list[tuple[int, int, str]] = []  # (level, 0-based line, text)
    for i, tok in enumerate(tokens):
        if tok.type == "heading_open" and tok.map is not None:
            level = int(tok.tag[1])
            if level <= 3:
                heads.append((level, tok.map[0], tokens[i + 1].content.strip()))
    if not heads or heads[0][1] > 0 and any(line.strip() for line in lines[: heads[0][1]]):
        heads.insert(0, (1, 0, page_id))
    title = next((text for level, _, text in heads if level == 1), page_id)
    seen: dict[str, int] = {}
    path: list[str] = []
    sections = []
    for n, (level, start, text) in enumerate(heads):
        end = heads[n + 1][1] if n + 1 < len(heads) else len(lines)
        while len(path) >= level:
            path.pop()
        path.append(text)
        heading_path = path if level == 1 else [title, *path[1:]]
        sections.append(
            Section(
                page=page_id,
                page_title=title,
                heading=text,
                heading_path=list(heading_path),
                anchor=slugify(text, seen),
                level=level,
                line_start=start + 1,
                line_end=max(start + 1, end),
                text="\n".join(lines[start:end]).strip("\n"),
            )
        )
    return sections


def _title_and_scope(page_id: str, markdown: str) -> tuple[str, str]:
    """The page title (its first '# ' line) and the first plain paragraph after it."""
    lines = markdown.splitlines()
    start = next((i for i, line in enumerate(lines) if line.startswith("# ")), None)
    if start is None:
        return page_id, ""
    title = lines[start][2:].strip()
    for para in re.split(r"\n\s*\n", "\n".join(lines[start + 1 :]).strip()):
        if para.lstrip().startswith("#"):
            break
        if para.strip() and not para.lstrip().startswith(("```", "|", "-", ">", "<")):
            return title, " ".join(para.split())
    return title, ""


# --- the index ---------------------------------------------------------------


class _Field:
    """One BM25 field (rank-bm25's Okapi weights), scored from postings: only the sections holding a term are touched."""

    def __init__(self, docs: list[list[str]]):
        import numpy as np
        from rank_bm25 import BM25Okapi

        bm25 = BM25Okapi(_nonempty(docs))
        self.size = len(bm25.doc_freqs)
        norm = bm25.k1 * (1 - bm25.b + bm25.b * np.asarray(bm25.doc_len, dtype=float) / bm25.avgdl)
        term_ids: dict[str, int] = {}
        rows: list[tuple[int, int, int]] = []  # (term id, section, term frequency)
        for d, freqs in enumerate(bm25.doc_freqs):
            rows += [(term_ids.setdefault(term, len(term_ids)), d, tf) for term, tf in freqs.items()]
        table = np.asarray(sorted(rows), dtype=float).reshape(-1, 3)
        tid, self._docs, tf = table[:, 0].astype(int), table[:, 1].astype(int), table[:, 2]
        idf = np.asarray([bm25.idf.get(term) or 0.0 for term in term_ids])
        self._weights = idf[tid] * tf * (bm25.k1 + 1) / (tf + norm[self._docs])
        bounds = np.searchsorted(tid, np.arange(len(term_ids) + 1))
        self.postings = {term: (int(bounds[i]), int(bounds[i + 1])) for term, i in term_ids.items()}
        """Term -> (start, end) of its sections and weights in the flat arrays."""

    def doc_count(self, term: str) -> int:
        start, end = self.postings.get(term, (0, 0))
        return end - start

    def get_scores(self, terms: list[str]):
        """Same figures as ``BM25Okapi.get_scores`` (a repeated term counts again)."""
        import numpy as np

        scores = np.zeros(self.size)
        for term in terms:
            if (span := self.postings.get(term)) is not None:
                scores[self._docs[span[0] : span[1]]] += self._weights[span[0] : span[1]]
        return scores


class _Parsed:
    """The parsed pages and the two BM25 fields over their sections."""

    def __init__(self, by_page: dict[str, list[Section]]):
        import numpy as np

        self.by_page = by_page
        self.sections = [s for secs in by_page.values() for s in secs]
        bodies = [tokenize(s.text.split("\n", 1)[1] if "\n" in s.text else "") for s in self.sections]
        heads = [tokenize(" ".join(s.heading_path)) for s in self.sections]
        self.body = _Field(bodies)
        self.head = _Field(heads)
        self.vocabulary = frozenset(self.body.postings) | frozenset(self.head.postings)
        pages = list(by_page)
        self.page_of = np.asarray([pages.index(s.page) for s in self.sections], dtype=int)
        self.page_ids = pages
        self._near: dict[str, list[str]] | None = None

    def correct(self, word: str) -> str | None:
        """The most frequent corpus word one edit (insert, delete, substitute, swap) from ``word``, if any."""
        if self._near is None:
            near: dict[str, list[str]] = {}
            for term in self.vocabulary:
                if len(term) >= TYPO_MIN_CHARS - 1 and term.isalpha():
                    near.setdefault(term, []).append(term)
                    for i in range(len(term)):
                        near.setdefault(term[:i] + term[i + 1 :], []).append(term)
            self._near = near
        keys = [word] + [word[:i] + word[i + 1 :] for i in range(len(word))]
        candidates = {term for key in keys for term in self._near.get(key, ())}
        if len(word) < TYPO_MIN_CHARS + 1:  # short words: only two swapped letters (cahc), not grab -> gram
            candidates = {t for t in candidates if len(t) == len(word) and sorted(t) == sorted(word)}
        if not candidates:
            return None
        return max(sorted(candidates), key=self.body.doc_count)

    @classmethod
    def build(cls, markdown: dict[str, str]) -> _Parsed:
        return cls({pid: parse_page(pid, md) for pid, md in markdown.items()})


class Corpus:
    """A directory of reference pages, parsed and indexed for search.

    Build one with ``Corpus.from_directory(path)``; the installed corpus is
    ``default_corpus()``. Pages are read once, at construction: page ids that
    come from a caller are only ever looked up in this table, never joined into
    a file path. Parsing and indexing wait for the first search or read, so a
    server lists its resources without paying for them.
    """

    def __init__(self, pages: dict[str, str]):
        self._markdown = dict(sorted(pages.items()))
        self._lock = threading.Lock()
        self._parsed: _Parsed | None = None

    def _index(self) -> _Parsed:
        """Sections and BM25 fields, built on first use (MCP runs sync tools on worker threads)."""
        with self._lock:
            if self._parsed is None:
                self._parsed = _Parsed.build(self._markdown)
            return self._parsed

    @property
    def sections(self) -> list[Section]:
        """Every section of every page, in page order."""
        return self._index().sections

    @classmethod
    def from_directory(cls, directory: Path) -> Corpus:
        """Read every ``*.md`` of ``directory`` except README.md (regular files only, no symlinks)."""
        pages = {}
        for path in sorted(Path(directory).glob("*.md")):
            if path.name.lower() == "readme.md" or path.is_symlink() or not path.is_file():
                continue
            if re.match(PAGE_ID, path.stem):
                pages[path.stem] = path.read_text(encoding="utf-8")
        return cls(pages)

    @property
    def page_ids(self) -> list[str]:
        return list(self._markdown)

    def _check_page(self, page: str) -> str:
        if page not in self._markdown:
            shown = page if len(page) <= 60 else page[:57] + "..."
            raise UnknownPageError(f"page {shown!r} not found; pages: {', '.join(self.page_ids)}")
        return page

    def summaries(self) -> list[PageInfo]:
        """Each page's id, title and scope, read from its text without building the index."""
        return [
            PageInfo(id=pid, title=title, scope=scope, sections=[])
            for pid, (title, scope) in ((pid, _title_and_scope(pid, md)) for pid, md in self._markdown.items())
        ]

    def index(self) -> PageIndex:
        by_page = self._index().by_page
        return PageIndex(
            pages=[
                info.model_copy(
                    update={
                        "sections": [
                            SectionInfo(heading=s.heading, anchor=s.anchor, level=s.level, line=s.line_start)
                            for s in by_page[info.id]
                        ]
                    }
                )
                for info in self.summaries()
            ]
        )

    def page_markdown(self, page: str) -> str:
        return self._markdown[self._check_page(page)]

    def find_section(self, page: str, section: str) -> Section:
        """A section by anchor, by heading text, or by a heading slugged the same way."""
        secs = self._index().by_page[self._check_page(page)]
        wanted = section.strip().lstrip("#").strip()
        for match in (
            lambda s: s.anchor == wanted,
            lambda s: s.heading.lower() == wanted.lower(),
            lambda s: s.anchor == slugify(wanted),
        ):
            for s in secs:
                if match(s):
                    return s
        anchors = ", ".join(s.anchor for s in secs if s.level > 1)
        shown = wanted if len(wanted) <= 60 else wanted[:57] + "..."
        raise UnknownSectionError(f"section {shown!r} not found on page {page!r}; sections: {anchors}")

    def subtree_text(self, section: Section) -> tuple[str, int]:
        """The section with its subsections (until the next heading of the same or a higher level)."""
        secs = self._index().by_page[section.page]
        i = secs.index(section)
        end = section.line_end
        for s in secs[i + 1 :]:
            if s.level <= section.level:
                break
            end = s.line_end
        lines = self._markdown[section.page].splitlines()
        return "\n".join(lines[section.line_start - 1 : end]).strip("\n"), end

    def search(self, request: SearchRequest) -> SearchResults:
        tokens = tokenize(request.query)
        if not tokens:
            raise InvalidQueryError(
                "query has no searchable words (only stopwords, symbols or whitespace); "
                "ask in words, e.g. 'how is TPOT computed'"
            )
        page = self._check_page(request.page) if request.page else None
        tokens = self._correct_typos(tokens)
        expanded, found = _glossary_matches(tokens)
        scores = self._scores(tokens, expanded, [glossary()[n].page for n in found])
        order = sorted(
            (i for i, s in enumerate(self.sections) if scores[i] > 0 and (page is None or s.page == page)),
            key=lambda i: (-scores[i], i),
        )
        if order:
            floor = scores[order[0]] * MIN_RELATIVE_SCORE
            order = [i for i in order if scores[i] >= floor]
            if page is None:
                order = self._spread(order)
            order = order[: request.k]
        if not order:
            where = f"page {page!r}" if page else "the corpus"
            return SearchResults(
                query=request.query,
                expanded_terms=expanded,
                hits=[],
                truncated=False,
                note=f"no section of {where} matches; try other words or read the index (read_reference without a section).",
            )
        budget = request.max_tokens * CHARS_PER_TOKEN
        hits: list[SearchHit] = []
        cut = False
        for rank, i in enumerate(order):
            s = self.sections[i]
            # Share what is left fairly between this hit and the ones after it.
            share = max(400, budget // (len(order) - rank)) if rank < len(order) - 1 else budget
            text, next_offset = _cut(s.text, 0, share)
            if next_offset is not None:
                cut = True
            budget -= len(text)
            hits.append(
                SearchHit(
                    page=s.page,
                    section=s.heading,
                    anchor=s.anchor,
                    heading_path=s.heading_path,
                    lines=f"{s.line_start}-{s.line_end}",
                    score=round(float(scores[i]), 4),
                    text=text,
                    truncated=next_offset is not None,
                    next_offset=next_offset,
                )
            )
            if budget < 200 and rank < len(order) - 1:
                cut = True
                break
        note = (
            "Some text was cut to fit max_tokens: call read_reference(page, section=anchor, offset=next_offset) to read on."
            if cut
            else ""
        )
        return SearchResults(query=request.query, expanded_terms=expanded, hits=hits, truncated=cut, note=note)

    def _spread(self, order: list[int]) -> list[int]:
        """Best-first, except that the first DISTINCT_PAGES_FIRST hits come from different pages.

        A question often touches several pages; showing the best section of
        each first gives the reader the right page even when one page has many
        near-matching sections.
        """
        sections = self.sections
        first: list[int] = []
        for i in order:
            if len(first) == DISTINCT_PAGES_FIRST:
                break
            if all(sections[j].page != sections[i].page for j in first):
                first.append(i)
        return first + [i for i in order if i not in first]

    def _correct_typos(self, tokens: list[str]) -> list[str]:
        """Replace long words that neither the corpus nor the glossary knows by a corpus word one edit away."""
        parsed = self._index()
        known = _glossary_vocabulary()
        out = []
        for tok in tokens:
            if len(tok) >= TYPO_MIN_CHARS and tok.isalpha() and tok not in parsed.vocabulary and tok not in known:
                tok = parsed.correct(tok) or tok
            out.append(tok)
        return out

    def _scores(self, tokens: list[str], expanded: list[str], glossary_pages: list[str] = ()):
        """BM25 over heading and body for the query's words, plus glossary expansions at a lower weight;
        then the light page prior: sections of a page that defines a glossary term in the query count a bit more."""
        import numpy as np

        parsed = self._index()
        scores = np.zeros(len(parsed.sections))
        for weight, terms in ((1.0, tokens), (EXPANSION_WEIGHT, expanded)):
            if terms:
                scores += weight * (parsed.body.get_scores(terms) + HEADING_WEIGHT * parsed.head.get_scores(terms))
        if glossary_pages:
            hits = np.zeros(len(parsed.page_ids))
            for pid in glossary_pages:
                if pid in parsed.page_ids:
                    hits[parsed.page_ids.index(pid)] += 1
            scores *= 1 + GLOSSARY_PAGE_BOOST * np.minimum(hits, 2)[parsed.page_of]
        return scores

    def read(self, request: ReadRequest) -> ReadResult:
        page = self._check_page(request.page.strip())
        if request.section:
            s = self.find_section(page, request.section)
            text, end = self.subtree_text(s)
            heading, anchor, first = s.heading, s.anchor, s.line_start
        else:
            text = self._markdown[page].strip("\n")
            heading, anchor, first, end = None, None, 1, len(self._markdown[page].splitlines())
        if request.offset > len(text):
            raise UnknownSectionError(
                f"offset {request.offset} is past the end of the text ({len(text)} characters); use 0 to {len(text)}"
            )
        body, next_offset = _cut(text, request.offset, request.max_tokens * CHARS_PER_TOKEN)
        if next_offset is not None:
            body += f"\n\n[truncated at character {next_offset} of {len(text)}: call read_reference again with offset={next_offset} to read on]"
        return ReadResult(
            page=page,
            section=heading,
            anchor=anchor,
            lines=f"{first}-{end}",
            offset=request.offset,
            text=body,
            truncated=next_offset is not None,
            next_offset=next_offset,
            total_chars=len(text),
        )


def _nonempty(docs: list[list[str]]) -> list[list[str]]:
    """BM25Okapi divides by zero when no document has a word; give it a word nobody can query."""
    return docs if any(docs) else [["\x00"]] * max(1, len(docs))


def _cut(text: str, offset: int, max_chars: int) -> tuple[str, int | None]:
    """``text[offset:]`` cut to ``max_chars`` at a paragraph or line break; also the offset to read on from."""
    rest = text[offset:]
    if len(rest) <= max_chars:
        return rest, None
    window = rest[:max_chars]
    for sep in ("\n\n", "\n", " "):
        at = window.rfind(sep)
        if at > max_chars // 2:
            return rest[:at].rstrip(), offset + at + len(sep)
    return window, offset + max_chars


# --- the installed corpus -----------------------------------------------------

_lock = threading.Lock()


@functools.cache
def _default_corpus() -> Corpus:
    return Corpus.from_directory(PACKAGE_ROOT / "references")


def default_corpus() -> Corpus:
    """The bundled corpus, built on first use (thread-safe: MCP runs sync tools on worker threads)."""
    with _lock:
        return _default_corpus()


def search_references(request: SearchRequest) -> SearchResults:
    """Search the bundled reference corpus; the best sections first, cut to the token budget."""
    return default_corpus().search(request)


def read_reference(request: ReadRequest) -> ReadResult:
    """Read a bundled reference page or section from ``offset``, cut to the token budget."""
    return default_corpus().read(request)


def list_pages() -> PageIndex:
    """The bundled pages with their titles, scopes and section anchors."""
    return default_corpus().index()


def page_text(page: str) -> str:
    """The markdown of one bundled page."""
    return default_corpus().page_markdown(page)


def skill_text() -> str:
    """The bundled SKILL.md."""
    return (PACKAGE_ROOT / "SKILL.md").read_text(encoding="utf-8")
