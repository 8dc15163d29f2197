"""The sizing subcommands: ``size`` (memory, fit, capacity and roofline ceilings; lists give a sweep), ``plan``
(the smallest deployments that fit), ``spec`` (speculative decoding) and ``catalog`` (the models and GPUs known
by name).

``size``, ``plan`` and ``spec`` take a model the same three ways (a catalog name or Hub repo id, ``--config``,
``--config-json``); those flags and the request fields they fill are built once here.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from .lists import comma_separated

__all__ = ["add_catalog", "add_plan", "add_size", "add_spec"]


def add_size(subparsers: argparse._SubParsersAction) -> None:
    from ..tools.sizing.sweep import SizingQuery

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
    _add_model_source(p, f)
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
        from ..tools.sizing.sweep import size_query

        log = {"engine_log": sys.stdin.read()} if args.engine_log_path == "-" else {
            "engine_log_path": args.engine_log_path}
        given = dict(
            **_model_source(args), weights=args.weights, kv=args.kv, tokens=args.tokens,
            prompt_tokens=args.prompt_tokens, concurrency=args.concurrency, gpu=args.gpu, gpus=args.gpus, tp=args.tp,
            pp=args.pp, ep=args.ep, gpu_memory_bytes=args.gpu_memory_bytes, overhead_bytes=args.overhead_bytes,
            memory_utilization=args.memory_utilization, max_num_batched_tokens=args.max_num_batched_tokens,
            cuda_graphs=args.cuda_graphs, bandwidth_efficiency=args.bandwidth_efficiency,
            compute_efficiency=args.compute_efficiency, engine_block_size=args.engine_block_size, **log)
        # arguments not given stay unset, so defaults (and an engine log's own utilization) apply
        query = SizingQuery(**{k: v for k, v in given.items() if v is not None})
        return size_query(query, order=args.sweep_order)

    p.set_defaults(run=run, tool="size_deployment", cli_names={"engine_log": "--engine-log"})


def add_plan(subparsers: argparse._SubParsersAction) -> None:
    from ..tools.sizing.plan import PlanRequest

    f = PlanRequest.model_fields
    p = subparsers.add_parser(
        "plan", help="find the smallest GPU deployments (GPU type, count, TP/PP/EP, formats) that fit a workload",
        description="Searches GPU types x counts x TP/PP/DP/EP layouts x weight and KV formats and prints the "
        "smallest deployments that fit, ranked by GPU count or by cost. Memory figures are estimates; decode and "
        "prefill figures are ceilings.")
    p.add_argument("model", nargs="?", default=None, help=f["model"].description)
    _add_model_source(p, f, revision_metavar="REVISION")
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
        return comma_separated(value) if value else None

    def run(args: argparse.Namespace) -> BaseModel:
        from ..tools.errors import InputFormatError
        from ..tools.sizing.plan import plan_deployment

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
            **_model_source(args), tokens=args.tokens, prompt_tokens=args.prompt_tokens,
            output_tokens=args.output_tokens, concurrency=args.concurrency, request_rate=args.request_rate,
            min_decode_tokens_per_s=args.min_decode_tokens_per_s, max_ttft_s=args.max_ttft_s, gpu=listed(args.gpu),
            max_gpus=args.max_gpus, gpus_per_node=args.gpus_per_node, weights=listed(args.weights),
            kv=listed(args.kv), memory_utilization=args.memory_utilization, gpu_cost=costs,
            listed_prices=args.listed_prices, rank_by=args.rank_by, top=args.top)
        return plan_deployment(request)

    p.set_defaults(run=run, tool="plan_deployment")


def add_spec(subparsers: argparse._SubParsersAction) -> None:
    from ..tools.sizing.speculative import SpeculativeRequest

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
    _add_model_source(p, f)
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
        from ..tools.errors import InputFormatError
        from ..tools.sizing.speculative import speculative_decoding

        try:
            batches = comma_separated(args.concurrency, int)
        except ValueError:
            raise InputFormatError(f"--concurrency: {args.concurrency!r} is not a comma-separated list of integers") \
                from None
        request = SpeculativeRequest(
            acceptance=args.acceptance, rate_kind=args.rate_kind, draft_tokens=args.draft_tokens,
            draft_cost=args.draft_cost, drafting=args.drafting, **_model_source(args), weights=args.weights,
            kv=args.kv, gpu=args.gpu, tp=args.tp, pp=args.pp, ep=args.ep, tokens=args.tokens, concurrency=batches,
            memory_utilization=args.memory_utilization, draft_model=args.draft_model, mtp_layers=args.mtp_layers)
        return speculative_decoding(request)

    p.set_defaults(run=run, tool="speculative_decoding")


def add_catalog(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "catalog", help="list the models or the GPUs the sizing tools know by name, with sources",
        description="Every catalog model (parameters, layers, stored format, context) or GPU (memory, bandwidth, "
        "dense TFLOPS), each with the source of its values. The MCP server serves the same lists as the resources "
        "llm-inference://catalog/models and llm-inference://catalog/gpus.")
    p.add_argument("kind", choices=["models", "gpus"], help="which catalog")

    def run(args: argparse.Namespace) -> BaseModel:
        from ..tools.sizing.listing import CatalogRequest, list_catalog

        return list_catalog(CatalogRequest(kind=args.kind))

    p.set_defaults(run=run)


# --- what size, plan and spec share -------------------------------------------


def _add_model_source(p: argparse.ArgumentParser, f: dict[str, Any], *, revision_metavar: str | None = None) -> None:
    """``--config``, ``--config-json``, ``--revision`` and ``--offline``: where the model's config comes from
    when the positional MODEL is not a catalog name (``plan``'s help has always shown REVISION as the metavar)."""
    p.add_argument("--config", dest="config_path", default=None, help=f["config_path"].description)
    p.add_argument("--config-json", default=None, help=f["config_json"].description)
    p.add_argument("--revision", dest="hub_revision", default=f["hub_revision"].default, metavar=revision_metavar,
                   help=f["hub_revision"].description)
    p.add_argument("--offline", action="store_true", help=f["offline"].description)


def _model_source(args: argparse.Namespace) -> dict[str, Any]:
    """The request fields that name the model, as ``_add_model_source`` and the positional MODEL parsed them."""
    return dict(model=args.model, config_path=args.config_path, config_json=args.config_json,
                hub_revision=args.hub_revision, offline=args.offline)


class _Sweepable(argparse.Action):
    """A flag that takes one value or a comma-separated list (``--kv bf16,fp8``) and records the order the
    sweepable flags were typed in, which becomes the sweep's axis order (first flag varies slowest)."""

    def __init__(self, *args, kind: Callable[[str], object] = str, **kwargs) -> None:
        self.kind = kind
        super().__init__(*args, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None) -> None:  # noqa: ANN001
        try:
            parsed = comma_separated(str(values), self.kind)
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
