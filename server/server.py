"""The MCP server: names, descriptions and annotations over the functions in tools/.

Each tool takes the fields of one request model from tools/ as its arguments
(so the model's ``Field`` limits become the input schema) and returns that
function's report model (so clients get an output schema). No arithmetic and no
file reading happen here.
"""

from __future__ import annotations

import functools
import inspect
import logging
import sys
import threading
import types
import typing
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import anyio
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.types import ToolAnnotations
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, create_model

from .. import __version__
from ..tools import audit, corpus, sizing
from ..tools import metrics as metrics_tools
from .calls import CallPolicy
from .http import build_http_app, plan_http, startup_line
from .settings import ServeSettings, granted_folders
from .stdio import serve_stdio, terminal_notice
from .workers import BudgetExceeded, Job, ProcessRunner, ThreadRunner

__all__ = ["build_server", "run_server", "SERVER_NAME"]

SERVER_NAME = "llm-inference-fundamentals"

READ_ONLY = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=False)
"""Every tool only reads: the corpus, the catalogs, or the file it is given."""

HUB_LOOKUP = ToolAnnotations(read_only_hint=True, idempotent_hint=True, open_world_hint=True)
"""For a tool that may fetch a model config from the Hugging Face Hub."""

INSTRUCTIONS = """\
Reference corpus and calculators for LLM inference performance.
- search_references / read_reference: answer questions from the corpus; cite page and anchor.
- size_deployment: GPU memory (weights, KV cache, overheads), fit, max concurrency, roofline ceilings; lists sweep.
- plan_deployment: the smallest GPU deployments (GPU type, count, TP/PP/EP, formats) that fit a workload.
- speculative_decoding: tokens per step, acceptance-rate conversions, speed-up against batch size, drafter memory.
- compute_metrics: TTFT, TPOT, ITL, E2E latency, throughput and goodput from benchmark records or result files.
- compare_runs / analyze_sweep: several runs side by side (confounders first, bootstrap intervals); load sweeps (frontier, capacity goodput).
- audit_benchmark: check a benchmark write-up against the benchmark contract and metric rules.
Keep evidence classes apart: a measurement, an estimate and a ceiling are different claims.
"""

SIZE_DEPLOYMENT_DESCRIPTION = (
    "Size a serving deployment of an open LLM (catalog name, HF repo id, or config.json): weights in any format "
    "(bf16, fp8, int8, int4 AWQ/GPTQ, mxfp4, nvfp4, GGUF; default: the checkpoint's quantization_config), KV cache "
    "for the declared workload (tokens per sequence x concurrency), overheads, per-GPU totals under TP/PP/EP, fit "
    "and margin (and the nearest change that fits), max concurrency, max tokens per sequence, decode/prefill "
    "roofline ceilings. What-ifs in one call: a list for weights, kv, tokens, prompt_tokens, concurrency, gpu, gpus, "
    "tp, pp, ep or memory_utilization returns {reports, axes}, one report per combination (first list slowest). "
    "engine_log (a vLLM or SGLang start-up log): with no model, kv_pool_tokens and max_concurrency at tokens; with "
    "a model, prediction vs log item by item. Formulas: KV/token = 2 x layers x kv_heads x head_dim x bytes "
    "(references/memory-sizing.md#kv-cache-per-token); MLA (kv_lora_rank + qk_rope_head_dim) x bytes, not split by "
    "TP; sliding layers capped at the window; Mamba/linear layers a fixed state; decode ceiling = bytes per step / "
    "HBM bandwidth; prefill = FLOPs / dense peak. Figures labelled measurement, estimate or ceiling."
)
"""Description of size_deployment (kept under ~1,200 characters)."""

PLAN_DEPLOYMENT_DESCRIPTION = (
    "Find the smallest deployments that hold a workload: searches GPU types (default: the whole catalog) x GPU "
    "counts 1, 2, 4, ... max_gpus x TP/PP/DP/EP layouts x weight formats (checkpoint's own, bf16, fp8, int8, "
    "int4-awq, mxfp4, nvfp4; never more bits than stored) x KV formats (auto, fp8), keeps per GPU type and format "
    "pair the smallest count that fits, ranks by GPU count or by cost (gpu_cost $/GPU-hour, or listed_prices with "
    "source and date). Workload: tokens (or prompt_tokens + output_tokens) with concurrency, or request_rate "
    "(Little's law with the targets). Optional targets: min_decode_tokens_per_s per user, max_ttft_s for one "
    "prompt; checked against roofline ceilings only (a plan rules deployments out, never promises a latency). "
    "Each candidate: gpu, gpus, tp, pp, ep, dp, weights, kv, fits, margin_bytes per GPU (estimate), max "
    "concurrency, decode/prefill ceilings, cost_per_hour, and the lif size command for its full report "
    "(references/memory-sizing.md)."
)
"""Description of plan_deployment (kept under ~1,200 characters)."""

SPECULATIVE_DECODING_DESCRIPTION = (
    "Evaluate speculative decoding: tokens_per_step tau = (1 - alpha^(k+1)) / (1 - alpha) for k draft tokens, and "
    "conversions between alpha, vLLM's draft acceptance rate (accepted / drafted = (tau - 1) / k) and mean "
    "acceptance length (1 + accepted / drafts = tau); give acceptance with rate_kind alpha, vllm-draft-acceptance "
    "or acceptance-length. Speed-up S = tau / (drafting cost + V) with draft_cost c per draft step (serial: k x c). "
    "With a target model and gpu: V per batch size in concurrency from the roofline (verify B x (k+1) tokens vs "
    "plain B tokens; V = 1 while memory-bound, toward k + 1 when compute-bound), so the speed-up falls as batch "
    "grows. With draft_model or mtp_layers: the drafter's weights and KV per GPU and the target's margin after "
    "them. Estimates from an i.i.d. acceptance model; step times are ceilings "
    "(references/speculative-decoding.md#speed-up-model)."
)
"""Description of speculative_decoding (kept under ~1,200 characters)."""

COMPUTE_METRICS_DESCRIPTION = (
    "Compute LLM serving metrics from a benchmark's per-request records or result file: TTFT, TPOT, ITL and E2E "
    "latency distributions (mean, median, std, p90/p95/p99 plus requested percentiles), request/input/output/total "
    "token throughput (aggregate and per session), goodput and SLO attainment, per-request output speed, effective prefill throughput. Input: "
    "path (local file), text (the file's content) or records (inline). Auto-detects generic JSONL/CSV records, "
    "vllm bench serve JSON (detailed or not, legacy benchmark_serving.py too), SGLang bench_serving JSONL, AIPerf "
    "profile_export.jsonl / _aiperf.json, GenAI-Perf profile_export.json, GuideLLM benchmarks.json. Definitions as "
    "vllm bench serve: TPOT = (E2EL - TTFT)/(n - 1) per request, request-weighted (references/metrics.md#tpot); ITL "
    "= flattened chunk gaps (#itl); goodput = successful requests meeting every SLO (value <= SLO; 1-token requests "
    "TPOT 0) / duration (#per-run-goodput); numpy linear percentiles, population std; failures excluded, counted. "
    "source_reported holds the file's own figures and how its tool's definitions differ (#how-tools-differ). Use "
    "it to recompute or compare results instead of hand arithmetic."
)
"""Description of compute_metrics (kept under ~1,200 characters)."""

COMPARE_RUNS_DESCRIPTION = (
    "Compare two or more LLM benchmark runs (result files of any tool compute_metrics reads, mixed: vLLM, SGLang, "
    "AIPerf, GenAI-Perf, GuideLLM, JSONL/CSV records; runs[i] = {path | text | records, format, run_index, label}; the "
    "first is the baseline). Every run is recomputed under vllm bench serve's definitions. Confounders come first "
    "(output_length, prompt_length, request_count, token_counting, request_rate, concurrency, warm_cache, failures, "
    "warmup, observation_point; each with observed values), then TTFT, TPOT, ITL and E2E mean/median/p90/p99 and the "
    "rates side by side, the relative difference against the baseline with a seeded bootstrap percentile interval "
    "(requests resampled; method stated), and verdict sentences ('B's p99 TTFT is 18% lower, 95% CI 9-27% lower' or "
    "'no difference this sample can detect'). repeats=true adds across-run mean, spread, t interval and a warning when "
    "runs disagree beyond their own noise; gpu_hour_usd + gpus add cost per 1M tokens (an Estimate). Read "
    "references/benchmarking.md#comparing-runs and references/metrics.md#confidence-intervals."
)
"""Description of compare_runs (kept under ~1,200 characters)."""

ANALYZE_SWEEP_DESCRIPTION = (
    "Analyze a load sweep of an LLM server: runs at several request rates or concurrencies, from several result files "
    "or one file holding many (vLLM --append-result JSONL, a GuideLLM sweep, an AIPerf artifact folder with one "
    "profile_export.jsonl per run). Every run is recomputed under one definition and becomes a point ordered by "
    "offered load (requested rate, requested concurrency, or achieved rate): throughput, latency percentiles, per-user "
    "output speed, SLO attainment and goodput. Returns the Pareto frontier (output tokens/s per user vs total tokens/s, "
    "per GPU with gpus), the knee, and capacity goodput as DistServe defines it: the highest request rate whose SLO "
    "attainment meets the target share (attainment, default 0.9), interpolated between bracketing points and labelled "
    "so; with gpu_hour_usd and gpus, cost per 1M tokens per point and at that rate (an Estimate). Read "
    "references/benchmarking.md#sweeps-and-pareto-frontiers and references/metrics.md#capacity-goodput."
)
"""Description of analyze_sweep (kept under ~1,200 characters)."""

AUDIT_BENCHMARK_DESCRIPTION = (
    "Audit an LLM benchmark write-up (markdown or plain text, inline or a path), a BenchmarkManifest (JSON/YAML; "
    "schema: `llm-inference-fundamentals audit --manifest-schema`) or a result file (read as compute_metrics reads it; "
    "definitions from its format) against the benchmark contract "
    "(references/benchmarking.md#the-benchmark-contract). Returns one finding per contract item (stack, workload, "
    "state, distributions, speculative, aggregation) as declared | partial | missing | not_applicable, and per metric "
    "rule (references/benchmarking.md#metric-rules: observation point, TPOT = (E2E - TTFT)/(n - 1) with the first "
    "token excluded (references/metrics.md#tpot), throughput basis, goodput SLOs, cache-hit labelling, steady decode, "
    "capacity vs workload, stack comparison, evidence class) as ok | violation | unclear | not_applicable, each with "
    "evidence (line number and quoted text) and a reason; missing items name the sections searched. Vague values "
    "('latest vLLM', 'Llama 70B', 'about 1k tokens') are partial; values in code blocks, tables and footnotes count; "
    "the headline is checked too; conflicting values (two GPU counts) are listed. Use it before trusting or comparing "
    "benchmarks."
)
"""Description of audit_benchmark (kept under ~1,200 characters)."""

logger = logging.getLogger(__name__)


def _accepts_only_text(annotation: Any) -> bool:
    """True for ``str`` and ``str | None``: fields that never take an object."""
    if annotation is str:
        return True
    args = typing.get_args(annotation)
    return bool(args) and all(arg is str or arg is type(None) for arg in args)


def _names_a_file(model: type[BaseModel]) -> bool:
    """True when the request model has a path field anywhere (``path``, ``*_path``, ``paths``), nested too."""
    def walk(node: Any) -> bool:
        if isinstance(node, dict):
            props = node.get("properties")
            if isinstance(props, dict) and any(k in ("path", "paths") or k.endswith(("_path", "_paths")) for k in props):
                return True
            return any(walk(v) for v in node.values())
        if isinstance(node, list):
            return any(walk(v) for v in node)
        return False

    return walk(model.model_json_schema())


_NOT_GIVEN: Any = type("NotGiven", (), {"__repr__": lambda self: "<not given>"})()
"""Default of every optional argument in the SDK-facing model: only what the client sent reaches the worker."""


class _RawArguments(FuncMetadata):
    """Hands the arguments to the tool as sent: parsing and validation run in the worker, under its budget.

    The SDK would validate (and JSON-decode) every argument on the event loop
    that serves all sessions; a large ``records`` list or a deeply nested text
    would stall everyone. Here it only checks the argument names.
    """

    def pre_parse_json(self, data: dict[str, Any]) -> dict[str, Any]:
        return data


def _request_tool(
    fn: Callable[[Any], BaseModel],
    request_model: type[BaseModel],
    roots: CallPolicy,
    *,
    name: str,
    title: str,
    description: str,
    annotations: ToolAnnotations,
) -> Tool:
    """The MCP tool for ``fn(request)``: its arguments are the request model's fields.

    The input schema copies each field of the request model (type, limits,
    description, default), and unknown argument names are refused (the SDK
    would drop them silently, so a misspelt ``concurency`` would give an answer
    without the user's input). ``roots`` (a ``CallPolicy``) decides which
    folders a call may read and where it runs (a worker process with a time
    budget). Errors the user can fix become a ``ToolError`` whose message
    reaches the client; a crash is logged on the server and the client sees a
    generic failure.
    """
    text_fields = frozenset(f for f, info in request_model.model_fields.items() if _accepts_only_text(info.annotation))
    reads_files = _names_a_file(request_model)
    network = bool(annotations.open_world_hint)
    runner = roots.runner_for(fn)
    parameters, loose = [], {}
    for field_name, field in request_model.model_fields.items():
        annotation = Annotated[(field.annotation, *field.metadata,
                                Field(description=field.description, examples=field.examples))]
        default = inspect.Parameter.empty if field.is_required() else field.get_default(call_default_factory=True)
        parameters.append(inspect.Parameter(field_name, inspect.Parameter.KEYWORD_ONLY, annotation=annotation, default=default))
        loose[field_name] = (Any, ... if field.is_required() else _NOT_GIVEN)
    returns = typing.get_type_hints(fn)["return"]

    async def tool(ctx: Context, **arguments: Any) -> BaseModel:
        given = {k: v for k, v in arguments.items() if v is not _NOT_GIVEN}
        readable = await roots.readable(ctx) if reads_files else ()
        job = Job(name, fn, request_model, given, readable, text_fields, roots.grant_hint)
        try:
            kind, value = await runner.run(job, network=network)
        except BudgetExceeded as exc:
            raise ToolError(str(exc)) from None
        if kind == "ok":
            return value
        if kind == "error":
            raise ToolError(value)
        logger.error("tool %s crashed:\n%s", name, value)
        raise RuntimeError(f"{name} failed")  # the SDK answers a generic tool error and keeps the detail here

    tool.__name__ = name
    tool.__doc__ = fn.__doc__
    tool.__signature__ = inspect.Signature(parameters, return_annotation=returns)  # type: ignore[attr-defined]
    registered = Tool.from_function(tool, name=name, title=title, description=description, annotations=annotations,
                                    context_kwarg="ctx")
    typed = registered.fn_metadata.arg_model
    strict = type(typed.__name__, (typed,), {"model_config": ConfigDict(arbitrary_types_allowed=True, extra="forbid")})
    registered.parameters = strict.model_json_schema(by_alias=True)
    raw = create_model(typed.__name__, __base__=ArgModelBase, **loose)  # type: ignore[call-overload]
    raw.model_config["extra"] = "forbid"
    raw.model_rebuild(force=True)
    metadata = registered.fn_metadata
    registered.fn_metadata = _RawArguments(arg_model=raw, output_schema=metadata.output_schema,
                                           output_model=metadata.output_model, wrap_output=metadata.wrap_output)
    if typing.get_origin(returns) in (types.UnionType, typing.Union):
        _publish_union_output(registered, returns)
    return registered


def _publish_union_output(tool: Tool, returns: Any) -> None:
    """A tool that returns one of several models (one report, or a sweep of reports) publishes an object schema
    whose ``anyOf`` lists them, and its result goes out as the model returned, not wrapped in ``result``."""
    schema = TypeAdapter(returns).json_schema()
    tool.fn_metadata.output_model = returns
    tool.fn_metadata.wrap_output = False
    tool.fn_metadata.output_schema = {"type": "object", **schema}


def build_server(
    references: corpus.Corpus | None = None,
    *,
    allow_dirs: Sequence[str | Path] = (),
    client_roots: bool = True,
    runner: ProcessRunner | ThreadRunner | None = None,
) -> MCPServer:
    """Build the server with every tool, resource and prompt registered.

    ``references`` defaults to the bundled corpus; tests pass a small one.
    Tools read files only inside ``allow_dirs`` and, with ``client_roots``
    (stdio), the roots the client declares; no folder by default.
    ``runner`` runs the calculators (default: a thread; ``run_server`` uses a
    ``ProcessRunner`` with a time budget).
    """
    docs = references if references is not None else corpus.default_corpus()
    roots = CallPolicy(allow_dirs=allow_dirs, client_roots=client_roots, runner=runner)
    tools = [
        _request_tool(
            docs.search,
            corpus.SearchRequest,
            roots,
            name="search_references",
            title="Search the LLM inference reference corpus",
            description=(
                "Search the reference corpus on LLM inference performance (inference mechanics, metrics, "
                "benchmarking, memory sizing, batching, prefix caching, speculative decoding, parallelism, "
                "GPU fundamentals, infrastructure, deployment). BM25 over sections, headings weighted above "
                "body text, acronyms expanded (TTFT, TPOT, ITL, KV, GQA, MLA, MoE, TP/PP/EP...). Returns the "
                "best sections with page, anchor and score, cut to max_tokens; read on with read_reference. By "
                "default the first 3 hits are the best of 3 different pages (order='score' for plain score order)."
            ),
            annotations=READ_ONLY,
        ),
        _request_tool(
            docs.read,
            corpus.ReadRequest,
            roots,
            name="read_reference",
            title="Read a reference page or section",
            description=(
                "Read a reference page, or several of its sections in one call (section: an anchor, a heading, "
                "or a unique start or part of one, e.g. 'effective prefill'; a list for several), as markdown. "
                "whole_page=true returns all of it in one answer (every page fits). The answer says what it holds "
                "(sections, characters of the total, complete or cut); when truncated, the note gives the exact call "
                "to read on (offset=next_offset)."
            ),
            annotations=READ_ONLY,
        ),
        _request_tool(
            sizing.size_query,
            sizing.SizingQuery,
            roots,
            name="size_deployment",
            title="Size an LLM deployment: memory, fit, capacity, ceilings",
            description=SIZE_DEPLOYMENT_DESCRIPTION,
            annotations=HUB_LOOKUP,
        ),
        _request_tool(
            sizing.plan_deployment,
            sizing.PlanRequest,
            roots,
            name="plan_deployment",
            title="Plan the smallest GPU deployments for a model and workload",
            description=PLAN_DEPLOYMENT_DESCRIPTION,
            annotations=HUB_LOOKUP,
        ),
        _request_tool(
            sizing.speculative_decoding,
            sizing.SpeculativeRequest,
            roots,
            name="speculative_decoding",
            title="Speculative decoding: tokens per step, acceptance conversions, speed-up against batch size",
            description=SPECULATIVE_DECODING_DESCRIPTION,
            annotations=HUB_LOOKUP,
        ),
        _request_tool(
            metrics_tools.compute_metrics,
            metrics_tools.MetricsRequest,
            roots,
            name="compute_metrics",
            title="Compute TTFT, TPOT, ITL, E2E latency, throughput and goodput",
            description=COMPUTE_METRICS_DESCRIPTION,
            annotations=READ_ONLY,
        ),
        _request_tool(
            metrics_tools.compare_runs,
            metrics_tools.CompareRequest,
            roots,
            name="compare_runs",
            title="Compare benchmark runs across tools, with confounders and confidence intervals",
            description=COMPARE_RUNS_DESCRIPTION,
            annotations=READ_ONLY,
        ),
        _request_tool(
            metrics_tools.analyze_sweep,
            metrics_tools.SweepRequest,
            roots,
            name="analyze_sweep",
            title="Analyze a load sweep: curve, Pareto frontier, knee, capacity goodput, cost",
            description=ANALYZE_SWEEP_DESCRIPTION,
            annotations=READ_ONLY,
        ),
        _request_tool(
            audit.audit_benchmark,
            audit.AuditRequest,
            roots,
            name="audit_benchmark",
            title="Audit a benchmark write-up against the benchmark contract",
            description=AUDIT_BENCHMARK_DESCRIPTION,
            annotations=READ_ONLY,
        ),
    ]
    server = MCPServer(
        name=SERVER_NAME,
        title="LLM inference fundamentals",
        instructions=INSTRUCTIONS,
        version=__version__,
        tools=tools,
    )

    # --- resources -----------------------------------------------------------

    @server.resource(
        "llm-inference://references",
        name="references-index",
        title="Reference corpus index",
        description="The reference pages with their sections and anchors.",
        mime_type="text/markdown",
    )
    def references_index() -> str:
        return docs.index().to_text()

    for page in docs.summaries():
        server.resource(
            f"llm-inference://references/{page.id}",
            name=page.id,
            title=page.title,
            description=page.scope,
            mime_type="text/markdown",
        )(_page_reader(docs, page.id))

    @server.resource(
        "skill://llm-inference-fundamentals/SKILL.md",
        name="skill",
        title="SKILL.md: the operating model",
        description="The agent skill: working model, evidence classes, benchmark contract, metric rules, routes.",
        mime_type="text/markdown",
    )
    def skill() -> str:
        return corpus.skill_text()

    for kind in ("models", "gpus"):
        server.resource(
            f"llm-inference://catalog/{kind}",
            name=f"catalog-{kind}",
            title=f"The sizing catalog of {kind}, with sources",
            description=f"Every {kind[:-1]} the sizing tools know by name (size_deployment, plan_deployment), with "
                        "the source of each value.",
            mime_type="text/plain",
        )(_catalog_reader(kind))

    # --- prompts -------------------------------------------------------------

    @server.prompt(name="answer_question", title="Answer an LLM inference question")
    def answer_question(question: str) -> str:
        """Answer a question about LLM inference with the skill's workflow."""
        return (
            "Answer this question about LLM inference performance:\n\n"
            f"{question}\n\n"
            "Work as SKILL.md describes: search_references for the relevant sections and read_reference "
            "for the details; name the observation point of every metric; label each figure as a "
            "measurement, an estimate or a ceiling; use size_deployment for memory or speed arithmetic "
            "rather than doing it by hand; cite the page and anchor you relied on."
        )

    @server.prompt(name="size_deployment", title="Size a deployment")
    def size_deployment_prompt(model: str, context_tokens: str = "", concurrency: str = "", gpu: str = "") -> str:
        """Work out GPU memory, fit and ceilings for a model and workload."""
        workload = ", ".join(
            part
            for part in (
                f"{context_tokens} tokens per sequence" if context_tokens else "",
                f"{concurrency} concurrent sequences" if concurrency else "",
                f"on {gpu}" if gpu else "",
            )
            if part
        )
        return (
            f"Size a deployment of {model}" + (f" ({workload})" if workload else "") + ".\n\n"
            "Call size_deployment with the model, the tokens resident per sequence (prompt plus output) and "
            "the concurrency; ask for whatever is missing rather than assuming a configured max context is the "
            "workload. Report weights, KV cache, overheads and per-GPU totals, whether it fits, max concurrency, "
            "and the decode and prefill ceilings, each labelled estimate or ceiling, with the assumptions. "
            "Explain trade-offs (KV precision, weight format, TP degree) from references/memory-sizing.md."
        )

    @server.prompt(name="audit_benchmark", title="Audit a benchmark write-up")
    def audit_benchmark_prompt(writeup: str) -> str:
        """Check whether a benchmark write-up can be trusted."""
        return (
            "Audit this benchmark write-up against the benchmark contract:\n\n"
            f"{writeup}\n\n"
            "Call audit_benchmark with the text. Summarise what is declared, partial or missing, which metric "
            "rules are violated, and what the authors must add before the numbers can be compared or trusted. "
            "Quote the evidence lines. If raw results are attached, recompute them with compute_metrics."
        )

    return server


def _catalog_reader(kind: str) -> Callable[[], str]:
    def read_catalog() -> str:
        return sizing.list_catalog(sizing.CatalogRequest(kind=kind)).to_text()

    read_catalog.__name__ = f"catalog_{kind}"
    return read_catalog


def _page_reader(docs: corpus.Corpus, page_id: str) -> Callable[[], str]:
    def read_page() -> str:
        return docs.page_markdown(page_id)

    read_page.__name__ = f"read_{page_id.replace('-', '_')}"
    return read_page


def run_server(settings: ServeSettings | None = None) -> None:
    """Serve over stdio (stdout carries only JSON-RPC) or streamable HTTP, as ``settings`` say.

    Raises ``StartupRefused`` (with the reason) when the HTTP settings are unsafe,
    e.g. a bind beyond loopback without an authentication mode.
    """
    settings = settings or ServeSettings()
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    runner: ProcessRunner | ThreadRunner = (
        ProcessRunner(workers=settings.workers, budget_s=settings.call_budget_s, memory_mb=settings.worker_memory_mb)
        if settings.workers else ThreadRunner(budget_s=settings.call_budget_s))
    folders = granted_folders(settings.allow_dir)
    try:
        if settings.http:
            import uvicorn

            plan = plan_http(settings)
            server = build_server(allow_dirs=folders, client_roots=False, runner=runner)
            app = build_http_app(server, settings, plan)
            for warning in plan.warnings:
                logger.warning(warning)
            print(startup_line(settings, plan, folders), file=sys.stderr, flush=True)
            _warm_up(runner)
            uvicorn.run(app, host=settings.host, port=settings.port, log_level="warning", proxy_headers=True,
                        forwarded_allow_ips=settings.forwarded_allow_ips, timeout_graceful_shutdown=5)
        else:
            server = build_server(allow_dirs=folders, client_roots=True, runner=runner)
            _warm_up(runner)
            anyio.run(functools.partial(serve_stdio, server, notice=terminal_notice(folders)))
    finally:
        if isinstance(runner, ProcessRunner):
            runner.close()


def _warm_up(runner: ProcessRunner | ThreadRunner) -> None:
    """Start a worker in the background, so the first call does not wait for one."""
    if isinstance(runner, ProcessRunner):
        threading.Thread(target=runner.warm_up, name="lif-warm-up", daemon=True).start()
