"""Tables as data: each cell with the header, row label, caption and heading that say what it holds.

A number in a table means little on its own: "31.98" is a median TTFT in milliseconds because the
column header says "Median TTFT", the section heading says "Llama 3.1 8B Instruct 1 x A100" and
the page is about online serving. ``read_tables`` gives, for every markdown table of a document,
its header cells, its rows of cells (with offsets into the block), its caption (a short paragraph
right before it, or a "Table ..." line right after) and its heading, plus a glossary of the
abbreviations defined just above it ("`FTL`: First Token Latency", "`tp`: the number of GPU cards").
``cell_meaning`` joins those into the text a reader would use to interpret one cell.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .blocks import Block

__all__ = ["Cell", "Table", "cell_meaning", "read_tables"]

_DEFINITION = re.compile(r"^\W{0,4}`?([\w%()./ +-]{1,32}?)`?\s*(?:[:：=]|\s[-–—]\s)\s*(.{3,200})$")
_CAPTION = re.compile(r"^\s*(?:\*\*)?(?:table|figure|fig\.|表|图)\s*\d*", re.I)


@dataclass
class Cell:
    """One table cell: its text (markup removed) and its offset in the block's text."""

    text: str
    start: int


@dataclass
class Table:
    """A markdown table read as data."""

    block: int
    header: list[Cell]
    rows: list[list[Cell]]
    caption: str = ""
    heading: str = ""
    glossary: dict[str, str] = field(default_factory=dict)

    def column(self, col: int) -> list[Cell]:
        return [r[col] for r in self.rows if col < len(r)]


def _cells(line: str, offset: int) -> list[Cell]:
    """Cells of one table line (split at unescaped bars)."""
    cells, start = [], 0
    body = line
    lead = len(body) - len(body.lstrip())
    k = lead
    if body[k:k + 1] == "|":
        k += 1
    start = k
    while k <= len(body):
        if k == len(body) or (body[k] == "|" and (k == 0 or body[k - 1] != "\\")):
            raw = body[start:k]
            if not (k == len(body) and not raw.strip()):
                text = re.sub(r"[*`]|\\(?=\|)", "", raw).strip()
                cells.append(Cell(text, offset + start + (len(raw) - len(raw.lstrip()))))
            start = k + 1
        k += 1
    return cells


def _glossary(blocks: list[Block], index: int) -> dict[str, str]:
    """Abbreviations defined in the list items and lines just above the table (same section)."""
    out: dict[str, str] = {}
    section = blocks[index].section
    for k in range(index - 1, max(-1, index - 25), -1):
        b = blocks[k]
        if b.section != section or b.kind in ("heading", "table"):
            break
        for line in b.text.split("\n"):
            m = _DEFINITION.match(re.sub(r"[*_`]", "", line).strip())
            if m:
                out.setdefault(m.group(1).strip().lower(), m.group(2).strip())
    return out


def read_tables(blocks: list[Block]) -> list[Table]:
    """Every markdown table of the document as data."""
    out = []
    for i, b in enumerate(blocks):
        if b.kind != "table":
            continue
        lines = b.text.split("\n")
        offsets, pos = [], 0
        for line in lines:
            offsets.append(pos)
            pos += len(line) + 1
        if len(lines) < 2:
            continue
        header = _cells(lines[0], offsets[0])
        rows = [_cells(line, off) for line, off in zip(lines[2:], offsets[2:]) if line.strip()]
        caption = ""
        if i > 0 and blocks[i - 1].kind == "paragraph" and blocks[i - 1].section == b.section:
            prev = re.sub(r"[*`]", "", blocks[i - 1].text).strip()
            if len(prev) < 300 and (prev.endswith(":") or _CAPTION.match(prev) or len(prev) < 120):
                caption = prev
        if i + 1 < len(blocks) and blocks[i + 1].kind == "paragraph" and _CAPTION.match(blocks[i + 1].text):
            caption = (caption + " " + re.sub(r"[*`]", "", blocks[i + 1].text).strip()).strip()
        heading = "" if b.section == "(top)" else b.section
        out.append(Table(block=i, header=header, rows=rows, caption=caption[:300], heading=heading[:200],
                         glossary=_glossary(blocks, i)))
    return out


def _gloss(table: Table, text: str) -> str:
    key = re.sub(r"\(.*?\)", "", text).strip().lower()
    return table.glossary.get(key) or table.glossary.get(text.strip().lower()) or ""


def cell_meaning(table: Table, row: int, col: int) -> tuple[str, str, str]:
    """(column meaning, row meaning, context) for one cell: header and row label with their glossary
    definitions, and the caption and heading above the table."""
    head = table.header[col].text if col < len(table.header) else ""
    label = table.rows[row][0].text if table.rows[row] else ""
    column = (head + " " + _gloss(table, head)).strip()
    row_text = (label + " " + _gloss(table, label)).strip() if col > 0 else ""
    return column, row_text, (table.caption + " " + table.heading).strip()
