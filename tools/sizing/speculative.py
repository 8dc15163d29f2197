"""Speculative decoding: expected tokens per step, acceptance-rate conversions, speed-up bounds against batch size,
and the drafter's memory.

Model (references/speculative-decoding.md#expected-tokens-per-step, #speed-up-model): each of k drafts is accepted
independently with probability alpha until the first rejection, so tokens per step tau = (1 - alpha^(k+1)) /
(1 - alpha). vLLM's counters (vllm/v1/spec_decode/metrics.py) define the draft acceptance rate as accepted / drafted
tokens = alpha (1 - alpha^k) / (k (1 - alpha)) under that model, the mean acceptance length as 1 + accepted /
drafts = tau, and the per-position rate as alpha^i. A step costs k c (serial drafter) or c (one parallel drafting
pass) plus V target steps, where V = verification step time / plain step time from the roofline of the target on
the GPU: V = 1 while the B (k + 1) verified tokens stay under the ridge point, growing toward k + 1 as the step
turns compute-bound. Speed-up S = tau / (drafting + V).
"""

from __future__ import annotations

import copy
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..errors import InputFormatError, ModelConfigError, argument
from .deployment import decode_step_times, mtp_footprint, size_deployment
from .report import Evidence
from .request import SizingRequest

__all__ = ["BatchSpeedup", "DrafterMemory", "SpeculativeRequest", "SpeculativeReport", "acceptance_length",
           "alpha_from", "speculative_decoding", "vllm_draft_acceptance"]

REFERENCE = "references/speculative-decoding.md"
RateKind = Literal["alpha", "vllm-draft-acceptance", "acceptance-length"]


def acceptance_length(alpha: float, k: int) -> float:
    """tau = sum_{i=0..k} alpha^i = (1 - alpha^(k+1)) / (1 - alpha): tokens per verification step, bonus included."""
    return float(k + 1) if alpha >= 1 else (1 - alpha ** (k + 1)) / (1 - alpha)


def vllm_draft_acceptance(alpha: float, k: int) -> float:
    """vLLM's draft acceptance rate, accepted / drafted tokens: (tau - 1) / k."""
    return (acceptance_length(alpha, k) - 1) / k


def alpha_from(value: float, kind: RateKind, k: int) -> float:
    """The i.i.d. per-token acceptance probability equivalent to a measured rate (bisection: both conversions grow
    with alpha)."""
    if kind == "alpha":
        return value
    f = (lambda a: acceptance_length(a, k)) if kind == "acceptance-length" else (lambda a: vllm_draft_acceptance(a, k))
    lo_v, hi_v = f(0.0), f(1.0)
    if not lo_v <= value <= hi_v:
        raise InputFormatError(f"{argument('acceptance')}: {value:g} is outside what {k} draft tokens allow for "
                               f"{kind} ({lo_v:g} to {hi_v:g})")
    lo, hi = 0.0, 1.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if f(mid) < value else (lo, mid)
    return (lo + hi) / 2


def _sizing_field(name: str) -> Any:
    return copy.copy(SizingRequest.model_fields[name])


class SpeculativeRequest(BaseModel):
    """An acceptance figure and k; optionally the target deployment (model, GPU, batch sizes) and the drafter."""

    model_config = ConfigDict(extra="forbid")

    acceptance: float = Field(gt=0, le=65, description="The measured or assumed acceptance, as rate_kind says: alpha "
                                                       "(0..1), vLLM's draft acceptance rate (0..1) or mean "
                                                       "acceptance length (1..k+1, bonus token included)")
    rate_kind: RateKind = Field("alpha", description="What acceptance is: alpha (per-token probability, Leviathan "
                                                     "et al.), vllm-draft-acceptance (accepted / drafted tokens) or "
                                                     "acceptance-length (vLLM's mean acceptance length)")
    draft_tokens: int = Field(ge=1, le=64, description="k: draft tokens proposed per step (num_speculative_tokens)")
    draft_cost: float = Field(0.05, ge=0, le=10,
                              description="c: one drafting step's time / one target step's time (default 0.05, the "
                                          "reference page's worked-example assumption: measure yours; ~0 for n-gram)")
    drafting: Literal["serial", "parallel"] = Field(
        "serial", description="serial: k autoregressive draft steps (draft model, EAGLE) cost k x c; parallel: one "
                              "pass proposes all k (Medusa heads, one MTP module, n-gram) and costs c")
    model: str | None = _sizing_field("model")
    config_path: str | None = _sizing_field("config_path")
    config_json: dict[str, Any] | str | None = _sizing_field("config_json")
    hub_revision: str = _sizing_field("hub_revision")
    offline: bool = _sizing_field("offline")
    weights: str | None = _sizing_field("weights")
    kv: str = _sizing_field("kv")
    gpu: str | None = _sizing_field("gpu")
    tp: int = _sizing_field("tp")
    pp: int = _sizing_field("pp")
    ep: int = _sizing_field("ep")
    tokens: int = Field(4096, ge=1, le=100_000_000, description="Resident tokens per sequence (context of the "
                                                                "decode steps and the drafter's KV)")
    concurrency: list[int] = Field([1], min_length=1, max_length=32,
                                   description="Batch sizes (sequences per replica) to bound the speed-up at")
    memory_utilization: float = _sizing_field("memory_utilization")
    draft_model: str | None = Field(None, min_length=1, max_length=200,
                                    description="The draft model (catalog name or HF repo id): its weights and KV are "
                                                "added to the target's memory at the target's TP")
    mtp_layers: int | None = Field(None, ge=1, le=8, description="Draft with the target's own multi-token-prediction "
                                                                 "layers (DeepSeek num_nextn_predict_layers): their "
                                                                 "weights and KV are added")

    @model_validator(mode="after")
    def _check(self) -> SpeculativeRequest:
        given = [n for n in ("model", "config_path", "config_json") if getattr(self, n) is not None]
        if len(given) > 1:
            raise ValueError(f"give at most one of model, config_path, config_json (got {', '.join(given)})")
        if (self.draft_model or self.mtp_layers) and not given:
            raise ValueError("draft_model / mtp_layers need the target model (model, config_path or config_json)")
        if self.draft_model and self.mtp_layers:
            raise ValueError("give draft_model or mtp_layers, not both")
        return self


class BatchSpeedup(BaseModel):
    """The speed-up at one batch size: roofline step times (ceilings) and the modelled speed-up (estimate)."""

    batch: int = Field(description="Sequences per replica decoding together")
    plain_step_ms: float = Field(description="Plain decode step >= this (ceiling: B tokens)")
    verify_step_ms: float = Field(description="Verification step >= this (ceiling: B x (k + 1) tokens)")
    verify_cost: float = Field(description="V = verify step / plain step (1 while memory-bound, up to k + 1)")
    verify_bound: Literal["memory", "compute"] = Field(description="What bounds the verification step")
    speedup: float = Field(description="S = tau / (drafting cost + V)")
    plain_tokens_per_s_per_sequence: float = Field(description="Plain decode rate bound (ceiling)")
    speculative_tokens_per_s_per_sequence: float = Field(description="tau / ((drafting + V) x plain step): the same "
                                                                     "bound with speculation (estimate)")
    evidence: Evidence = Field("estimate", description="Step times are ceilings; the speed-up an estimate")


class DrafterMemory(BaseModel):
    """Memory the drafter adds per GPU, and whether the target still fits."""

    drafter: str = Field(description="The draft model, or the MTP layers")
    weights_bytes_per_gpu: int = Field(description="Drafter weights on one GPU")
    kv_bytes_per_token_per_gpu: int = Field(description="Drafter KV per token on one GPU")
    kv_bytes_per_gpu: int = Field(description="Drafter KV at tokens x the largest batch")
    added_bytes_per_gpu: int = Field(description="weights + KV added per GPU")
    target_margin_bytes: int | None = Field(description="The target alone: budget - total per GPU at the largest "
                                                        "batch")
    margin_with_drafter_bytes: int | None = Field(description="target margin - added bytes (negative: does not fit)")
    formula: str = Field(description="How the added memory is counted")
    evidence: Evidence = Field("estimate", description="Estimate, as every memory figure")


class SpeculativeReport(BaseModel):
    """Tokens per step and the acceptance figures in every convention, speed-up bounds, and drafter memory."""

    alpha: float = Field(description="Per-token acceptance probability (i.i.d. model; converted when another rate "
                                     "was given)")
    draft_tokens: int = Field(description="k")
    tokens_per_step: float = Field(description="tau = (1 - alpha^(k+1)) / (1 - alpha): tokens per verification "
                                               "step, the target's own token included (= vLLM mean acceptance "
                                               "length)")
    vllm_draft_acceptance_rate: float = Field(description="Accepted / drafted tokens = (tau - 1) / k (vLLM)")
    vllm_mean_acceptance_length: float = Field(description="1 + accepted / drafts = tau (vLLM, bonus included)")
    per_position_acceptance: list[float] = Field(description="alpha^i for positions 1..k (vLLM per-position rate)")
    accepted_drafts_per_step: float = Field(description="tau - 1")
    rejected_drafts_per_step: float = Field(description="k - (tau - 1): drafted and thrown away")
    target_positions_per_step: int = Field(description="k + 1 positions scored by the target per step")
    target_work_per_token: float = Field(description="(k + 1) / tau: target positions per emitted token")
    drafting_cost: float = Field(description="k x c (serial) or c (parallel), in target steps")
    speedup_memory_bound: float = Field(description="S = tau / (drafting cost + 1): the small-batch upper reference")
    batches: list[BatchSpeedup] = Field(description="Speed-up against batch size on the GPU (with a model and GPU)")
    memory: DrafterMemory | None = Field(description="The drafter's memory (with draft_model or mtp_layers)")
    formulas: list[str] = Field(description="Every formula used, with the numbers")
    assumptions: list[str] = Field(description="What the model assumes and leaves out")
    references: list[str] = Field(description="Reference sections")
    evidence: Evidence = Field("estimate", description="Estimates from the i.i.d. acceptance model; step times in "
                                                       "batches are ceilings")

    def to_text(self) -> str:
        """The figures, the batch table, the drafter's memory, the formulas and assumptions."""
        lines = [f"alpha {self.alpha:.4f}, k = {self.draft_tokens}: {self.tokens_per_step:.4f} tokens per step "
                 "[estimate]",
                 f"  vLLM would log: mean acceptance length {self.vllm_mean_acceptance_length:.2f}, draft acceptance "
                 f"rate {self.vllm_draft_acceptance_rate:.1%}, per-position "
                 + ", ".join(f"{p:.3f}" for p in self.per_position_acceptance),
                 f"  per step: {self.accepted_drafts_per_step:.2f} drafts accepted, {self.rejected_drafts_per_step:.2f}"
                 f" rejected, {self.target_positions_per_step} positions verified ({self.target_work_per_token:.2f} "
                 "per emitted token)",
                 f"  speed-up while decode is memory-bound (V = 1): {self.speedup_memory_bound:.2f}x [estimate]"]
        if self.batches:
            lines += ["", f"{'batch':>7}{'plain ms':>11}{'verify ms':>11}{'V':>7}{'bound':>9}{'speed-up':>10}"
                          f"{'tok/s/seq plain':>17}{'with spec':>11}"]
            for b in self.batches:
                lines.append(f"{b.batch:>7}{b.plain_step_ms:>11.3f}{b.verify_step_ms:>11.3f}{b.verify_cost:>7.2f}"
                             f"{b.verify_bound:>9}{b.speedup:>10.2f}{b.plain_tokens_per_s_per_sequence:>17.1f}"
                             f"{b.speculative_tokens_per_s_per_sequence:>11.1f}")
            lines.append("step times: ceilings (roofline); speed-up and rate with speculation: estimates")
        if self.memory:
            m = self.memory
            lines += ["", f"drafter memory ({m.drafter}) per GPU: weights {m.weights_bytes_per_gpu / 2**30:.2f} GiB + "
                          f"KV {m.kv_bytes_per_gpu / 2**30:.2f} GiB = {m.added_bytes_per_gpu / 2**30:.2f} GiB [estimate]"]
            if m.margin_with_drafter_bytes is not None and m.target_margin_bytes is not None:
                verdict = "still fits" if m.margin_with_drafter_bytes >= 0 else "DOES NOT FIT"
                lines.append(f"  target margin {m.target_margin_bytes / 2**30:.2f} GiB -> with drafter "
                             f"{m.margin_with_drafter_bytes / 2**30:.2f} GiB: {verdict}")
        lines += ["", "formulas:"] + [f"  - {f}" for f in self.formulas]
        lines += ["assumptions:"] + [f"  - {a}" for a in self.assumptions]
        lines += ["references: " + ", ".join(self.references)]
        return "\n".join(lines)


def _target(request: SpeculativeRequest, batch: int) -> SizingRequest:
    return SizingRequest(model=request.model, config_path=request.config_path, config_json=request.config_json,
                         hub_revision=request.hub_revision, offline=request.offline, weights=request.weights,
                         kv=request.kv, gpu=request.gpu, tp=request.tp, pp=request.pp, ep=request.ep,
                         tokens=request.tokens, concurrency=batch, memory_utilization=request.memory_utilization)


def _batches(request: SpeculativeRequest, tau: float, drafting: float) -> list[BatchSpeedup]:
    """Roofline step times of plain and verification steps at each batch size, and the speed-up they allow."""
    k = request.draft_tokens
    out = []
    for batch in request.concurrency:
        target = _target(request, batch)
        mem_p, comp_p = decode_step_times(target, 1)
        mem_v, comp_v = decode_step_times(target, k + 1)
        plain, verify = max(mem_p, comp_p or 0.0), max(mem_v, comp_v or 0.0)
        v = verify / plain
        speedup = tau / (drafting + v)
        out.append(BatchSpeedup(batch=batch, plain_step_ms=plain * 1e3, verify_step_ms=verify * 1e3, verify_cost=v,
                                verify_bound="compute" if (comp_v or 0.0) > mem_v else "memory", speedup=speedup,
                                plain_tokens_per_s_per_sequence=1 / plain,
                                speculative_tokens_per_s_per_sequence=tau / ((drafting + v) * plain)))
    return out


def _memory(request: SpeculativeRequest) -> DrafterMemory | None:
    """The drafter's weights and KV per GPU, against the target's margin at the largest batch."""
    if not (request.draft_model or request.mtp_layers):
        return None
    batch = max(request.concurrency)
    target = _target(request, batch)
    if request.draft_model:
        draft = size_deployment(SizingRequest(model=request.draft_model, offline=request.offline,
                                              tokens=request.tokens, concurrency=batch, tp=request.tp))
        weights, per_token = draft.per_gpu.weights_bytes, draft.kv_cache.bytes_per_token_per_gpu
        name, how = draft.model.name, (f"the draft model sized as size_deployment does at TP {request.tp} (default "
                                       "format, its KV format auto)")
    else:
        layers = request.mtp_layers or 1
        weights, per_token = mtp_footprint(target, layers)
        name = f"{layers} MTP layer(s)"
        how = ("each MTP module as the model's last decoder layer plus eh_proj (2 x hidden -> hidden) and two norms, "
               "embedding and lm_head shared; KV of one more layer per module")
    kv = per_token * request.tokens * batch
    margin = None
    if request.gpu:
        try:
            margin = size_deployment(target).per_gpu.free_bytes
        except ModelConfigError:
            margin = None
    added = weights + kv
    return DrafterMemory(
        drafter=name, weights_bytes_per_gpu=weights, kv_bytes_per_token_per_gpu=per_token, kv_bytes_per_gpu=kv,
        added_bytes_per_gpu=added, target_margin_bytes=margin,
        margin_with_drafter_bytes=None if margin is None else margin - added,
        formula=(f"{how}; KV = {per_token:,} B/token x {request.tokens:,} tokens x {batch} sequences = {kv:,} B"))


def speculative_decoding(request: SpeculativeRequest) -> SpeculativeReport:
    """tau(alpha, k) and the acceptance conversions; with a target model and GPU the speed-up at each batch size; with
    a drafter its memory.

    Example::

        speculative_decoding(SpeculativeRequest(acceptance=0.8, draft_tokens=4))   # tau = 3.3616
    """
    k = request.draft_tokens
    if request.rate_kind == "alpha" and request.acceptance > 1:
        raise InputFormatError(f"{argument('acceptance')}: alpha is a probability (0 to 1), got "
                               f"{request.acceptance:g}; for a mean acceptance length use rate_kind acceptance-length")
    alpha = alpha_from(request.acceptance, request.rate_kind, k)
    tau = acceptance_length(alpha, k)
    drafting = request.draft_cost * (k if request.drafting == "serial" else 1)
    batches: list[BatchSpeedup] = []
    has_model = any(getattr(request, n) is not None for n in ("model", "config_path", "config_json"))
    if has_model and request.gpu:
        batches = _batches(request, tau, drafting)
    elif has_model or request.gpu:
        raise InputFormatError(f"give both the target model and {argument('gpu')} to bound the speed-up against "
                               "batch size (or neither for tau and the conversions alone)")
    draft_term = f"{k} x {request.draft_cost:g}" if request.drafting == "serial" else f"{request.draft_cost:g}"
    formulas = [
        f"tau = (1 - alpha^(k+1)) / (1 - alpha) = (1 - {alpha:.4f}^{k + 1}) / (1 - {alpha:.4f}) = {tau:.4f}",
        f"vLLM draft acceptance rate = (tau - 1) / k = {tau - 1:.4f} / {k} = {(tau - 1) / k:.4f}",
        f"vLLM mean acceptance length = 1 + accepted / drafts = tau = {tau:.4f}",
        f"per-position acceptance = alpha^i, i = 1..{k}",
        f"S = tau / (drafting + V) = {tau:.4f} / ({draft_term} + V); V = max(mem, compute at B (k+1) tokens) / "
        "max(mem, compute at B tokens) from the roofline",
    ]
    if request.rate_kind != "alpha":
        formulas.insert(0, f"alpha solves {'tau' if request.rate_kind == 'acceptance-length' else '(tau - 1) / k'}"
                           f"(alpha, {k}) = {request.acceptance:g} (bisection) -> alpha = {alpha:.4f}")
    return SpeculativeReport(
        alpha=alpha, draft_tokens=k, tokens_per_step=tau, vllm_draft_acceptance_rate=(tau - 1) / k,
        vllm_mean_acceptance_length=tau, per_position_acceptance=[alpha ** i for i in range(1, k + 1)],
        accepted_drafts_per_step=tau - 1, rejected_drafts_per_step=k - (tau - 1), target_positions_per_step=k + 1,
        target_work_per_token=(k + 1) / tau, drafting_cost=drafting, speedup_memory_bound=tau / (drafting + 1),
        batches=batches, memory=_memory(request), formulas=formulas,
        assumptions=[
            "drafts are accepted independently with probability alpha until the first rejection (real drafters fall "
            "off faster with depth: compare the per-position rates with your engine's)",
            f"one drafting step costs c = {request.draft_cost:g} target steps ({request.drafting} drafting)",
            "verification costs V plain steps from the roofline (weights, KV and FLOPs at peak); sampling, "
            "scheduling, rejected-token KV writes and TP communication are left out",
            "tree drafts verify more positions than k + 1: treat V as a lower bound for them",
        ],
        references=[f"{REFERENCE}#expected-tokens-per-step", f"{REFERENCE}#speed-up-model",
                    f"{REFERENCE}#acceptance-rate-and-acceptance-length", f"{REFERENCE}#worked-example"])
