"""How each table form splits into cells: markdown pipe tables, HTML tables, reStructuredText grid and
simple tables, and tables drawn with box characters in console printouts.

Every parser returns the header cells and the body rows; each ``Cell`` keeps its text (markup removed),
its offset in the block's text and its source line, so a finding can quote the line the figure is on.
``reading.tables`` puts the caption, headings and glossary around them.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

__all__ = ["Cell", "box_tables", "clean", "code_pipe_tables", "grid_table", "html_table", "line_offsets", "pipe_table", "rst_tables", "simple_table"]

_MARKUP = re.compile(r"[*`]|<[^<>\n]{0,200}>|\\(?=[|_*`])")
_DELIMITER = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
_HTML_ROW = re.compile(r"<tr\b[^>]*>(.*?)(?=<tr\b|</table>|$)", re.I | re.S)
_HTML_CELL = re.compile(r"<(t[dh])\b([^>]*)>(.*?)(?=</t[dh]>|<t[dh]\b|</tr>|$)", re.I | re.S)
_HTML_CAPTION = re.compile(r"<caption\b[^>]*>(.*?)</caption>", re.I | re.S)
_SPAN = re.compile(r"""\b(rowspan|colspan)\s*=\s*["']?(\d+)""", re.I)
_GRID_BORDER = re.compile(r"^\s*\+(?:[-=]+\+)+\s*$")
_SIMPLE_RULE = re.compile(r"^\s*=+(?:\s+=+)+\s*$")
_FIGURE_CELL = re.compile(r"^[~≈<>≤≥]?\s*-?\d[\d,]*(?:\.\d+)?\s*(?:%|x|×|ms|s)?\s*(?:\([^)]*\))?$", re.I)
_MAX_ROWS = 5000
_MAX_COLS = 64


@dataclass
class Cell:
    """One table cell: its text (markup removed), its offset in the block's text and its source line."""

    text: str
    start: int
    line: int = 0

    @property
    def end(self) -> int:
        return self.start + len(self.text)


def clean(text: str) -> str:
    text = _MARKUP.sub(" ", text).replace("&nbsp;", " ").replace("&amp;", "&")
    if "](" in text:  # a link: keep its text
        text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return " ".join(text.strip().strip("[]").split())


# ------------------------------------------------------------------ markdown pipe tables
def _pipe_cells(line: str, offset: int, number: int) -> list[Cell]:
    """Cells of one pipe-table line (split at unescaped bars)."""
    cells: list[Cell] = []
    k = len(line) - len(line.lstrip())
    if line[k:k + 1] == "|":
        k += 1
    start = k
    n = len(line)
    while start <= n:
        k = line.find("|", start)
        while k > 0 and line[k - 1] == "\\":  # an escaped bar is cell text: the next bar ends the cell
            k = line.find("|", k + 1)
        k = n if k < 0 else k
        raw = line[start:k]
        if not (k == n and not raw.strip()):
            lead = len(raw) - len(raw.lstrip())
            cells.append(Cell(clean(raw), offset + start + lead, number))
        start = k + 1
    return cells[:_MAX_COLS]


def pipe_table(lines: list[str], offsets: list[int], first_line: int) -> tuple[list[Cell], list[list[Cell]]] | None:
    if len(lines) < 2 or not _DELIMITER.match(lines[1]):
        return None
    header = _pipe_cells(lines[0], offsets[0], first_line)
    rows = [_pipe_cells(line, off, first_line + k + 2)
            for k, (line, off) in enumerate(zip(lines[2:_MAX_ROWS], offsets[2:_MAX_ROWS])) if line.strip()]
    return header, rows


def line_offsets(lines: list[str]) -> list[int]:
    out, pos = [], 0
    for line in lines:
        out.append(pos)
        pos += len(line) + 1
    return out


def code_pipe_tables(text: str, first_line: int) -> Iterator[tuple[list[Cell], list[list[Cell]], int]]:
    """Pipe tables printed inside a code block (a header, a |---| delimiter, then rows)."""
    lines = text.split("\n")
    offsets = line_offsets(lines)
    k = 0
    while k + 1 < len(lines):
        if "|" in lines[k] and "|" in lines[k + 1] and _DELIMITER.match(lines[k + 1]) and lines[k].count("|") >= 2:
            end = k + 2
            while end < len(lines) and lines[end].strip().startswith("|"):
                end += 1
            found = pipe_table(lines[k:end], offsets[k:end], first_line + k)
            if found:
                yield found[0], found[1], k
            k = end
        else:
            k += 1


_BOX_BAR = re.compile(r"[│┃║|]")
_BOX_RULE = re.compile(r"^\s*[┏┓┗┛┡┩┠┨┯┷┿╇╈╉╊╋━─═╞╡╪╤╧┌┐└┘├┤┬┴┼╔╗╚╝╠╣╦╩╬+\-= ]+$")


def box_tables(text: str, first_line: int) -> Iterator[tuple[list[Cell], list[list[Cell]]]]:
    """Tables drawn with box characters (rich/console tables, as genai-perf and aiperf print them): rows
    split at the vertical bars, the rows above the first inner rule are the header."""
    lines = text.split("\n")
    offsets = line_offsets(lines)
    k = 0
    while k < len(lines):
        if not ("│" in lines[k] or "┃" in lines[k] or "║" in lines[k]):
            k += 1
            continue
        start = k
        while start > 0 and _BOX_RULE.match(lines[start - 1]) and lines[start - 1].strip():
            start -= 1
        end = k
        while end < len(lines) and (_BOX_BAR.search(lines[end]) or (_BOX_RULE.match(lines[end]) and lines[end].strip())):
            end += 1
        head_rows: list[list[Cell]] = []
        rows: list[list[Cell]] = []
        seen_rule = False
        for j in range(start, end):
            line = lines[j]
            if _BOX_RULE.match(line):
                if head_rows or rows:
                    seen_rule = True
                continue
            cells = []
            bars = [m.start() for m in _BOX_BAR.finditer(line)]
            for a, b in zip(bars, bars[1:]):
                piece = line[a + 1:b]
                lead = len(piece) - len(piece.lstrip())
                cells.append(Cell(clean(piece), offsets[j] + a + 1 + lead, first_line + j))
            if not cells:
                continue
            (rows if seen_rule else head_rows).append(cells)
        if head_rows and not seen_rule:
            head_rows, rows = head_rows[:1], head_rows[1:] + rows
        if head_rows:
            width = max(len(r) for r in head_rows)
            header = []
            for col in range(width):
                parts = [r[col] for r in head_rows if col < len(r) and r[col].text]
                first = parts[0] if parts else head_rows[0][min(col, len(head_rows[0]) - 1)]
                header.append(Cell(" ".join(p.text for p in parts), first.start, first.line))
            yield header, rows[:_MAX_ROWS]
        k = max(end, k + 1)


# ------------------------------------------------------------------ HTML tables
def _line_at(text: str, offset: int, first_line: int) -> int:
    return first_line + text.count("\n", 0, offset)


def html_table(text: str, first_line: int) -> tuple[list[Cell], list[list[Cell]], str] | None:
    """Grid of an HTML table: rowspan/colspan cells repeated where they reach; header rows joined."""
    grid: list[list[Cell | None]] = []
    header_rows = 0
    pending: dict[int, tuple[Cell, int]] = {}  # column -> (cell, rows still covered)
    for r, row in enumerate(_HTML_ROW.finditer(text)):
        if r >= _MAX_ROWS:
            break
        out: list[Cell | None] = []
        all_th = True
        col = 0

        def fill() -> None:
            nonlocal col
            while col in pending:
                cell, left = pending[col]
                out.append(cell)
                if left <= 1:
                    del pending[col]
                else:
                    pending[col] = (cell, left - 1)
                col += 1

        for m in _HTML_CELL.finditer(row.group(1)):
            fill()
            raw = m.group(3)
            start = row.start(1) + m.start(3) + (len(raw) - len(raw.lstrip()))
            cell = Cell(clean(re.sub(r"<br\s*/?>", " ", raw, flags=re.I)), start, _line_at(text, start, first_line))
            spans = {k.lower(): min(int(v), 500) for k, v in _SPAN.findall(m.group(2))}
            width = max(1, min(spans.get("colspan", 1), _MAX_COLS))
            height = max(1, spans.get("rowspan", 1))
            for _ in range(width):
                if col >= _MAX_COLS:
                    break
                out.append(cell)
                if height > 1:
                    pending[col] = (cell, height - 1)
                col += 1
            all_th = all_th and m.group(1).lower() == "th"
        fill()
        if not out:
            continue
        if all_th and r == header_rows:
            header_rows += 1
        grid.append(out)
    if not grid:
        return None
    if header_rows == 0:
        # No <th>: a top-left cell spanning several rows spans the header rows; else the first row is the
        # header when it holds no figure (a row of labels).
        corner = grid[0][0] if grid[0] else None
        spanned = 0
        while spanned < len(grid) and grid[spanned] and grid[spanned][0] is corner:
            spanned += 1
        if spanned > 1 and spanned < len(grid):
            header_rows = spanned
        else:
            header_rows = 1 if not any(c and _FIGURE_CELL.match(c.text) for c in grid[0][1:]) else 0
    head: list[Cell] = []
    if header_rows:
        width = max(len(r) for r in grid[:header_rows])
        for col in range(width):
            parts = [r[col] for r in grid[:header_rows] if col < len(r) and r[col] is not None]
            texts = list(dict.fromkeys(c.text for c in parts if c.text))
            first = parts[0] if parts else Cell("", 0, first_line)
            head.append(Cell(" ".join(texts), first.start, first.line))
    rows = [[c if c is not None else Cell("", 0, first_line) for c in r] for r in grid[header_rows:]]
    caption = _HTML_CAPTION.search(text)
    return head, rows, clean(caption.group(1)) if caption else ""


# ------------------------------------------------------------------ reStructuredText tables
def grid_table(lines: list[str], offsets: list[int], first_line: int) -> tuple[list[Cell], list[list[Cell]]] | None:
    """An rST grid table: column bounds from the '+' of the top border; '+===+' ends the header."""
    border = lines[0]
    bounds = [m.start() for m in re.finditer(r"\+", border)]
    if len(bounds) < 2:
        return None
    header: list[Cell] | None = None
    rows: list[list[Cell]] = []
    pieces: list[list[tuple[str, int, int]]] = [[] for _ in bounds[:-1]]

    def flush() -> list[Cell]:
        cells = []
        for parts in pieces:
            text = " ".join(p[0] for p in parts if p[0])
            start, line = (parts[0][1], parts[0][2]) if parts else (0, first_line)
            cells.append(Cell(clean(text), start, line))
        for parts in pieces:
            parts.clear()
        return cells

    for k, line in enumerate(lines[1:], 1):
        if _GRID_BORDER.match(line):
            cells = flush()
            if "=" in line and header is None:
                header = cells
            elif any(c.text for c in cells):
                rows.append(cells)
            continue
        for c, (a, b) in enumerate(zip(bounds, bounds[1:])):
            piece = line[a + 1:b]
            if piece.strip():
                lead = len(piece) - len(piece.lstrip())
                pieces[c].append((piece.strip(" |"), offsets[k] + a + 1 + lead, first_line + k))
    if header is None:
        header, rows = (rows[0], rows[1:]) if rows else ([], [])
    return header, rows


def simple_table(lines: list[str], offsets: list[int], first_line: int) -> tuple[list[Cell], list[list[Cell]]] | None:
    """An rST simple table: column starts from the '=' runs of the first rule; a second rule ends the header."""
    starts = [m.start() for m in re.finditer(r"=+", lines[0])]
    if len(starts) < 2:
        return None
    rules = [k for k, line in enumerate(lines) if _SIMPLE_RULE.match(line)]
    header_end = rules[1] if len(rules) >= 3 else None
    header: list[Cell] = []
    rows: list[list[Cell]] = []
    for k, line in enumerate(lines[1:], 1):
        if k in rules or not line.strip():
            continue
        cells = []
        for c, a in enumerate(starts):
            b = starts[c + 1] if c + 1 < len(starts) else len(line)
            piece = line[a:b] if c + 1 < len(starts) else line[a:]
            lead = len(piece) - len(piece.lstrip())
            cells.append(Cell(clean(piece), offsets[k] + a + lead, first_line + k))
        if header_end is not None and k < header_end:
            header = header or cells
        else:
            rows.append(cells)
    return header, rows


def rst_tables(lines: list[str]) -> Iterator[tuple[int, int, str]]:
    """(first line index, end index, kind) of each rST grid or simple table in the source lines."""
    k, n = 0, len(lines)
    while k < n:
        line = lines[k]
        if _GRID_BORDER.match(line):
            end = k + 1
            while end < n and (lines[end].lstrip().startswith(("|", "+"))):
                end += 1
            if end - k >= 3 and _GRID_BORDER.match(lines[end - 1]):
                yield k, end, "rst-grid"
            k = end
        elif _SIMPLE_RULE.match(line) and k + 2 < n:
            width = len(line.rstrip())
            rules, end = 1, k + 1
            while end < n and lines[end].strip():
                if _SIMPLE_RULE.match(lines[end]) and len(lines[end].rstrip()) == width:
                    rules += 1
                    if rules >= 3 or (end + 1 < n and not lines[end + 1].strip()):
                        end += 1
                        break
                end += 1
            if rules >= 2:
                yield k, end, "rst-simple"
            k = end
        else:
            k += 1
