"""The glossary (``data/glossary.json``) that expands acronyms both ways in search queries."""

from __future__ import annotations

import functools
import json
from importlib import resources

from pydantic import BaseModel, ConfigDict, Field

from .text import tokenize

__all__ = ["GlossaryEntry", "expand_query", "glossary", "glossary_matches", "glossary_vocabulary"]

_DATA_PACKAGE = __package__.rpartition(".")[0]
"""The data folder sits beside the corpus package, in tools/data/."""


class GlossaryEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    term: str
    forms: list[str] = Field(min_length=1, description="Other ways to write the term: expansions, spellings.")
    definition: str
    page: str
    source: str


@functools.cache
def glossary() -> tuple[GlossaryEntry, ...]:
    """The glossary that drives query expansion (``data/glossary.json``), validated once."""
    raw = json.loads(resources.files(_DATA_PACKAGE).joinpath("data/glossary.json").read_text(encoding="utf-8"))
    return tuple(GlossaryEntry.model_validate(entry) for entry in raw["entries"])


@functools.cache
def _expansion_table() -> dict[str, tuple[tuple[tuple[str, ...], tuple[tuple[str, ...], ...], int], ...]]:
    """First token -> (form tokens, other forms' tokens, entry number) for every form of every glossary term."""
    table: dict[str, list] = {}
    for n, entry in enumerate(glossary()):
        forms = [tuple(tokenize(f)) for f in [entry.term, *entry.forms]]
        forms = [f for f in dict.fromkeys(forms) if f]
        for f in forms:
            table.setdefault(f[0], []).append((f, tuple(o for o in forms if o != f), n))
    return {first: tuple(rows) for first, rows in table.items()}


def glossary_matches(tokens: list[str]) -> tuple[list[str], list[int]]:
    """The terms the glossary adds (every other form of each term found) and the entries found, in order."""
    added: list[str] = []
    found: list[int] = []
    present = set(tokens)
    table = _expansion_table()
    for i, first in enumerate(tokens):
        for form, others, n in table.get(first, ()):
            if tuple(tokens[i : i + len(form)]) != form:
                continue
            if n not in found:
                found.append(n)
            for other in others:
                for tok in other:
                    if tok not in present and tok not in added:
                        added.append(tok)
    return added, found


def expand_query(tokens: list[str]) -> list[str]:
    """Terms the glossary adds: every other form of each term found in the query."""
    return glossary_matches(tokens)[0]


@functools.cache
def glossary_vocabulary() -> frozenset[str]:
    """Every word the glossary knows (its terms and forms, tokenized)."""
    return frozenset(tok for entry in glossary() for f in [entry.term, *entry.forms] for tok in tokenize(f))
