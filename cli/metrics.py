"""The result-file subcommands: ``metrics`` (one run), ``compare`` (runs against a baseline) and ``sweep`` (runs
as the points of a load sweep).

All three read the same formats (auto-detected or ``--format``), take SLOs in vLLM's ``--goodput KEY:MS``
syntax, cap file sizes and can draw a ``--plot``; those flags and what the run does with them are built once
here.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel

from . import UsageError
from .lists import comma_separated
from .sources import path_or_stdin

if TYPE_CHECKING:
    from ..tools.metrics import RunInput

__all__ = ["add_compare", "add_metrics", "add_sweep"]

_SLO_ITEM = re.compile(r"^[A-Za-z][A-Za-z_]*:[-+0-9.eE]*$")


def add_metrics(subparsers: argparse._SubParsersAction) -> None:
    from ..tools.metrics import FORMATS, MetricsRequest

    fields = MetricsRequest.model_fields
    p = subparsers.add_parser(
        "metrics",
        help="compute TTFT, TPOT, ITL, E2E latency, throughput and goodput from benchmark records or result files",
        description="Reads per-request records (JSONL/CSV) or a vLLM, SGLang, AIPerf, GenAI-Perf or GuideLLM result "
        "file and computes metrics with vllm bench serve's definitions. Formats: "
        + "; ".join(f"{k} = {v}" for k, v in FORMATS.items()),
    )
    p.add_argument("file", nargs="?", default=None, help="result file, or - to read standard input")
    _add_format_and_goodput(p, several=False)
    p.add_argument(
        "--percentiles", default=None, metavar="P[,P...]", help="extra percentiles besides p90, p95, p99, e.g. 50,99.9"
    )
    p.add_argument("--run-index", type=int, default=None, help=fields["run_index"].description)
    p.add_argument("--duration", dest="duration_s", type=float, default=None, metavar="SECONDS",
                   help=fields["duration_s"].description)
    _add_size_cap_and_plot(p, fields, plot_help="draw TTFT/ITL histograms and output tokens/s over time (needs the "
                           "'plot' extra: matplotlib)")

    def run(args: argparse.Namespace) -> BaseModel:
        from ..tools.errors import InputFormatError
        from ..tools.metrics import compute_metrics

        files = _files_after_goodput(args, [args.file] if args.file else [])
        if len(files) != 1:
            raise UsageError(f"give one result FILE (or - for standard input); got {len(files)}")
        slos = _slo_fields(args)
        percentiles: list[float] = []
        if args.percentiles:
            try:
                percentiles = comma_separated(args.percentiles, float)
            except ValueError:
                raise InputFormatError(f"percentiles: {args.percentiles!r} is not a comma-separated list of numbers") from None
        text_chars = next(m.max_length for m in fields["text"].metadata if hasattr(m, "max_length"))
        stdin_cap = min(args.max_file_mb * 2**20, text_chars)
        request = MetricsRequest(
            **path_or_stdin(files[0], max_bytes=stdin_cap),
            format=args.format,
            run_index=args.run_index,
            **slos,
            percentiles=percentiles,
            duration_s=args.duration_s,
            max_file_mb=args.max_file_mb,
        )
        return _with_plot(compute_metrics, request, args.plot)

    p.set_defaults(run=run, tool="compute_metrics", cli_names={
        "path": "FILE", "text": "FILE", "slo_ttft_ms": "--goodput ttft:MS", "slo_tpot_ms": "--goodput tpot:MS",
        "slo_e2el_ms": "--goodput e2el:MS"})


def add_compare(subparsers: argparse._SubParsersAction) -> None:
    from ..tools.metrics import CompareRequest

    fields = CompareRequest.model_fields
    p = subparsers.add_parser(
        "compare",
        help="compare two or more result files (any tools): confounders first, bootstrap intervals, verdicts",
        description="Recomputes every run under vllm bench serve's definitions and compares each with the first: "
        "confounders (workload, token counting, load, cache, failures, warm-up), then TTFT/TPOT/ITL/E2E mean, median, "
        "p90, p99 and the rates with seeded bootstrap intervals on the relative differences, and verdicts.",
    )
    p.add_argument("files", nargs="*", metavar="FILE", help="result files; the first is the baseline (two or more)")
    _add_format_and_goodput(p, several=True)
    p.add_argument("--confidence", type=float, default=fields["confidence"].default, help=fields["confidence"].description)
    p.add_argument("--resamples", type=int, default=fields["resamples"].default, help=fields["resamples"].description)
    p.add_argument("--seed", type=int, default=fields["seed"].default, help=fields["seed"].description)
    p.add_argument("--repeats", action="store_true", help=fields["repeats"].description)
    p.add_argument("--gpu-hour-usd", type=float, default=None, help=fields["gpu_hour_usd"].description)
    p.add_argument("--gpus", type=int, default=None, help=fields["gpus"].description)
    _add_size_cap_and_plot(p, fields, plot_help="draw every run's latency CDFs side by side (needs matplotlib)")

    def run(args: argparse.Namespace) -> BaseModel:
        from ..tools.metrics import compare_runs

        files = _files_after_goodput(args, list(args.files))
        if len(files) < 2:
            raise UsageError(f"give two or more result files (the first is the baseline); got {len(files)}")
        slos = _slo_fields(args)
        request = CompareRequest(
            runs=_runs(files, args.format), **slos,
            confidence=args.confidence, resamples=args.resamples, seed=args.seed, repeats=args.repeats,
            gpu_hour_usd=args.gpu_hour_usd, gpus=args.gpus, max_file_mb=args.max_file_mb,
        )
        return _with_plot(compare_runs, request, args.plot)

    p.set_defaults(run=run, tool="compare_runs")


def add_sweep(subparsers: argparse._SubParsersAction) -> None:
    from ..tools.metrics import SweepRequest

    fields = SweepRequest.model_fields
    p = subparsers.add_parser(
        "sweep",
        help="a load sweep: points by offered load, Pareto frontier, knee, capacity goodput, cost",
        description="Every run of the files (a multi-run file gives all its runs; an AIPerf artifact folder gives one run "
        "per profile_export.jsonl) becomes a point ordered by offered load. With --goodput: SLO attainment per point and "
        "capacity goodput (DistServe: the highest rate whose attainment meets --attainment), interpolated and labelled.",
    )
    p.add_argument("files", nargs="*", metavar="FILE", help="result files or AIPerf artifact folders")
    _add_format_and_goodput(p, several=True)
    p.add_argument("--attainment", type=float, default=fields["attainment"].default, help=fields["attainment"].description)
    p.add_argument("--gpus", type=int, default=None, help=fields["gpus"].description)
    p.add_argument("--gpu-hour-usd", type=float, default=None, help=fields["gpu_hour_usd"].description)
    _add_size_cap_and_plot(p, fields, plot_help="draw the sweep curve and the Pareto frontier (needs matplotlib)")

    def run(args: argparse.Namespace) -> BaseModel:
        from ..tools.metrics import analyze_sweep

        files = _files_after_goodput(args, list(args.files))
        if not files:
            raise UsageError("give one or more result files or AIPerf folders")
        slos = _slo_fields(args)
        request = SweepRequest(
            runs=_runs(files, args.format), **slos,
            attainment=args.attainment, gpus=args.gpus, gpu_hour_usd=args.gpu_hour_usd, max_file_mb=args.max_file_mb,
        )
        return _with_plot(analyze_sweep, request, args.plot)

    p.set_defaults(run=run, tool="analyze_sweep")


# --- what the three share ---------------------------------------------------


def _add_format_and_goodput(p: argparse.ArgumentParser, *, several: bool) -> None:
    """``--format`` and ``--goodput``; the help says "every file" for a subcommand that reads ``several``."""
    from ..tools.metrics import FORMATS

    if several:
        format_help = "input format of every file (default: auto-detect)"
        goodput_help = "SLOs, vLLM syntax: ttft:500 tpot:50 e2el:10000 (ms)"
    else:
        format_help = "input format (default: auto-detect)"
        goodput_help = "SLOs for goodput, vLLM syntax: ttft:500 tpot:50 e2el:10000 (ms; met when value <= SLO)"
    p.add_argument("--format", default="auto", choices=["auto", *FORMATS], help=format_help)
    p.add_argument("--goodput", nargs="+", metavar="KEY:MS", default=None, help=goodput_help)


def _add_size_cap_and_plot(p: argparse.ArgumentParser, fields: dict[str, Any], *, plot_help: str) -> None:
    """``--max-file-mb`` (the request's own cap) and ``--plot OUT.png``."""
    p.add_argument("--max-file-mb", type=int, default=fields["max_file_mb"].default, help=fields["max_file_mb"].description)
    p.add_argument("--plot", default=None, metavar="OUT.png", help=plot_help)


def _files_after_goodput(args: argparse.Namespace, files: list[str]) -> list[str]:
    """Files that ``--goodput KEY:MS ...`` took as SLOs: ``--goodput ttft:500 tpot:50 results.json``.

    argparse gives every word after ``--goodput`` to it; a word that is not ``KEY:NUMBER`` is a file
    (``itl:5`` stays an SLO, so its error names the accepted keys).
    """
    if args.goodput:
        slos = [item for item in args.goodput if _SLO_ITEM.match(item)]
        files = [item for item in args.goodput if not _SLO_ITEM.match(item)] + files
        args.goodput = slos
    return files


def _slo_fields(args: argparse.Namespace) -> dict[str, float | None]:
    """The request's SLO fields from ``--goodput`` (None for an SLO not given)."""
    from ..tools.metrics import parse_goodput

    slos = parse_goodput(args.goodput) if args.goodput else {}
    return {"slo_ttft_ms": slos.get("ttft"), "slo_tpot_ms": slos.get("tpot"), "slo_e2el_ms": slos.get("e2el")}


def _runs(files: list[str], fmt: str) -> list[RunInput]:
    """One ``RunInput`` per file, all read with the same ``--format``."""
    from ..tools.metrics import RunInput

    return [RunInput(path=f, format=fmt) for f in files]


def _with_plot(tool: Callable[..., BaseModel], request: BaseModel, path: str | None) -> BaseModel:
    """``tool(request)``, drawing ``--plot`` when matplotlib is there; without it, a warning on stderr and no plot."""
    from ..tools.metrics.plot import PLOT_EXTRA_HINT, plot_available

    if path and not plot_available():
        print(f"warning: --plot skipped: {PLOT_EXTRA_HINT}", file=sys.stderr)
        path = None
    report = tool(request, plot_path=path)
    if path:
        print(f"plot written to {path}", file=sys.stderr)
    return report
