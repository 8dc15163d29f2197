"""Budgeted reading of a page or of several of its sections, with an account of what was returned.

The text asked for (the page, or the chosen sections joined by a blank line) is
cut to the budget at a section boundary when one falls in the last quarter of
the window, else at a paragraph break. The answer lists each section with the
characters it holds of the section's total, and its note gives the exact call
that reads on, in the caller's spelling.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import UnknownSectionError, argument
from .caller import read_call
from .models import MAX_TOKENS, ReadRequest, ReadResult, SectionRead
from .pages import Section

if TYPE_CHECKING:
    from .library import Corpus

__all__ = ["read_sections"]

_DEFAULT_TOKENS = ReadRequest.model_fields["max_tokens"].default


class _Part:
    """One reported piece of the text: its section and its [start, end) span in the text."""

    def __init__(self, section: Section, start: int, end: int, last_line: int):
        self.section, self.start, self.end, self.last_line = section, start, end, last_line


def read_sections(corpus: Corpus, page: str, chosen: list[Section] | None, request: ReadRequest,
                  budget_chars: int) -> ReadResult:
    """Read the page (``chosen`` None) or the chosen sections, from ``request.offset``, within ``budget_chars``."""
    from .library import _cut

    markdown = corpus.page_markdown(page)
    lines = markdown.splitlines()
    starts = _line_starts(lines)
    secs = corpus._index().by_page[page]
    if chosen is None:
        text = markdown.strip("\n")
        lead = len(markdown) - len(markdown.lstrip("\n"))
        tops = [s for s in secs if s.level <= 2]
        parts = []
        for n, s in enumerate(tops):
            nxt = tops[n + 1].line_start if n + 1 < len(tops) else len(lines) + 1
            parts.append(_Part(s, starts[s.line_start - 1] - lead, min(starts[nxt - 1] - lead, len(text)), nxt - 1))
        boundaries = tuple(starts[s.line_start - 1] - lead for s in secs if s.level > 1)
    else:
        pieces, parts, inner, at = [], [], [], 0
        for s in chosen:
            piece, end_line = corpus.subtree_text(s)
            base = starts[s.line_start - 1]
            parts.append(_Part(s, at, at + len(piece), end_line))
            inner += [at + starts[t.line_start - 1] - base for t in secs if s.line_start <= t.line_start <= end_line]
            pieces.append(piece)
            at += len(piece) + 2
        text = "\n\n".join(pieces)
        boundaries = tuple(inner)
    if request.offset > len(text):
        raise UnknownSectionError(
            f"{argument('offset')} {request.offset} is past the end of the text ({len(text)} characters); "
            f"use 0 to {len(text)}"
        )
    body, next_offset = _cut(text, request.offset, budget_chars, boundaries)
    window_end = next_offset if next_offset is not None else len(text)
    reads = [
        SectionRead(
            heading=p.section.heading,
            anchor=p.section.anchor,
            lines=f"{p.section.line_start}-{p.last_line}",
            chars=max(0, min(p.end, window_end) - max(p.start, request.offset)),
            total_chars=p.end - p.start,
            complete=request.offset <= p.start and p.end <= window_end,
        )
        for p in parts
    ]
    anchors = [s.anchor for s in chosen] if chosen else []
    one = chosen[0] if chosen and len(chosen) == 1 else None
    return ReadResult(
        page=page,
        section=one.heading if one else None,
        anchor=one.anchor if one else None,
        lines=", ".join(r.lines for r in reads) if chosen else f"1-{len(lines)}",
        offset=request.offset,
        text=body,
        truncated=next_offset is not None,
        next_offset=next_offset,
        total_chars=len(text),
        returned_chars=len(body),
        sections=reads,
        note=_note(page, anchors, reads, request, len(body), len(text), next_offset),
    )


def _line_starts(lines: list[str]) -> list[int]:
    """Character offset of every line in the page, plus one past the end."""
    starts, at = [], 0
    for line in lines:
        starts.append(at)
        at += len(line) + 1
    starts.append(at)
    return starts


def _note(page: str, anchors: list[str], reads: list[SectionRead], request: ReadRequest, returned: int,
          total: int, next_offset: int | None) -> str:
    """One sentence: what the text holds, whether it was cut, and the exact call that reads on."""
    what = f"page {page}" if not anchors else f"{page}: " + ", ".join(f"#{a}" for a in anchors)
    span = f"characters {request.offset:,}-{request.offset + returned:,} of {total:,}"
    if next_offset is None and request.offset == 0:
        return f"Read {what}: all {total:,} characters, complete."
    done = [r.anchor for r in reads if r.complete]
    partial = [r.anchor for r in reads if not r.complete and r.chars > 0]
    missing = [r.anchor for r in reads if r.chars == 0]
    parts = [f"Read {what}: {span}"]
    if done:
        parts.append("complete: " + ", ".join(done))
    if partial:
        parts.append("partly: " + ", ".join(partial))
    if next_offset is None:
        return "; ".join(parts) + "; the rest was read before this offset."
    if missing:
        parts.append("not reached: " + ", ".join(missing[:12]) + (" ..." if len(missing) > 12 else ""))
    call = read_call(page, anchors, offset=next_offset, whole_page=request.whole_page,
                     max_tokens=None if request.whole_page or request.max_tokens == _DEFAULT_TOKENS else request.max_tokens)
    tail = f"cut to fit the budget; read on with `{call}`"
    if not request.whole_page and total <= MAX_TOKENS * 4:
        tail += f", or get all of it in one answer with `{read_call(page, anchors, whole_page=True)}`"
    return "; ".join(parts) + "; " + tail + "."
