"""Per-request benchmark records: the generic record schema and the columnar trace every format becomes.

A ``RequestRecord`` is one streamed request as a client saw it (the documented
JSONL/CSV/inline schema). Every reader, generic or tool-specific, turns its input
into one ``Trace``: numpy columns over requests (seconds, NaN where a value was
not recorded) plus the flattened chunk gaps of the successful requests. The
arithmetic in ``summary`` reads only the trace, so every format is measured by
the same code.
"""

from __future__ import annotations

import math
from array import array
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

if TYPE_CHECKING:  # numpy is imported inside functions so importing the server stays cheap
    import numpy as np

__all__ = ["RECORD_FIELDS", "LoadSetting", "RequestRecord", "SourceReported", "Trace", "TraceBuilder"]

NonNegMs = Annotated[float, Field(ge=0, le=1e9)]
Timestamp = Annotated[float, Field(ge=-1e12, le=1e12)]

MAX_CHUNKS_PER_REQUEST = 10_000_000

_EXTRA_COLUMNS = ("requested_output_tokens", "client_output_tokens", "client_prompt_tokens", "cached_tokens")
"""Optional per-request columns: only kept in the trace when some request recorded them."""


class RequestRecord(BaseModel):
    """One request as the benchmark client observed it (generic JSONL/CSV/inline schema).

    Times are either durations in milliseconds (``ttft_ms``, ``itl_ms``, ``e2el_ms``) or
    timestamps in seconds on one clock shared by all records (``start_s``, ``first_token_s``,
    ``token_times_s``, ``end_s``). Give whichever the client recorded; missing durations are
    derived from the timestamps.
    """

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    id: str | None = Field(default=None, max_length=256, description="Optional request id, kept only for messages.")
    start_s: Timestamp | None = Field(
        default=None, description="Time the request was sent (s, any epoch shared by all records)."
    )
    first_token_s: Timestamp | None = Field(default=None, description="Arrival time of the first streamed token chunk (s).")
    token_times_s: list[Timestamp] | None = Field(
        default=None,
        max_length=MAX_CHUNKS_PER_REQUEST,
        description="Arrival time of every streamed chunk, first chunk included (s, ascending).",
    )
    end_s: Timestamp | None = Field(default=None, description="Arrival time of the last token chunk (s).")
    ttft_ms: NonNegMs | None = Field(default=None, description="Time to first token: send -> first chunk (ms).")
    itl_ms: list[NonNegMs] | None = Field(
        default=None,
        max_length=MAX_CHUNKS_PER_REQUEST,
        description="Gaps between consecutive streamed chunks after the first (ms); n_chunks - 1 values.",
    )
    e2el_ms: NonNegMs | None = Field(default=None, description="End-to-end latency: send -> last token chunk (ms).")
    queue_ms: NonNegMs | None = Field(
        default=None, description="Client-side queue time before the send (e.g. a concurrency semaphore), ms."
    )
    prompt_tokens: int | None = Field(default=None, ge=0, le=100_000_000, description="Prompt tokens (server usage).")
    output_tokens: int | None = Field(
        default=None, ge=0, le=100_000_000, description="Output tokens (server usage); chunks are counted if missing."
    )
    requested_output_tokens: int | None = Field(
        default=None, ge=0, le=100_000_000, description="Output tokens the request asked for (max_tokens), to compare with output_tokens."
    )
    client_output_tokens: int | None = Field(
        default=None, ge=0, le=100_000_000, description="Output tokens as the client's own tokenizer counted them, beside the server's output_tokens."
    )
    client_prompt_tokens: int | None = Field(
        default=None, ge=0, le=100_000_000, description="Prompt tokens as the client's own tokenizer counted them, beside the server's prompt_tokens."
    )
    cached_tokens: int | None = Field(
        default=None, ge=0, le=100_000_000, description="Prompt tokens the server served from its prefix cache (usage.prompt_tokens_details.cached_tokens)."
    )
    prompt_id: str | None = Field(
        default=None, max_length=256, description="An id or hash of the prompt text; repeated ids mark reused prompts (a warm cache)."
    )
    ok: bool = Field(default=True, description="False for a failed request (excluded from latency statistics).")
    error: str | None = Field(default=None, max_length=10_000, description="Error text; non-empty marks a failure.")
    phase: Literal["warmup", "profiling"] | None = Field(
        default=None, description="'warmup' records are dropped (and counted in the warnings)."
    )

    @model_validator(mode="after")
    def _consistent(self) -> RequestRecord:
        if self.token_times_s is not None and any(b < a for a, b in zip(self.token_times_s, self.token_times_s[1:])):
            raise ValueError("token_times_s must be ascending")
        if self.ttft_ms is not None and self.e2el_ms is not None and self.ttft_ms > self.e2el_ms * (1 + 1e-9):
            raise ValueError(f"ttft_ms ({self.ttft_ms}) exceeds e2el_ms ({self.e2el_ms})")
        if self.start_s is not None:
            firsts = {"first_token_s": self.first_token_s, "end_s": self.end_s}
            if self.token_times_s:
                firsts["token_times_s[0]"] = self.token_times_s[0]
            for name, value in firsts.items():
                if value is not None and value < self.start_s:
                    raise ValueError(f"{name} ({value}) is before start_s ({self.start_s})")
        return self


RECORD_FIELDS: tuple[str, ...] = tuple(RequestRecord.model_fields)
"""The accepted keys of a generic record, in schema order (CSV header names)."""


class SourceReported(BaseModel):
    """The figures a result file reports about itself, and how its tool defines them."""

    model_config = ConfigDict(extra="forbid")

    tool: str = Field(description="The tool that wrote the file (e.g. 'vllm bench serve').")
    figures: dict[str, float | None] = Field(
        description="The file's own summary figures under the file's key names (times in ms unless a key says s)."
    )
    definition_differences: list[str] = Field(
        description="Where the tool's definitions differ from this report's (vLLM bench serve) definitions."
    )
    comparisons: list[str] = Field(
        default_factory=list,
        description="The tool's own figures beside this report's for the same quantity, with the size of the difference and its cause.",
    )


class LoadSetting(BaseModel):
    """The load a result file says was asked for (what the generator was told, not what it achieved)."""

    model_config = ConfigDict(extra="forbid")

    request_rate: float | None = Field(default=None, description="Requested arrival rate (requests/s); None when unlimited or not stated.")
    max_concurrency: int | None = Field(default=None, description="Requested cap on requests in flight; None when none or not stated.")
    loop: Literal["open", "closed"] | None = Field(
        default=None, description="open: arrivals on a schedule (a rate); closed: a new request when one finishes (a concurrency)."
    )
    stated_by: str = Field(default="", description="The file's keys these settings were read from.")


@dataclass
class Trace:
    """A benchmark as columns over requests (warm-up already removed). Internal: not a public surface.

    Per-request arrays have one entry per request; unknown values are NaN. ``itl_s`` holds the
    chunk gaps of successful requests, request after request; ``n_itl[i]`` of them belong to
    request i (0 for failures, -1 where the chunk gaps were not recorded).
    """

    source_format: str
    source: str
    observation_point: str
    ok: np.ndarray
    ttft_s: np.ndarray
    e2el_s: np.ndarray
    output_tokens: np.ndarray
    prompt_tokens: np.ndarray
    start_s: np.ndarray
    queue_s: np.ndarray
    itl_s: np.ndarray
    n_itl: np.ndarray
    duration_s: float | None = None
    duration_basis: str = ""
    output_tokens_counted_from_chunks: int = 0
    warmup_dropped: int = 0
    failed_without_record: int = 0
    summary_only: dict[str, float] | None = None
    source_reported: SourceReported | None = None
    source_percentiles: tuple[float, ...] = ()
    warnings: list[str] = field(default_factory=list)
    requested_output_tokens: np.ndarray | None = None
    client_output_tokens: np.ndarray | None = None
    client_prompt_tokens: np.ndarray | None = None
    cached_tokens: np.ndarray | None = None
    prompt_ids: list[str | None] | None = None
    output_token_source: str = "server usage"
    client_tokenizer_tool: str = "the client"
    load: LoadSetting | None = None

    @property
    def n_requests(self) -> int:
        return int(self.ok.shape[0])

    @classmethod
    def summary_only_trace(cls, source_format: str, source: str, observation_point: str, summary: dict[str, float]) -> Trace:
        """A trace with no per-request columns: the file carries only its tool's summary figures."""
        import numpy as np

        empty = np.zeros(0)
        return cls(
            source_format=source_format,
            source=source,
            observation_point=observation_point,
            ok=np.zeros(0, dtype=bool),
            ttft_s=empty,
            e2el_s=empty,
            output_tokens=empty,
            prompt_tokens=empty,
            start_s=empty,
            queue_s=empty,
            itl_s=empty,
            n_itl=np.zeros(0, dtype=np.int64),
            summary_only=summary,
        )


class TraceBuilder:
    """Collects requests one at a time (streaming readers) and builds a ``Trace`` of numpy columns."""

    def __init__(self) -> None:
        self.ok: list[bool] = []
        self.ttft_s = array("d")
        self.e2el_s = array("d")
        self.output_tokens = array("d")
        self.prompt_tokens = array("d")
        self.start_s = array("d")
        self.queue_s = array("d")
        self.itl_ms = array("d")
        self.n_itl = array("q")
        self.counted_from_chunks = 0
        self.warmup_dropped = 0
        self.extra: dict[str, array] = {k: array("d") for k in _EXTRA_COLUMNS}
        self.prompt_ids: list[str | None] = []

    def add(
        self,
        *,
        ok: bool,
        ttft_s: float | None = None,
        e2el_s: float | None = None,
        output_tokens: float | None = None,
        prompt_tokens: float | None = None,
        start_s: float | None = None,
        queue_s: float | None = None,
        itl_ms: list[float] | array | None = None,
        requested_output_tokens: float | None = None,
        client_output_tokens: float | None = None,
        client_prompt_tokens: float | None = None,
        cached_tokens: float | None = None,
        prompt_id: str | None = None,
    ) -> None:
        """Append one request; ``None`` means not recorded. Chunk gaps (ms) of failed requests are dropped."""
        nan = math.nan
        for key, value in (
            ("requested_output_tokens", requested_output_tokens),
            ("client_output_tokens", client_output_tokens),
            ("client_prompt_tokens", client_prompt_tokens),
            ("cached_tokens", cached_tokens),
        ):
            self.extra[key].append(nan if value is None else value)
        self.prompt_ids.append(prompt_id)
        if ok and output_tokens is None and itl_ms is not None:
            output_tokens = len(itl_ms) + 1  # no usage count: one token per chunk, the only fallback without a tokenizer
            self.counted_from_chunks += 1
        if ok and e2el_s is None and ttft_s is not None and itl_ms is not None:
            e2el_s = ttft_s + math.fsum(itl_ms) / 1000  # E2E ends at the last chunk: TTFT + sum of the chunk gaps
        self.ok.append(ok)
        self.ttft_s.append(nan if ttft_s is None else ttft_s)
        self.e2el_s.append(nan if e2el_s is None else e2el_s)
        self.output_tokens.append(nan if output_tokens is None else output_tokens)
        self.prompt_tokens.append(nan if prompt_tokens is None else prompt_tokens)
        self.start_s.append(nan if start_s is None else start_s)
        self.queue_s.append(nan if queue_s is None else queue_s)
        if not ok:
            self.n_itl.append(0)
        elif itl_ms is None:
            self.n_itl.append(-1)
        else:
            self.itl_ms.extend(itl_ms)
            self.n_itl.append(len(itl_ms))

    def add_record(self, record: RequestRecord) -> None:
        """Append a validated generic record, deriving durations from timestamps where needed."""
        if record.phase == "warmup":
            self.warmup_dropped += 1
            return
        ok = record.ok and not record.error
        start = record.start_s
        first = record.first_token_s
        if first is None and record.token_times_s:
            first = record.token_times_s[0]
        ttft = record.ttft_ms / 1000 if record.ttft_ms is not None else None
        if ttft is None and first is not None and start is not None:
            ttft = first - start
        if record.itl_ms is not None:
            itl = record.itl_ms
        elif record.token_times_s is not None:
            times = record.token_times_s
            itl = [(b - a) * 1000 for a, b in zip(times, times[1:])]
        elif record.output_tokens == 1 and ttft is not None:
            itl = []  # one token is one chunk: no gaps, E2E = TTFT
        else:
            itl = None
        e2el = record.e2el_ms / 1000 if record.e2el_ms is not None else None
        if e2el is None and start is not None:
            end = record.end_s
            if end is None and record.token_times_s:
                end = record.token_times_s[-1]
            if end is not None:
                e2el = end - start
        self.add(
            ok=ok,
            ttft_s=ttft,
            e2el_s=e2el,
            output_tokens=record.output_tokens,
            prompt_tokens=record.prompt_tokens,
            start_s=start,
            queue_s=record.queue_ms / 1000 if record.queue_ms is not None else None,
            itl_ms=itl,
            requested_output_tokens=record.requested_output_tokens,
            client_output_tokens=record.client_output_tokens,
            client_prompt_tokens=record.client_prompt_tokens,
            cached_tokens=record.cached_tokens,
            prompt_id=record.prompt_id,
        )

    def build(self, *, source_format: str, source: str, observation_point: str) -> Trace:
        import numpy as np

        return Trace(
            source_format=source_format,
            source=source,
            observation_point=observation_point,
            ok=np.array(self.ok, dtype=bool),
            ttft_s=np.frombuffer(self.ttft_s, dtype=np.float64),
            e2el_s=np.frombuffer(self.e2el_s, dtype=np.float64),
            output_tokens=np.frombuffer(self.output_tokens, dtype=np.float64),
            prompt_tokens=np.frombuffer(self.prompt_tokens, dtype=np.float64),
            start_s=np.frombuffer(self.start_s, dtype=np.float64),
            queue_s=np.frombuffer(self.queue_s, dtype=np.float64),
            itl_s=np.frombuffer(self.itl_ms, dtype=np.float64) / 1000,
            n_itl=np.frombuffer(self.n_itl, dtype=np.int64),
            output_tokens_counted_from_chunks=self.counted_from_chunks,
            warmup_dropped=self.warmup_dropped,
            prompt_ids=self.prompt_ids if any(p is not None for p in self.prompt_ids) else None,
            **{
                key: values
                for key, values in ((k, np.frombuffer(c, dtype=np.float64)) for k, c in self.extra.items())
                if values.size and not np.isnan(values).all()
            },
        )
