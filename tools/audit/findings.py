"""The contract's ids and the shape of one verdict while a write-up is being judged.

``ITEM_GROUPS`` and ``RULE_IDS`` are the public ids (SKILL.md "Benchmark contract"; DESIGN.md).
``Context`` carries the document and a memo that the group modules share, so a mention found
once (engine names, token spans, figures) is not searched again by the next item or rule.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .reading.anchors import uncovered
from .reading.document import Document
from .reading.found import Spot

__all__ = ["ITEM_GROUPS", "RULE_IDS", "Context", "TextFinding", "cite", "missing_finding", "run_setting", "status_of"]


ITEM_GROUPS: dict[str, str] = {
    **dict.fromkeys(["model_artifact", "tokenizer", "weight_format", "kv_format", "engine_revision",
                     "launch_command", "kernels", "hardware"], "stack"),
    **dict.fromkeys(["prompt_length", "output_length_requested", "output_length_completed", "request_count",
                     "concurrency", "sampling", "stopping"], "workload"),
    **dict.fromkeys(["prefix_cache_state", "warmup", "distinct_prefixes"], "state"),
    "latency_distributions": "distributions",
    **dict.fromkeys(["spec_draft_tokens", "spec_acceptance", "spec_verification", "spec_rejected_work"], "speculative"),
    **dict.fromkeys(["aggregation_rule", "exclusions"], "aggregation"),
}
"""Contract item id -> contract group, in report order."""

RULE_IDS: list[str] = ["observation_point", "tpot_definition", "throughput_basis", "goodput_slo", "cache_hit_labeling",
                       "steady_decode", "capacity_vs_workload", "stack_comparison", "evidence_class"]
"""Metric rule ids, in report order."""


@dataclass
class TextFinding:
    """One judged item or rule: status, evidence lines (line, quoted text) and the reason."""

    id: str
    status: str
    why: str
    evidence: list[tuple[int, str]] = field(default_factory=list)
    reason: str | None = None  # for an unclear rule: 'not_stated' (the text does not say) or 'ambiguous' (it can be read two ways)


@dataclass
class Context:
    """The document being judged and what the group modules have already found in it."""

    d: Document
    searched: list[str] = field(default_factory=list)
    cache: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def of(cls, doc: Document) -> Context:
        return cls(d=doc, searched=doc.w.sections())


def missing_finding(ctx: Context, item: str, what: str) -> TextFinding:
    """``item`` is missing: no ``what`` was found."""
    return TextFinding(item, "missing", f"no {what} found")


_NUMBER_TAIL = re.compile(r"(?:[\d,]*\d)?(?:\.\d+)?[kKmM]?(?![A-Za-z])|")
"""The rest of a number after its first digit ("024" of "1024", ",000" of "6,000", "k" of "2.8k")."""


def hit_text(ctx: Context, hit) -> str:
    """The words of one hit as the author wrote them: a regex match may come from the lower-cased copy, so its
    offsets are read in the plain text; a quoted span (Spot) carries its own words."""
    i, m = hit
    return str(m.group(0)) if isinstance(m, Spot) else ctx.d.plains[i][m.start():m.end()]


def cite(ctx: Context, hits, limit: int = 2) -> str:
    """The matched words of the first ``hits`` with their lines ("'--max-concurrency 64' (l.12)"), so that a
    finding's reason names the statement it rests on."""
    out: list[str] = []
    for i, m in list(hits)[:16]:
        # a regex match may come from the lower-cased copy: quote the author's spelling at the same offsets
        text = hit_text(ctx, (i, m))
        if not isinstance(m, Spot) and text[-1:].isdigit():
            # a pattern that stops at a number's first digit ('input context length is 1') quotes the whole number
            text = ctx.d.plains[i][m.start():_NUMBER_TAIL.match(ctx.d.plains[i], m.end()).end()]
        words = " ".join(str(text).split())
        if len(words) > 70:
            words = words[:67] + "..."
        line = ctx.d.ev(i, m.start())[0]
        piece = f"'{words}' (l.{line})"
        if words and piece not in out:
            out.append(piece)
        if len(out) >= limit:
            break
    return ", ".join(out)


def said(ctx: Context, hit, *, before: int = 30, after: int = 40) -> str:
    """The words around one hit with its line ("'KV cache holds about 432,000 tokens' (line 10)"): a reason
    quotes the statement it judges, not only the few characters a pattern matched."""
    i, m = hit
    return f"'{ctx.d.excerpt(i, m.start(), m.end(), before=before, after=after)}' (line {ctx.d.ev(i, m.start())[0]})"


def status_of(ctx: Context, item: str, declared, partial, what: str, why_decl: str, why_part: str) -> TextFinding:
    """Declared when any specific match exists, else partial when any vague one does, else missing. The
    reason quotes the statement that decided it."""
    if declared:
        return TextFinding(item, "declared", _with_cite(why_decl, cite(ctx, declared)), ctx.d.evidence(declared))
    if partial:
        return TextFinding(item, "partial", _with_cite(why_part, cite(ctx, partial)), ctx.d.evidence(partial))
    return missing_finding(ctx, item, what)


def unless_declared(declared, *found) -> list:
    """The hits of ``found`` as one list, read only when ``declared`` is empty (else []): status_of uses the vaguer
    statements only then. Their look-ups are made by the caller where they always were, so each still takes its
    share of the scan budget (and the report's reading limits are unchanged); only the reading is skipped."""
    return [] if declared else [h for hits in found for h in hits]


def _with_cite(why: str, cited: str) -> str:
    return f"{why}: {cited}" if cited else why


T = TypeVar("T")


def run_setting(fn: Callable[[Context], T]) -> Callable[[Context], T]:
    """A setting of the measured runs (formats, engines, cache state, token spans): read once, from the
    'run' view, whichever item or rule asks first. A rule may read claims in background prose, but a
    feature list there does not set the runs' configuration."""
    @functools.wraps(fn)
    def wrapper(ctx: Context) -> T:
        key = "setting:" + fn.__name__
        if key not in ctx.cache:
            saved, ctx.d.default_scope = ctx.d.default_scope, "run"
            try:
                ctx.cache[key] = fn(ctx)
            finally:
                ctx.d.default_scope = saved
        return ctx.cache[key]
    return wrapper


def quote_anchor(ctx: Context, anchor) -> str:
    """A reported result, quoted with its line ("'decode 54.21 tok/s' (l.43)")."""
    line, _ = ctx.d.ev(anchor.block, anchor.start)
    text = " ".join(ctx.d.plains[anchor.block][anchor.start:anchor.end].split())
    return f"'{text[:70] + ('...' if len(text) > 70 else '')}' (l.{line})"


def partial_where_uncovered(ctx: Context, item: str, declared: list, stated: str) -> TextFinding | None:
    """Partial when a reported result's section states nothing of what ``declared`` states for other results
    (LABELLING.md "Several setups": declared means declared for every measured setup); None when all are covered."""
    left = uncovered(ctx, declared)
    if not left:
        return None
    return TextFinding(item, "partial", f"{stated} for some results ({cite(ctx, declared, 1)}), not for {quote_anchor(ctx, left[0])}",
                       ctx.d.evidence(declared[:2]) + [ctx.d.ev(left[0].block, left[0].start)])

