"""Tables as data: every cell with the header, row label, caption and headings that say what it holds.

A number in a table means little on its own: "31.98" is a median TTFT in milliseconds because the
column header says "Median TTFT (ms)", the heading above says "Llama 3.1 8B Instruct on 1x A100"
and the caption says the runs were online serving. ``read_tables`` finds every table of a write-up
and gives its header cells, its rows of cells (each with its offset in the block and its source
line), its caption (a short paragraph right before it, or a "Table ..." line after it), the chain
of headings above it, and a glossary of the abbreviations defined just above it ("`FTL`: first token
latency").

Table forms read:

- markdown pipe tables (markdown-it ``table`` blocks, and pipe tables printed inside code blocks, as
  ``llama-bench`` prints them);
- HTML tables (``<tr>``/``<td>``/``<th>``, with ``rowspan`` and ``colspan`` spread over the grid,
  ``<caption>``, several header rows joined per column);
- reStructuredText grid tables (``+----+`` borders, ``+====+`` under the header) and simple tables
  (``=====  =====`` rules), found in the source lines whatever block the markdown parse made of them.

``cell_meaning`` joins the labels a reader uses to interpret one cell; ``labelled_cells`` finds the
cells whose column header or row label names a setting or metric.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from .blocks import Block
from .tableforms import Cell, box_tables, clean, code_pipe_tables, grid_table, html_table, line_offsets, pipe_table, rst_tables, simple_table

__all__ = ["Cell", "Table", "cell_meaning", "heading_chains", "labelled_cells", "read_tables"]

_DEFINITION = re.compile(r"^\W{0,4}`?([\w%()./ +-]{1,32}?)`?\s*(?:[:：=]|\s[-–—]\s)\s*(.{3,200})$")
_CAPTION = re.compile(r"^\s*(?:\*\*)?(?:table|figure|fig\.|tab\.|表|图|図)\s*\d*", re.I)


@dataclass
class Table:
    """A table read as data: header cells, rows of cells, and what stands around it."""

    block: int
    header: list[Cell]
    rows: list[list[Cell]]
    caption: str = ""
    heading: str = ""
    glossary: dict[str, str] = field(default_factory=dict)
    headings: list[str] = field(default_factory=list)
    kind: str = "pipe"

    def column(self, col: int) -> list[Cell]:
        """The body cells of column ``col``."""
        return [r[col] for r in self.rows if col < len(r)]

    @functools.cached_property
    def glossed(self) -> tuple[list[str], list[str]]:
        """Each header cell's text and each row label (a row's first cell) followed by its glossary definition: what
        a label pattern is searched in (``labelled_cells``), read once per table rather than once per pattern."""
        names = [row[0].text if row else "" for row in self.rows]
        return ([h.text + " " + _gloss(self, h.text) for h in self.header], [name + " " + _gloss(self, name) for name in names])

    def label(self, row: int) -> str:
        """The row label (first cell) of body row ``row``."""
        cells = self.rows[row]
        return cells[0].text if cells else ""

    @property
    def context(self) -> str:
        """Caption and headings above the table, nearest last."""
        return " ".join([*self.headings, self.caption]).strip()


# ------------------------------------------------------------------ context
def heading_chains(blocks: list[Block]) -> list[list[str]]:
    """For each block, the headings it sits under, outermost first (one pass over the document)."""
    out: list[list[str]] = []
    stack: list[tuple[int, str]] = []
    for b in blocks:
        if b.kind == "heading":
            while stack and stack[-1][0] >= b.level:
                stack.pop()
            out.append([t for _, t in stack])
            title = " ".join(x for x in b.text.split("\n") if x.strip(" =-"))  # a setext underline is no text
            stack.append((b.level, clean(title.strip().strip("#"))))
        else:
            out.append([t for _, t in stack])
    return out


def _glossary(blocks: list[Block], index: int) -> dict[str, str]:
    """Abbreviations defined in the list items and lines just above the table (same section)."""
    out: dict[str, str] = {}
    section = blocks[index].section
    for k in range(index - 1, max(-1, index - 25), -1):
        b = blocks[k]
        if b.section != section or b.kind in ("heading", "table"):
            break
        for line in b.text.split("\n")[:50]:
            m = _DEFINITION.match(re.sub(r"[*_`]", "", line).strip())
            if m:
                out.setdefault(m.group(1).strip().lower(), m.group(2).strip())
    return out


def _caption(blocks: list[Block], i: int, texts: list[str]) -> str:
    caption = ""
    b = blocks[i]
    if i > 0 and blocks[i - 1].kind == "paragraph" and blocks[i - 1].section == b.section:
        prev = clean(texts[i - 1])
        if len(prev) < 300 and (prev.endswith((":", "：")) or _CAPTION.match(prev) or len(prev) < 120):
            caption = prev
    if i + 1 < len(blocks) and blocks[i + 1].kind == "paragraph" and _CAPTION.match(texts[i + 1]):
        caption = (caption + " " + clean(texts[i + 1])).strip()
    return caption[:300]


def _block_of_line(blocks: list[Block], line: int, hint: int) -> int | None:
    for k in range(max(0, hint), len(blocks)):
        if blocks[k].first_line <= line <= blocks[k].last_line:
            return k
        if blocks[k].first_line > line:
            return None
    return None


def read_tables(blocks: list[Block], texts: list[str] | None = None, lines: list[str] | None = None) -> list[Table]:
    """Every table of the document as data, in document order.

    ``texts`` are the blocks' texts to read the cells from (default: the raw text; the audit passes
    the masked copies, same offsets, so comments, link targets and placeholders are not read as
    values); ``lines`` are the source lines, where reStructuredText tables are looked for.
    """
    texts = texts if texts is not None else [b.text for b in blocks]
    chains = heading_chains(blocks)
    out: list[Table] = []

    def add(i: int, header: list[Cell], rows: list[list[Cell]], kind: str, caption: str = "") -> None:
        if not rows and not header:
            return
        heads = chains[i]
        out.append(Table(block=i, header=header, rows=rows, caption=(caption or _caption(blocks, i, texts))[:300],
                         heading=heads[-1][:200] if heads else "", glossary=_glossary(blocks, i),
                         headings=[h[:200] for h in heads], kind=kind))

    for i, b in enumerate(blocks):
        text = texts[i]
        if b.kind == "table":
            split = text.split("\n")
            found = pipe_table(split, line_offsets(split), b.first_line)
            if found:
                add(i, found[0], found[1], "pipe")
        elif b.kind == "html" and re.search(r"<t[dh]\b", text, re.I):
            found_html = html_table(text, b.first_line)
            if found_html:
                add(i, found_html[0], found_html[1], "html", found_html[2])
        elif b.kind == "code":
            if "|" in text and "-" in text:
                for header, rows, _ in code_pipe_tables(text, b.first_line):
                    add(i, header, rows, "pipe-in-code")
            if "│" in text or "┃" in text or "║" in text:
                for header, rows in box_tables(text, b.first_line):
                    add(i, header, rows, "box")
    if lines is not None and any(("+-" in line or "==" in line) for line in lines):
        hint = 0
        for a, e, kind in rst_tables(lines):
            i = _block_of_line(blocks, a + 1, hint)
            if i is None:
                continue
            hint = i
            base = sum(len(x) + 1 for x in lines[blocks[i].first_line - 1:a])
            chunk = lines[a:e]
            offsets = [base + o for o in line_offsets(chunk)]
            found_rst = (grid_table if kind == "rst-grid" else simple_table)(chunk, offsets, a + 1)
            if found_rst:
                add(i, found_rst[0], found_rst[1], kind)
        out.sort(key=lambda t: t.block)
    return out


# ------------------------------------------------------------------ reading cells
def _gloss(table: Table, text: str) -> str:
    if not table.glossary:
        return ""  # most tables define no abbreviations: nothing to look up
    key = (re.sub(r"\(.*?\)", "", text) if "(" in text else text).strip().lower()
    return table.glossary.get(key) or table.glossary.get(text.strip().lower()) or ""


_NUMERIC_HEADER = re.compile(r"\s*\d[\d.,]*\s*")


def cell_meaning(table: Table, row: int, col: int) -> tuple[str, str, str]:
    """(column meaning, row meaning, context) for one cell: header and row label with their glossary
    definitions, and the caption and headings above the table."""
    head = table.header[col].text if col < len(table.header) else ""
    cells = table.rows[row]
    label = cells[0].text if cells else ""
    # A row whose metric sits in a later text column ("| model | dtype | GPUs | ISL/OSL | Time-to-first-token(sec) | 0.1 | ...")
    # under a numeric header (the concurrency levels): the words of the text cells left of the figure label the row.
    if 0 < col < len(cells) and col < len(table.header) and _NUMERIC_HEADER.fullmatch(table.header[col].text or ""):
        words = [c.text for c in cells[1:col] if c.text and not re.search(r"\d", c.text)]
        label = " ".join([label] + words).strip()
    column = (head + " " + _gloss(table, head)).strip()
    row_text = (label + " " + _gloss(table, label)).strip() if col > 0 else ""
    return column, row_text, (table.caption + " " + table.heading).strip()


_DIGIT = re.compile(r"\d")


def labelled_cells(table: Table, label: re.Pattern[str], *, value: re.Pattern[str] | None = None,
                   rows_too: bool = True, seen: dict[str, bool] | None = None) -> Iterator[tuple[int, int, Cell, str, str]]:
    """(row, column, cell, label, cross label) of each body cell whose column header matches ``label``,
    or, with ``rows_too``, whose row label (first cell) does (a key/value or transposed table); the cross
    label is the other one (the row label of a column match, the header of a row match: "avg" above
    "Output Sequence Length" makes a mean). Only cells whose text matches ``value`` (default: any digit)
    are given; an empty cell states nothing. ``seen`` keeps whether ``label`` matches a header or row label
    already read (a caller reading many tables with one label passes one dict: "Mean", "P99", "TTFT (ms)" recur)."""
    value = value or _DIGIT
    seen = {} if seen is None else seen

    def labelled(text: str) -> bool:
        found = seen.get(text)
        if found is None:
            found = seen[text] = label.search(text) is not None
        return found

    head_labels, row_labels = table.glossed
    cols = [c for c, h in enumerate(table.header) if h.text and labelled(head_labels[c])]
    head = [h.text for h in table.header]
    # row labels are read unless the header over them matches too (then the first column is a match already)
    by_rows = rows_too and not labelled(head[0] if head else "")
    for r, row in enumerate(table.rows):
        name = row[0].text if row else ""
        for c in cols:
            if c < len(row) and row[c].text and value.search(row[c].text):
                yield r, c, row[c], head[c], name if c else ""
        if by_rows and name and labelled(row_labels[r]):
            for c, cell in enumerate(row[1:], 1):
                if c not in cols and cell.text and value.search(cell.text):
                    yield r, c, cell, name, head[c] if c < len(head) else ""
