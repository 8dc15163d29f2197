"""Table cells as evidence: the tables of the measured runs, and the cells a label gives a meaning.

``tables(ctx)`` takes the tables the document read once (``reading.tables``; cell texts lose their
markup, link targets, comments and placeholders) and keeps those that sit in the measured runs' view (``reading.scope``): a table under "Installation" or a how-to is
context, not a declaration. ``cell_hits`` gives the cells under a matching column header or beside a
matching row label as (block, span) pairs, the shape every contract item collects its evidence in.
"""

from __future__ import annotations

import functools
import json
import re
from importlib.resources import files

from .document import Spot
from .tables import Table, labelled_cells

__all__ = ["cell_hits", "in_run", "label", "phrases", "tables", "vague_phrases"]


@functools.cache
def _labels() -> dict:
    return json.loads((files(__package__).parent / "data" / "labels.json").read_text(encoding="utf-8"))


@functools.cache
def phrases(item: str) -> re.Pattern[str] | None:
    """The prose forms that state ``item`` (tools/audit/data/labels.json 'phrases'), joined in one pattern."""
    found = _labels()["phrases"]["items"].get(item)
    return re.compile("|".join(f"(?:{p})" for p in found), re.I | re.M) if found else None


@functools.cache
def vague_phrases(item: str) -> re.Pattern[str]:
    """The prose forms that name ``item`` without its value (tools/audit/data/labels.json 'vague'): partial."""
    return re.compile("|".join(f"(?:{p})" for p in _labels()["vague"]["items"][item]), re.I)


@functools.cache
def label(item: str) -> re.Pattern[str]:
    """The header/row-label pattern of ``item`` (tools/audit/data/labels.json): its words, less its exclusions."""
    spec = _labels()["labels"]["items"][item]
    exclude = spec.get("not")
    return re.compile((r"^(?!.*(?:" + exclude + r"))" if exclude else "^") + r"(?=.*(?:" + spec["pattern"] + r"))", re.I | re.S)


def in_run(ctx, block: int, offset: int) -> bool:
    """Whether offset ``offset`` of block ``block`` counts as a statement about the measured runs."""
    spans = ctx.d._views["run"][block]
    return spans is None or any(a <= offset < b for a, b in spans)


def tables(ctx, *, scope: str = "run") -> list[Table]:
    """The document's tables (read once, by the document); with ``scope='run'`` only those about the
    measured runs."""
    if scope == "any":
        return ctx.d.tables
    if "run_tables" not in ctx.cache:
        ctx.cache["run_tables"] = [t for t in ctx.d.tables
                                   if any(in_run(ctx, t.block, c.start) for c in (t.header or [c for r in t.rows[:1] for c in r])[:1])]
    return ctx.cache["run_tables"]


def cell_hits(ctx, label: re.Pattern[str], *, value: re.Pattern[str] | None = None, rows_too: bool = True,
              cross: re.Pattern[str] | None = None, scope: str = "run") -> list[tuple[int, Spot]]:
    """(block, span) of each non-empty cell of the runs' tables whose column header or row label matches
    ``label`` and whose text matches ``value`` (default: holds a digit); with ``cross``, only cells whose
    other label matches it too (the statistic above a row of lengths). The span quotes the label
    ("Concurrency: 64"), so the evidence says what the figure is."""
    out = []
    seen: dict[str, bool] = {}  # whether ``label`` matches a header or row label text, shared by all tables
    for t in tables(ctx, scope=scope):
        for _, _, cell, name, other in labelled_cells(t, label, value=value, rows_too=rows_too, seen=seen):
            if cross is None or cross.search(other):
                out.append((t.block, Spot(cell.start, cell.end, f"{name}: {cell.text}")))
    return out
