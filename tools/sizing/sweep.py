"""What-if sizing in one call: list values for any sweepable input give one report per combination.

``size_query(SizingQuery) -> SizingReport | SizingSweep``: with scalars only (or one-element lists)
the answer is exactly ``size_deployment``'s report; with lists it is ``{"reports": [...], "axes":
[...]}``, one report per combination of the cartesian product, the first axis varying slowest.
The axis order is the ``order`` given (the CLI passes the order its flags were typed in), then the
remaining list-valued fields in the order of the request's fields.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Sequence
from typing import Annotated, Any, get_args

from annotated_types import Len
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
    create_model,
)
from pydantic_core import PydanticCustomError

from ..errors import FundamentalsError, InputFormatError, argument, tool_name
from ..files import read_user_file
from .deployment import size_deployment
from .engine_capacity import EngineLogReport, capacity_from_log, reconcile
from .engine_log import MAX_LOG_CHARS, EngineLogFacts, parse_engine_log
from .report import GiB, SizingReport
from .request import SizingRequest

__all__ = ["MAX_COMBINATIONS", "SWEEPABLE", "SizingQuery", "SizingSweep", "SweepAxis", "size_query"]

SWEEPABLE = ("weights", "kv", "tokens", "prompt_tokens", "concurrency", "gpu", "gpus", "tp", "pp", "ep",
             "memory_utilization")
"""Request fields that accept a list of values."""

MAX_VALUES = 32
MAX_COMBINATIONS = 512
"""A sweep larger than this is refused (each combination is a full sizing)."""


def _sweepable_field(name: str) -> tuple[Any, Any]:
    """The SizingRequest field ``name`` widened to 'one value or a list of 1..32 values', each value keeping the
    field's limits. A value is checked against the scalar or the list form by its type, so an error names one
    problem ('Input should be greater than or equal to 1'), not one per form."""
    field = SizingRequest.model_fields[name]
    kinds = [a for a in get_args(field.annotation) if a is not type(None)] or [field.annotation]
    optional = type(None) in get_args(field.annotation)
    scalar = Annotated[(kinds[0], *field.metadata)]
    listed = Annotated[list[scalar], Len(1, MAX_VALUES)]  # type: ignore[valid-type]
    one, many = TypeAdapter(scalar | None if optional else scalar), TypeAdapter(listed)

    def validate(value: Any) -> Any:
        adapter = many if isinstance(value, list | tuple) else one
        try:
            return adapter.validate_python(value)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = f"value {err['loc'][0] + 1} of the list: " if err["loc"] and isinstance(err["loc"][0], int) else ""
            raise PydanticCustomError("sweep_value", where + err["msg"]) from None

    schema = TypeAdapter((scalar | listed | None) if optional else (scalar | listed)).json_schema()  # type: ignore[operator]
    description = (f"{field.description} A list (up to {MAX_VALUES} values) sweeps it: one report per combination "
                   "of all list-valued arguments.")
    annotation = Annotated[Any, PlainValidator(validate), WithJsonSchema(schema)]
    return annotation, Field(field.default, description=description)


def _scalar_field(name: str) -> tuple[Any, Any]:
    """The SizingRequest field ``name`` unchanged (type, limits, default, description)."""
    field = SizingRequest.model_fields[name]
    return field.annotation, copy.copy(field)


_LOG_FIELDS: dict[str, Any] = {
    "engine_log": (str | None, Field(
        None, max_length=MAX_LOG_CHARS,
        description="A vLLM or SGLang start-up log (text). Without a model: the sequences of `tokens` resident "
                    "tokens the logged KV pool holds (no config needed). With a model: the prediction reconciled "
                    "with the log item by item (weights, non-torch, activation peak, CUDA graphs, KV memory, pool "
                    "tokens, concurrency).")),
    "engine_log_path": (str | None, Field(None, min_length=1, max_length=4096,
                                          description="Path to a start-up log file, instead of engine_log.")),
    "engine_block_size": (int, Field(16, ge=1, le=4096,
                                     description="vLLM --block-size of the logged engine, to turn '# GPU blocks' "
                                                 "into tokens (default 16).")),
}

SizingQuery = create_model(  # type: ignore[call-overload]
    "SizingQuery",
    __config__=ConfigDict(extra="forbid"),
    __doc__="A sizing request whose sweepable fields may be lists: one report per combination; optionally an "
            "engine start-up log to answer from or reconcile with.",
    **{name: (_sweepable_field(name) if name in SWEEPABLE else _scalar_field(name))
       for name in SizingRequest.model_fields},
    **_LOG_FIELDS,
)


class SweepAxis(BaseModel):
    """One swept argument and its values, in the order the reports vary them."""

    field: str = Field(description="Request field that was given a list")
    values: list[int | float | str | None] = Field(description="Its values, in the order given")


class SizingSweep(BaseModel):
    """One report per combination of the list-valued arguments (cartesian product, first axis slowest)."""

    reports: list[SizingReport | EngineLogReport] = Field(
        description="One full report per combination, each identical to the single-combination call")
    axes: list[SweepAxis] = Field(description="The swept fields, slowest-varying first")

    def to_text(self) -> str:
        """A comparison table: one row per combination, the headline figures of each report."""
        from .sweep_table import sweep_table  # the table imports this module

        return sweep_table(self)


def _axes(query: BaseModel, order: Sequence[str]) -> list[SweepAxis]:
    """List-valued fields with more than one value, in ``order`` first, then in field order."""
    listed = [name for name in SWEEPABLE if isinstance(getattr(query, name), list) and len(getattr(query, name)) > 1]
    unknown = [name for name in order if name not in SWEEPABLE]
    if unknown:
        raise InputFormatError(f"order: {', '.join(unknown)} cannot be swept; sweepable: {', '.join(SWEEPABLE)}")
    ranked = [name for name in dict.fromkeys([*order, *SWEEPABLE]) if name in listed]
    return [SweepAxis(field=name, values=list(getattr(query, name))) for name in ranked]


def combinations(query: BaseModel, *, order: Sequence[str] = ()) -> tuple[list[SweepAxis], list[SizingRequest]]:
    """The swept axes and one SizingRequest per combination, first axis varying slowest."""
    axes = _axes(query, order)
    count = 1
    for axis in axes:
        count *= len(axis.values)
    if count > MAX_COMBINATIONS:
        sizes = " x ".join(f"{len(a.values)} {a.field}" for a in axes)
        raise InputFormatError(f"sweep: {sizes} = {count:,} combinations, over the {MAX_COMBINATIONS} limit; "
                               f"narrow a list or use {tool_name('plan_deployment')}")
    base = {name: getattr(query, name) for name in SizingRequest.model_fields}
    for name in SWEEPABLE:  # one-element lists are scalars
        if isinstance(base[name], list) and len(base[name]) == 1:
            base[name] = base[name][0]
    requests = []
    for values in itertools.product(*(a.values for a in axes)):
        chosen = dict(zip((a.field for a in axes), values, strict=True))
        try:
            requests.append(SizingRequest(**{**base, **chosen}))
        except ValueError as exc:  # pydantic ValidationError or a FundamentalsError
            if not chosen and hasattr(exc, "errors"):
                raise  # a single combination: the same validation error as size_deployment's
            raise InputFormatError(f"{_describe(chosen)}{_first_line(exc)}") from exc
    return axes, requests


def _describe(chosen: dict[str, Any]) -> str:
    """'combination kv=fp8, tokens=4096: ' naming the swept values, or '' for a single combination."""
    return f"combination {', '.join(f'{k}={v}' for k, v in chosen.items())}: " if chosen else ""


def _first_line(exc: Exception) -> str:
    errors = getattr(exc, "errors", None)
    if callable(errors):
        from ..errors import describe_validation_error

        return "; ".join(describe_validation_error(exc))
    return str(exc)


def size_query(query: BaseModel, *, order: Sequence[str] = ()) -> SizingReport | SizingSweep | EngineLogReport:
    """One report for one combination (exactly size_deployment's), else a SizingSweep in cartesian order. With an
    engine log and no model: the logged pool's capacity at each ``tokens``; with a model: each report carries the
    reconciliation with the log.

    Example::

        size_query(SizingQuery(model="Llama-3.1-70B", kv=["bf16", "fp8"], tokens=[4096, 32768],
                               concurrency=16, gpu="h100", tp=4))   # 4 reports: bf16/4096, bf16/32768, ...
    """
    facts = _engine_log(query)
    if facts is not None and all(getattr(query, n) is None for n in ("model", "config_path", "config_json")):
        return _from_log_only(query, facts, order)
    axes, requests = combinations(query, order=order)
    reports: list[SizingReport | EngineLogReport] = []
    for request, values in zip(requests, itertools.product(*(a.values for a in axes)), strict=True):
        try:
            reports.append(_sized(request, query, facts))
        except FundamentalsError as exc:
            if not axes:
                raise
            chosen = dict(zip((a.field for a in axes), values, strict=True))
            raise type(exc)(f"{_describe(chosen)}{exc}") from exc
    return reports[0] if not axes else SizingSweep(reports=reports, axes=axes)


def _engine_log(query: BaseModel) -> EngineLogFacts | None:
    """The parsed engine log given inline or by path, or None."""
    text: str | None = getattr(query, "engine_log", None)
    path: str | None = getattr(query, "engine_log_path", None)
    if text is not None and path is not None:
        raise InputFormatError(f"give {argument('engine_log')} or {argument('engine_log_path')}, not both")
    if path is not None:
        text = read_user_file(path, field="engine_log_path", max_bytes=MAX_LOG_CHARS).decode("utf-8", "replace")
    return None if text is None else parse_engine_log(text, block_size=query.engine_block_size)  # type: ignore[attr-defined]


def _from_log_only(query: BaseModel, facts: EngineLogFacts, order: Sequence[str]) -> EngineLogReport | SizingSweep:
    """No model: the logged pool's capacity at each tokens value (default: the log's max_model_len)."""
    others = [n for n in SWEEPABLE if n != "tokens" and isinstance(getattr(query, n), list)
              and len(getattr(query, n)) > 1]
    if others:
        raise InputFormatError(f"without a model only {argument('tokens')} can be a list (got lists for "
                               f"{', '.join(argument(n) for n in others)}); give a model to sweep them")
    tokens = query.tokens  # type: ignore[attr-defined]
    values = tokens if isinstance(tokens, list) else [tokens]
    if values == [None]:
        if facts.max_model_len is None:
            raise InputFormatError(f"{argument('tokens')}: give the resident tokens per sequence (the log has no "
                                   "max-concurrency line to default to)")
        values = [facts.max_model_len]
    reports = [capacity_from_log(facts, t) for t in values]
    if len(reports) == 1:
        return reports[0]
    return SizingSweep(reports=list(reports), axes=[SweepAxis(field="tokens", values=list(values))])


def _sized(request: SizingRequest, query: BaseModel, facts: EngineLogFacts | None) -> SizingReport:
    """size_deployment, reconciled with the engine log when there is one: the GPU memory and utilization the log
    states are used unless the caller gave them, so both sides describe the same deployment."""
    if facts is None:
        return size_deployment(request)
    given = query.model_fields_set
    changes: dict[str, Any] = {}
    taken: list[str] = []
    if facts.total_gpu_bytes is not None and "gpu_memory_bytes" not in given:
        changes["gpu_memory_bytes"] = facts.total_gpu_bytes
        taken.append(f"GPU memory {facts.total_gpu_bytes / GiB:.2f} GiB (the log's total_gpu_memory)")
    if facts.memory_utilization is not None and "memory_utilization" not in given:
        changes["memory_utilization"] = facts.memory_utilization
        taken.append(f"memory_utilization {facts.memory_utilization:g} (the log's gpu_memory_utilization)")
    if changes:
        request = SizingRequest(**{**request.model_dump(), **changes})
    report = size_deployment(request)
    report.engine_log = reconcile(report, facts, taken)
    return report


def gib(n: int | None) -> str:
    """Bytes as GiB with two decimals, '-' for None (the table's unit)."""
    return "-" if n is None else f"{n / GiB:,.2f}"
