"""vLLM-style per-request arrays (``ttfts``, ``itls``, ``output_lens``, ...) into a ``Trace``.

``vllm bench serve --save-detailed`` and SGLang ``bench_serving --output-details`` both store
one entry per request, failed requests included, times in seconds, ``itls`` as one list of
chunk gaps per request. This module checks their lengths and values and builds the columns.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, Any

from ...errors import InputFormatError
from ..records import Trace
from .fields import array_field

if TYPE_CHECKING:
    import numpy as np

__all__ = ["trace_from_arrays"]


def trace_from_arrays(
    obj: dict[str, Any],
    where: str,
    *,
    source_format: str,
    source: str,
    observation_point: str,
) -> Trace:
    """Build a trace from ``ttfts``/``itls``/``output_lens`` (+ optional ``input_lens``, ``errors``,
    ``latencies``, ``start_times``, ``queue_times``). E2E is ``latencies`` when present, else TTFT + sum(ITL)."""
    import numpy as np

    ttfts = array_field(obj, "ttfts", where)
    n = ttfts.size
    output_lens = array_field(obj, "output_lens", where, length=n)
    itls = obj.get("itls")
    if not isinstance(itls, list) or len(itls) != n:
        got = f"{len(itls)} entries" if isinstance(itls, list) else type(itls).__name__
        raise InputFormatError(f"{where}: field 'itls' must be one list of chunk gaps per request ({n}), got {got}")
    warnings: list[str] = []
    errors = obj.get("errors")
    if isinstance(errors, list) and len(errors) == n:
        ok = np.array([not e for e in errors], dtype=bool)
    elif errors is None:
        ok = output_lens > 0
        warnings.append("file has no 'errors' array: requests with 0 output tokens were taken as failed")
    else:
        raise InputFormatError(f"{where}: field 'errors' must hold one entry per request ({n})")
    input_lens = array_field(obj, "input_lens", where, length=n) if "input_lens" in obj else np.full(n, np.nan)

    ok_idx = np.flatnonzero(ok)
    n_itl = np.zeros(n, dtype=np.int64)
    for i in ok_idx:
        gaps = itls[i]
        if not isinstance(gaps, list):
            raise InputFormatError(f"{where}: field 'itls'[{i}] must be a list of chunk gaps (s)")
        n_itl[i] = len(gaps)
    total = int(n_itl.sum())
    try:
        flat = np.fromiter(itertools.chain.from_iterable(itls[i] for i in ok_idx), dtype=np.float64, count=total)
    except (TypeError, ValueError):
        raise InputFormatError(f"{where}: field 'itls' holds a non-number") from None
    if total and (not np.all(np.isfinite(flat)) or flat.min() < 0):
        raise InputFormatError(f"{where}: field 'itls' holds a negative or non-finite gap")

    if "latencies" in obj and isinstance(obj["latencies"], list) and len(obj["latencies"]) == n:
        e2el = array_field(obj, "latencies", where, length=n)
        e2el_note = "latencies"
    else:
        starts = np.concatenate(([0], np.cumsum(n_itl)[:-1])) if n else np.zeros(0, dtype=np.int64)
        # Sum each request's gaps. reduceat only over requests with gaps: an empty segment would return
        # flat[start], and one at the very end (a last request with a single chunk) would index past the end.
        sums = np.zeros(ok_idx.size)
        has_gaps = n_itl[ok_idx] > 0
        if total:
            sums[has_gaps] = np.add.reduceat(flat, starts[ok_idx][has_gaps])
        e2el = np.full(n, np.nan)
        e2el[ok_idx] = ttfts[ok_idx] + sums
        e2el_note = "rebuilt"
    start = array_field(obj, "start_times", where, length=n, minimum=None) if _has_list(obj, "start_times", n) else np.full(n, np.nan)
    queue = array_field(obj, "queue_times", where, length=n) if _has_list(obj, "queue_times", n) else np.full(n, np.nan)

    bad = ok & (ttfts > e2el * (1 + 1e-9) + 1e-12)
    if np.any(bad):
        i = int(np.flatnonzero(bad)[0])
        raise InputFormatError(f"{where}: request {i}: ttfts ({ttfts[i]:g} s) exceeds its latency ({e2el[i]:g} s)")

    trace = Trace(
        source_format=source_format,
        source=source,
        observation_point=observation_point,
        ok=ok,
        ttft_s=np.where(ok, ttfts, np.nan),
        e2el_s=np.where(ok, e2el, np.nan),
        output_tokens=np.where(ok, output_lens, np.nan),
        prompt_tokens=input_lens,
        start_s=start,
        queue_s=queue,
        itl_s=flat,
        n_itl=n_itl,
        warnings=warnings,
    )
    if e2el_note == "rebuilt":
        trace.warnings.append(
            "file carries no per-request latencies: E2E rebuilt as TTFT + sum(ITL), i.e. ending at the last chunk"
        )
    return trace


def _has_list(obj: dict[str, Any], key: str, n: int) -> bool:
    value = obj.get(key)
    return isinstance(value, list) and len(value) == n and n > 0 and not any(
        v is None or (isinstance(v, float) and math.isnan(v)) for v in value[:1]
    )
