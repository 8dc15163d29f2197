"""Weight bytes: each tensor in the chosen format (scales included), in total and per GPU of each stage."""

from __future__ import annotations

import bisect
import fnmatch
import functools
import math
import re
from dataclasses import dataclass

from .architecture import Architecture, Tensor
from .formats import WeightFormat, checkpoint_weight_format, weight_format
from .placement import Deployment
from .report import ComponentBytes, ShareDeviation, WeightsReport
from .request import SizingRequest
from .source import LoadedModel

__all__ = ["WeightTally", "layer_bytes_per_gpu", "pick_weight_format", "tally_weights", "weight_notes",
           "weights_report"]


def pick_weight_format(request: SizingRequest, arch: Architecture) -> tuple[WeightFormat, str, list[str]]:
    """The weight format (requested, else the checkpoint's own), why it was chosen, and notes on what stays
    unquantized and on estimated layouts."""
    notes: list[str] = []
    if request.weights:
        fmt, basis = weight_format(request.weights), "requested"
        if fmt.quantized:
            notes.append(f"weights {fmt.name}: applied to every linear layer; embeddings, lm_head, norms and "
                         "routers stay bf16 (GGUF: norms f32, embeddings quantized)")
    else:
        fmt, basis = checkpoint_weight_format(arch.config)
        if fmt.skip_patterns:
            notes.append(f"checkpoint keeps unquantized: {', '.join(fmt.skip_patterns)}; lm_head, norms and "
                         "routers are never quantized here")
    if not fmt.exact:
        notes.append(f"{fmt.name}: {fmt.description}")
    return fmt, basis, notes


def _skipped(fmt: WeightFormat, name: str) -> bool:
    """Whether the checkpoint leaves tensor ``name`` unquantized (glob, substring or 're:' pattern)."""
    for pat in fmt.skip_patterns:
        if pat.startswith("re:"):
            if re.match(pat[3:], name):
                return True
        elif fnmatch.fnmatch(name, pat) or fnmatch.fnmatch(name, pat + ".*") or ("*" not in pat and pat in name):
            return True
    return False


def _tensor_bytes(t: Tensor, fmt: WeightFormat) -> tuple[int, str]:
    """Bytes of a tensor (all copies) and the format label it was stored in."""
    if fmt.applies_to == "all":
        return t.numel * int(fmt.bits) // 8, fmt.name
    if fmt.scale == "gguf":
        if t.linear or t.component in ("embedding", "lm_head"):
            return fmt.matrix_bytes(t.rows, t.cols) * t.count, fmt.name
        return t.numel * 4, "f32"
    if t.linear and t.component != "lm_head" and not _skipped(fmt, t.name):
        return fmt.matrix_bytes(t.rows, t.cols) * t.count, fmt.name
    return t.numel * fmt.other_bytes, "bf16" if fmt.other_bytes == 2 else "fp32"


def _shard_fraction(split: str, dep: Deployment) -> float:
    """Share of a tensor one GPU holds: sharded tensors 1/TP, KV projections its KV heads, experts
    1/max(TP, EP), replicated tensors all of it."""
    if split in ("column", "row", "vocab"):
        return 1 / dep.tp
    if split == "kv":
        return dep.kv_heads_per_gpu / dep.arch.kv_heads
    if split == "expert":
        return 1 / max(dep.tp, dep.ep)
    return 1.0


def _tensor_stages(layer: int | None, component: str, dep: Deployment, stage_of: list[int]) -> list[int]:
    """Pipeline stages holding a tensor: its layer's stage; the embedding on the first stage, lm_head and the
    final norm on the last; with tied embeddings the last stage also keeps the embedding as lm_head."""
    if layer is not None:
        return [stage_of[layer]]
    if component != "embedding":
        return [dep.pp - 1]
    return [0, dep.pp - 1] if dep.arch.tied_embeddings and dep.pp > 1 else [0]


@dataclass(frozen=True)
class WeightTally:
    """Weight bytes in total, per component, and per GPU of each pipeline stage, split into what a decode step
    reads in full and the routed experts it reads in part."""

    total_bytes: int
    by_component: list[ComponentBytes]
    stage_bytes: list[int]
    routed_expert_bytes: list[int]
    dense_read_bytes: list[int]  # everything but routed experts and the embedding lookup
    # per stage: reason -> (bytes one GPU holds beyond bytes / TP, tensor names) for the non-pro-rata explanation
    stage_deviations: list[dict[str, tuple[float, set[str]]]]


def tally_weights(dep: Deployment, fmt: WeightFormat) -> WeightTally:
    """Each tensor's bytes in the format, summed by (component, stored format) and per GPU of each stage."""
    return _tally(dep.arch, fmt, dep.tp, dep.pp, dep.ep, dep.kv_heads_per_gpu, dep.stages)


@dataclass(frozen=True)
class _Group:
    """Tensors that weigh the same in a format and split the same way (the same projection in every layer)."""

    component: str
    split: str
    bytes: int  # one tensor in the format
    label: str  # the stored format
    numel: int
    name: str  # without the layer prefix
    layers: tuple[int | None, ...]  # one entry per tensor (None: not in a decoder layer)
    in_layers: tuple[int, ...]  # the decoder-layer entries, sorted (to count a stage's copies by bisection)


@functools.lru_cache(maxsize=256)
def _groups(arch: Architecture, fmt: WeightFormat) -> tuple[_Group, ...]:
    """Every tensor's bytes in the format, grouped across layers (remembered per model and format)."""
    grouped: dict[tuple, list[int | None]] = {}
    for t in arch.tensors:
        b, label = _tensor_bytes(t, fmt)
        grouped.setdefault((t.component, t.split, b, label, t.numel, _short_name(t.name)), []).append(t.layer)
    return tuple(_Group(c, sp, b, lab, n, name, tuple(layers), tuple(sorted(i for i in layers if i is not None)))
                 for (c, sp, b, lab, n, name), layers in grouped.items())


@functools.lru_cache(maxsize=1024)
def _tally(arch: Architecture, fmt: WeightFormat, tp: int, pp: int, ep: int, kv_heads_per_gpu: int,
           stages: tuple[tuple[int, ...], ...]) -> WeightTally:
    """tally_weights for one layout (remembered: sweeps and plans revisit layouts)."""
    dep = Deployment(arch=arch, kvf=None, gpus=tp * pp, tp=tp, pp=pp, ep=ep, dp=1,  # type: ignore[arg-type]
                     stages=stages, kv_heads_per_gpu=kv_heads_per_gpu, sequences_per_replica=1)
    stage_of = [0] * len(arch.layers)
    for s, idx in enumerate(dep.stages):
        for i in idx:
            stage_of[i] = s
    total = 0
    by_kind: dict[tuple[str, str], list[int]] = {}  # (component, format) -> [params, bytes]
    stage_bytes, routed, dense_read = [0] * pp, [0] * pp, [0] * pp
    deviations: list[dict[str, tuple[float, set[str]]]] = [{} for _ in range(pp)]
    for g in _groups(arch, fmt):
        copies = len(g.layers)
        total += g.bytes * copies
        row = by_kind.setdefault((g.component, g.label), [0, 0])
        row[0] += g.numel * copies
        row[1] += g.bytes * copies
        share = math.ceil(g.bytes * _shard_fraction(g.split, dep))
        reason = _deviation_reason(g.split, g.component, dep)
        # copies on each stage: the group's layers inside the stage's contiguous range, plus its unlayered tensors
        per_stage = [bisect.bisect_right(g.in_layers, idx[-1]) - bisect.bisect_left(g.in_layers, idx[0]) if idx else 0
                     for idx in dep.stages]
        for _ in range(len(g.layers) - len(g.in_layers)):
            for s in _tensor_stages(None, g.component, dep, stage_of):
                per_stage[s] += 1
        for s, n in enumerate(per_stage):
            if not n:
                continue
            stage_bytes[s] += share * n
            if reason is not None and share != g.bytes / dep.tp:
                extra, names = deviations[s].get(reason, (0.0, set()))
                deviations[s][reason] = (extra + (share - g.bytes / dep.tp) * n, names | {g.name})
            if g.component == "experts":
                routed[s] += share * n
            elif g.component != "embedding" or arch.tied_embeddings and s == pp - 1:
                dense_read[s] += share * n  # a tied embedding is read in full as lm_head on the last stage
    by_component = [ComponentBytes(component=c, params=v[0], bytes=v[1], format=lab)
                    for (c, lab), v in sorted(by_kind.items(), key=lambda item: -item[1][1])]
    return WeightTally(total_bytes=total, by_component=by_component, stage_bytes=stage_bytes,
                       routed_expert_bytes=routed, dense_read_bytes=dense_read, stage_deviations=deviations)


def layer_bytes_per_gpu(dep: Deployment, fmt: WeightFormat, layer: int) -> int:
    """Weight bytes of one decoder layer on one GPU (its tensors in the format, split as the layout splits them)."""
    total = 0
    for g in _groups(dep.arch, fmt):
        copies = g.layers.count(layer)
        if copies:
            total += math.ceil(g.bytes * _shard_fraction(g.split, dep)) * copies
    return total


def _deviation_reason(split: str, component: str, dep: Deployment) -> str | None:
    """Why a tensor's per-GPU share is not 1/TP of it, or None when it is (up to rounding to whole bytes)."""
    if split == "replicated" and dep.tp > 1:
        return f"replicated whole on every TP rank ({component})"
    if split == "kv" and dep.kv_heads_per_gpu * dep.tp > dep.arch.kv_heads:
        return (f"KV projections replicated: TP {dep.tp} > {dep.arch.kv_heads} KV heads, each rank keeps "
                f"{dep.kv_heads_per_gpu} head(s)")
    if split == "expert" and dep.ep > dep.tp:
        return f"routed experts split over max(TP, EP) = {dep.ep} GPUs, not TP = {dep.tp}"
    return None


@functools.lru_cache(maxsize=65536)
def _short_name(name: str) -> str:
    """A tensor name without its layer prefix: 'model.layers.3.self_attn.q_a_proj' -> 'self_attn.q_a_proj'."""
    return re.sub(r"^model\.layers\.\d+\.", "", name)


def _not_pro_rata(dep: Deployment, weights: WeightTally, stage: int, pro_rata: int) -> list[ShareDeviation]:
    """Reasons the stage's per-GPU share differs from total / (TP x PP); they sum to the difference exactly
    (uneven pipeline stages and rounding to whole bytes take the remainder)."""
    stage_tensor_bytes = 0.0  # the stage's tensors split 1/TP each, before the reasons above
    items: list[ShareDeviation] = []
    for reason, (extra, names) in sorted(weights.stage_deviations[stage].items(), key=lambda kv: -abs(kv[1][0])):
        items.append(ShareDeviation(reason=reason, tensors=sorted(names)[:8], bytes_per_gpu=round(extra)))
        stage_tensor_bytes -= extra
    stage_tensor_bytes += weights.stage_bytes[stage]
    if dep.pp > 1:
        items.append(ShareDeviation(
            reason=f"pipeline stage {stage} holds {len(dep.stages[stage])} of {len(dep.arch.layers)} layers "
                   "(plus the embedding on the first stage, lm_head and the final norm on the last)",
            tensors=[], bytes_per_gpu=round(stage_tensor_bytes) - pro_rata))
    rest = weights.stage_bytes[stage] - pro_rata - sum(i.bytes_per_gpu for i in items)
    if rest:
        items.append(ShareDeviation(reason="rounding each tensor's share up to whole bytes", tensors=[],
                                    bytes_per_gpu=rest))
    return items


def weight_notes(arch: Architecture, model: LoadedModel, total_bytes: int, *, requested: bool) -> list[str]:
    """What the weight total leaves out (MTP layers) and, for the checkpoint's own format, how it compares
    with the checkpoint's stored bytes."""
    notes: list[str] = []
    mtp = arch.config.get("num_nextn_predict_layers")
    if isinstance(mtp, int) and mtp > 0:
        notes.append(f"the checkpoint also stores {mtp} multi-token-prediction layer(s), loaded only for MTP "
                     "speculative decoding: not counted")
    stored = model.checkpoint_bytes
    if stored and not requested:
        if stored == total_bytes:
            notes.append(f"computed weight bytes equal the checkpoint's stored bytes ({stored:,})")
        else:
            notes.append(f"computed weight bytes {total_bytes:,} differ from the checkpoint's stored "
                         f"{stored:,} by {total_bytes - stored:+,} (extra tensors such as MTP layers or "
                         "vision towers, or a different scale layout)")
    return notes


def weights_report(arch: Architecture, model: LoadedModel, fmt: WeightFormat, basis: str,
                   weights: WeightTally, dep: Deployment) -> WeightsReport:
    """The weights section; bytes per GPU is the largest stage's share, explained against pro rata."""
    stage = max(range(dep.pp), key=lambda s: weights.stage_bytes[s])
    pro_rata = math.ceil(weights.total_bytes / (dep.tp * dep.pp))
    return WeightsReport(
        format=fmt.name, format_basis=basis, format_description=fmt.description, params=arch.params,
        active_params=arch.active_params, bytes=weights.total_bytes, bytes_per_gpu=weights.stage_bytes[stage],
        pro_rata_bytes_per_gpu=pro_rata, not_pro_rata=_not_pro_rata(dep, weights, stage, pro_rata),
        by_component=weights.by_component, checkpoint_bytes=model.checkpoint_bytes,
        checkpoint_bytes_source=model.checkpoint_bytes_source,
        formula=("weights = sum over tensors of elements x bytes per element in the format (+ scales and zero "
                 f"points) = {weights.total_bytes:,} B; per GPU = TP-split tensors / TP {dep.tp} + routed experts / "
                 f"max(TP, EP) {max(dep.tp, dep.ep)} + replicated tensors whole, over the layers of the largest "
                 f"pipeline stage = {weights.stage_bytes[stage]:,} B"),
        exact_arithmetic=fmt.exact)
