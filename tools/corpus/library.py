"""A directory of reference pages: BM25 search over their sections and budgeted reading.

Search ranks sections with BM25 over two fields, heading path (with the page
title) weighted above body text, after expanding acronyms both ways from the
glossary. Reading returns a page or any sections of it, cut to a token budget
at a section or paragraph boundary, and says what it returned and how to read on.
"""

from __future__ import annotations

import re
import threading
from pathlib import Path

from ..errors import InvalidQueryError, UnknownPageError, UnknownSectionError, argument
from .caller import read_call
from .glossary import glossary, glossary_matches, glossary_vocabulary
from .index import TYPO_MIN_CHARS, Index
from .models import (
    CHARS_PER_TOKEN,
    MAX_TOKENS,
    PageIndex,
    PageInfo,
    ReadRequest,
    ReadResult,
    SearchHit,
    SearchRequest,
    SearchResults,
    SectionInfo,
    SectionRead,
)
from .pages import Section, resolve_section, title_and_scope
from .text import tokenize

__all__ = ["Corpus"]

PAGE_ID = r"^[a-z0-9][a-z0-9-]{0,63}$"

HEADING_WEIGHT = 1.25
"""How much a match in the heading path counts against a match in the body."""

EXPANSION_WEIGHT = 0.3
"""Weight of query terms added by the glossary, against the user's own terms."""

MIN_RELATIVE_SCORE = 0.2
"""Hits scoring below this fraction of the best hit are dropped as noise."""

DISTINCT_PAGES_FIRST = 3
"""How many leading hits come from different pages (when that many pages match), with order 'pages_first'."""

GLOSSARY_PAGE_BOOST = 0.1
"""Light page prior: each glossary term found in the query (up to two) raises its defining page's sections by this fraction."""


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
        self._parsed: Index | None = None

    def _index(self) -> Index:
        """Sections and BM25 fields, built on first use (MCP runs sync tools on worker threads)."""
        with self._lock:
            if self._parsed is None:
                self._parsed = Index.build(self._markdown)
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
            for pid, (title, scope) in ((pid, title_and_scope(pid, md)) for pid, md in self._markdown.items())
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
        """The section ``section`` names: an anchor, a heading, or a unique start or part of one."""
        return resolve_section(self._index().by_page[self._check_page(page)], page, section)

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

    # --- search ---------------------------------------------------------------

    def search(self, request: SearchRequest) -> SearchResults:
        tokens = tokenize(request.query)
        if not tokens:
            raise InvalidQueryError(
                "query has no searchable words (only stopwords, symbols or whitespace); "
                "ask in words, e.g. 'how is TPOT computed'"
            )
        page = self._check_page(request.page) if request.page else None
        tokens = self._correct_typos(tokens)
        expanded, found = glossary_matches(tokens)
        scores = self._scores(tokens, expanded, [glossary()[n].page for n in found])
        order = sorted(
            (i for i, s in enumerate(self.sections) if scores[i] > 0 and (page is None or s.page == page)),
            key=lambda i: (-scores[i], i),
        )
        spread = page is None and request.order == "pages_first"
        lifted: set[int] = set()
        if order:
            floor = scores[order[0]] * MIN_RELATIVE_SCORE
            order = [i for i in order if scores[i] >= floor]
            if spread:
                order, lifted = self._spread(order)
            order = order[: request.k]
        if spread:
            described = (
                f"the first {DISTINCT_PAGES_FIRST} are the best section of {DISTINCT_PAGES_FIRST} different pages "
                "(so a question spanning pages shows each), the rest by score; "
                f"{argument('order')}='score' gives plain score order"
            )
        else:
            described = "by score, highest first"
        if not order:
            where = f"page {page!r}" if page else "the corpus"
            return SearchResults(
                query=request.query,
                expanded_terms=expanded,
                order=described,
                hits=[],
                truncated=False,
                note=f"no section of {where} matches; try other words, or list the pages and their sections "
                f"({_index_call()}).",
            )
        budget = request.max_tokens * CHARS_PER_TOKEN
        hits: list[SearchHit] = []
        for rank, i in enumerate(order):
            s = self.sections[i]
            # Share what is left fairly between this hit and the ones after it.
            share = max(400, budget // (len(order) - rank)) if rank < len(order) - 1 else budget
            text, next_offset = _cut(s.text, 0, share)
            budget -= len(text)
            hits.append(
                SearchHit(
                    page=s.page,
                    section=s.heading,
                    anchor=s.anchor,
                    heading_path=s.heading_path,
                    lines=f"{s.line_start}-{s.line_end}",
                    score=round(float(scores[i]), 4),
                    page_first=i in lifted,
                    text=text,
                    truncated=next_offset is not None,
                    next_offset=next_offset,
                )
            )
            if budget < 200 and rank < len(order) - 1:
                break
        left_out = len(order) - len(hits)
        cut = [h for h in hits if h.truncated]
        notes = []
        if cut:
            first = cut[0]
            notes.append(
                f"{len(cut)} hit(s) cut to fit {argument('max_tokens')}; read on with "
                f"`{read_call(first.page, [first.anchor], offset=first.next_offset or 0)}` "
                "(each cut hit gives its page, anchor and next_offset)."
            )
        if left_out:
            notes.append(
                f"{left_out} more hit(s) left out to fit {argument('max_tokens')}; raise it or lower {argument('k')}."
            )
        return SearchResults(
            query=request.query,
            expanded_terms=expanded,
            order=described,
            hits=hits,
            left_out=left_out,
            truncated=bool(cut or left_out),
            note=" ".join(notes),
        )

    def _spread(self, order: list[int]) -> tuple[list[int], set[int]]:
        """Best-first, except that the first DISTINCT_PAGES_FIRST hits come from different pages.

        A question often touches several pages; showing the best section of
        each first gives the reader the right page even when one page has many
        near-matching sections. Also returns the hits moved ahead of a better-scoring one.
        """
        sections = self.sections
        first: list[int] = []
        for i in order:
            if len(first) == DISTINCT_PAGES_FIRST:
                break
            if all(sections[j].page != sections[i].page for j in first):
                first.append(i)
        spread = first + [i for i in order if i not in first]
        lifted = {i for i in first if spread.index(i) < order.index(i)}
        return spread, lifted

    def _correct_typos(self, tokens: list[str]) -> list[str]:
        """Replace long words that neither the corpus nor the glossary knows by a corpus word one edit away."""
        parsed = self._index()
        known = glossary_vocabulary()
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

    # --- reading --------------------------------------------------------------

    def read(self, request: ReadRequest) -> ReadResult:
        from .reading import read_sections

        page = self._check_page(request.page.strip())
        wanted = [request.section] if isinstance(request.section, str) else list(request.section or [])
        wanted = [w for w in wanted if w.strip()] if wanted else []
        if request.section is not None and not wanted:
            raise UnknownSectionError(
                f"{argument('section')} is empty; omit it to read the page, or name a section of {page!r}"
            )
        budget = (MAX_TOKENS if request.whole_page else request.max_tokens) * CHARS_PER_TOKEN
        if not wanted:
            return read_sections(self, page, None, request, budget)
        chosen: list[Section] = []
        for name in wanted:
            s = self.find_section(page, name)
            if s not in chosen:
                chosen.append(s)
        spans = [(s, self.subtree_text(s)[1]) for s in chosen]
        # a section inside another one asked for is already in that one's text
        chosen = [s for s in chosen if not any(p is not s and p.line_start <= s.line_start <= end and p.level < s.level
                                               for p, end in spans)]
        return read_sections(self, page, chosen, request, budget)


def _index_call() -> str:
    """How the caller lists the pages and their sections."""
    from .caller import on_cli

    return "`lif read` with no page" if on_cli() else "the llm-inference://references resource"


def _cut(text: str, offset: int, max_chars: int, boundaries: tuple[int, ...] = ()) -> tuple[str, int | None]:
    """``text[offset:]`` cut to ``max_chars``; also the offset to read on from.

    The cut falls on a section boundary (absolute offsets in ``boundaries``) in the last
    quarter of the window when there is one, else on a paragraph, line or word break.
    """
    rest = text[offset:]
    if len(rest) <= max_chars:
        return rest, None
    inside = [b - offset for b in boundaries if offset + max_chars * 3 // 4 < b <= offset + max_chars]
    if inside:
        at = max(inside)
        return rest[:at].rstrip(), offset + at
    window = rest[:max_chars]
    for sep in ("\n\n", "\n", " "):
        at = window.rfind(sep)
        if at > max_chars // 2:
            return rest[:at].rstrip(), offset + at + len(sep)
    return window, offset + max_chars
