"""What an engine's start-up log answers: sequences at T tokens without a model, and, with one, the
prediction reconciled with the log item by item.

Without a model the KV pool is all there is: a paged engine hands a sequence of T tokens ceil(T /
block) blocks, so ``max_concurrency = floor(pool_blocks / ceil(T / block))``. vLLM's "Maximum
concurrency for N tokens" is the same arithmetic at N = max_model_len: a capacity figure, not a
limit on users (requests are admitted by the tokens they hold, not by max_model_len).
"""

from __future__ import annotations

import math

from pydantic import BaseModel, Field

from .engine_log import EngineLogFacts
from .report import GiB, EngineLogComparison, Evidence, ReconciledItem, SizingReport

__all__ = ["EngineLogReport", "capacity_from_log", "reconcile"]


class EngineLogReport(BaseModel):
    """Sequences of T tokens the logged KV pool holds, with no model needed."""

    tokens: int = Field(description="Resident tokens per sequence the question is about (prompt + output)")
    kv_pool_tokens: int | None = Field(description="Tokens the engine's KV pool holds (measurement, from the log)")
    max_concurrency: int | None = Field(description="Sequences of `tokens` tokens the pool holds (estimate derived "
                                                    "from the measured pool)")
    max_concurrency_basis: str = Field(description="Which logged figure the answer rests on")
    formula: str = Field(description="The arithmetic, with the numbers")
    logged_max_model_len: int | None = Field(description="Tokens per request of the engine's own concurrency line")
    logged_max_concurrency: float | None = Field(description="The engine's concurrency at logged_max_model_len")
    caveats: list[str] = Field(description="When the pool is not a per-token rate (hybrid, sliding-window models)")
    log: EngineLogFacts = Field(description="Everything read from the log, line by line")
    evidence: Evidence = Field("estimate", description="max_concurrency is an estimate derived from measurements")

    def to_text(self) -> str:
        """The answer, its formula and caveats, then the figures read from the log."""
        f = self.log
        lines = [f"{f.engine} start-up log: KV pool {self.kv_pool_tokens:,} tokens [measurement]"
                 if self.kv_pool_tokens is not None else f"{f.engine} start-up log: no KV pool size found"]
        if self.max_concurrency is not None:
            lines.append(f"max concurrency at {self.tokens:,} resident tokens per sequence: {self.max_concurrency:,} "
                         f"sequences [estimate]")
        lines.append(f"  formula: {self.formula}")
        if self.logged_max_concurrency is not None and self.logged_max_model_len is not None:
            lines.append(f"  the log's own figure: {self.logged_max_concurrency:g}x at {self.logged_max_model_len:,} "
                         "tokens per request (capacity at max_model_len, not a cap on users) [measurement]")
        lines += [f"  caveat: {c}" for c in self.caveats]
        lines += ["", "read from the log [measurement]:"]
        lines += [f"  line {i.line}: {i.item} = {i.value:,.6g}" for i in f.items[:40]]
        lines += [f"  note: {n}" for n in f.notes]
        return "\n".join(lines)


def _pool_from(facts: EngineLogFacts) -> tuple[int | None, str]:
    """The pool in tokens: the logged size, else the concurrency ratio x max_model_len."""
    if facts.kv_pool_tokens is not None:
        return facts.kv_pool_tokens, f"logged KV pool ({facts.kv_pool_tokens_basis})"
    if facts.max_concurrency_logged is not None and facts.max_model_len is not None:
        pool = math.floor(facts.max_concurrency_logged * facts.max_model_len)
        return pool, (f"logged concurrency x max_model_len = {facts.max_concurrency_logged:g} x "
                      f"{facts.max_model_len:,} (the ratio is rounded to 2 decimals in the log)")
    return None, "the log gives neither a KV pool size nor a concurrency line"


def capacity_from_log(facts: EngineLogFacts, tokens: int) -> EngineLogReport:
    """Sequences of ``tokens`` resident tokens the logged pool holds: floor(pool blocks / blocks per sequence)."""
    pool, basis = _pool_from(facts)
    caveats: list[str] = []
    block = facts.block_size
    conc: int | None = None
    formula = "no pool size in the log"
    if pool is not None:
        blocks = pool // block
        per_seq = math.ceil(tokens / block)
        conc = blocks // per_seq
        formula = (f"floor(pool blocks / blocks per sequence) = floor({pool:,} // {block} / ceil({tokens:,} / {block})) "
                   f"= floor({blocks:,} / {per_seq:,}) = {conc:,}")
    logged, length = facts.max_concurrency_logged, facts.max_model_len
    if pool is not None and logged is not None and length:
        implied = pool / length
        if abs(implied - logged) > 0.01 * logged + 0.01:
            ratio_conc = math.floor(logged * length / tokens)
            caveats.append(
                f"the log's pool ({pool:,} tokens) and its concurrency line ({logged:g}x at {length:,}) disagree "
                f"({implied:.2f}x implied): a hybrid or sliding-window model, whose KV groups do not grow per token "
                f"alike (older vLLM also divided blocks by the number of groups); the concurrency line is the "
                f"group-aware one, so the answer uses it: floor({logged:g} x {length:,} / {tokens:,}) = {ratio_conc:,}")
            conc, basis = ratio_conc, "the logged concurrency line (group-aware)"
            formula = f"floor(logged concurrency x max_model_len / tokens) = {ratio_conc:,}"
    caveats.append("exact for full-attention and MLA models; for sliding-window and hybrid (Mamba, linear "
                   "attention) models the pool is not a per-token rate, so give the model for an exact answer")
    return EngineLogReport(tokens=tokens, kv_pool_tokens=pool, max_concurrency=conc, max_concurrency_basis=basis,
                           formula=formula, logged_max_model_len=length, logged_max_concurrency=logged,
                           caveats=caveats, log=facts)


def _item(item: str, unit: str, predicted: float, logged: float, note: str) -> ReconciledItem:
    diff = logged - predicted
    return ReconciledItem(item=item, unit=unit, predicted=predicted, logged=logged, difference=diff,  # type: ignore[arg-type]
                          relative=(diff / logged) if logged else None, note=note)


def reconcile(report: SizingReport, facts: EngineLogFacts, inputs_from_log: list[str]) -> EngineLogComparison:
    """The prediction for the logged deployment against the log, item by item (per GPU, worst stage)."""
    g = report.per_gpu
    over = {o.name: o.bytes for o in report.overheads if o.inside_budget}
    items: list[ReconciledItem] = []
    if facts.weights_bytes is not None:
        items.append(_item("weights_per_gpu", "bytes", g.weights_bytes, facts.weights_bytes,
                           "weights on one GPU; the engine also counts padding (vocabulary to 64 per rank) and any "
                           "buffers created while loading"))
    if facts.non_torch_bytes is not None and "cuda_context" in over:
        items.append(_item("non_torch", "bytes", over["cuda_context"] + over.get("communication_buffers", 0),
                           facts.non_torch_bytes, "CUDA context and NCCL buffers against the engine's memory outside "
                           "PyTorch's allocator"))
    if facts.activation_peak_bytes is not None and "activation_workspace" in over:
        items.append(_item("activation_peak", "bytes", over["activation_workspace"], facts.activation_peak_bytes,
                           "closed-form workspace against the peak of the engine's profiling run"))
    if facts.cuda_graph_bytes is not None and "cuda_graphs" in over:
        items.append(_item("cuda_graphs", "bytes", over["cuda_graphs"], facts.cuda_graph_bytes,
                           "a flat 1 GiB against the engine's estimate or capture"))
    logged_overhead = [facts.non_torch_bytes, facts.activation_peak_bytes]
    if all(v is not None for v in logged_overhead):
        logged_sum = sum(v for v in logged_overhead if v is not None) + (facts.cuda_graph_bytes or 0)
        predicted_sum = report.overhead_bytes - (0 if facts.cuda_graph_bytes is not None else over.get("cuda_graphs", 0))
        items.append(_item("runtime_overheads", "bytes", predicted_sum, logged_sum,
                           "non-torch + activation peak" + (" + CUDA graphs" if facts.cuda_graph_bytes else
                                                            " (the log has no CUDA-graph figure, so neither side "
                                                            "counts graphs)")))
    room = (g.budget_bytes - g.weights_bytes - g.overhead_bytes) if g.budget_bytes is not None else None
    if facts.kv_cache_bytes is not None and room is not None:
        items.append(_item("kv_cache_memory", "bytes", room, facts.kv_cache_bytes,
                           "budget - weights - overheads: what is left for the KV pool on one GPU"))
    per_token = report.kv_cache.bytes_per_token_per_gpu
    if facts.kv_cache_bytes and facts.kv_pool_tokens and per_token:
        items.append(_item("kv_bytes_per_token_per_gpu", "bytes", per_token,
                           facts.kv_cache_bytes / facts.kv_pool_tokens,
                           "logged: KV memory / pool tokens (the memory figure is rounded to 0.01 GiB); equal only "
                           "for models whose every layer grows per token"))
    if facts.kv_pool_tokens is not None and room is not None and per_token:
        predicted_pool = (room // (per_token * facts.block_size)) * facts.block_size if room > 0 else 0
        items.append(_item("kv_pool_tokens", "tokens", predicted_pool, facts.kv_pool_tokens,
                           "predicted: KV room / KV bytes per token per GPU, in whole blocks"))
    if facts.max_concurrency_logged is not None and facts.max_model_len and room is not None:
        seq = report.kv_cache.bytes_per_token_per_gpu * facts.max_model_len + report.kv_cache.state_bytes_per_sequence
        predicted_conc = room / seq if seq else 0.0
        items.append(_item("max_concurrency_at_max_model_len", "sequences", round(predicted_conc, 2),
                           facts.max_concurrency_logged, f"sequences of {facts.max_model_len:,} tokens in the KV room"))
    notes = ["per GPU, worst pipeline stage; a relative difference is (logged - predicted) / logged",
             f"GiB figures in logs carry two decimals: +/- {0.005 * GiB:,.0f} B of rounding"]
    return EngineLogComparison(engine=facts.engine, items=items, inputs_from_log=inputs_from_log, notes=notes)
