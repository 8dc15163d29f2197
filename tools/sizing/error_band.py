"""The error band on a fit verdict: how far the runtime overheads may be from the estimate.

Published vLLM start-up profiles (``data/overhead-profiles.json``, each with its source) log the
non-torch memory, the activation peak and the CUDA-graph memory of a known deployment. Each logged
item is divided by this project's estimate for the same deployment; an item's band is the smallest
and largest of those ratios (and 1). A deployment's plausible overheads scale each of its items by
its band, and the margin moves the other way: ``margin_low = margin - (high - estimate)``.
"""

from __future__ import annotations

import functools
import json
from importlib.resources import files

from .deployment import overhead_items
from .report import GiB, Overhead, PerGPUReport
from .request import SizingRequest

__all__ = ["ITEMS", "apply_overhead_band", "item_bands", "overhead_range"]

ITEMS = {"activation": ("activation_workspace",), "cuda_graphs": ("cuda_graphs",),
         "non_torch": ("cuda_context", "communication_buffers")}
"""Logged item -> the estimate's overheads it corresponds to."""


@functools.cache
def item_bands() -> dict[str, tuple[float, float, tuple[str, ...]]]:
    """Per logged item: (smallest ratio, largest ratio, sources), ratios logged / estimated over the profiles."""
    text = files(__package__).joinpath("data/overhead-profiles.json").read_text(encoding="utf-8")
    ratios: dict[str, list[float]] = {item: [] for item in ITEMS}
    sources: dict[str, set[str]] = {item: set() for item in ITEMS}
    for profile in json.loads(text)["profiles"]:
        predicted = overhead_items(SizingRequest(**profile["request"], tokens=16))
        for item, gib in profile["logged_gib"].items():
            estimate = sum(predicted.get(name, 0) for name in ITEMS[item])
            if estimate > 0:
                ratios[item].append(gib * GiB / estimate)
                sources[item].add(profile["source"])
    return {item: (min([1.0, *r]), max([1.0, *r]), tuple(sorted(sources[item]))) for item, r in ratios.items()}


def overhead_range(by_name: dict[str, int]) -> tuple[float, float]:
    """(low, high) plausible overheads for estimated overhead items given by name."""
    bands = item_bands()
    low = high = 0.0
    for item, names in ITEMS.items():
        estimate = sum(by_name.get(n, 0) for n in names)
        lo, hi, _ = bands[item]
        low, high = low + estimate * lo, high + estimate * hi
    return low, high


def apply_overhead_band(per_gpu: PerGPUReport, overheads: list[Overhead]) -> None:
    """Set the plausible overhead range, the margin range and the verdict on a report's per-GPU section."""
    bands = item_bands()
    low, high = overhead_range({o.name: o.bytes for o in overheads if o.inside_budget})
    per_gpu.overhead_low_bytes, per_gpu.overhead_high_bytes = round(low), round(high)
    n = len({s for _, _, srcs in bands.values() for s in srcs})
    per_gpu.overhead_band_basis = (
        "each overhead item x the range of logged / estimated ratios over published vLLM start-up profiles ("
        + "; ".join(f"{item} {lo:.2f}-{hi:.2f}x" for item, (lo, hi, _) in bands.items())
        + f"; {n} sources in tools/sizing/data/overhead-profiles.json)")
    if per_gpu.free_bytes is None:
        return
    est = per_gpu.overhead_bytes
    per_gpu.margin_low_bytes = per_gpu.free_bytes - (round(high) - est)
    per_gpu.margin_high_bytes = per_gpu.free_bytes + (est - round(low))
    if per_gpu.margin_low_bytes >= 0:
        per_gpu.fit_verdict = "fits"
    elif per_gpu.free_bytes >= 0:
        per_gpu.fit_verdict = "fits at the estimate, not at the high end of the overheads"
    elif per_gpu.margin_high_bytes >= 0:
        per_gpu.fit_verdict = "does not fit at the estimate, fits at the low end of the overheads"
    else:
        per_gpu.fit_verdict = "does not fit"
