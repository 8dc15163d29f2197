"""A free-text write-up judged item by item and rule by rule.

``judge_writeup`` runs every contract group (``stack``, ``workload``, ``state``,
``distributions``, ``speculative``, ``aggregation``) and every metric rule (``rules``) over one
parsed document, in report order, and collects inconsistencies (two values for one setup).
"""

from __future__ import annotations

from .aggregation import aggregation_rule, exclusions
from .distributions import latency_distributions
from .findings import Context, TextFinding
from .reading.blocks import Writeup
from .reading.document import MAX_SCAN, Document
from .rules import judge_rules
from .speculative import spec_items
from .stack import engine_revision, gpu_conflict, setups, hardware, kernels, kv_format, launch_command, model_artifact, tokenizer, weight_format
from .state import distinct_prefixes, prefix_cache_state, warmup
from .workload import (
    concurrency,
    output_length_completed,
    output_length_requested,
    prompt_length,
    request_count,
    sampling,
    stopping,
)

__all__ = ["judge_writeup"]


def judge_writeup(writeup: Writeup) -> tuple[list[TextFinding], list[TextFinding], list[tuple[str, list[tuple[int, str]]]], list[str],
                                              list[tuple[str, list[int]]], list[str]]:
    """Judge every contract item and metric rule on a parsed write-up.

    Returns (items, rules, inconsistencies, sections searched, setups as (label, lines), reading limits applied).
    """
    ctx = Context.of(Document(writeup))
    items = [model_artifact(ctx), tokenizer(ctx), weight_format(ctx), kv_format(ctx), engine_revision(ctx),
             launch_command(ctx), kernels(ctx), hardware(ctx), prompt_length(ctx), output_length_requested(ctx),
             output_length_completed(ctx), request_count(ctx), concurrency(ctx), sampling(ctx), stopping(ctx),
             prefix_cache_state(ctx), warmup(ctx), distinct_prefixes(ctx), latency_distributions(ctx), *spec_items(ctx),
             aggregation_rule(ctx), exclusions(ctx)]
    rules = judge_rules(ctx)
    conflict = gpu_conflict(ctx)
    inconsistencies = [conflict] if conflict else []
    ctx.cache["limits"] = ([f"a long write-up: patterns built on common words read the first {MAX_SCAN:,} characters of "
                            "the blocks that can hold them; later statements may be missed"] if ctx.d.budget_hit else [])
    return items, rules, inconsistencies, ctx.searched, [(s.label, s.lines) for s in setups(ctx)], ctx.cache["limits"]
