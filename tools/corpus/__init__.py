"""The reference corpus: pages split into sections, BM25 search, and budgeted reading.

Every ``references/*.md`` page is parsed with markdown-it-py and split at its
headings (levels 1 to 3) into sections that know their page, heading path,
anchor (GitHub's slug rules) and line range. Search ranks sections with BM25;
reading returns a page or several sections cut to a token budget and says what
it returned and how to read on.

    text.py      words and anchors (tokenizer, stemmer, slugs)
    glossary.py  acronym expansion from data/glossary.json
    pages.py     sections of a page; finding one from what a caller typed
    index.py     the BM25 fields over all sections
    models.py    requests and answers
    library.py   ``Corpus``: search and read over a directory of pages
    reading.py   budgeted reading and its account of what was returned
    caller.py    "read on" spelled as the caller calls us (CLI or MCP)
"""

from __future__ import annotations

import functools
import threading
from pathlib import Path

from .glossary import GlossaryEntry, expand_query, glossary
from .library import Corpus
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
from .pages import Section, parse_page
from .text import slugify, tokenize

__all__ = [
    "CHARS_PER_TOKEN",
    "Corpus",
    "GlossaryEntry",
    "MAX_TOKENS",
    "PACKAGE_ROOT",
    "PageIndex",
    "PageInfo",
    "ReadRequest",
    "ReadResult",
    "SearchHit",
    "SearchRequest",
    "SearchResults",
    "Section",
    "SectionInfo",
    "SectionRead",
    "default_corpus",
    "expand_query",
    "glossary",
    "list_pages",
    "page_text",
    "parse_page",
    "read_reference",
    "search_references",
    "skill_text",
    "slugify",
    "tokenize",
]

PACKAGE_ROOT = Path(__file__).resolve().parent.parent.parent
"""The repository root in a checkout; the ``llm_inference_fundamentals`` folder when installed."""

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
    """Read a bundled reference page, or some of its sections, from ``offset``, cut to the token budget."""
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
