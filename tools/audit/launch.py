"""Whether the serving command of the measured runs is given: the launch_command item (contract group "stack").

LABELLING.md: declared for the serving command or full server config of the measured runs (``vllm serve
...``, ``python -m sglang.launch_server ...``, ``docker run ... image args``, a YAML engine config, an offline
runner that loads the model); partial for some settings ("TP 4, max-num-seqs 256"), a named runner script
or config whose contents are not in the text (a linked script is at most partial), or a command for only
some of the setups; a benchmark client's command alone is not a launch command.
"""

from __future__ import annotations

import re

from .findings import TextFinding, cite, quote_anchor, status_of
from .reading.anchors import anchors, in_results, uncovered
from .reading.document import Spot
from .reading.lexicon import icase
from .reading.statements import capability
from .reading.vocabulary import BENCH_TOOLS, CLIENT_FLAGS, ENGINE_RX, engine_key

__all__ = ["launch_command"]


def launch_command(ctx) -> TextFinding:
    cmd = icase(r"\bvllm\s+serve\s+(?:-|[\w.-]+/|\S+\.\w)|vllm\.entrypoints\.\w+|sglang\.launch_server|trtllm-serve\s+(?:-|[\w.-]+/|\S+\.\w)|"
                r"text-generation-launcher\s|llama-server\s+-|llama-bench\s+-|llama-cli\s+-|\./main\s+-|lmdeploy\s+serve\s|"
                r"docker\s+run\b[^\n]*(?:vllm|sglang|text-generation|tensorrt|trtllm|tgi|lmsysorg|nvcr\.io/nvidia/(?:tritonserver|tensorrt|nim|vllm|sglang|dynamo))|ollama\s+(?:run|serve)\s|"
                r"mlx_lm\.(?:server|generate)|vllm\s+bench\s+(?:throughput|latency)\s+-|benchmark_(?:throughput|latency)\.py\s+-|"
                r"trtllm-bench\s|trtllm-build\s|tritonserver\s|sglang\.bench_(?:one_batch|offline_throughput)|LLM\(\s*model\s*=|"
                # an offline runner that loads the model itself: MNN's llm_bench
                r"(?<![\w-])(?:\./)?llm_bench\s+(?:\\\s*)?-")
    declared = list(ctx.d.hits(cmd)) + ctx.d.command_hits(("server", "offline"))
    # A structured config's argument list (Kubernetes 'args:', a CI job's "server_args": [...]).
    declared += ctx.d.hits(icase(r"\b(?:server_|engine_|extra_|container_)?args\s*:\s*\[?\s*(?:-\s+)?--[a-z]"), kinds=("code",))
    # Any other entry point started with its model flag ('python -m medusa... --model-path ...'), less benchmark clients.
    entry = icase(r"(?m)^\s*(?:[$>#]\s*)?(?:python3?|torchrun|accelerate\s+launch|deepspeed)\s+(?:-m\s+)?(\S+)[^\n]*(?:\\\n[^\n]*)*?"
                  r"--model(?:[-_](?:path|id|name|dir))?[\s=]")
    declared += [(i, m) for i, m in ctx.d.hits(entry, kinds=("code",)) if not re.search(BENCH_TOOLS, m.group(1), re.I)]
    # The vaguer statements (engine settings, runner scripts) count only when no command declares the launch
    # (status_of reads them only then): looked up here, each taking its share of the scan budget, read only if needed.
    vaguer = _vaguer_lookups(ctx)
    if declared:
        # Declared for every measured setup (LABELLING.md "Several setups"): each engine whose results are
        # reported needs its command, and every reported result a command in reach (its section, a setup or
        # reproduction section).
        without = _engines_without_command(ctx, declared)
        if without:
            return TextFinding("launch_command", "partial",
                               f"launch command for some engines only ({cite(ctx, declared, 1)}); none for {', '.join(without)}",
                               ctx.d.evidence(declared))
        left = uncovered(ctx, declared)
        if left:
            return TextFinding("launch_command", "partial",
                               f"launch command ({cite(ctx, declared, 1)}) not tied to every reported result: "
                               f"{quote_anchor(ctx, left[0])} has none in its section or a setup section",
                               ctx.d.evidence(declared[:2]) + [ctx.d.ev(left[0].block, left[0].start)])
    return status_of(ctx, "launch_command", declared, [] if declared else _vaguer(ctx, *vaguer), "server launch command",
                     "launch command given", "engine settings mentioned but no complete launch command")


_FLAG = icase(r"(?<![\w-])--([a-z][\w-]+)")
_SETTINGS = icase(r"default\s+(?:settings|flags|arguments|args|config\w*)|\btrtllm-serve\b|\bvllm\s+serve\b|"
                  r"max(?:imum)?\s+batch(?:\s+size)?\s+\d|max(?:imum)?\s+context|gpu[- ]memory[- ]utili[sz]ation|"
                  r"max[-_ ]num[-_ ]seqs|chunked[- ]prefill\s+(?:on|off|enabled|disabled)|"
                  r"\bTP\s*=?\s*\d+\b|tensor[- ]parallel(?:ism|\s+size)?\s*(?:of\s+|=\s*|:\s*)?\d|"
                  # threads, offloaded layers and flash attention of a llama.cpp-style run, cores of an
                  # accelerator ("4 threads", "| ngl | threads |", "Flash attention enabled", "4 线程")
                  r"\b\d+\s+(?:CPU\s+)?threads\b|\bthreads?\s*[=:]\s*\d|\d+\s*线程|"
                  r"(?m:^)\|?\s*(?:\w+\s*\|\s*)*?(?:ngl|n_gpu_layers|threads)\s*\||"
                  r"flash[- ]?attention\s+(?:is\s+|was\s+)?(?:enabled|disabled|on|off)\b|"
                  r"\bnum(?:ber\s+of)?[\s_-]cores?\s*[=:]?\s*\d|"
                  # engine settings in prose: parallelism, replicas, disaggregated workers
                  r"テンソル並列|张量并行|并行策略|数据并行|流水线并行|"
                  r"\b\d+\s+(?:prefill|decode)\s+(?:pods?|workers?|instances?|nodes?)\b|"
                  # graphs switched on or off, compile modes, expert and data parallel degrees (a cache state is an item
                  # of its own, prefix_cache_state, like the dtype)
                  r"(?:cuda\s+)?graph\s+capture\s+(?:is\s+|was\s+)?(?:enabled|disabled|on|off)\b|"
                  r"cuda[- ]?graphs?\s+(?:is\s+|are\s+|was\s+|were\s+)?(?:enabled|disabled|on|off)\b|max[-_]autotune|"
                  r"\b(?:EP|DP)\s*=?\s*\d+\b|"
                  # a named runner script or config the runs launch with (LABELLING.md, batch-3: partial)
                  r"(?<![\w/.-])[\w./-]+\.sh\b|\b[\w./-]+\.ya?ml\b(?=[^\n]{0,60}\b(?:launch|serv|start|run)\w*)|"
                  r"(?:launch\w*|serv\w*|start\w*|runs?)\b[^\n.]{0,40}\b[\w./-]+\.ya?ml\b")
_PYTHON_SCRIPT = icase(r"(?m)^\s*(?:[$>#]\s*)?python3?\s+(?!-m\b)[\w./-]+\.py\b")
_BENCH_SCRIPT = icase(r"(?m)^\s*(?:[$>#]\s*)?(?:[A-Z_]+=\S+\s+(?:\\\s*)?)*python3?\s+(?!-m\b)[\w./-]*bench\w*\.py\b")


def _vaguer_lookups(ctx) -> tuple:
    """The look-ups ``_vaguer`` reads, made now (the scan budget is shared in the order patterns are looked up) and
    read later, only if nothing declares the launch."""
    return (ctx.d.hits(_FLAG), ctx.d.hits(_SETTINGS), ctx.d.hits(_SCRIPT, ("paragraph", "list_item", "quote")),
            ctx.d.hits(_PYTHON_SCRIPT, kinds=("code",)),
            ctx.d.hits(_BENCH_SCRIPT, kinds=("code",), scope="any") if anchors(ctx) else iter(()))


def _vaguer(ctx, flags, settings, scripts, runs, bench_runs) -> list:
    """Engine settings and runner scripts that make the launch command partial when no command declares it."""
    partial = [(i, m) for i, m in flags if m.group(1).lower() not in CLIENT_FLAGS]
    partial += list(settings)
    # A flag or setting named in a sentence about what the engine can do or how a reader may use it ("支持流水线并行推理",
    # "如`--dtype int4`", "use `--ori` to ...") is not a setting of the runs (LABELLING.md: feature descriptions declare nothing).
    partial = [(i, m) for i, m in partial if not _offered(ctx, i, m)]
    partial += _linked_runners(ctx)
    # A runner script named in a sentence about the numbers ("collected from demo/simple_text_demo.py", "generated using
    # latency.py"): its arguments are not in the text (LABELLING.md, batch-1 adjudication: at most partial).
    partial += [(i, m) for i, m in scripts if _produced_the_numbers(ctx, i, m)]
    # A test or benchmark script run by path (python tests/test_flash_mla_decoding.py): a runner, its settings unseen.
    partial += [(i, m) for i, m in runs if not re.search(BENCH_TOOLS, m.group(0), re.I)]
    # A benchmark runner offered in the usage section of the page that reports the numbers ("Run the benchmark script to
    # get TTFT": python benchmark.py --flash ...): not tied to the results, so partial at most (LABELLING.md, batch 1).
    partial += list(bench_runs)
    return partial


def _produced_the_numbers(ctx, i: int, m) -> bool:
    """Whether the script named at ``m`` is said to produce the reported figures: its sentence says it measures one
    ("`latency.py` evaluates the latency per generated token"), or ties it to the results and runs it ("results
    obtained by running bench.py"); an accuracy script or a timing utility the authors wrote is no runner."""
    sentence = ctx.d.sentence(i, m)
    if _ACCURACY.search(sentence):
        return False
    return bool(_SCRIPT_MEASURES.search(sentence)
                or _TIED.search(sentence) and _RUN_WITH.search(ctx.d.plains[i][max(0, m.start() - 40):m.start()]))


_EXAMPLE = re.compile(r"(?i)\be\.g\.|\bfor\s+example\b|\bsuch\s+as\b|例如|比如|如\s*(?:[「“(（]|--)|たとえば|例えば")


def _offered(ctx, i: int, m) -> bool:
    """Whether the prose sentence holding ``m`` offers a capability or an example rather than stating the runs' setting."""
    if ctx.d.w.blocks[i].kind not in ("paragraph", "list_item", "quote"):
        return False
    sentence = ctx.d.sentence(i, m)
    return capability(sentence) or bool(_EXAMPLE.search(sentence))


_LINK = re.compile(r"(?<!!)\[([^\]\n]{0,80})\]\(([^)\s]+)\)|(https?://\S+?\.(?:sh|py))(?![\w/])")
# The link names a runner: its text says script, code or reproduce, or its target is a script or a benchmark folder
# (a repository's home page, "[optimum-benchmark](https://github.com/huggingface/optimum-benchmark)", is a tool).
_RUNNER_TEXT = re.compile(r"(?i)\bscripts?\b|\bcode\b|reproduc|脚本|代码|复现|スクリプト")
_RUNNER_TARGET = re.compile(r"(?i)\.(?:sh|py)$|^(?:https?://github\.com/[^/]+/[^/]+/(?:tree|blob)/|(?!https?:))\S*(?:bench|reproduc)")
_DOCUMENT = re.compile(r"(?i)\.(?:md|html?|rst|pdf)(?:#\S*)?$")
_ACCURACY = re.compile(r"(?i)perplexity|\bppl\b|accuracy|困惑度|准确率|精度评测|c-eval|mmlu")
_SCRIPT = re.compile(r"(?<![\w/.-])[\w./-]*[A-Za-z]\w*\.py\b")
# a script said to measure a performance figure ("`latency.py` evaluates the latency per generated token")
_SCRIPT_MEASURES = re.compile(r"(?i)\b(?:evaluat|measur|benchmark|output|report)\w*\b[^.\n]{0,40}\b(?:latency|tokens?\s+per\s+second|"
                              r"tok(?:en)?s?/s|throughput|speed)|速度|吞吐|延迟")
# the words just before the script that say the numbers came from running it
_RUN_WITH = re.compile(r"(?i)(?:\b(?:run|runs|running|ran|using|with|via|from|by)\s+(?:the\s+|our\s+)?(?:\w+\s+)?(?:script\s+)?|运行|執行|实行|通过|使用|用)\W{0,3}$")
_TIED = re.compile(r"(?i)bench\w*|reproduc\w*|\bmeasur\w*|\bresults?\b|测得|测试|基准|复现|ベンチマーク|計測|測定")


def _linked_runners(ctx) -> list:
    """A benchmark script or code given only as a link or URL, in a sentence that ties it to the numbers ("the
    benchmark code is available at [DeepSpeedExamples](...)", "使用[投机采样脚本](...py)...测得", "How to
    [reproduce](benchmark/flexllmgen)"): the runner is named but its settings are not in the text (LABELLING.md,
    batch-1 adjudication: a linked script is at most partial). The masked text has lost the URL, so the raw
    line is read."""
    out = []
    for i, block in enumerate(ctx.d.w.blocks):
        if block.kind == "heading" or ("](" not in block.text and "://" not in block.text):
            continue
        for m in _LINK.finditer(block.text):
            target = m.group(2) or m.group(3)
            if target.startswith("#") or _DOCUMENT.search(target) or not (_RUNNER_TEXT.search(m.group(1) or "") or _RUNNER_TARGET.search(target)):
                continue  # a guide or a page ('benchmark_quickstart.md') is documentation, not a runner
            line = ctx.d.line_text(i, m.start()) if block.kind != "code" else _intro(ctx, i) + block.text
            if _ACCURACY.search(line):
                continue  # the script of an accuracy evaluation (perplexity, C-Eval) runs no measured performance run
            if _TIED.search(re.sub(r"\([^)\s]*\)|https?://\S+", " ", line)) or _TIED.search(m.group(1) or ""):
                out.append((i, Spot(m.start(), m.end(), m.group(1) or target)))
    return out


def _intro(ctx, i: int) -> str:
    """The prose block just before block ``i`` (the sentence that introduces a code block)."""
    return ctx.d.plains[i - 1] if i and ctx.d.w.blocks[i - 1].kind in ("paragraph", "list_item") else ""


def _engines_without_command(ctx, commands) -> list[str]:
    """Engines whose results are reported (named with a reported result) that no launch command
    starts; the command's engine comes from the tool table or from the engine named in the command line."""
    measured = {engine_key(x) for x in in_results(ctx, ENGINE_RX)}
    if len(measured) < 2:
        return []
    started: set[str] = {engine_key(c.engine) for c in ctx.d.commands if c.engine and ctx.d._run[c.block] and c.role != "client"}
    for i, m in commands:
        started |= {engine_key(x.group(0)) for x in ENGINE_RX.finditer(ctx.d.line_text(i, m.start()))}
    from .stack import engine_mentions  # stack re-exports this module's item: imported when first judged

    names = {engine_key(m.group(0)): m.group(0) for _, m in engine_mentions(ctx)}
    return [names.get(k, k) for k in sorted(measured - started)]
