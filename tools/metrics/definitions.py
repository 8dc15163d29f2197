"""How every figure of a metrics report is computed: formula, observation point, denominator and unit.

``DEFINITIONS`` follows ``vllm bench serve`` (vllm/benchmarks/serve.py, ``calculate_metrics``); a report
carries it with the rates' denominators naming the run's actual duration basis.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["DEFINITIONS", "MetricDefinition", "definitions_for"]


class MetricDefinition(BaseModel):
    """How one figure is computed: formula, where it is observed, over what it is taken, and its unit."""

    model_config = ConfigDict(extra="forbid")

    formula: str = Field(description="How the figure is computed from the per-request values.")
    observation_point: str = Field(description="Where and between which events the inputs of the figure are measured.")
    denominator: str = Field(description="What the statistics or the rate are taken over.")
    unit: str = Field(description="The figure's unit.")


_CLIENT = "client (the benchmark tool's timestamps; see observation_point for the events)"
_SEND_FIRST = "client: request send -> first streamed token chunk"
_SEND_LAST = "client: request send -> last streamed token chunk"
_FIRST_LAST = "client: first -> last streamed token chunk"
_RUN = "the run's duration_s (see duration_basis)"
_PER_REQUEST_E2E = "successful requests with a known E2E latency > 0 (request-weighted; each value uses its own e2el)"

DEFINITIONS: dict[str, MetricDefinition] = {
    "completed": MetricDefinition(
        formula="count of successful requests (warm-up records dropped first)", observation_point=_CLIENT,
        denominator="none (a count)", unit="requests",
    ),
    "failed": MetricDefinition(
        formula="count of failed requests (error, non-200, no token received); excluded from latency statistics",
        observation_point=_CLIENT, denominator="none (a count)", unit="requests",
    ),
    "warmup_dropped": MetricDefinition(
        formula="count of records marked as warm-up (dropped before anything is computed)", observation_point=_CLIENT,
        denominator="none (a count)", unit="requests",
    ),
    "duration_s": MetricDefinition(
        formula="the file's own run duration when it has one, else last token of any request - first send "
        "(duration_basis says which)", observation_point=_CLIENT, denominator="none", unit="s",
    ),
    "total_input_tokens": MetricDefinition(
        formula="sum of prompt tokens of successful requests (server usage where recorded)", observation_point=_CLIENT,
        denominator="none (a sum over successful requests)", unit="tokens",
    ),
    "total_output_tokens": MetricDefinition(
        formula="sum of output tokens of successful requests (server usage; where usage is missing, one token per "
        "chunk: vLLM retokenizes the generated text instead, or counts 1 without a tokenizer)",
        observation_point=_CLIENT, denominator="none (a sum over successful requests)", unit="tokens",
    ),
    "ttft_ms": MetricDefinition(
        formula="first token chunk arrival - request send (includes queueing, prefill, network)",
        observation_point=_SEND_FIRST,
        denominator="successful requests (one value each)",
        unit="ms",
    ),
    "tpot_ms": MetricDefinition(
        formula="(e2el - ttft) / (output_tokens - 1), per request with output_tokens > 1 (vLLM)",
        observation_point=_FIRST_LAST,
        denominator="successful requests with > 1 output token (request-weighted)",
        unit="ms",
    ),
    "itl_ms": MetricDefinition(
        formula="gap between consecutive streamed chunks, flattened over requests (vLLM); a chunk may carry several tokens",
        observation_point="client: arrival of chunk k -> chunk k+1",
        denominator="chunk gaps of successful requests (chunk-weighted)",
        unit="ms",
    ),
    "e2el_ms": MetricDefinition(
        formula="last token chunk arrival - request send",
        observation_point=_SEND_LAST,
        denominator="successful requests",
        unit="ms",
    ),
    "e2el_incl_queue_ms": MetricDefinition(
        formula="e2el + client queue time before the send (charges the load generator's queue: coordinated omission)",
        observation_point="client: request due (arrival in the schedule) -> last streamed token chunk",
        denominator="successful requests with a recorded queue time",
        unit="ms",
    ),
    "output_speed_tps": MetricDefinition(
        formula="output_tokens / e2el per request (what one user sees, TTFT included; = per_session.output_throughput)",
        observation_point=_SEND_LAST,
        denominator=_PER_REQUEST_E2E,
        unit="tokens/s per request",
    ),
    "decode_speed_tps": MetricDefinition(
        formula="1 / TPOT per request (decode rate after the first token)",
        observation_point=_FIRST_LAST,
        denominator="successful requests with > 1 output token and TPOT > 0",
        unit="tokens/s per request",
    ),
    "effective_prefill_tps": MetricDefinition(
        formula="prompt_tokens / ttft per request: an end-to-end ratio, not the engine's prefill speed (TTFT includes "
        "queueing, network and tokenization; prefix-cache hits are not subtracted)",
        observation_point=_SEND_FIRST,
        denominator="successful requests with a prompt token count and TTFT > 0",
        unit="tokens/s per request",
    ),
    "request_throughput": MetricDefinition(
        formula="completed / duration_s (aggregate)", observation_point=_CLIENT, denominator=_RUN, unit="requests/s"
    ),
    "input_throughput": MetricDefinition(
        formula="sum of prompt tokens of successful requests / duration_s (aggregate)", observation_point=_CLIENT,
        denominator=_RUN, unit="tokens/s",
    ),
    "output_throughput": MetricDefinition(
        formula="sum of output tokens of successful requests / duration_s (aggregate)", observation_point=_CLIENT,
        denominator=_RUN, unit="tokens/s",
    ),
    "total_token_throughput": MetricDefinition(
        formula="(input + output tokens of successful requests) / duration_s (aggregate)", observation_point=_CLIENT,
        denominator=_RUN, unit="tokens/s",
    ),
    "per_session.request_throughput": MetricDefinition(
        formula="1 / e2el per request (requests/s one session sustains back to back, no think time)",
        observation_point=_SEND_LAST, denominator=_PER_REQUEST_E2E, unit="requests/s per session",
    ),
    "per_session.input_throughput": MetricDefinition(
        formula="prompt_tokens / e2el per request", observation_point=_SEND_LAST,
        denominator=_PER_REQUEST_E2E + " and a prompt token count", unit="tokens/s per session",
    ),
    "per_session.output_throughput": MetricDefinition(
        formula="output_tokens / e2el per request (TTFT included)", observation_point=_SEND_LAST,
        denominator=_PER_REQUEST_E2E + " and an output token count", unit="tokens/s per session",
    ),
    "per_session.total_token_throughput": MetricDefinition(
        formula="(prompt_tokens + output_tokens) / e2el per request", observation_point=_SEND_LAST,
        denominator=_PER_REQUEST_E2E + " and both token counts", unit="tokens/s per session",
    ),
    "good_requests": MetricDefinition(
        formula="successful requests meeting every given SLO (value <= SLO)", observation_point=_CLIENT,
        denominator="none (a count)", unit="requests",
    ),
    "request_goodput": MetricDefinition(
        formula="successful requests meeting every SLO / duration_s (vLLM --goodput): value <= SLO, 1-token requests "
        "count as TPOT 0, a value within 1e-9 relative of the SLO counts as meeting it (absorbs float rounding of "
        "ms -> s; vLLM compares the floats exactly, so a value equal to the SLO in its last bit can differ)",
        observation_point=_CLIENT,
        denominator=_RUN,
        unit="requests/s",
    ),
    "workload": MetricDefinition(
        formula="prompt / completed / requested output tokens per request; arrival_rate = (requests - 1) / (last send - first "
        "send); mean_concurrency = sum of E2E latencies / duration_s (Little's law); peak_concurrency = most [send, last "
        "chunk) intervals open at once; cached_share = cached / prompt tokens",
        observation_point=_CLIENT,
        denominator="successful requests (arrival_rate: every request with a send time)",
        unit="tokens per request; requests/s; requests in flight",
    ),
    "slo_attainment": MetricDefinition(
        formula="requests meeting every SLO / all requests (failed requests count as misses)",
        observation_point=_CLIENT,
        denominator="completed + failed requests",
        unit="fraction",
    ),
}


def definitions_for(duration_basis: str) -> dict[str, MetricDefinition]:
    """``DEFINITIONS`` with the rates' denominators naming this report's actual duration basis."""
    out = {}
    for key, definition in DEFINITIONS.items():
        if definition.denominator == _RUN:
            definition = definition.model_copy(update={"denominator": f"duration_s = {duration_basis or 'unknown'}"})
        out[key] = definition
    return out
