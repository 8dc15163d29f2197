"""Pages split into sections at their headings, and a section found from what a caller typed.

A caller names a section by its anchor, its heading, or a unique part of either
("effective prefill" finds "Effective prefill throughput"); a name that fits
several headings is refused with the candidates listed, never guessed.
"""

from __future__ import annotations

import functools
import re

from pydantic import BaseModel, Field

from ..errors import UnknownSectionError
from .text import slugify, tokenize

__all__ = ["Section", "parse_page", "resolve_section", "title_and_scope"]


class Section(BaseModel):
    """One heading of a page and the lines under it, up to the next heading (levels 1-3)."""

    page: str = Field(description="Page id: the file name without .md.")
    page_title: str = Field(description="The page's title (its level-1 heading).")
    heading: str = Field(description="The heading text.")
    heading_path: list[str] = Field(description="Page title, then the parent headings, then this heading.")
    anchor: str = Field(description="The heading's anchor (GitHub slug rules).")
    level: int = Field(description="Heading level, 1 for the page title.")
    line_start: int = Field(description="First line (1-based) of the section, its heading.")
    line_end: int = Field(description="Last line (1-based) of the section, before the next heading.")
    text: str = Field(description="The section's markdown, heading included.")


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


def title_and_scope(page_id: str, markdown: str) -> tuple[str, str]:
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


def resolve_section(sections: list[Section], page: str, wanted: str) -> Section:
    """The one section ``wanted`` names, tried in this order, first unique answer wins:

    1. exactly: its anchor, its heading (any case), or a heading that slugs to the same anchor;
    2. a prefix of an anchor or heading ("effective-prefill", "Effective prefill");
    3. a part of an anchor or heading ("prefill-throughput");
    4. every word of ``wanted`` in the heading, in any order ("throughput prefill").

    The page title (level 1) is matched only exactly. Several sections at one step is an
    error listing them; a section and its own subsections count as one, the parent.
    """
    name = wanted.strip().lstrip("#").strip()
    if not name:
        raise UnknownSectionError(f"empty section name on page {page!r}; sections: {_anchors(sections)}")
    slug, lower = slugify(name), name.lower()
    for exact in (
        lambda s: s.anchor == name,
        lambda s: s.heading.lower() == lower,
        lambda s: s.anchor == slug,
    ):
        if found := [s for s in sections if exact(s)]:
            return found[0]
    words = set(tokenize(name))
    steps = (
        lambda s: bool(slug) and s.anchor.startswith(slug) or s.heading.lower().startswith(lower),
        lambda s: bool(slug) and slug in s.anchor or lower in s.heading.lower(),
        lambda s: bool(words) and words <= set(tokenize(s.heading)),
    )
    body = [s for s in sections if s.level > 1]
    for step in steps:
        found = _outermost([s for s in body if step(s)], sections)
        if len(found) == 1:
            return found[0]
        if found:
            shown = ", ".join(s.anchor for s in found)
            raise UnknownSectionError(
                f"section {_shown(name)!r} matches {len(found)} headings on page {page!r}: {shown}; "
                "pass one of these anchors"
            )
    raise UnknownSectionError(f"section {_shown(name)!r} not found on page {page!r}; sections: {_anchors(sections)}")


def _outermost(found: list[Section], sections: list[Section]) -> list[Section]:
    """Drop matches that lie inside another match (a parent and its subsections name one place)."""
    keep = []
    for s in found:
        inside = any(
            p is not s and p.level < s.level and p.line_start < s.line_start <= _subtree_end(p, sections)
            for p in found
        )
        if not inside:
            keep.append(s)
    return keep


def _subtree_end(section: Section, sections: list[Section]) -> int:
    """The last line of ``section`` with its subsections."""
    end = section.line_end
    for s in sections[sections.index(section) + 1 :]:
        if s.level <= section.level:
            break
        end = s.line_end
    return end


def _anchors(sections: list[Section]) -> str:
    return ", ".join(s.anchor for s in sections if s.level > 1)


def _shown(name: str) -> str:
    return name if len(name) <= 60 else name[:57] + "..."
