"""Requests and answers of ``search_references`` and ``read_reference``, and the page index."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "CHARS_PER_TOKEN",
    "MAX_TOKENS",
    "PageIndex",
    "PageInfo",
    "ReadRequest",
    "ReadResult",
    "SearchHit",
    "SearchRequest",
    "SearchResults",
    "SectionInfo",
    "SectionRead",
]

CHARS_PER_TOKEN = 4
"""Budgets are in tokens, estimated as characters / 4 (English prose with markdown)."""

MAX_TOKENS = 20000
"""The largest answer budget: every bundled page fits, and clients reject answers over 25,000 tokens."""

MAX_QUERY_CHARS = 1000
MAX_SECTIONS = 20
"""Sections one read may name."""


class SearchRequest(BaseModel):
    """Arguments of ``search_references``."""

    model_config = ConfigDict(extra="forbid")

    query: Annotated[str, Field(min_length=1, max_length=MAX_QUERY_CHARS)] = Field(
        description="What to look for, in words: a question, acronyms or keywords."
    )
    k: int = Field(5, ge=1, le=20, description="How many sections to return at most (1-20).")
    page: str | None = Field(None, description="Only search this page id, e.g. 'metrics'. Omit for all pages.")
    max_tokens: int = Field(
        2000, ge=100, le=MAX_TOKENS, description="Token budget for the whole answer (about 4 characters a token)."
    )
    order: Literal["pages_first", "score"] = Field(
        "pages_first",
        description="'pages_first' (default): the first 3 hits are the best section of 3 different pages, the "
        "rest follow by score, so a question spanning pages shows each page; 'score': strictly by score.",
    )


class SearchHit(BaseModel):
    """One matching section; ``text`` is cut to the budget when ``truncated``."""

    page: str = Field(description="Page id, usable with read_reference.")
    section: str = Field(description="Heading of the section.")
    anchor: str = Field(description="Anchor of the section; pass it as read_reference's section.")
    heading_path: list[str] = Field(description="Page title, parent headings, then this heading.")
    lines: str = Field(description="Line range of the section in references/<page>.md, e.g. '40-72'.")
    score: float = Field(description="BM25 score (higher is better); only comparable within one answer.")
    page_first: bool = Field(
        description="True when the hit was placed early as the best section of its page (order 'pages_first'), "
        "ahead of higher-scoring sections of pages already shown."
    )
    text: str = Field(description="The section's markdown, cut to the budget when truncated.")
    truncated: bool = Field(description="True when text stops before the end of the section.")
    next_offset: int | None = Field(
        description="When truncated: pass as read_reference's offset (with this page and section) to read on."
    )


class SearchResults(BaseModel):
    """The answer of ``search_references``."""

    query: str = Field(description="The query as given.")
    expanded_terms: list[str] = Field(description="Terms the glossary added to the query.")
    order: str = Field(description="How the hits are ordered, in one sentence.")
    hits: list[SearchHit] = Field(description="The matching sections, in the order described by 'order'.")
    left_out: int = Field(0, description="Matching sections left out because the token budget ran out.")
    truncated: bool = Field(description="True when the budget cut a hit's text or left out hits.")
    note: str = Field(description="How to read on (the exact call), or why nothing was found.")

    def to_text(self) -> str:
        if not self.hits:
            return self.note
        parts = [f"{len(self.hits)} hits; {self.order}\n"]
        for n, hit in enumerate(self.hits, 1):
            where = f"references/{hit.page}.md#{hit.anchor} (lines {hit.lines})"
            tag = "  (best of its page)" if hit.page_first else ""
            parts.append(
                f"[{n}] {' > '.join(hit.heading_path)}\n    {where}  score {hit.score:.2f}{tag}\n\n{hit.text.rstrip()}\n"
            )
        if self.note:
            parts.append(self.note)
        return "\n".join(parts)


class ReadRequest(BaseModel):
    """Arguments of ``read_reference``."""

    model_config = ConfigDict(extra="forbid")

    page: Annotated[str, Field(min_length=1, max_length=200)] = Field(
        description="Page id, e.g. 'memory-sizing' (see the references index)."
    )
    section: (
        Annotated[str, Field(max_length=300)]
        | Annotated[list[Annotated[str, Field(min_length=1, max_length=300)]], Field(min_length=1, max_length=MAX_SECTIONS)]
        | None
    ) = Field(
        None,
        description="Section to read: an anchor ('kv-cache-per-token'), a heading, or a unique start or part of "
        "one ('effective prefill'); a list reads several sections in one answer (up to 20). Omit for the page.",
    )
    offset: int = Field(0, ge=0, description="Character offset to start from (a previous answer's next_offset).")
    max_tokens: int = Field(
        2000, ge=100, le=MAX_TOKENS, description="Token budget for the answer (about 4 characters a token)."
    )
    whole_page: bool = Field(
        False,
        description="Read all of it in one answer: the budget becomes 20,000 tokens (every bundled page fits) "
        "and max_tokens is ignored.",
    )


class SectionRead(BaseModel):
    """One section of a read answer and how much of it the answer holds."""

    heading: str = Field(description="The section's heading.")
    anchor: str = Field(description="The section's anchor.")
    lines: str = Field(description="Line range of the section (with its subsections) in references/<page>.md.")
    chars: int = Field(description="Characters of this section in the answer's text.")
    total_chars: int = Field(description="Characters of the whole section (with its subsections).")
    complete: bool = Field(description="True when the answer holds all of the section.")


class ReadResult(BaseModel):
    """The answer of ``read_reference``: a page or some of its sections, possibly cut to the budget."""

    page: str = Field(description="Page id read.")
    section: str | None = Field(description="Heading of the section read when exactly one was asked; else None.")
    anchor: str | None = Field(description="Anchor of that section; else None.")
    lines: str = Field(description="Line range(s) read from references/<page>.md.")
    offset: int = Field(description="Character offset the text starts at.")
    text: str = Field(description="The markdown read (sections joined by a blank line), cut to the budget.")
    truncated: bool = Field(description="True when the text stops before the end of what was asked.")
    next_offset: int | None = Field(description="When truncated: the offset to pass next time to read on.")
    total_chars: int = Field(description="Length of everything asked (page or sections joined).")
    returned_chars: int = Field(description="Length of text.")
    sections: list[SectionRead] = Field(
        description="What the answer holds, section by section (the page's top-level sections for a page read)."
    )
    note: str = Field(description="What was returned, in one sentence, and the exact call that reads on.")

    def to_text(self) -> str:
        return f"{self.text.rstrip()}\n\n[{self.note}]"


class SectionInfo(BaseModel):
    heading: str = Field(description="The heading text.")
    anchor: str = Field(description="The heading's anchor.")
    level: int = Field(description="Heading level (1 is the page title).")
    line: int = Field(description="Line of the heading in references/<page>.md.")


class PageInfo(BaseModel):
    id: str = Field(description="Page id.")
    title: str = Field(description="Page title.")
    scope: str = Field(description="The page's scope paragraph.")
    sections: list[SectionInfo] = Field(description="The page's headings in order.")


class PageIndex(BaseModel):
    """Every reference page with its sections."""

    pages: list[PageInfo] = Field(description="The pages in id order.")

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
