"""Several runs in: one per file, or many per file (appended vLLM/SGLang runs, GuideLLM sweeps, GenAI-Perf
experiments), or an AIPerf artifact folder holding one ``profile_export.jsonl`` per run.

``measure_runs`` reads each input into a trace and a ``MetricsReport`` under one set of
definitions and SLOs (the same ``compute_metrics`` arithmetic), labelled for messages.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..errors import InputFormatError, argument
from ..files import is_granted_folder
from .formats import FORMATS, InputFormat, load_trace
from .formats.generic import read_records
from .formats.sglang import is_sglang_run
from .formats.vllm import is_vllm_run
from .records import RequestRecord, Trace
from .source import InputSource, open_input
from .summary import MetricsReport, MetricsRequest, _report

__all__ = ["Measured", "RunInput", "measure_runs"]

MAX_RUNS = 100
"""Most runs one comparison or sweep reads (files x runs per file)."""
AIPERF_RECORDS = "profile_export.jsonl"


class RunInput(BaseModel):
    """One run to compare, or one file (or AIPerf folder) of runs for a sweep: exactly one of path, text, records."""

    model_config = ConfigDict(extra="forbid")

    path: str | None = Field(
        default=None,
        max_length=4096,
        description="A result file (any format compute_metrics reads), or an AIPerf artifact folder (each profile_export.jsonl "
        "under it is one run).",
    )
    text: str | None = Field(default=None, max_length=64 * 2**20, description="The file's content inline instead of a path.")
    records: list[RequestRecord] | None = Field(default=None, max_length=1_000_000, description="Per-request records inline.")
    format: InputFormat = Field(default="auto", description="Input format; 'auto' detects it. " + ", ".join(FORMATS))
    run_index: int | None = Field(
        default=None, ge=0, le=1_000_000,
        description="Which run of a multi-run file; default: the first (compare) or every run (sweep).",
    )
    label: str | None = Field(default=None, max_length=80, description="A short name for this run in the output; default from the file name.")

    @model_validator(mode="after")
    def _one_input(self) -> RunInput:
        given = [name for name in ("path", "text", "records") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError(f"each run needs exactly one of path, text or records (got {', '.join(given) or 'none'})")
        return self


@dataclass
class Measured:
    """One run: its label, where it came from, its trace (per-request columns) and its report."""

    label: str
    source: str
    run_index: int | None
    trace: Trace
    report: MetricsReport


def _count_runs(source: InputSource) -> int:
    """Runs in a file: appended JSON lines (vLLM, SGLang), guidellm benchmarks, genai-perf experiments; else 1."""
    head = source.head(4096).lstrip("\ufeff \t\r\n")
    if not head.startswith("{"):
        return 1
    first = source.first_json()  # parsed once: load_trace reads run 0 from it
    obj = first[1] if first is not None else None
    if isinstance(obj, dict):
        if is_vllm_run(obj) or is_sglang_run(obj):  # appended runs: one per line
            return source.count_content_lines()
        doc = obj  # a one-line document (guidellm, genai-perf) or a per-request line (records, aiperf): see below
    else:
        doc = source.load_json()
    if isinstance(doc, dict):
        for key, inner in (("benchmarks", None), ("experiments", "requests")):
            items = doc.get(key)
            if isinstance(items, list) and items and (inner is None or isinstance(items[0], dict)):
                return len(items)
    return 1


def _aiperf_folder(path: str, max_bytes: int) -> list[str]:
    folder = Path(path).expanduser().resolve()
    files = sorted(str(p) for p in folder.rglob(AIPERF_RECORDS) if p.is_file())
    if not files:
        raise InputFormatError(
            f"{argument('path')}: {path!r} is a folder with no {AIPERF_RECORDS} under it; give result files, or an AIPerf "
            "artifact folder"
        )
    for file in files:
        if not Path(file).resolve().is_relative_to(folder):
            raise InputFormatError(f"{argument('path')}: {file!r} under {path!r} links outside the folder; refused")
    return files  # each is opened (and checked again) through tools.files by open_input


def measure_runs(
    runs: list[RunInput], *, slos: dict[str, float], max_file_mb: int, every_run: bool
) -> list[Measured]:
    """Read every input (every run of a multi-run file when ``every_run``) and compute its report."""
    max_bytes = max_file_mb * 2**20
    out: list[Measured] = []
    for i, run in enumerate(runs):
        base_label = run.label or (Path(run.path).name if run.path else f"run {i}")
        if run.records is not None:
            jobs = [(f"records #{i}", None, None, run.records)]
        else:
            paths: list[str | None] = [None]
            if run.path is not None and is_granted_folder(run.path):
                paths = list(_aiperf_folder(run.path, max_bytes))
            jobs = []
            for p in paths:
                source = open_input(path=p or run.path, text=None if (p or run.path) else run.text, max_bytes=max_bytes,
                                    field=f"runs[{i}].path")
                count = _count_runs(source) if (every_run and run.run_index is None) else 1
                indices = [run.run_index] if not (every_run and run.run_index is None) else list(range(count))
                for index in indices:
                    jobs.append((source.label, source, index if count > 1 or run.run_index is not None else None, None))
        last_use = {id(source): j for j, (_, source, _, _) in enumerate(jobs) if source is not None}
        try:
            for j, (label_source, source, index, records) in enumerate(jobs):
                if len(out) >= MAX_RUNS:
                    raise InputFormatError(f"{argument('runs')}: more than {MAX_RUNS} runs in all; split the comparison")
                if records is not None:
                    trace = read_records(records, label="records")
                else:
                    trace = load_trace(source, run.format, run_index=index)
                request = MetricsRequest(
                    text="-", slo_ttft_ms=slos.get("ttft"), slo_tpot_ms=slos.get("tpot"), slo_e2el_ms=slos.get("e2el")
                )
                label = base_label
                if len(jobs) > 1:
                    name = Path(label_source).parent.name if label_source.endswith(AIPERF_RECORDS) else base_label
                    label = name if index is None else f"{name}#{index}"
                elif index is not None and run.run_index is None:
                    label = f"{base_label}#{index}"
                out.append(Measured(label=label, source=label_source, run_index=index, trace=trace, report=_report(trace, request)))
                if source is not None and last_use[id(source)] == j:
                    source.close()  # its parsed JSON goes with it before the next file is read
        finally:
            for _, source, _, _ in jobs:
                if source is not None:
                    source.close()
    labels = [m.label for m in out]
    for m in out:  # same file name in different folders (aiperf's profile_export.jsonl): name the folder too
        if labels.count(m.label) > 1 and m.source not in ("text", "records"):
            m.label = f"{Path(m.source).parent.name}/{m.label}"
    labels = [m.label for m in out]
    for i, m in enumerate(out):
        if labels.count(m.label) > 1:
            m.label = f"{m.label} [{i}]"
    return out
