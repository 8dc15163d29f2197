"""Trace a credited figure to the two table rows it compares, and diff their configurations.

A reviewer checking "the embedding cache cuts median TTFT by 87%" finds the 87% in the results
(the ``dynamo-fd-ec`` row of a table of deltas "vs ``vllm-serve``"), looks up both rows in the
configuration table, and sees that they differ in more than the cache. ``credited_mixups`` does the
same:

1. a sentence of the measured runs (prose, not a table) that quotes a figure: a signed percentage or
   a ratio ("-87.4%", "1.47x") found verbatim in a table cell, whose table says what it is relative
   to ("Δ vs X", "relative to X", "over X"); or two values joined by "vs" ("778ms vs baseline 888ms")
   found in one column of a table, in two rows;
2. both rows (the row of the figure and the baseline) in a configuration table: a table whose columns
   other than the first hold settings, not measurements;
3. the settings columns on which the two rows differ;
4. a mix-up when they differ in two or more settings and the sentence names exactly one of them as
   the cause (its column header), not the configuration itself nor the other settings.

Nothing is guessed: a figure that is not found, a baseline that is not a row, or a sentence that
names the configuration gives no mix-up.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from ..reading.cells import tables
from ..reading.tables import Table

__all__ = ["Mixup", "credited_mixups"]

_METRIC = re.compile(r"tok|/s\b|\bms\b|\bs\)|ttft|itl|tpot|tps|rps|qps|throughput|latency|p\d\d|mean|median|avg|e2e|"
                     r"speed|time|goodput|\bratio|%|Δ|delta|gain|score|acc", re.I)
_FIGURE = re.compile(r"(?<![\w.])([+\-−]?\d+(?:\.\d+)?)\s*(%|[x×](?![\w]))")
_VS_PAIR = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(?:ms|s|tok/s|tokens/s|req/s)?\s*\)?\s*(?:vs\.?|versus|against|compared\s+(?:to|with))\s+"
                      r"(?:the\s+)?(?:[A-Za-z_][\w+-]*\s+){0,2}\(?(\d[\d,]*(?:\.\d+)?)", re.I)
_RELATIVE = re.compile(r"(?:\bvs\.?|\bversus|relative\s+to|compared\s+(?:to|with)|\bover|against)\s+[`'\"*]*([\w.+-]+)", re.I)
_MAX_SENTENCES = 400


@dataclass
class Mixup:
    """A figure credited to one setting whose two compared rows differ in more settings."""

    line: int  # the crediting sentence
    quote: str
    figure: str
    row: str
    baseline: str
    credited: str
    others: list[tuple[str, str, str]]  # (setting, value of the row, value of the baseline)
    table_line: int
    row_lines: list[int]  # the two rows in the configuration table


_MARKS = re.compile(r"[`*_'\"]")
_NUMBER = re.compile(r"\s*[+\-−]?\d[\d,]*(?:\.\d+)?\s*")
# (compiled once: these run for every cell of every table)


def _norm(text: str) -> str:
    return _MARKS.sub("", text).replace("−", "-").strip().lower()


def _number(text: str) -> float | None:
    m = _NUMBER.fullmatch(text.replace("−", "-"))
    return float(text.replace(",", "").replace("−", "-")) if m else None


def _setting_columns(table: Table) -> list[int]:
    """Columns (not the first) that hold settings: the header names no metric and the cells are words,
    on/off marks or sizes of a setting, not measurements."""
    out = []
    for c, head in enumerate(table.header[1:], 1):
        cells = [r[c].text for r in table.rows if c < len(r)]
        if not cells or _METRIC.search(head.text):
            continue
        numeric = sum(1 for x in cells if _number(x) is not None)
        if numeric == len(cells):
            continue  # a column of bare numbers is a measurement whatever its header says
        out.append(c)
    return out


def _config_rows(table: Table) -> dict[str, list[str]] | None:
    cols = _setting_columns(table)
    if len(cols) < 2 or len(table.rows) < 2:
        return None
    return {_norm(r[0].text): [r[c].text if c < len(r) else "" for c in cols] for r in table.rows if r and r[0].text}


def _words(header: str) -> list[str]:
    return [w for w in re.findall(r"[a-z0-9+]+", header.lower().replace("-", " ")) if len(w) > 1]


def _names(sentence: str, header: str) -> bool:
    """Whether the sentence names the setting of a column header (all its words, in order)."""
    words = _words(header)
    if not words:
        return False
    rx = r"\b" + r"[\s_-]*".join(re.escape(w) for w in words) + r"\b"
    return re.search(rx, sentence.lower().replace("-", " ")) is not None


def _cell_index(all_tables: list[Table]) -> dict[str, list[tuple[Table, int]]]:
    """Body cells by their text (normalised), to find a quoted figure without scanning every table."""
    index: dict[str, list[tuple[Table, int]]] = {}
    for t in all_tables:
        for r, row in enumerate(t.rows):
            for cell in row[1:]:
                if _FIGURE.fullmatch(cell.text.strip()):
                    index.setdefault(_norm(cell.text).replace(" ", ""), []).append((t, r))
    return index


def _baseline(table: Table, rows: set[str]) -> str | None:
    for m in _RELATIVE.finditer(table.caption + " " + table.heading + " " + " ".join(h.text for h in table.header[:1])):
        name = _norm(m.group(1))
        if name in rows:
            return name
    return None


def _numeric_columns(all_tables: list[Table]) -> list[tuple[Table, list[list[tuple[int, float]]]]]:
    """Per table of at most 200 rows, per column after the first: (row, number) of its numeric cells, read once
    for every "X vs Y" pair (a results table a sentence quotes two rows of is short; a dump of thousands is not)."""
    out = []
    for t in all_tables:
        if len(t.rows) > 200:
            continue
        cols = []
        for c in range(1, len(t.header)):
            cells = ((r, _number(row[c].text)) for r, row in enumerate(t.rows) if c < len(row))
            cols.append([(r, n) for r, n in cells if n is not None])
        out.append((t, cols))
    return out


@functools.lru_cache(maxsize=1024)
def _target(value: str) -> tuple[float, float]:
    """A quoted figure's number and how far a table number may lie from it ("778" is 778 +- 1, "77.8" 77.8 +- 0.1)."""
    return float(value.replace(",", "")), 10 ** -(len(value.split(".")[1]) if "." in value else 0)


def _rows_near(col: list[tuple[int, float]], value: str) -> list[int]:
    """Rows of a numeric column whose number ``value`` rounds or cuts ("778ms" for 778.84)."""
    v, tol = _target(value)  # (parsed once per figure, not once per column of every table)
    return [r for r, n in col if abs(n - v) < tol]


def _vs_rows(numeric, a: str, b: str):
    for t, cols in numeric:
        for col in cols:
            ra = _rows_near(col, a)
            if len(ra) != 1:
                continue  # (b's rows are looked up only in a column where a names one row)
            rb = _rows_near(col, b)
            if len(rb) == 1 and ra != rb:
                return t, _norm(t.rows[ra[0]][0].text), _norm(t.rows[rb[0]][0].text)
    return None


def _sentences(ctx):
    for i, block in enumerate(ctx.d.w.blocks):
        if block.kind not in ("paragraph", "list_item", "quote"):
            continue
        text = ctx.d.plains[i]
        if not (_FIGURE.search(text) or _VS_PAIR.search(text)):
            continue
        for m in re.finditer(r"(?:[^.!?;。！？\n]|\.(?=\d))+", text):
            if ctx.d.in_view(i, m.start(), "run"):
                yield i, m


def credited_mixups(ctx) -> list[Mixup]:
    """The figures a sentence credits to one setting while the compared rows differ in several."""
    if "mixups" in ctx.cache:
        return ctx.cache["mixups"]
    run_tables = tables(ctx)
    configs = [(t, rows) for t in run_tables for rows in [_config_rows(t)] if rows]
    out: list[Mixup] = []
    if configs:
        index = _cell_index(run_tables)
        every_row = {k for _, rows in configs for k in rows}
        numeric = functools.cache(lambda: _numeric_columns(run_tables))  # read only when a sentence says "X vs Y"
        for n, (i, m) in enumerate(_sentences(ctx)):
            if n >= _MAX_SENTENCES:
                break  # a reviewer traces the headline claims, not ten thousand sentences
            found = _mixup(ctx, i, m, (numeric, index, every_row), configs)
            if found:
                out.append(found)
                break
    ctx.cache["mixups"] = out
    return out


def _pairs(sentence: str, found):
    """(figure, row, baseline) pairs the sentence's figures trace to."""
    numeric, index, every_row = found
    for f in _FIGURE.finditer(sentence):
        for t, r in index.get(_norm(f.group(0)).replace(" ", ""), [])[:20]:
            base = _baseline(t, every_row)
            row = _norm(t.rows[r][0].text)
            if base and row != base:
                yield f.group(0), row, base
    for v in _VS_PAIR.finditer(sentence):
        hit = _vs_rows(numeric(), v.group(1), v.group(2))
        if hit:
            yield v.group(0), hit[1], hit[2]


def _mixup(ctx, i, m, found, configs) -> Mixup | None:
    sentence = m.group(0)
    for figure, row, base in _pairs(sentence, found):
        for t, rows in configs:
            if row not in rows or base not in rows:
                continue
            heads = [h.text for h in [t.header[c] for c in _setting_columns(t)]]
            differ = [(h, a, b) for h, a, b in zip(heads, rows[row], rows[base]) if _norm(a) != _norm(b)]
            named = [d for d in differ if _names(sentence, d[0])]
            if len(differ) < 2 or len(named) != 1 or _names(sentence, row) or re.search(
                    r"\b(?:alone|together|combined|both|and\s+the\s+rest)\b|\bnot\b|\bno\s+\w+\s+gain", sentence, re.I):
                continue
            line = ctx.d.ev(i, m.start())[0]
            row_lines = [r[0].line for r in t.rows if r and _norm(r[0].text) in (row, base)]
            return Mixup(line, " ".join(sentence.split())[:120], figure.strip(), row, base, named[0][0],
                         [d for d in differ if d is not named[0]], t.header[0].line if t.header else 0, row_lines)
    return None
