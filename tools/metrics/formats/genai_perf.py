"""GenAI-Perf raw ``profile_export.json`` (perf_analyzer): request timestamps and streamed SSE responses in ns.

``experiments[k].requests[i]`` holds ``timestamp`` (send, ns), ``response_timestamps`` (ns)
and ``response_outputs`` (``{"response": "data: {...}"}``). As GenAI-Perf does, responses
without content (role-only deltas, usage chunks, ``[DONE]``) are dropped with their
timestamps. Output tokens come from a ``usage`` chunk when the stream has one, else one
token per content chunk (GenAI-Perf itself retokenizes the text on the client).
"""

from __future__ import annotations

import json
from typing import Any

from ...errors import InputFormatError, argument
from ..records import SourceReported, Trace, TraceBuilder
from .fields import mapping, optional_number

__all__ = ["OBSERVATION_POINT", "is_genai_perf", "read_genai_perf"]

OBSERVATION_POINT = (
    "client (perf_analyzer / genai-perf): start = request timestamp; first token = first response with non-empty "
    "content; end = last response with content"
)

DIFFERENCES = [
    "genai-perf's 'inter_token_latency' is vLLM's TPOT ((latency - TTFT) / (OSL - 1), request-weighted).",
    "genai-perf counts OSL/ISL with a client tokenizer; this report uses the stream's usage chunk when present, "
    "else one token per content chunk.",
    "genai-perf's request_throughput numerator counts requests whose responses were all empty.",
]


def is_genai_perf(obj: dict[str, Any]) -> bool:
    experiments = obj.get("experiments")
    return isinstance(experiments, list) and bool(experiments) and isinstance(experiments[0], dict) and "requests" in experiments[0]


def _content_and_usage(raw: Any) -> tuple[bool, dict[str, Any] | None]:
    """Whether one SSE response carries text, and its usage object if any."""
    text = raw.get("response") if isinstance(raw, dict) else raw
    if not isinstance(text, str):
        return False, None
    has_content = False
    usage = None
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("data:"):
            line = line[5:].strip()
        if not line or line == "[DONE]":
            continue
        try:
            event = json.loads(line)
        except json.JSONDecodeError:
            continue  # split or merged SSE lines: genai-perf repairs them; a garbled one counts as no content
        if not isinstance(event, dict):
            continue
        if isinstance(event.get("usage"), dict):
            usage = event["usage"]
        for choice in event.get("choices") or []:
            if not isinstance(choice, dict):
                continue
            delta = choice.get("delta") if isinstance(choice.get("delta"), dict) else {}
            if delta.get("content") or delta.get("reasoning_content") or choice.get("text"):
                has_content = True
    return has_content, usage


def read_genai_perf(obj: dict[str, Any], *, label: str, run_index: int | None) -> Trace:
    experiments = obj["experiments"]
    index = 0 if run_index is None else run_index
    if not 0 <= index < len(experiments):
        raise InputFormatError(f"{label}: {argument('run_index')} {index} is out of range; the file has {len(experiments)} experiments")
    where = f"{label}: experiments[{index}]"
    requests = mapping(experiments[index], where).get("requests")
    if not isinstance(requests, list):
        raise InputFormatError(f"{where}: field 'requests' must be a list")
    builder = TraceBuilder()
    first_send: float | None = None
    last_response: float | None = None
    empty = 0
    for i, req in enumerate(requests):
        rwhere = f"{where}.requests[{i}]"
        req = mapping(req, rwhere)
        optional_number(req, "timestamp", rwhere)  # type and range check
        ts = req.get("timestamp")
        stamps = req.get("response_timestamps")
        outputs = req.get("response_outputs")
        if ts is None or not isinstance(stamps, list) or not isinstance(outputs, list) or len(stamps) != len(outputs):
            raise InputFormatError(f"{rwhere}: needs 'timestamp' and equally long 'response_timestamps' and 'response_outputs'")
        times: list[int | float] = []  # kept as the file's ints: ns epochs lose ~256 ns as float64
        usage = None
        for j, (stamp, out) in enumerate(zip(stamps, outputs)):
            if isinstance(stamp, bool) or not isinstance(stamp, (int, float)):
                raise InputFormatError(f"{rwhere}.response_timestamps[{j}] must be a number (ns)")
            content, u = _content_and_usage(out)
            usage = u or usage
            if content:
                times.append(stamp)
        first_send = ts if first_send is None else min(first_send, ts)
        if stamps:
            last_response = max(stamps) if last_response is None else max(last_response, *stamps)
        if not times:
            empty += 1
            builder.add(ok=False, start_s=ts / 1e9)
            continue
        if times[0] < ts or any(b < a for a, b in zip(times, times[1:])):
            raise InputFormatError(f"{rwhere}: response_timestamps must be ascending and after the request timestamp")
        out_tokens = optional_number(usage, "completion_tokens", f"{rwhere}.usage") if usage else None
        prompt_tokens = optional_number(usage, "prompt_tokens", f"{rwhere}.usage") if usage else None
        builder.add(
            ok=True,
            ttft_s=(times[0] - ts) / 1e9,
            e2el_s=(times[-1] - ts) / 1e9,
            output_tokens=out_tokens,
            prompt_tokens=prompt_tokens,
            start_s=ts / 1e9,
            itl_ms=[(b - a) / 1e6 for a, b in zip(times, times[1:])],
        )
    trace = builder.build(source_format="genai-perf", source=label, observation_point=OBSERVATION_POINT)
    if first_send is not None and last_response is not None and last_response > first_send:
        trace.duration_s = (last_response - first_send) / 1e9
        trace.duration_basis = "genai-perf's rule: last response timestamp - first request timestamp"
    if empty:
        trace.warnings.append(f"{empty} requests had no response with content: counted as failed (genai-perf skips them)")
    trace.source_reported = SourceReported(tool="genai-perf", figures={}, definition_differences=DIFFERENCES)
    return trace
