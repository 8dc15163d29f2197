"""Where each statement of a benchmark write-up sits: markdown blocks with line maps.

``parse_writeup(text)`` splits markdown (or plain text, which parses as paragraphs) with
markdown-it-py into headings, paragraphs, list items, table rows, code blocks and HTML blocks.
Each block keeps its 1-based first and last source line and the heading it falls under, so an
audit can quote the exact line that declares a value and name the sections it searched when a
value is missing. Blocks hold the *raw* source lines (not rendered text): values hide in launch
commands, tables and footnotes, and a finding must quote what the author wrote.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["Block", "Hit", "Writeup", "parse_writeup"]


BlockKind = Literal["heading", "paragraph", "list_item", "table", "code", "html", "quote"]

_MARKUP = re.compile(r"[*`]")
_NEWLINE = re.compile(r"\r\n|\r|\n")


class Block(BaseModel):
    """One markdown block with its source lines."""

    model_config = ConfigDict(frozen=True)

    kind: BlockKind = Field(description="Block type from the markdown parse.")
    first_line: int = Field(description="1-based first source line of the block.", ge=1)
    last_line: int = Field(description="1-based last source line of the block.", ge=1)
    text: str = Field(description="Raw source lines of the block joined with newlines.")
    section: str = Field(description="Heading the block falls under ('(top)' before any heading).")
    level: int = Field(default=0, description="Heading level (1-6) for a heading block, 0 for other blocks.", ge=0, le=6)

    @property
    def plain(self) -> str:
        """The text with emphasis and code markers blanked (same length, same offsets)."""
        return _MARKUP.sub(" ", self.text)

    def line_of(self, offset: int) -> int:
        """1-based source line of a character offset into ``text``."""
        return self.first_line + self.text.count("\n", 0, max(0, offset))


class Hit(BaseModel):
    """A pattern match inside a block: the line it starts on and the quoted span."""

    model_config = ConfigDict(frozen=True)

    line: int
    text: str
    match: str
    block_index: int


class Writeup(BaseModel):
    """A parsed write-up: its lines, blocks and title."""

    lines: list[str]
    blocks: list[Block]
    title: str | None = Field(default=None, description="First heading, or the first line when there is none.")
    title_line: int | None = None

    def sections(self) -> list[str]:
        """Section names with their line ranges, in document order ('Setup (l. 5-20)')."""
        spans: dict[str, list[int]] = {}
        for block in self.blocks:
            span = spans.setdefault(block.section, [block.first_line, block.last_line])
            span[0] = min(span[0], block.first_line)
            span[1] = max(span[1], block.last_line)
        return [f"{name} (l. {a}-{b})" for name, (a, b) in spans.items()]

    def find(self, pattern: re.Pattern[str], *, kinds: tuple[str, ...] | None = None) -> Iterator[Hit]:
        """Every match of ``pattern`` in every block (optionally only some kinds), in order."""
        for index, block in enumerate(self.blocks):
            if kinds is not None and block.kind not in kinds:
                continue
            plain = block.plain
            for m in pattern.finditer(plain):
                line = block.line_of(m.start())
                yield Hit(line=line, text=quote_line(self.lines[line - 1], m.start() - _line_start(plain, m.start())),
                          match=m.group(0), block_index=index)


def _line_start(text: str, offset: int) -> int:
    return text.rfind("\n", 0, offset) + 1


def quote_line(line: str, column: int = 0, *, width: int = 160) -> str:
    """The source line, trimmed to ``width`` characters around ``column``."""
    stripped = line.strip()
    if len(stripped) <= width:
        return stripped
    lead = len(line) - len(line.lstrip())
    start = max(0, column - lead - width // 3)
    piece = stripped[start:start + width]
    return ("..." if start else "") + piece + ("..." if start + width < len(stripped) else "")


class _Dropped:
    """Stands in for a row or cell token of a table: takes the attributes the table rule sets, then is dropped."""

    map: Any
    attrs: Any
    content: Any
    children: Any


_TABLE_TOKENS = ("table_open", "table_close")


def _table_outline(table: Any, state: Any, start: int, end: int, silent: bool) -> bool:
    """markdown-it's own table rule (GFM, ``table``), keeping only the table_open and table_close tokens.

    A table becomes one block read from its source lines, so only where it starts and ends matters (the
    table_open token's map). The stock rule also pushes about five tokens per cell, which on a write-up
    made of tables was most of the parse. While it runs here, its other tokens go to a throw-away object:
    the stock rule still decides where every table starts and ends, so the blocks are the same.
    """
    if silent:  # asked only whether a table starts here (a paragraph's terminator check): no token is pushed
        return table(state, start, end, silent)
    push = state.push

    def outline_push(ttype: str, tag: str, nesting: int) -> Any:
        # the dropped tokens open and close in pairs inside the table, so the nesting level stays right
        return push(ttype, tag, nesting) if ttype in _TABLE_TOKENS else _Dropped()

    state.push = outline_push
    try:
        return table(state, start, end, silent)
    finally:
        del state.push  # back to StateBlock.push


def _cell_count(line: str) -> int:
    """How many cells the stock table rule splits a trimmed row into (``len`` of its ``escapedSplit`` with an empty
    first and last piece dropped), counted without splitting: a bar preceded by a backslash is cell text, every
    other bar separates; a leading bar and a trailing unescaped bar open and close the row (an empty line has none)."""
    bars = line.count("|") - line.count("\\|")
    return bars + 1 - (not line or line.startswith("|")) - (line.endswith("|") and not line.endswith("\\|"))


def _table_extent(table: Any, state: Any, start: int, end: int, silent: bool) -> bool:
    """markdown-it 4's table rule (GFM, ``table``) as ``_table_outline`` runs it: the same table_open and table_close
    tokens, with no token, cell split or cell trim per row.

    The stock rule itself decides whether a table starts at ``start`` (its silent call checks the header and
    delimiter rows). The rows are then walked as its loop walks them: a row ends the table where the stock rule
    stops (less indented, a block that interrupts a blockquote, a blank or code-indented line, or more than
    ``MAX_AUTOCOMPLETED_CELLS`` cells missing against the header), and only each row's cell count is taken.
    Used only with the markdown-it rule it mirrors (``_parser``); tests/test_audit_table_extent.py checks both agree.
    """
    if not table(state, start, end, True):
        return False
    if silent:
        return True
    trim, cap = table.__globals__["mdTrim"], table.__globals__["MAX_AUTOCOMPLETED_CELLS"]  # (the rule's own)
    src, begins, shifts, ends = state.src, state.bMarks, state.tShift, state.eMarks
    columns = _cell_count(trim(src[begins[start] + shifts[start]:ends[start]]))
    parent, state.parentType = state.parentType, "table"
    terminators = state.md.block.ruler.getRules("blockquote")
    token = state.push("table_open", "table", 1)
    token.map = extent = [start, 0]
    missing, line = 0, start + 2
    while line < end:
        if state.sCount[line] < state.blkIndent or any(rule(state, line, end, True) for rule in terminators):
            break
        row = trim(src[begins[line] + shifts[line]:ends[line]])
        if not row or state.is_code_block(line):
            break
        missing += columns - _cell_count(row)
        if missing > cap:
            break
        line += 1
    state.push("table_close", "table", -1)
    extent[1] = line
    state.parentType = parent
    state.line = line
    return True


def _mirrors(table: Any) -> bool:
    """Whether ``table`` is the markdown-it 4 rule that ``_table_extent`` walks as (rows trimmed with ``mdTrim``,
    a cap on missing cells); an older or newer rule is run through ``_table_outline`` instead."""
    names = table.__code__.co_names
    return "mdTrim" in names and "MAX_AUTOCOMPLETED_CELLS" in names and "escapedSplit" in names


@functools.cache
def _parser() -> Any:
    """CommonMark plus tables, block structure only: the inline pass (emphasis, links) is not needed and
    dominated parse time, and so did the tokens of table cells (``_table_extent``, ``_table_outline``)."""
    from markdown_it import MarkdownIt

    from markdown_it.rules_block.table import table

    md = MarkdownIt("commonmark").enable("table").disable("inline")
    # same rule chains as markdown-it's own table rule (parser_block.py): a table can interrupt a paragraph; the
    # stock rule is bound once here (the rule runs at every line of prose, as a paragraph's terminator check)
    rule = _table_extent if _mirrors(table) else _table_outline
    md.block.ruler.at("table", functools.partial(rule, table), {"alt": ["paragraph", "reference"]})
    return md


def parse_writeup(text: str) -> Writeup:
    """Parse markdown or plain text into blocks with 1-based line ranges.

    >>> w = parse_writeup("# Title\\n\\nRan on 8x H100.\\n")
    >>> [(b.kind, b.first_line, b.section) for b in w.blocks]
    [('heading', 1, 'Title'), ('paragraph', 3, 'Title')]
    """
    # Split exactly where markdown-it does (\r\n, \r, \n), not with str.splitlines(), which also breaks on
    # \x0b, \x0c, \x1c-\x1e, \x85, \u2028 and \u2029 and would shift every later line number.
    lines = _NEWLINE.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    tokens = _parser().parse(text)
    blocks: list[Block] = []
    section = "(top)"
    title: str | None = None
    title_line: int | None = None
    list_depth = 0
    quote_depth = 0
    covered_until = -1  # last 0-based line already inside a table/code/html block
    for i, tok in enumerate(tokens):
        if tok.type in ("bullet_list_open", "ordered_list_open"):
            list_depth += 1
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            list_depth -= 1
        elif tok.type == "blockquote_open":
            quote_depth += 1
        elif tok.type == "blockquote_close":
            quote_depth -= 1
        if tok.map is None or tok.map[0] <= covered_until:
            continue
        start, end = tok.map
        kind: BlockKind | None = None
        level = 0
        if tok.type == "heading_open":
            level = int(tok.tag[1:]) if tok.tag[1:].isdigit() else 1
            kind = "heading"
            heading = _heading_text(tokens[i + 1].content if i + 1 < len(tokens) else "")
            section = heading or section
            if title is None:
                title, title_line = heading, start + 1
        elif tok.type == "paragraph_open":
            kind = "list_item" if list_depth else ("quote" if quote_depth else "paragraph")
        elif tok.type in ("fence", "code_block"):
            kind = "code"
            covered_until = end - 1
        elif tok.type == "table_open":
            kind = "table"
            covered_until = end - 1
        elif tok.type == "html_block":
            # a caption or note written in HTML (<em>...</em> under a results image) is prose a reader sees; markup
            # alone (an image, a layout div) and HTML tables stay html
            kind = "paragraph" if _html_prose("\n".join(lines[start:end])) else "html"
            covered_until = end - 1
        if kind is None:
            continue
        end = max(end, start + 1)
        body = "\n".join(lines[start:end])
        blocks.append(Block(kind=kind, first_line=start + 1, last_line=end, text=body, section=section, level=level))
    if title is None:
        for n, line in enumerate(lines, 1):
            if line.strip():
                title, title_line = line.strip().lstrip("#").strip(), n
                break
    return Writeup(lines=lines, blocks=blocks, title=title, title_line=title_line)


_HTML_MARKUP = re.compile(r"<!--.*?(?:-->|$)|<[^<>]{0,2000}>", re.S)


def _html_prose(html: str) -> bool:
    """Whether an HTML block holds rendered sentences (six or more words outside its tags) and no table."""
    if re.search(r"<t[dhr]\b", html, re.I):
        return False
    return len(re.findall(r"[^\W\d_]{2,}", _HTML_MARKUP.sub(" ", html))) >= 6


_RULE_LINE = re.compile(r"[=\-~^*#+`:.'\"_]+")


def _heading_text(content: str) -> str:
    """A heading's words on one line; an reStructuredText over-line ('=====' above the title) is not a word."""
    return " ".join(part.strip() for part in content.splitlines() if part.strip() and not _RULE_LINE.fullmatch(part.strip()))
