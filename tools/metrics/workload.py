"""What workload did a run actually serve? Token lengths, token counting, load, cache reuse, concurrency.

Two runs can only be compared when they served the same work. ``describe_workload`` reads
it from a trace: prompt and output lengths (requested and completed), where token counts
came from (server usage, a client tokenizer, chunks), prefix-cache hits and repeated
prompts, the load the file asked for and the arrival rate and in-flight concurrency its
timestamps show. Its warnings quote the observed values, so a reader can judge them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from .latency import Distribution, distribution
from .records import LoadSetting, Trace

if TYPE_CHECKING:
    import numpy as np

__all__ = ["Workload", "behind_schedule", "describe_workload", "in_flight"]

COLD_START_RATIO = 2.0
"""First requests' median TTFT at least this many times the rest's: the run looks like it includes a cold start."""

SCHEDULE_SHORTFALL = 0.15
"""A generator that sent at least this share below the rate it was asked for has fallen behind its schedule."""
SCHEDULE_P = 0.001
"""...and only when Poisson arrivals at the requested rate would send that slowly with at most this probability."""


def behind_schedule(requested_rate: float | None, start_times: np.ndarray) -> str | None:
    """Why the sends fell behind the requested rate (client-bound), or None.

    The achieved rate is (n - 1) / (last send - first send). A shortfall counts when it exceeds
    SCHEDULE_SHORTFALL and when n - 1 exponential gaps at the requested rate (Poisson arrivals: vLLM's
    default burstiness of 1; constant-rate schedules are steadier) would span that long with probability
    below SCHEDULE_P, so a short run's chance gaps are not called client-bound.
    """
    import math

    import numpy as np

    starts = start_times[np.isfinite(start_times)]
    if not requested_rate or not math.isfinite(requested_rate) or starts.size < 3:
        return None
    span = float(starts.max() - starts.min())
    gaps = starts.size - 1
    if span <= 0:
        return None
    achieved = gaps / span
    if achieved >= (1 - SCHEDULE_SHORTFALL) * requested_rate:
        return None
    if _poisson_span_tail(gaps, requested_rate * span) >= SCHEDULE_P:
        return None
    return (f"behind schedule: asked for {requested_rate:g} req/s but sent {achieved:.2f} req/s ({starts.size} sends over "
            f"{span:.2f} s): the load generator could not keep up (client-bound), so the server saw less load than stated; "
            "Poisson arrivals at the asked rate would be this slow with probability below 0.1%")


def _poisson_span_tail(k: int, x: float) -> float:
    """P(k exponential gaps of rate 1 sum to more than x) = e^-x * sum_{i<k} x^i / i! (the Gamma(k) upper tail)."""
    import math

    if x <= 0:
        return 1.0
    log_term, log_total = -x, -x  # i = 0
    for i in range(1, k):
        log_term += math.log(x) - math.log(i)
        hi, lo = max(log_total, log_term), min(log_total, log_term)
        log_total = hi + math.log1p(math.exp(lo - hi))
    return min(1.0, math.exp(log_total))


class Workload(BaseModel):
    """The work one run served and the load it ran under, as its records show (successful requests unless stated)."""

    model_config = ConfigDict(extra="forbid")

    prompt_tokens: Distribution | None = Field(description="Prompt tokens per request (server usage where recorded).")
    output_tokens: Distribution | None = Field(description="Completed output tokens per request (the count output_token_source names).")
    requested_output_tokens: Distribution | None = Field(
        description="Output tokens the requests asked for (max_tokens), where the file records it."
    )
    output_token_source: str = Field(description="Where output token counts come from: server usage, a client tokenizer, or one per chunk.")
    client_output_tokens: Distribution | None = Field(
        description="Output tokens per request as the client's tokenizer counted them, where the file has both counts."
    )
    client_prompt_tokens: Distribution | None = Field(
        description="Prompt tokens per request as the client's tokenizer counted them, where the file has both counts."
    )
    cached_prompt_tokens: int | None = Field(description="Sum of prompt tokens served from the prefix cache; None when not recorded.")
    cached_share: float | None = Field(description="cached_prompt_tokens / all prompt tokens of those requests (0-1); None when not recorded.")
    repeated_prompts: int | None = Field(
        description="Requests whose prompt repeats an earlier one in the run; None when the file does not identify prompts."
    )
    load: LoadSetting | None = Field(description="The load the file says was requested (rate, concurrency cap, open or closed loop).")
    arrival_rate: float | None = Field(
        description="Achieved send rate: (requests - 1) / (last send - first send), all requests with a send time (requests/s)."
    )
    mean_concurrency: float | None = Field(
        description="Time-averaged requests in flight: sum of successful E2E latencies / duration_s (Little's law; SGLang's 'concurrency')."
    )
    peak_concurrency: int | None = Field(
        description="Most successful requests in flight at once, from send and last-token times (vLLM's max_concurrent_requests)."
    )
    first_requests_ttft_ratio: float | None = Field(
        description="Median TTFT of the first requests sent (10%, at most 10) / median TTFT of the rest; >= 2 suggests a cold start "
        "(warm-up included). None below 20 requests with send times."
    )


def in_flight(start_s: np.ndarray, end_s: np.ndarray) -> int:
    """Peak number of intervals [start, end) open at once (sweep line; an end at t closes before a start at t opens)."""
    import numpy as np

    if start_s.size == 0:
        return 0
    times = np.concatenate([start_s, end_s])
    steps = np.concatenate([np.ones(start_s.size), -np.ones(end_s.size)])
    order = np.lexsort((steps, times))  # at equal times, -1 (an end) sorts before +1 (a start)
    return int(np.max(np.cumsum(steps[order])))


def _range(values: np.ndarray, digits: int = 0) -> str:
    import numpy as np

    lo, hi = float(np.min(values)), float(np.max(values))
    fmt = f"{{:.{digits}f}}"
    return fmt.format(lo) if lo == hi else f"{fmt.format(lo)}-{fmt.format(hi)}"


def describe_workload(trace: Trace, *, duration_s: float | None, warnings: list[str]) -> Workload:
    """The workload of ``trace``; appends warnings (with observed values) to ``warnings``."""
    import numpy as np

    ok = trace.ok
    n_ok = int(ok.sum())
    prompt = trace.prompt_tokens[ok]
    out = trace.output_tokens[ok]

    def col(values: np.ndarray | None) -> np.ndarray | None:
        return None if values is None else values[ok]

    requested = col(trace.requested_output_tokens)
    requested_dist = None
    if requested is not None:
        both = np.isfinite(requested) & np.isfinite(out)
        requested_dist = distribution(requested[np.isfinite(requested)])
        short, long = both & (out < requested), both & (out > requested)
        if short.any():
            warnings.append(
                f"requested vs completed output length: {int(short.sum())} of {int(both.sum())} requests completed fewer output "
                f"tokens than requested (requested {_range(requested[short])}, completed {_range(out[short])}, median "
                f"{float(np.median(out[short])):.0f}): EOS or a stop sequence ended them early, so the run measured shorter outputs "
                "than its workload asked for (ignore_eos holds them fixed)"
            )
        if long.any():
            warnings.append(
                f"requested vs completed output length: {int(long.sum())} requests completed more output tokens than requested "
                f"(requested {_range(requested[long])}, completed {_range(out[long])}): the counts come from different tokenizers, "
                "or max_tokens was not applied"
            )

    client_dists = {}
    for name, client, server in (
        ("output", col(trace.client_output_tokens), out),
        ("prompt", col(trace.client_prompt_tokens), prompt),
    ):
        if client is None:
            client_dists[name] = None
            continue
        both = np.isfinite(client) & np.isfinite(server) & (server > 0)
        client_dists[name] = distribution(client[np.isfinite(client)])
        differ = both & (client != server)
        if differ.any():
            pct = (client[differ] - server[differ]) / server[differ] * 100
            fewer = bool(np.median(pct) < 0)
            words = "fewer" if fewer else "more"
            size = _range(np.abs(pct))
            warnings.append(
                f"client vs server token counts: {trace.client_tokenizer_tool} counted {name} tokens {_range(client[differ])} where "
                f"the server's usage reported {_range(server[differ])} ({int(differ.sum())} of {int(both.sum())} requests; client "
                f"{size}% {words}); server usage is used here, and any figure the tool derived from its own count "
                f"({'ITL, OSL, output tokens/s' if name == 'output' else 'ISL, input tokens/s'}) is off by as much"
            )

    cached = col(trace.cached_tokens)
    cached_total = cached_share = None
    if cached is not None and np.isfinite(cached).any():
        known = np.isfinite(cached)
        cached_total = int(np.sum(cached[known]))
        prompt_known = known & np.isfinite(prompt)
        prompt_sum = float(np.sum(prompt[prompt_known]))
        cached_share = float(np.sum(cached[prompt_known]) / prompt_sum) if prompt_sum > 0 else None
        hits = int((cached[known] > 0).sum())
        if hits:
            share = f" ({cached_share:.0%} of their prompt tokens)" if cached_share is not None else ""
            warnings.append(
                f"warm prefix cache: {hits} of {int(known.sum())} requests had cached prompt tokens, {cached_total} in all{share}: "
                "TTFT and throughput here are cache-hit figures; label them so"
            )

    repeated = None
    if trace.prompt_ids is not None:
        ids = [p for p, good in zip(trace.prompt_ids, ok.tolist()) if good and p is not None]
        repeated = len(ids) - len(set(ids))
        if repeated:
            warnings.append(
                f"repeated prompts: {repeated} of {len(ids)} requests repeat an earlier prompt ({len(set(ids))} distinct): a prefix "
                "cache can serve them warm"
            )

    starts = trace.start_s[np.isfinite(trace.start_s)]
    if trace.load is not None:
        late = behind_schedule(trace.load.request_rate, starts)
        if late:
            warnings.append(late)
    arrival = None
    if starts.size >= 2 and float(starts.max() - starts.min()) > 0:
        arrival = float((starts.size - 1) / (starts.max() - starts.min()))
    e2el = trace.e2el_s[ok]
    known_e2e = np.isfinite(e2el)
    mean_conc = float(np.sum(e2el[known_e2e]) / duration_s) if duration_s and known_e2e.any() else None
    peak = None
    st = trace.start_s[ok]
    timed = np.isfinite(st) & known_e2e
    if timed.any():
        peak = in_flight(st[timed], st[timed] + e2el[timed])

    ratio = None
    ttft = trace.ttft_s[ok]
    timed_ttft = np.isfinite(st) & np.isfinite(ttft)
    if int(timed_ttft.sum()) >= 20:
        order = np.argsort(st[timed_ttft], kind="stable")
        values = ttft[timed_ttft][order]
        k = max(1, min(10, values.size // 10))
        rest = float(np.median(values[k:]))
        if rest > 0:
            ratio = float(np.median(values[:k]) / rest)
            if ratio >= COLD_START_RATIO:
                warnings.append(
                    f"cold start: the first {k} requests sent have median TTFT {np.median(values[:k]) * 1000:.1f} ms, "
                    f"{ratio:.1f}x the rest's {rest * 1000:.1f} ms: warm-up (graph capture, cache fill, connection set-up) "
                    "looks included in the measurement"
                )
    return Workload(
        prompt_tokens=distribution(prompt[np.isfinite(prompt)]) if n_ok else None,
        output_tokens=distribution(out[np.isfinite(out)]) if n_ok else None,
        requested_output_tokens=requested_dist,
        output_token_source=trace.output_token_source
        + (f"; {trace.output_tokens_counted_from_chunks} requests counted one token per chunk" if trace.output_tokens_counted_from_chunks else ""),
        client_output_tokens=client_dists["output"],
        client_prompt_tokens=client_dists["prompt"],
        cached_prompt_tokens=cached_total,
        cached_share=cached_share,
        repeated_prompts=repeated,
        load=trace.load,
        arrival_rate=arrival,
        mean_concurrency=mean_conc,
        peak_concurrency=peak,
        first_requests_ttft_ratio=ratio,
    )
