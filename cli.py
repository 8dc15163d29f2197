"""The ``llm-inference-fundamentals`` command (alias ``lif``): one subcommand per tool.

Each subcommand turns argv into the same request the MCP tool takes, calls the
same function in ``tools``, and prints the report: a readable text by default,
or with ``--json`` the MCP tool's structured output.

Messages speak the command line: the tool runs inside ``argument_names``, so
``argument("offset")`` in tools/ reads ``--offset`` and ``tool_name("read_reference")``
reads ``lif read``. The spelling comes from the subcommands' argparse actions
(an option's long flag, a positional's metavar), with ``cli_names`` defaults
for request fields that no single flag carries; a subcommand that mirrors an
MCP tool sets the default ``tool``. Prose written for the caller inside a report
(a note saying how to read on) is spelled the same way, so with ``--json`` such
text names flags and ``lif`` commands where the MCP output names arguments and
tools; every other field is the MCP output exactly.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from pydantic import BaseModel, ValidationError

from . import __version__
from .tools.errors import FundamentalsError, argument_names, describe_validation_error

__all__ = ["main"]

PROG = "llm-inference-fundamentals"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; return the process exit code."""
    parser = _build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "run"):
        parser.print_help()
        return 2
    names, tools = _spelling(parser, args.command)
    with argument_names(names, tools=tools):
        try:
            result = args.run(args)
        except ValidationError as exc:
            print(f"{PROG} {args.command}: invalid input", file=sys.stderr)
            for line in describe_validation_error(exc):
                print(f"  {line}", file=sys.stderr)
            return 1
        except FundamentalsError as exc:
            print(f"{type(exc).__name__}: {exc}", file=sys.stderr)
            return 1
    if isinstance(result, int):
        return result
    if result is not None:
        try:
            print(render(result, as_json=args.json))
            sys.stdout.flush()
        except BrokenPipeError:  # `lif ... | head`: the reader left; that is not an error
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return 0


def _spelling(parser: argparse.ArgumentParser, command: str) -> tuple[dict[str, str], dict[str, str]]:
    """How this command line spells request fields (``{"offset": "--offset"}``) and tools (``{"read_reference": "lif read"}``).

    Fields come from the running subcommand, then from the other subcommands that mirror a tool: a note
    from ``search`` that says how to read on names ``read``'s flags.
    """
    (subcommands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    mirrors = [name for name, sub in subcommands.choices.items() if name != command and sub.get_default("tool")]
    ordered = [command, *mirrors]
    names: dict[str, str] = {}
    tools: dict[str, str] = {}
    for name in ordered:
        sub = subcommands.choices[name]
        for field, spelled in (sub.get_default("cli_names") or {}).items():
            names.setdefault(field, spelled)
        for action in sub._actions:
            if action.dest in {"help", "json", argparse.SUPPRESS}:
                continue
            if action.option_strings:
                spelled = next((o for o in action.option_strings if o.startswith("--")), action.option_strings[0])
            else:
                spelled = action.metavar if isinstance(action.metavar, str) else action.dest.upper()
            names.setdefault(action.dest, spelled)
        if sub.get_default("tool"):
            tools[sub.get_default("tool")] = f"lif {name}"
    return names, tools


def render(report: BaseModel, *, as_json: bool) -> str:
    """The text a subcommand prints: the MCP structured output with ``--json``."""
    if as_json:
        return json.dumps(report.model_dump(mode="json", by_alias=True), indent=2, ensure_ascii=False)
    return report.to_text()


def read_stdin(max_bytes: int) -> str:
    """Standard input as text, refused past ``max_bytes`` (read in chunks: never more than the cap is held)."""
    from .tools.errors import InputFormatError

    buffer = getattr(sys.stdin, "buffer", None)
    data = buffer.read(max_bytes + 1) if buffer is not None else sys.stdin.read(max_bytes + 1)  # text: a test's StringIO
    if len(data) > max_bytes:
        raise InputFormatError(f"standard input: more than {max_bytes:,} bytes; pass a file instead, or a smaller input")
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputFormatError(f"standard input: not UTF-8 text (byte {exc.start})") from None


# --- subcommands -------------------------------------------------------------
# Each _add_<name> registers one subparser and sets ``run`` to a function that
# takes the parsed args and returns a report model (or an exit code).


def _add_serve(subparsers: argparse._SubParsersAction) -> None:
    import typing

    from .server.settings import ServeSettings, env_name, flag_name

    p = subparsers.add_parser(
        "serve",
        help="run the MCP server (stdio by default)",
        description="Serves the tools over stdio, or streamable HTTP with --http. Every option can also be set "
        "in the environment (shown in each help line); SECURITY.md explains authentication and the limits.",
    )
    for name, field in ServeSettings.model_fields.items():
        if name in ("auth_token", "oauth_client_secret"):
            continue  # secrets only from the environment (a command line is visible to other users)
        kind = field.annotation
        help_text = f"{field.description} (env {env_name(name)})"
        if kind is bool:
            p.add_argument(flag_name(name), action="store_true", default=None, help=help_text)
        elif kind == list[str]:
            metavar = {"allow_dir": "DIR", "required_scope": "SCOPE", "allowed_host": "HOST"}.get(name, "ORIGIN")
            p.add_argument(flag_name(name), action="append", default=None, metavar=metavar, help=help_text)
        elif typing.get_origin(kind) is typing.Literal:
            p.add_argument(flag_name(name), choices=typing.get_args(kind), default=None, help=help_text)
        else:
            scalar = next((t for t in (int, float) if kind is t), str)
            p.add_argument(flag_name(name), type=scalar, default=None, help=help_text)

    def run(args: argparse.Namespace) -> int:
        from pydantic import ValidationError

        from .server import run_server
        from .server.http import StartupRefused
        from .server.settings import describe_settings_error, settings_from

        try:
            settings = settings_from({name: getattr(args, name, None) for name in ServeSettings.model_fields})
        except ValidationError as exc:
            for line in describe_settings_error(exc):
                print(f"{PROG} serve: {line}", file=sys.stderr)
            return 2
        try:
            run_server(settings)
        except StartupRefused as exc:
            print(f"{PROG} serve: {exc}", file=sys.stderr)
            return 2
        except KeyboardInterrupt:
            return 130
        return 0

    p.set_defaults(run=run)


def _add_search(subparsers: argparse._SubParsersAction) -> None:
    from .tools.corpus import SearchRequest

    fields = SearchRequest.model_fields
    p = subparsers.add_parser("search", help="search the reference corpus")
    p.add_argument("query", nargs="+", help=fields["query"].description)
    p.add_argument("-k", type=int, default=fields["k"].default, help=fields["k"].description)
    p.add_argument("--page", default=None, help=fields["page"].description)
    p.add_argument("--max-tokens", type=int, default=fields["max_tokens"].default, help=fields["max_tokens"].description)
    p.add_argument("--order", choices=["pages_first", "score"], default=fields["order"].default,
                   help=fields["order"].description)

    def run(args: argparse.Namespace) -> BaseModel:
        from .tools.corpus import search_references

        request = SearchRequest(
            query=" ".join(args.query), k=args.k, page=args.page, max_tokens=args.max_tokens, order=args.order
        )
        return search_references(request)

    p.set_defaults(run=run, tool="search_references")


def _add_read(subparsers: argparse._SubParsersAction) -> None:
    from .tools.corpus import ReadRequest

    fields = ReadRequest.model_fields
    p = subparsers.add_parser("read", help="read a reference page or one of its sections")
    p.add_argument("page", nargs="?", default=None, help=fields["page"].description + " Omit to list the pages.")
    p.add_argument("section", nargs="*", default=[], help=fields["section"].description + " Several: list them.")
    p.add_argument("--offset", type=int, default=0, help=fields["offset"].description)
    p.add_argument("--max-tokens", type=int, default=fields["max_tokens"].default, help=fields["max_tokens"].description)
    p.add_argument("--all", "--whole-page", dest="whole_page", action="store_true", help=fields["whole_page"].description)

    def run(args: argparse.Namespace) -> BaseModel:
        from .tools.corpus import list_pages, read_reference

        if args.page is None:
            return list_pages()
        section = args.section[0] if len(args.section) == 1 else (args.section or None)
        request = ReadRequest(page=args.page, section=section, offset=args.offset, max_tokens=args.max_tokens,
                              whole_page=args.whole_page)
        return read_reference(request)

    p.set_defaults(run=run, tool="read_reference")


def _add_install_skill(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "install-skill",
        help="copy the skill (SKILL.md and references/) into a skills folder",
        description="Copies the skill into DIR/llm-inference-fundamentals/. --user targets ~/.claude/skills, "
        "--project targets ./.claude/skills.",
    )
    where = p.add_mutually_exclusive_group()
    where.add_argument("--user", action="store_true", help="install into ~/.claude/skills (the default)")
    where.add_argument("--project", action="store_true", help="install into ./.claude/skills")
    where.add_argument("dir", nargs="?", default=None, help="install into this skills folder")
    p.add_argument("--force", action="store_true", help="replace an existing copy")

    def run(args: argparse.Namespace) -> BaseModel:
        from .tools.skill import install_skill

        if args.dir:
            target = Path(args.dir)
        elif args.project:
            target = Path.cwd() / ".claude" / "skills"
        else:
            target = Path.home() / ".claude" / "skills"
        return install_skill(target, force=args.force)

    p.set_defaults(run=run)


def _add_metrics(subparsers: argparse._SubParsersAction) -> None:
    from .tools.metrics import FORMATS, MetricsRequest

    fields = MetricsRequest.model_fields
    p = subparsers.add_parser(
        "metrics",
        help="compute TTFT, TPOT, ITL, E2E latency, throughput and goodput from benchmark records or result files",
        description="Reads per-request records (JSONL/CSV) or a vLLM, SGLang, AIPerf, GenAI-Perf or GuideLLM result "
        "file and computes metrics with vllm bench serve's definitions. Formats: "
        + "; ".join(f"{k} = {v}" for k, v in FORMATS.items()),
    )
    p.add_argument("file", nargs="?", default=None, help="result file, or - to read standard input")
    p.add_argument("--format", default="auto", choices=["auto", *FORMATS], help="input format (default: auto-detect)")
    p.add_argument(
        "--goodput",
        nargs="+",
        metavar="KEY:MS",
        default=None,
        help="SLOs for goodput, vLLM syntax: ttft:500 tpot:50 e2el:10000 (ms; met when value <= SLO)",
    )
    p.add_argument(
        "--percentiles", default=None, metavar="P[,P...]", help="extra percentiles besides p90, p95, p99, e.g. 50,99.9"
    )
    p.add_argument("--run-index", type=int, default=None, help=fields["run_index"].description)
    p.add_argument("--duration", dest="duration_s", type=float, default=None, metavar="SECONDS",
                   help=fields["duration_s"].description)
    p.add_argument("--max-file-mb", type=int, default=fields["max_file_mb"].default, help=fields["max_file_mb"].description)
    p.add_argument("--plot", default=None, metavar="OUT.png", help="draw TTFT/ITL histograms and output tokens/s over time (needs the 'plot' extra: matplotlib)")

    def run(args: argparse.Namespace) -> BaseModel | int:
        from .tools.errors import InputFormatError
        from .tools.metrics import compute_metrics, parse_goodput

        files = _files_after_goodput(args, [args.file] if args.file else [])
        if len(files) != 1:
            print(f"{PROG} metrics: give one result FILE (or - for standard input); got {len(files)}", file=sys.stderr)
            return 2
        args.file = files[0]
        slos = parse_goodput(args.goodput) if args.goodput else {}
        percentiles: list[float] = []
        if args.percentiles:
            try:
                percentiles = [float(p) for p in args.percentiles.split(",") if p.strip()]
            except ValueError:
                raise InputFormatError(f"percentiles: {args.percentiles!r} is not a comma-separated list of numbers") from None
        text_chars = next(m.max_length for m in MetricsRequest.model_fields["text"].metadata if hasattr(m, "max_length"))
        stdin_cap = min(args.max_file_mb * 2**20, text_chars)
        source = {"text": read_stdin(stdin_cap)} if args.file == "-" else {"path": args.file}
        request = MetricsRequest(
            **source,
            format=args.format,
            run_index=args.run_index,
            slo_ttft_ms=slos.get("ttft"),
            slo_tpot_ms=slos.get("tpot"),
            slo_e2el_ms=slos.get("e2el"),
            percentiles=percentiles,
            duration_s=args.duration_s,
            max_file_mb=args.max_file_mb,
        )
        plot_path = _plot_path_or_warn(args.plot)
        report = compute_metrics(request, plot_path=plot_path)
        if plot_path:
            print(f"plot written to {plot_path}", file=sys.stderr)
        return report

    p.set_defaults(run=run, tool="compute_metrics", cli_names={
        "path": "FILE", "text": "FILE", "slo_ttft_ms": "--goodput ttft:MS", "slo_tpot_ms": "--goodput tpot:MS",
        "slo_e2el_ms": "--goodput e2el:MS"})


_SLO_ITEM = re.compile(r"^[A-Za-z][A-Za-z_]*:[-+0-9.eE]*$")


def _add_compare(subparsers: argparse._SubParsersAction) -> None:
    from .tools.metrics import FORMATS, CompareRequest

    fields = CompareRequest.model_fields
    p = subparsers.add_parser(
        "compare",
        help="compare two or more result files (any tools): confounders first, bootstrap intervals, verdicts",
        description="Recomputes every run under vllm bench serve's definitions and compares each with the first: "
        "confounders (workload, token counting, load, cache, failures, warm-up), then TTFT/TPOT/ITL/E2E mean, median, "
        "p90, p99 and the rates with seeded bootstrap intervals on the relative differences, and verdicts.",
    )
    p.add_argument("files", nargs="*", metavar="FILE", help="result files; the first is the baseline (two or more)")
    p.add_argument("--format", default="auto", choices=["auto", *FORMATS], help="input format of every file (default: auto-detect)")
    p.add_argument("--goodput", nargs="+", metavar="KEY:MS", default=None, help="SLOs, vLLM syntax: ttft:500 tpot:50 e2el:10000 (ms)")
    p.add_argument("--confidence", type=float, default=fields["confidence"].default, help=fields["confidence"].description)
    p.add_argument("--resamples", type=int, default=fields["resamples"].default, help=fields["resamples"].description)
    p.add_argument("--seed", type=int, default=fields["seed"].default, help=fields["seed"].description)
    p.add_argument("--repeats", action="store_true", help=fields["repeats"].description)
    p.add_argument("--gpu-hour-usd", type=float, default=None, help=fields["gpu_hour_usd"].description)
    p.add_argument("--gpus", type=int, default=None, help=fields["gpus"].description)
    p.add_argument("--max-file-mb", type=int, default=fields["max_file_mb"].default, help=fields["max_file_mb"].description)
    p.add_argument("--plot", default=None, metavar="OUT.png", help="draw every run's latency CDFs side by side (needs matplotlib)")

    def run(args: argparse.Namespace) -> BaseModel | int:
        from .tools.metrics import RunInput, compare_runs, parse_goodput

        files = _files_after_goodput(args, list(args.files))
        if len(files) < 2:
            print(f"{PROG} compare: give two or more result files (the first is the baseline); got {len(files)}", file=sys.stderr)
            return 2
        slos = parse_goodput(args.goodput) if args.goodput else {}
        request = CompareRequest(
            runs=[RunInput(path=f, format=args.format) for f in files],
            slo_ttft_ms=slos.get("ttft"), slo_tpot_ms=slos.get("tpot"), slo_e2el_ms=slos.get("e2el"),
            confidence=args.confidence, resamples=args.resamples, seed=args.seed, repeats=args.repeats,
            gpu_hour_usd=args.gpu_hour_usd, gpus=args.gpus, max_file_mb=args.max_file_mb,
        )
        plot_path = _plot_path_or_warn(args.plot)
        report = compare_runs(request, plot_path=plot_path)
        if plot_path:
            print(f"plot written to {plot_path}", file=sys.stderr)
        return report

    p.set_defaults(run=run, tool="compare_runs")


def _add_sweep(subparsers: argparse._SubParsersAction) -> None:
    from .tools.metrics import FORMATS, SweepRequest

    fields = SweepRequest.model_fields
    p = subparsers.add_parser(
        "sweep",
        help="a load sweep: points by offered load, Pareto frontier, knee, capacity goodput, cost",
        description="Every run of the files (a multi-run file gives all its runs; an AIPerf artifact folder gives one run "
        "per profile_export.jsonl) becomes a point ordered by offered load. With --goodput: SLO attainment per point and "
        "capacity goodput (DistServe: the highest rate whose attainment meets --attainment), interpolated and labelled.",
    )
    p.add_argument("files", nargs="*", metavar="FILE", help="result files or AIPerf artifact folders")
    p.add_argument("--format", default="auto", choices=["auto", *FORMATS], help="input format of every file (default: auto-detect)")
    p.add_argument("--goodput", nargs="+", metavar="KEY:MS", default=None, help="SLOs, vLLM syntax: ttft:500 tpot:50 e2el:10000 (ms)")
    p.add_argument("--attainment", type=float, default=fields["attainment"].default, help=fields["attainment"].description)
    p.add_argument("--gpus", type=int, default=None, help=fields["gpus"].description)
    p.add_argument("--gpu-hour-usd", type=float, default=None, help=fields["gpu_hour_usd"].description)
    p.add_argument("--max-file-mb", type=int, default=fields["max_file_mb"].default, help=fields["max_file_mb"].description)
    p.add_argument("--plot", default=None, metavar="OUT.png", help="draw the sweep curve and the Pareto frontier (needs matplotlib)")

    def run(args: argparse.Namespace) -> BaseModel | int:
        from .tools.metrics import RunInput, analyze_sweep, parse_goodput

        files = _files_after_goodput(args, list(args.files))
        if not files:
            print(f"{PROG} sweep: give one or more result files or AIPerf folders", file=sys.stderr)
            return 2
        slos = parse_goodput(args.goodput) if args.goodput else {}
        request = SweepRequest(
            runs=[RunInput(path=f, format=args.format) for f in files],
            slo_ttft_ms=slos.get("ttft"), slo_tpot_ms=slos.get("tpot"), slo_e2el_ms=slos.get("e2el"),
            attainment=args.attainment, gpus=args.gpus, gpu_hour_usd=args.gpu_hour_usd, max_file_mb=args.max_file_mb,
        )
        plot_path = _plot_path_or_warn(args.plot)
        report = analyze_sweep(request, plot_path=plot_path)
        if plot_path:
            print(f"plot written to {plot_path}", file=sys.stderr)
        return report

    p.set_defaults(run=run, tool="analyze_sweep")


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


def _plot_path_or_warn(path: str | None) -> str | None:
    """``path`` when matplotlib can draw it; otherwise warn on stderr and go on without the plot."""
    from .tools.metrics.plot import PLOT_EXTRA_HINT, plot_available

    if path and not plot_available():
        print(f"warning: --plot skipped: {PLOT_EXTRA_HINT}", file=sys.stderr)
        return None
    return path


class _Sweepable(argparse.Action):
    """A flag that takes one value or a comma-separated list (``--kv bf16,fp8``) and records the order the
    sweepable flags were typed in, which becomes the sweep's axis order (first flag varies slowest)."""

    def __init__(self, *args, kind: Callable[[str], object] = str, **kwargs) -> None:
        self.kind = kind
        super().__init__(*args, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None) -> None:  # noqa: ANN001
        items = [v.strip() for v in str(values).split(",")]
        try:
            parsed = [self.kind(v) for v in items if v]
        except ValueError:
            noun = {int: "an integer", float: "a number"}.get(self.kind, "a value")  # type: ignore[call-overload]
            parser.error(f"{option_string}: {values!r} is not {noun} or a "
                         "comma-separated list of them")
        if not parsed:
            parser.error(f"{option_string}: no value given")
        setattr(namespace, self.dest, parsed if len(parsed) > 1 else parsed[0])
        order = getattr(namespace, "sweep_order", None) or []
        if self.dest not in order:
            setattr(namespace, "sweep_order", [*order, self.dest])


def _add_size(subparsers: argparse._SubParsersAction) -> None:
    from .tools.sizing.sweep import SizingQuery

    f = SizingQuery.model_fields
    p = subparsers.add_parser(
        "size", help="size a deployment: weights, KV cache, overheads, fit, capacity, roofline ceilings",
        description="Give a model by catalog name or HF repo id (positional), or --config PATH / --config-json TEXT. "
        "Comma-separated values for --weights, --kv, --tokens, --prompt-tokens, --concurrency, --gpu, --gpus, --tp, "
        "--pp, --ep or --memory-utilization give one report per combination (the first flag typed varies slowest) "
        "and print a comparison table.")
    sweep = {"action": _Sweepable}
    p.set_defaults(sweep_order=[])
    p.add_argument("model", nargs="?", default=None, help=f["model"].description)
    p.add_argument("--config", dest="config_path", default=None, help=f["config_path"].description)
    p.add_argument("--config-json", default=None, help=f["config_json"].description)
    p.add_argument("--revision", dest="hub_revision", default=f["hub_revision"].default,
                   help=f["hub_revision"].description)
    p.add_argument("--offline", action="store_true", help=f["offline"].description)
    p.add_argument("--weights", default=None, help=f["weights"].description, **sweep)
    p.add_argument("--kv", default=f["kv"].default, help=f["kv"].description, **sweep)
    p.add_argument("--tokens", default=None, help=f["tokens"].description, kind=int, **sweep)
    p.add_argument("--prompt-tokens", default=None, help=f["prompt_tokens"].description, kind=int, **sweep)
    p.add_argument("--concurrency", default=f["concurrency"].default, help=f["concurrency"].description, kind=int,
                   **sweep)
    p.add_argument("--gpu", default=None, help=f["gpu"].description, **sweep)
    p.add_argument("--gpus", default=None, help=f["gpus"].description, kind=int, **sweep)
    p.add_argument("--tp", default=f["tp"].default, help=f["tp"].description, kind=int, **sweep)
    p.add_argument("--pp", default=f["pp"].default, help=f["pp"].description, kind=int, **sweep)
    p.add_argument("--ep", default=f["ep"].default, help=f["ep"].description, kind=int, **sweep)
    p.add_argument("--gpu-memory-bytes", type=int, default=None, help=f["gpu_memory_bytes"].description)
    p.add_argument("--overhead-bytes", type=int, default=None, help=f["overhead_bytes"].description)
    p.add_argument("--memory-utilization", default=None,
                   help=f["memory_utilization"].description + " Default 0.92, or the engine log's value.", kind=float,
                   **sweep)
    p.add_argument("--max-num-batched-tokens", type=int, default=None, help=f["max_num_batched_tokens"].description)
    p.add_argument("--no-cuda-graphs", dest="cuda_graphs", action="store_false", help="eager mode: no CUDA-graph memory")
    p.add_argument("--bandwidth-efficiency", type=float, default=f["bandwidth_efficiency"].default,
                   help=f["bandwidth_efficiency"].description)
    p.add_argument("--compute-efficiency", type=float, default=f["compute_efficiency"].default,
                   help=f["compute_efficiency"].description)
    p.add_argument("--engine-log", dest="engine_log_path", default=None, metavar="FILE",
                   help=f["engine_log"].description + " (- reads standard input)")
    p.add_argument("--engine-block-size", type=int, default=f["engine_block_size"].default,
                   help=f["engine_block_size"].description)

    def run(args: argparse.Namespace) -> BaseModel:
        from .tools.sizing.sweep import size_query

        log = {"engine_log": sys.stdin.read()} if args.engine_log_path == "-" else {
            "engine_log_path": args.engine_log_path}
        given = dict(
            model=args.model, config_path=args.config_path, config_json=args.config_json, hub_revision=args.hub_revision,
            offline=args.offline, weights=args.weights, kv=args.kv, tokens=args.tokens,
            prompt_tokens=args.prompt_tokens, concurrency=args.concurrency, gpu=args.gpu, gpus=args.gpus, tp=args.tp,
            pp=args.pp, ep=args.ep, gpu_memory_bytes=args.gpu_memory_bytes, overhead_bytes=args.overhead_bytes,
            memory_utilization=args.memory_utilization, max_num_batched_tokens=args.max_num_batched_tokens,
            cuda_graphs=args.cuda_graphs, bandwidth_efficiency=args.bandwidth_efficiency,
            compute_efficiency=args.compute_efficiency, engine_block_size=args.engine_block_size, **log)
        # arguments not given stay unset, so defaults (and an engine log's own utilization) apply
        query = SizingQuery(**{k: v for k, v in given.items() if v is not None})
        return size_query(query, order=args.sweep_order)

    p.set_defaults(run=run, tool="size_deployment", cli_names={"engine_log": "--engine-log"})


def _add_plan(subparsers: argparse._SubParsersAction) -> None:
    from .tools.sizing.plan import PlanRequest

    f = PlanRequest.model_fields
    p = subparsers.add_parser(
        "plan", help="find the smallest GPU deployments (GPU type, count, TP/PP/EP, formats) that fit a workload",
        description="Searches GPU types x counts x TP/PP/DP/EP layouts x weight and KV formats and prints the "
        "smallest deployments that fit, ranked by GPU count or by cost. Memory figures are estimates; decode and "
        "prefill figures are ceilings.")
    p.add_argument("model", nargs="?", default=None, help=f["model"].description)
    p.add_argument("--config", dest="config_path", default=None, help=f["config_path"].description)
    p.add_argument("--config-json", default=None, help=f["config_json"].description)
    p.add_argument("--revision", default=f["hub_revision"].default, help=f["hub_revision"].description)
    p.add_argument("--offline", action="store_true", help=f["offline"].description)
    p.add_argument("--tokens", type=int, default=None, help=f["tokens"].description)
    p.add_argument("--prompt-tokens", type=int, default=None, help=f["prompt_tokens"].description)
    p.add_argument("--output-tokens", type=int, default=None, help=f["output_tokens"].description)
    p.add_argument("--concurrency", type=int, default=None, help=f["concurrency"].description)
    p.add_argument("--request-rate", type=float, default=None, help=f["request_rate"].description)
    p.add_argument("--min-decode-tokens-per-s", type=float, default=None,
                   help=f["min_decode_tokens_per_s"].description)
    p.add_argument("--max-ttft-s", type=float, default=None, help=f["max_ttft_s"].description)
    p.add_argument("--gpu", default=None, metavar="GPU[,GPU...]", help=f["gpu"].description)
    p.add_argument("--max-gpus", type=int, default=f["max_gpus"].default, help=f["max_gpus"].description)
    p.add_argument("--gpus-per-node", type=int, default=f["gpus_per_node"].default, help=f["gpus_per_node"].description)
    p.add_argument("--weights", default=None, metavar="FMT[,FMT...]", help=f["weights"].description)
    p.add_argument("--kv", default=None, metavar="FMT[,FMT...]", help=f["kv"].description)
    p.add_argument("--memory-utilization", type=float, default=f["memory_utilization"].default,
                   help=f["memory_utilization"].description)
    p.add_argument("--gpu-cost", default=None, metavar="GPU=USD[,...]",
                   help="US dollars per GPU-hour, e.g. h100=2.5,h200=3.8")
    p.add_argument("--listed-prices", action="store_true", help=f["listed_prices"].description)
    p.add_argument("--rank-by", choices=["gpus", "cost"], default=None, help=f["rank_by"].description)
    p.add_argument("--top", type=int, default=f["top"].default, help=f["top"].description)

    def listed(value: str | None) -> list[str] | None:
        return [v.strip() for v in value.split(",") if v.strip()] if value else None

    def run(args: argparse.Namespace) -> BaseModel:
        from .tools.errors import InputFormatError
        from .tools.sizing.plan import plan_deployment

        costs: dict[str, float] | None = None
        if args.gpu_cost:
            costs = {}
            for item in args.gpu_cost.split(","):
                name, sep, usd = item.partition("=")
                try:
                    costs[name.strip()] = float(usd)
                except ValueError:
                    raise InputFormatError(f"--gpu-cost: {item!r} is not GPU=USD (e.g. h100=2.5)") from None
                if not sep or not name.strip():
                    raise InputFormatError(f"--gpu-cost: {item!r} is not GPU=USD (e.g. h100=2.5)")
        request = PlanRequest(
            model=args.model, config_path=args.config_path, config_json=args.config_json, hub_revision=args.revision,
            offline=args.offline, tokens=args.tokens, prompt_tokens=args.prompt_tokens,
            output_tokens=args.output_tokens, concurrency=args.concurrency, request_rate=args.request_rate,
            min_decode_tokens_per_s=args.min_decode_tokens_per_s, max_ttft_s=args.max_ttft_s, gpu=listed(args.gpu),
            max_gpus=args.max_gpus, gpus_per_node=args.gpus_per_node, weights=listed(args.weights),
            kv=listed(args.kv), memory_utilization=args.memory_utilization, gpu_cost=costs,
            listed_prices=args.listed_prices, rank_by=args.rank_by, top=args.top)
        return plan_deployment(request)

    p.set_defaults(run=run, tool="plan_deployment")


def _add_spec(subparsers: argparse._SubParsersAction) -> None:
    from .tools.sizing.speculative import SpeculativeRequest

    f = SpeculativeRequest.model_fields
    p = subparsers.add_parser(
        "spec", help="speculative decoding: tokens per step, acceptance-rate conversions, speed-up against batch size",
        description="tau(alpha, k) and its inverse; alpha, vLLM's draft acceptance rate and mean acceptance length "
        "converted into each other; with MODEL and --gpu the speed-up bound at each --concurrency; with "
        "--draft-model or --mtp-layers the drafter's memory. See references/speculative-decoding.md.")
    p.add_argument("model", nargs="?", default=None, help="target " + str(f["model"].description))
    p.add_argument("--acceptance", type=float, required=True, help=f["acceptance"].description)
    p.add_argument("--draft-tokens", type=int, required=True, help=f["draft_tokens"].description)
    p.add_argument("--rate-kind", choices=["alpha", "vllm-draft-acceptance", "acceptance-length"], default="alpha",
                   help=f["rate_kind"].description)
    p.add_argument("--draft-cost", type=float, default=f["draft_cost"].default, help=f["draft_cost"].description)
    p.add_argument("--drafting", choices=["serial", "parallel"], default="serial", help=f["drafting"].description)
    p.add_argument("--config", dest="config_path", default=None, help=f["config_path"].description)
    p.add_argument("--config-json", default=None, help=f["config_json"].description)
    p.add_argument("--revision", dest="hub_revision", default=f["hub_revision"].default,
                   help=f["hub_revision"].description)
    p.add_argument("--offline", action="store_true", help=f["offline"].description)
    p.add_argument("--weights", default=None, help=f["weights"].description)
    p.add_argument("--kv", default=f["kv"].default, help=f["kv"].description)
    p.add_argument("--gpu", default=None, help=f["gpu"].description)
    p.add_argument("--tp", type=int, default=1, help=f["tp"].description)
    p.add_argument("--pp", type=int, default=1, help=f["pp"].description)
    p.add_argument("--ep", type=int, default=1, help=f["ep"].description)
    p.add_argument("--tokens", type=int, default=f["tokens"].default, help=f["tokens"].description)
    p.add_argument("--concurrency", default="1", metavar="B[,B...]", help=f["concurrency"].description)
    p.add_argument("--memory-utilization", type=float, default=f["memory_utilization"].default,
                   help=f["memory_utilization"].description)
    p.add_argument("--draft-model", default=None, help=f["draft_model"].description)
    p.add_argument("--mtp-layers", type=int, default=None, help=f["mtp_layers"].description)

    def run(args: argparse.Namespace) -> BaseModel:
        from .tools.errors import InputFormatError
        from .tools.sizing.speculative import speculative_decoding

        try:
            batches = [int(b) for b in args.concurrency.split(",") if b.strip()]
        except ValueError:
            raise InputFormatError(f"--concurrency: {args.concurrency!r} is not a comma-separated list of integers") \
                from None
        request = SpeculativeRequest(
            acceptance=args.acceptance, rate_kind=args.rate_kind, draft_tokens=args.draft_tokens,
            draft_cost=args.draft_cost, drafting=args.drafting, model=args.model, config_path=args.config_path,
            config_json=args.config_json, hub_revision=args.hub_revision, offline=args.offline, weights=args.weights,
            kv=args.kv, gpu=args.gpu, tp=args.tp, pp=args.pp, ep=args.ep, tokens=args.tokens, concurrency=batches,
            memory_utilization=args.memory_utilization, draft_model=args.draft_model, mtp_layers=args.mtp_layers)
        return speculative_decoding(request)

    p.set_defaults(run=run, tool="speculative_decoding")


def _add_catalog(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "catalog", help="list the models or the GPUs the sizing tools know by name, with sources",
        description="Every catalog model (parameters, layers, stored format, context) or GPU (memory, bandwidth, "
        "dense TFLOPS), each with the source of its values. The MCP server serves the same lists as the resources "
        "llm-inference://catalog/models and llm-inference://catalog/gpus.")
    p.add_argument("kind", choices=["models", "gpus"], help="which catalog")

    def run(args: argparse.Namespace) -> BaseModel:
        from .tools.sizing.listing import CatalogRequest, list_catalog

        return list_catalog(CatalogRequest(kind=args.kind))

    p.set_defaults(run=run)


def _add_audit(subparsers: argparse._SubParsersAction) -> None:
    from .tools.audit import AuditRequest

    fields = AuditRequest.model_fields
    p = subparsers.add_parser(
        "audit",
        help="audit a benchmark write-up, manifest or result file against the benchmark contract",
        description="Checks every benchmark-contract item (declared/partial/missing/n/a) and metric rule "
        "(ok/violation/unclear/n/a) with line-numbered evidence. --template prints a fill-in report that "
        "satisfies every item; --manifest-schema prints the BenchmarkManifest JSON Schema.",
    )
    p.add_argument("file", nargs="?", default=None, help="write-up (.md/.txt), manifest (.json/.yaml) or result file; - reads stdin")
    p.add_argument("--format", default="auto", choices=["auto", "markdown", "manifest", "result"], help=fields["format"].description)
    p.add_argument("--template", action="store_true", help="print a fill-in markdown report that satisfies every contract item")
    p.add_argument("--manifest-schema", action="store_true", help="print the JSON Schema of BenchmarkManifest")

    def run(args: argparse.Namespace) -> BaseModel | int:
        from .tools.audit import audit_benchmark, audit_template
        from .tools.audit import manifest_json_schema

        if args.template:
            print(audit_template(), end="")
            return 0
        if args.manifest_schema:
            print(json.dumps(manifest_json_schema(), indent=2))
            return 0
        if args.file is None:
            print(f"{PROG} audit: give a FILE (or - for stdin), --template or --manifest-schema", file=sys.stderr)
            return 2
        from .tools.audit.models import MAX_TEXT_CHARS

        source = {"text": read_stdin(MAX_TEXT_CHARS * 4)} if args.file == "-" else {"path": args.file}
        return audit_benchmark(AuditRequest(**source, format=args.format))

    p.set_defaults(run=run, tool="audit_benchmark", cli_names={"path": "FILE", "text": "FILE"})


def _add_upstream(subparsers: argparse._SubParsersAction) -> None:
    from .tools.upstream import UpstreamRequest

    fields = UpstreamRequest.model_fields
    p = subparsers.add_parser(
        "upstream",
        help="check the upstream LLM Inference Handbook for changes since the pinned revisions (needs network)",
        description="Lists upstream pages changed, added or removed since the pins in tools/data/upstream.json, the "
        "reference pages each feeds, and (unless --no-audit) older paragraphs with no close match in the newer text. "
        "Set GITHUB_TOKEN to raise the GitHub API rate limit.",
    )
    p.add_argument("--modular-ref", default=fields["modular_ref"].default, metavar="REF", help=fields["modular_ref"].description)
    p.add_argument("--bentoml-ref", default=fields["bentoml_ref"].default, metavar="REF", help=fields["bentoml_ref"].description)
    p.add_argument("--no-audit", action="store_true", help="only compare file lists (skips fetching page text)")
    p.add_argument("--threshold", type=float, default=fields["threshold"].default, help=fields["threshold"].description)

    def run(args: argparse.Namespace) -> BaseModel:
        from .tools.upstream import check_upstream

        request = UpstreamRequest(
            modular_ref=args.modular_ref, bentoml_ref=args.bentoml_ref, audit=not args.no_audit, threshold=args.threshold
        )
        return check_upstream(request)

    p.set_defaults(run=run, cli_names={"audit": "--no-audit"})


_COMMANDS: list[Callable[[argparse._SubParsersAction], None]] = [
    _add_serve,
    _add_search,
    _add_read,
    _add_size,
    _add_plan,
    _add_spec,
    _add_catalog,
    _add_metrics,
    _add_compare,
    _add_sweep,
    _add_audit,
    _add_install_skill,
    _add_upstream,
]


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=PROG,
        description="LLM inference performance: reference corpus, sizing, metrics and benchmark audits.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in _COMMANDS:
        add(subparsers)
    for sub in subparsers.choices.values():
        sub.add_argument("--json", action="store_true", help="print the tool's structured output as JSON")
    return parser
