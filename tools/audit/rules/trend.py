"""A trend credited to one setting across table rows that change another stack element with it.

"Per-GPU throughput drops as the tensor-parallel degree grows" under a table whose rows are a 0.5B model
on TP 1, a 7B on TP 2 and a 14B on TP 4 credits the drop to TP while the model changed on every row
(LABELLING.md, after batch 2: "the model itself is a stack element: a gain attributed to TP while the
model also changed is a violation"). ``confounded_trend`` finds that, and only when:

1. a sentence of the measured runs states a metric moving "as <setting> grows/increases/...";
2. the nearest table above it (within a few blocks) has a column for that setting with several values;
3. its row labels (or a column headed model / engine / GPU / precision) change on every row together
   with the setting: each row is a different model, so no two rows vary the setting alone.
A sweep of the setting inside each model (two rows per model) is single-variable and gives nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..reading.lexicon import icase

__all__ = ["Confounded", "confounded_trend"]

_TREND = icase(r"\b(?:as|when|while)\s+(?:the\s+)?((?:[\w-]+\s+){0,3}?[\w-]+)\s+(?:grows|increases|rises|goes\s+up|gets\s+larger|"
               r"decreases|shrinks|falls|goes\s+down|doubles)\b")
_METRIC = re.compile(r"throughput|latency|tok(?:en)?s?/s|tokens?\s+per\s+second|speed|ttft|tpot|itl|performance|goodput", re.I)
# a trend variable and the column headers that name it
_AXES = {
    "tensor parallelism": r"\btp\b|tensor[- ]parallel",
    "batch size": r"\bbatch|\bbs\b",
    "concurrency": r"concurren|\busers\b|\bclients\b",
    "GPU count": r"\b(?:gpus|gpu\s+count|num(?:ber\s+of)?\s+gpus|devices)\b",
}
_IDENTITY = re.compile(r"^\W*(?:model|engine|framework|runtime|gpu|hardware|accelerator|precision|dtype|quantization|weights?)\b", re.I)
_NEAR = 4  # blocks between the table and the sentence


@dataclass
class Confounded:
    """A trend sentence, the setting it credits, and the stack element that changed with it."""

    line: int
    quote: str
    setting: str
    column: str
    element: str
    values: list[str]
    table_line: int


def _axis(words: str) -> str | None:
    return next((name for name, rx in _AXES.items() if re.search(rx, words, re.I)), None)


def confounded_trend(ctx) -> Confounded | None:
    """The first trend credited to a setting whose rows change another stack element on every row."""
    if "trend" in ctx.cache:
        return ctx.cache["trend"]
    found = None
    tables = ctx.d.tables
    for i, m in ctx.d.hits(_TREND, ("paragraph", "list_item"), scope="run"):
        sentence = ctx.d.sentence(i, m)
        axis = _axis(m.group(1))
        if axis is None or not _METRIC.search(sentence):
            continue
        above = [t for t in tables if i - _NEAR <= t.block < i]
        if not above:
            continue
        found = _confounded(ctx, above[-1], axis, i, m, sentence)
        if found:
            break
    ctx.cache["trend"] = found
    return found


def _confounded(ctx, table, axis: str, i: int, m, sentence: str) -> Confounded | None:
    heads = [h.text for h in table.header]
    col = next((c for c, h in enumerate(heads) if c > 0 and re.search(_AXES[axis], h, re.I)), None)
    rows = [r for r in table.rows if r and col is not None and col < len(r) and r[col].text.strip()]
    if col is None or len(rows) < 2 or len({r[col].text.strip() for r in rows} ) < 2:
        return None
    for c, head in enumerate(heads):
        if c == col or not (c == 0 or _IDENTITY.search(head)):
            continue
        if c == 0 and not _IDENTITY.search(head):
            continue
        values = [r[c].text.strip(" `*") for r in rows if c < len(r)]
        # changes on every row together with the setting: no two rows vary the setting alone
        if len(values) == len(rows) and len(set(values)) == len(rows):
            return Confounded(ctx.d.ev(i, m.start())[0], " ".join(sentence.split())[:120], axis, heads[col], head or "row label",
                              values, table.header[0].line if table.header else 0)
    return None
