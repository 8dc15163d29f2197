"""What the write-up says about the deployed stack: model artifact, tokenizer, weight and KV formats,
engine revision, kernels and hardware (contract group "stack"); the launch command is read in launch.py.
"""

from __future__ import annotations

import re

from .artifacts import model_artifact
from .formats import format_mentions, kv_format, tokenizer, weight_format
from .launch import launch_command
from .reading.anchors import anchors
from .reading.cells import in_run
from .reading.document import Spot
from .reading.lexicon import INFERENCE, TP_RX, TRAINING, icase
from .reading.mentions import compares
from .reading.statements import capability, glued
from .reading.vocabulary import ENGINE_RX, ENGINES, FAMILIES, GPU, GPU_RX, VERSION, engine_key, patterns, vague_version, vocabulary_entry
from .reading.setups import SetupMention, find_setups
from .findings import TextFinding, cite, partial_where_uncovered, quote_anchor, run_setting, status_of
from .reading.flagvalues import definite

__all__ = ["engine_mentions", "engine_revision", "format_mentions", "gpu_conflict", "gpu_counts", "hardware", "kernels", "kv_format", "launch_command", "model_artifact", "tokenizer", "weight_format"]


def engine_revision(ctx) -> TextFinding:
    # The filler between name and version may not cross another engine's name ("vLLM and SGLang 0.4").
    near = icase(r"(?<![A-Za-z0-9_])(?:" + ENGINES + r")(?:(?:(?!" + ENGINES + r")[\s(:=,@A-Za-z0-9_-]){0,14}?(?:version|commit|build|release|tag)?[\s:=(`]*)(?:" + VERSION + r")"
                 r"(?![\d.]?\d)(?!\s*(?:bpw|bits?\b|b\b|gb\b|x\b|×|%|tok|t/s|ms\b)|\.[x*]\b|\.\*)")  # 0.8.x is a range, not a pin
    # "KTransformers: 54.21 (32 cores)" is a figure: a bare two-part number after a colon, with no 'v' and no
    # version word, followed by more figures, is a result, not a release.
    figure = re.compile(r"(?i)^[^:]*:\s*\d+\.\d+$")
    image = icase(r"\b(?:" + ENGINES + r")[\w.-]*/[\w.-]+:v?\d[\w.-]*|(?:" + ENGINES + r")\s*==\s*\d[\w.]*|"
                  r"\b(?:" + ENGINES + r")[\w.-]*@[0-9a-f]{7,40}")
    declared, loose_pins = [], []
    for i, m in ctx.d.hits(near):
        tail = m.group(0)[len(re.match(r"(?i)(?:" + ENGINES + r")", m.group(0)).group(0)):]
        if re.search(r"(?i)\b(?:" + FAMILIES + r")", tail):  # "vLLM for Qwen2.5": the model's version
            continue
        if figure.match(m.group(0)) and re.match(r"\s*(?:\(|→|->|tok|t/s|token)", ctx.d.plains[i][m.end():m.end() + 8]):
            continue
        if re.search(r"(?i)\bnightly\b", tail) and not re.search(r"[0-9a-f]{7,40}$", m.group(0)):
            loose_pins.append((i, m))  # "vLLM nightly (v0.19.1+)": a nightly with a lower bound pins nothing
            continue
        declared.append((i, m))
    declared += list(ctx.d.hits(image))
    declared += list(ctx.d.hits(re.compile(r"\b[A-Z][\w-]*\s+(?:Runtime|Inference\s+Engine|Serving|Server|SDK)\s+v?\d+\.\d+(?:\.\d+)?\b")))
    if engine_mentions(ctx):
        declared += list(ctx.d.hits(icase(r"\bcommit\s+[0-9a-f]{7,40}\b")))
    if engine_mentions(ctx):  # the engine ships inside a pinned serving image ("runtime image: kserve/x:v0.14.1")
        declared += list(ctx.d.hits(icase(r"\bimages?\b\W{0,4}(?:\w+\W{1,3}){0,2}?[\w.-]+(?:/[\w.-]+)+:v?\d[\w.-]*")))
    declared += _linked_pins(ctx) + _heading_pins(ctx)
    own_system = ctx.d.hits(icase(patterns("engine_revision", "own_system")))  # read only when nothing is pinned
    partial = [] if declared else engine_mentions(ctx) + list(own_system)
    if not declared and not partial and "run" in ctx.d.scopes:  # a how-to page measures nothing
        # The engine named only outside the runs' sections (its usage, install steps, news), or, on a kernel
        # library's own benchmark page, the library named in the runs: the software that produced the numbers is
        # named without a version (LABELLING.md: partial; missing only when no engine is named at all).
        # Acknowledgements and references name projects the runs did not use.
        partial = [(i, m) for i, m in _engine_names(ctx, "any") if ctx.d.scopes[i] != "links"] or \
            list(ctx.d.hits(icase(patterns("kernels", "named"))))
        own = [] if partial else _own_install(ctx)
        if own:
            return TextFinding("engine_revision", "partial", f"no engine is named; the page installs its own software "
                               f"({cite(ctx, own, 1)}), which the runs used, and gives it no version or commit",
                               ctx.d.evidence(own))
        results = anchors(ctx)
        if not partial and results and not ctx.d.first(_HOSTED, scope="any"):
            # Results measured with software the page never names: a project's own code (its README, its docs page, its
            # pull request) run without a version or commit. Labellers read 7 of 13 such pages in batches 1-11 as
            # partial (3 missing, 3 declared by a version this reader does not find); results from hosted APIs name no
            # serving software at all.
            first = results[0]
            return TextFinding("engine_revision", "partial",
                               f"no engine is named for the results (first: {quote_anchor(ctx, first)}); the software that "
                               "produced them, the page's own if anything, has no version or commit",
                               [ctx.d.ev(first.block, first.start)])
    if declared:
        # A pin elsewhere does not cover "the latest vLLM": that engine's version is left open.
        loose = [(i, m) for i, m in engine_mentions(ctx) if vague_version(ctx.d.plains[i], m.start())] + loose_pins
        if loose:
            names = ", ".join(sorted({ctx.d.plains[i][m.start():m.end()] for i, m in loose}))
            return TextFinding("engine_revision", "partial",
                               f"an engine's version is left open ('latest', 'nightly', ...): {names}",
                               ctx.d.evidence(loose + declared))
        # Declared only when every engine the runs name is pinned (LABELLING.md "Several setups"): a pinned
        # baseline does not pin the system it is compared with.
        unpinned = _unpinned_engines(ctx, declared)
        if unpinned:
            return TextFinding("engine_revision", "partial",
                               f"{cite(ctx, declared, 1)} is pinned, but {cite(ctx, unpinned, 2)} has no version, commit or image tag",
                               ctx.d.evidence(unpinned + declared))
    return status_of(ctx, "engine_revision", declared, partial, "engine name with version",
                     "engine version or commit pinned", "engine named without a version, commit or image tag")


# Results from hosted model APIs ("each model's default API provider", "OpenAI API"): no serving software is the page's.
_HOSTED = icase(r"\bAPI\s+(?:providers?|endpoints?)\b|\bproviders?\b[^.\n]{0,40}\bAPI\b|\bhosted\s+(?:APIs?|models?|endpoints?)\b")


# A section that installs or builds the page's own software ("## Installation", "### Build", "## 安装").
_INSTALL_HEADING = re.compile(r"(?i)^\W*(?:\d+(?:\.\d+)*\.?\s*)?(?:install(?:ation|ing)?|build(?:ing)?(?:\s+from\s+source)?|"
                              r"quick\s*start|getting\s+started|get\s+started)\b|安装|编译|インストール|ビルド")


def _own_install(ctx) -> list:
    """The heading of a section that installs the page's own software, on a page that names no engine: the runs
    used that software (LABELLING.md: a document's own system with no version is partial)."""
    return [(i, Spot(0, len(ctx.d.plains[i]), ctx.d.plains[i].strip()[:40])) for i, b in enumerate(ctx.d.w.blocks)
            if b.kind == "heading" and _INSTALL_HEADING.search(ctx.d.plains[i].strip())][:1]


_LINK_PIN = re.compile(r"(?i)\b(" + ENGINES + r")\b[^\n\[\]]{0,30}\[\s*(?:commit|version|release|tag|v?\d[\w.+-]*)\s*\]\("
                       r"[^)\s]*?/(?:commits?|tree|releases/tag|tag)/(v?\d[\w.+-]*|[0-9a-f]{7,40})[/)#]")


def _linked_pins(ctx) -> list:
    """Pins given as links the text presents as the version used: "vLLM [commit](.../commit/acbed3e)",
    "[v0.6.3](.../releases/tag/v0.6.3)" (LABELLING.md: a version inside a URL declares nothing unless the link
    is presented as the version used). The masked text has lost the URL, so the raw line is read."""
    out = []
    for i, block in enumerate(ctx.d.w.blocks):
        if "](" not in block.text or block.kind in ("code", "heading"):
            continue
        for m in _LINK_PIN.finditer(block.text):
            if in_run(ctx, i, m.start()):
                out.append((i, Spot(m.start(), m.end(), f"{m.group(1)} {m.group(2)}")))
    return out


def _heading_pins(ctx) -> list:
    """A heading that is a version and commit ("v0.7.1 + 9528a74") over a section of results pins the one
    engine the document names."""
    rx = icase(r"^\W*v\d+\.\d+(?:\.\d+)?(?:\.?post\d+|rc\d+)?(?:\W+[0-9a-f]{7,40})?\W*$")
    if len({engine_key(m.group(0)) for _, m in engine_mentions(ctx)}) != 1:
        return []
    return [(i, m) for i, block in enumerate(ctx.d.w.blocks) if block.kind == "heading" and in_run(ctx, i, 0)
            for m in [rx.search(ctx.d.plains[i].strip("# \n"))] if m]


def _unpinned_engines(ctx, pins) -> list:
    """First mention of each engine named in the runs that no pin covers. A pin that starts with the engine's
    name pins that engine; any other pin (a commit, an image tag) pins the engines named in its sentence, or
    the only engine the document names."""
    named: dict[str, tuple] = {}
    for i, m in engine_mentions(ctx):
        named.setdefault(engine_key(m.group(0)), (i, m))
    pinned: set[str] = set()
    lead = re.compile(r"(?i)(?:" + ENGINES + r")")
    for i, m in pins:
        start = lead.match(str(m.group(0)))
        if start:
            pinned.add(engine_key(start.group(0)))
            continue
        sentence = ctx.d.line_text(i, m.start())
        near = {engine_key(x.group(0)) for x in lead.finditer(sentence)}
        pinned |= near or (set(named) if len(named) == 1 else set())
    return [hit for key, hit in named.items() if key not in pinned]


@run_setting
def engine_mentions(ctx):
    """Engine names in the measured runs, less the benchmark client ('vllm bench')."""
    return _engine_names(ctx, None)


def _engine_names(ctx, scope: str | None) -> list:
    """Engine names in the given view of the text ('run' by default, 'any' for the whole document)."""
    # "what vLLM calls TPOT", "vLLM's definition": the engine named as the authority of a term, not one that ran
    term = re.compile(r"(?:'s)?\s+(?:calls?|defines?|definitions?|terminology|conventions?|naming|names?\s+it)\b", re.I)
    found = [(i, m) for i, m in ctx.d.hits(ENGINE_RX, scope=scope)
             if not re.match(r"(?i)vllm\s+bench", ctx.d.plains[i][m.start():m.start() + 12])
             and not term.match(ctx.d.plains[i], m.end()) and not _inside_identifier(ctx.d.plains[i], m)
             and not _navigation(ctx.d.w.blocks[i])]
    # A command of the runs names its engine ('llama-cli' runs llama.cpp) even when the prose does not.
    seen = {engine_key(m.group(0)) for _, m in found}
    for c in ctx.d.commands:
        if c.engine and (scope == "any" or ctx.d._run[c.block]) and engine_key(c.engine) not in seen:
            seen.add(engine_key(c.engine))
            found.append((c.block, Spot(c.start, c.start + len(c.words[0]), c.engine)))
    return found


def _inside_identifier(text: str, m) -> bool:
    """An engine name glued into an identifier ('llm-d-pd', 'vllm/vllm-openai', 'sglang_router') is part of a name."""
    return bool(re.match(r"[-_/.]\w", text[m.end():m.end() + 2]) or (m.start() and text[m.start() - 1] in "-_/."))


def _navigation(block) -> bool:
    """A table-of-contents entry: a list item that is only a link to an anchor of the page."""
    return block.kind == "list_item" and bool(re.fullmatch(r"\s*(?:[-*+]|\d+[.)])?\s*\[[^\]]*\]\(#[^)]*\)\s*", block.text))


def kernels(ctx) -> TextFinding:
    """Named attention backends or kernel libraries the runs used (declared); generic kernel wording, an
    engine optimization without its kernel, or a kernel named for only some of the engines compared
    (partial). A capability sentence, a name inside an identifier, Triton Inference Server, CUDA graphs and
    torch.compile are not kernels (LABELLING.md, stack, and the batch-2 clarifications)."""
    named = icase(patterns("kernels", "named"))
    generic = icase(patterns("kernels", "generic"))
    not_kernel = icase(patterns("kernels", "not"))

    negated = re.compile(r"(?i)(?:\bnot?\b|\bwithout\b|\bdisabl\w*|\bturn(?:s|ed)?\s+off)[^.;\n]{0,40}$")

    def stated(hits):
        out = []
        for i, m in hits:
            text = ctx.d.plains[i]
            if glued(text, m.start(), m.end()) or not_kernel.match(text, m.start()):
                continue
            if ctx.d.w.blocks[i].kind in ("paragraph", "list_item", "quote"):
                a, _ = ctx.d.bounds(i, m.start(), m.end())
                sentence = ctx.d.sentence(i, m)
                if capability(sentence) or negated.search(text[a:m.start()]):
                    continue
                if TRAINING.search(sentence) and not INFERENCE.search(sentence):
                    continue  # "all models were trained with FlashAttention-2": the training, not the measured inference
            out.append((i, m))
        return out

    declared = stated(ctx.d.hits(named)) + ctx.d.flag_hits("kernels", when=definite)
    generic_hits = ctx.d.hits(generic)
    partial = [] if declared else stated(generic_hits)  # generic wording counts only when nothing names a kernel
    if not declared and not partial:
        # A kernel library named for the system that ran, outside the runs' sections (its install steps, the
        # engine's description): named, but not stated for the measured runs.
        partial = [(i, m) for i, m in stated(ctx.d.hits(named, scope="any")) if ctx.d.scopes[i] != "links"]
    if declared:
        uncovered = engines_without(ctx, declared)
        if uncovered:
            return TextFinding("kernels", "partial",
                               f"{cite(ctx, declared, 1)} is named for some engines only; none for {cite(ctx, uncovered, 2)}",
                               ctx.d.evidence(declared + uncovered))
    return status_of(ctx, "kernels", declared, partial, "attention or GEMM kernel",
                     "kernels / attention backend named", "kernels mentioned only generically")


def engines_without(ctx, hits) -> list:
    """When the runs compare several engines, the first mention of each engine that no statement in ``hits`` is
    about. A statement is about the engines its sentence names, or the engine of the command it sits in
    ('--disable-radix-cache' in a 'sglang.launch_server' command); a statement naming no engine, or 'all'/'both',
    covers every engine."""
    engines: dict[str, tuple] = {}
    for i, m in engine_mentions(ctx):
        engines.setdefault(engine_key(m.group(0)), (i, m))
    if len(engines) < 2:
        return []
    covered: set[str] = set()
    for i, m in hits:
        command = ([c for c in ctx.d.commands if c.block == i and c.start <= m.start()] or [None])[-1]
        command = command if command is not None and command.engine else None
        sentence = ctx.d.line_text(i, m.start())
        named = {engine_key(command.engine)} if command else {engine_key(x.group(0)) for x in ENGINE_RX.finditer(sentence)}
        if not named or not command and re.search(r"(?i)\b(?:all|both|every|each)\b|所有|全部|两者", sentence):
            return []
        covered |= named
    return [hit for key, hit in engines.items() if key not in covered]


@run_setting
def gpu_counts(ctx):
    """(count, sku, block, match) for every GPU mention with a count."""
    out = []
    # The count must be a word of its own: "NVIDIA H100" is not "a H100".
    # "an H100 node", "a single A100 server" hold several GPUs: the count is of the machines
    count_before = icase(r"(?<![A-Za-z0-9_.-])(\d+|one|two|four|eight|sixteen|single|an?|my)\s*(?:[x×]\s*|\s+|-GPU\s+)(?:nvidia\s+|amd\s+)?(" + GPU + r")"
                         r"(?![\w-]*\s+(?:nodes?|servers?|clusters?|machines?|systems?|instances?|hosts?|pods?|racks?)\b)")
    # Chinese and Japanese counters: "两张A100", "8卡 H800", "单卡 A800", "A100 80G x 2"
    cjk = icase(r"(\d+|[一二两三四五六七八十]+|单)\s*(?:张|块|台|个|卡|枚|基)\s*(?:的\s*)?(?:nvidia\s+|amd\s+)?(" + GPU + r")(?![A-Za-z0-9_])")
    cjk_words = {"一": 1, "单": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "十": 10}
    index_range = icase(r"\bGPUs?\s+(\d+)\s*-\s*(\d+)\s*:\s*(?:nvidia\s+|amd\s+)?(" + GPU + r")")
    count_after = icase(r"(" + GPU + r")[\w-]*(?:\s+\d+\s*GB)?\s*\(?\s*[x×*]\s*(\d+)\b")  # "A100-80G(x8)", "H20-96GB * 1" too
    gpus_n = icase(r"\b(\d+)\s+(?:(" + GPU + r")\s+)?(?:GPUs|accelerators|devices)\b|across\s+(\d+)\s+(" + GPU + r")")
    # nodes times GPUs per node: "2x8xH200", "2 x 8 x H100" (the GPUs of a multi-node setup)
    nodes_by_gpus = icase(r"(?<![\w.])(\d+)\s*[x×]\s*(\d+)\s*[x×]\s*(?:nvidia\s+|amd\s+)?(" + GPU + r")")
    words = {"one": 1, "two": 2, "four": 4, "eight": 8, "sixteen": 16, "single": 1, "a": 1, "an": 1, "my": 1}
    for i, m in ctx.d.hits(nodes_by_gpus):
        out.append((int(m.group(1)) * int(m.group(2)), m.group(3).upper().replace(" ", ""), i, m))
    for i, m in ctx.d.hits(count_before):
        n = words.get(m.group(1).lower()) or (int(m.group(1)) if m.group(1).isdigit() else None)
        if n:
            out.append((n, m.group(2).upper().replace(" ", ""), i, m))
    for i, m in ctx.d.hits(cjk):
        n = int(m.group(1)) if m.group(1).isdigit() else cjk_words.get(m.group(1))
        if n:
            out.append((n, m.group(2).upper().replace(" ", ""), i, m))
    for i, m in ctx.d.hits(index_range):  # collect_env / nvidia-smi style "GPU 0-1: NVIDIA H100"
        a, b = int(m.group(1)), int(m.group(2))
        if b >= a:
            out.append((b - a + 1, m.group(3).upper().replace(" ", ""), i, m))
    for i, m in ctx.d.hits(count_after):
        out.append((int(m.group(2)), m.group(1).upper().replace(" ", ""), i, m))
    for i, m in ctx.d.hits(gpus_n):
        n = int(m.group(1) or m.group(3))
        sku = (m.group(2) or m.group(4) or "").upper().replace(" ", "")
        out.append((n, sku, i, m))
    return out


# A bare "GPU" counts only when it speaks of the machine the runs used ("8 GPUs", "a GPU server", "GPU: ...", "Hopper
# GPU"), not in prose about how GPUs work ("GPU compute efficiency", "move the model to the GPU device").
_GPU_BEFORE = re.compile(r"(?i)(?:\b(?:\d+|a|an|one|two|four|eight|single|multiple|several|our|same|consumer|datacenter|data-center|"
                         r"hopper|ampere|blackwell|ada|volta|turing|cdna\d?)\s+(?:\w+\s+)?|\bon\s+(?:a\s+|the\s+)?)$")
_GPU_AFTER = re.compile(r"(?i)s?\s*[:：]|s?\s+(?:server|node|machine|instance|cluster|box|type|model)s?\b")


_CPU = icase(r"(?<![\w-])(?:(?:Intel|AMD|AWS|Arm|Huawei)\s+)?(?:" + patterns("processors_and_devices", "cpus") + r")(?![\w-])")
_CORES = icase(vocabulary_entry("processors_and_devices", "core_count"))
_MACHINES = icase(r"(?:" + patterns("processors_and_devices", "instances") + r")|(?<![\w-])(?:" + patterns("processors_and_devices", "devices")
                  + r")(?![\w-])(?!s\b)")


def _processors(ctx) -> tuple[list, list, list]:
    """Cloud machine types and devices named by model, CPUs named with a core count (both declare hardware:
    LABELLING.md clarifications after batches 3 and 4), and CPUs named without a count (partial)."""
    counted, named = [], []
    for i, m in ctx.d.hits(_CPU):
        a, b = ctx.d.bounds(i, m.start(), m.end())
        (counted if _CORES.search(ctx.d.plains[i], a, b) else named).append((i, m))
    return list(ctx.d.hits(_MACHINES)), counted, named


# Devices one person owns one of: desktop cards, Apple silicon, a named phone or laptop chip.
_PERSONAL = re.compile(r"(?i)(?:NVIDIA\s+)?(?:GeForce\s+)?RTX[\s-]?[2345]0[5-9]0(?:\s?Ti)?|(?:Apple\s+)?M[1-5](?:[\s-](?:Max|Ultra|Pro))?|"
                       r"[2345]0[5-9]0(?:\s?Ti)?|(?:AMD\s+)?Ryzen[\s-]?(?:\d\s+)?\w+")


def hardware(ctx) -> TextFinding:
    counted = gpu_counts(ctx)
    instance = icase(r"\b(?:p4de?|p5e?n?|g5|g6e?|p3|trn1|inf2)\.\d*x?large\b|\ba[23]-\w+-\d+g\b|Standard_ND\w+|\bDGX\s+[A-Z]\d+|"
                     r"Mac\s+(?:Studio|Pro|mini|Book\s+\w+)\s+M[1-4]|\bM[1-4]\s+(?:Max|Ultra)\b|v\d[ep]?-\d+\b")
    declared = [(i, m) for _, _, i, m in counted] + list(ctx.d.hits(instance))
    declared += list(ctx.d.hits(icase(r"\b\d+\s*[x×]\s*(?:[A-Z][\w-]*\s+){1,3}(?:accelerators?|GPUs?|chips?|NPUs?)\b")))
    # One accelerator named in the singular declares a count of one (LABELLING.md): "GPU: A6000", "A100 single GPU",
    # "one GPU - RTX 5880", "on a 3090"; a plural or a bare "measured on H200" does not.
    # "GPU: A6000", "GPU 1: RTX 4050", "硬件：A100 80G", "Hardware: NVIDIA RTX 4090 24GB / A100 80GB" (one table per GPU)
    singular = icase(r"(?:\b(?:GPU|accelerator|device|card|hardware|NPU)(?:\s*\d)?|硬件|显卡)\s*[:：]\s*(?:NVIDIA\s+|AMD\s+)?(?:" + GPU + r")\b"
                     r"(?![^\n,;]{0,30}?(?:\bx\s*\d|GPUs|cards|\d\s*[x×*]))|"
                     r"(?:" + GPU + r")[\w-]*\s+(?:\w+\s+)?single[- ](?:GPU|card)|\bsingle[- ](?:GPU|card)\s*[:(,-]?\s*(?:NVIDIA\s+)?(?:" + GPU + r")|"
                     # "on my M3-Max 64GB", "an RTX-4080": one device, unless it names a node or a machine of several
                     r"\b(?:my|an?|one)\s+(?:NVIDIA\s+|AMD\s+|Apple\s+)?(?:GeForce\s+)?(?:" + GPU + r")(?:[\s-]+\d+\s*G[Bi]?B?)?\b"
                     r"(?!\s*(?:nodes?|servers?|clusters?|machines?|systems?|instances?|box(?:es)?|pods?|GPUs|cards|chips|racks?|hosts?|HGX|DGX)\b)|"
                     r"\bone\s+(?:GPU|card)\s*[-–:(]\s*(?:NVIDIA\s+)?(?:" + GPU + r")|"
                     r"\bon\s+(?:an?\s+)?(?:NVIDIA\s+)?(?:GeForce\s+)?(?:RTX\s*)?[2345]0[5-9]0(?:\s?Ti)?\b(?!\s*(?:s\b|GPUs|cards))|"
                     # "Tested on NVIDIA A100 40GB GPU": the noun in the singular after the model
                     r"\b(?:on|using)\s+(?:an?\s+|one\s+|the\s+)?(?:NVIDIA\s+|AMD\s+)?(?:" + GPU + r")(?:[\s-]+(?:SXM\d?|PCIe|\d+\s*G[Bi]?B?))*\s+GPU\b(?!s)")
    declared += list(ctx.d.hits(singular))
    skus = list(ctx.d.hits(GPU_RX))
    machines, cpus_counted, cpus_named = _processors(ctx)
    declared += machines
    if not skus:  # a CPU run; beside a named GPU, the GPU's count is what the item asks for
        declared += cpus_counted
    skus += cpus_named
    if not declared and skus:
        # A named SKU with a tensor-parallel degree ("H100 SXM GPUs ... with TP4") gives the count.
        tp = ctx.d.first(TP_RX)
        if tp:
            declared = [skus[0], tp]
    # "--gpu-memory-utilization", "llama3-8b-accelerator": the word inside a flag or a name says nothing of the hardware
    def machine(i: int, m) -> bool:
        text = ctx.d.plains[i]
        if m.group(0).lower().startswith("gpu"):
            return bool(_GPU_BEFORE.search(text[max(0, m.start() - 40):m.start()]) or _GPU_AFTER.match(text, m.end()))
        return True

    # (the vaguer statements are looked up here, and read only when nothing declares the hardware: status_of
    # reads them only then)
    words = ctx.d.hits(icase(r"\bGPUs?\b|accelerators?|\bhardware\b|cloud\s+instance"))
    # A GPU count without the accelerator model ('1GPU, Llama 7B', '2 节点, TP16'): LABELLING.md '8 GPUs' is partial.
    bare_counts, degrees = ctx.d.hits(icase(r"(?<![\w.])\d+\s*GPUs?\b")), ctx.d.hits(TP_RX)
    if not declared and skus:
        # The accelerator named, and the count given apart in the singular: "the same single-GPU node" (each
        # setup ran on one GPU, whichever model it was).
        single = ctx.d.first(icase(r"\bsingle[- ]GPU\b|\bone\s+GPU\b|\b1\s*[x×]?\s*GPU\b|\bsingle\s+(?:accelerator|card)\b|单卡|单\s*GPU"))
        if single:
            declared = [skus[0], single]
    if not declared and skus and all(_PERSONAL.fullmatch(ctx.d.plains[i][m.start():m.end()].strip()) for i, m in skus) \
            and not ctx.d.first(icase(r"\bGPUs\b|\bcards\b|(?<![\w.])\d+\s*(?:×|(?-i:x)\s*(?=\d|[A-Z]))|多卡|\d+\s*(?:张|块|卡)")):
        # a desktop card, a laptop chip or a phone named with no count and nothing plural: one device (LABELLING.md,
        # batches 2 and 4: a computer named by model in the singular declares hardware)
        declared = skus[:1]
    partial = [] if declared else (skus + [(i, m) for i, m in words if not glued(ctx.d.plains[i], m.start(), m.end()) and machine(i, m)]
                                   + list(bare_counts) + list(degrees))
    finding = status_of(ctx, "hardware", declared, partial, "accelerator SKU and count",
                        "accelerator SKU and count stated", "hardware named without SKU or count")
    conflict = gpu_conflict(ctx)
    if conflict and finding.status == "declared" and not compares(ctx):
        finding.status = "partial"
        finding.why = "GPU counts disagree: " + conflict[0]
        finding.evidence = conflict[1]
    elif finding.status == "declared":
        # Declared for every measured setup, or partial (LABELLING.md "Several setups"): a result whose section
        # states no accelerator count, while others do.
        # One accelerator model and one count in the whole write-up ("Hardware: 8x B300, single node" above tables
        # and prose alike): a reviewer reads it as the machine of every result, stated once (batches 3, 8, 9, 11)
        if len({re.sub(r"[\s-]", "", ctx.d.plains[i][m.start():m.end()]).upper() for i, m in skus}) == 1 \
                and len({n for n, *_ in counted}) <= 1:
            return finding
        return partial_where_uncovered(ctx, "hardware", declared, "accelerator and count stated") or finding
    return finding


def setup_units(ctx) -> list[tuple[int, str, str]]:
    """(line, text, heading above) of the headings, prose and table rows about the measured runs."""
    units = []
    for i, block in enumerate(ctx.d.w.blocks):
        if not ctx.d.in_view(i, 0, "run") or block.kind == "code":
            continue
        heading = "" if block.section == "(top)" else block.section
        if block.kind == "table":
            for k, row in enumerate(ctx.d.plains[i].split("\n")):
                if k != 1 and row.strip():
                    units.append((block.first_line + k, row, heading))
        else:
            units.append((block.first_line, ctx.d.plains[i], "" if block.kind == "heading" else heading))
    return units


def setups(ctx) -> list[SetupMention]:
    """The measured setups (reading.setups), found once."""
    if "setups" not in ctx.cache:
        ctx.cache["setups"] = find_setups(setup_units(ctx))
    return ctx.cache["setups"]


def setup_counts(ctx) -> dict[str, set[int]]:
    """Per accelerator, the counts that belong to setups with different models."""
    by_hw: dict[str, dict[str, set[int]]] = {}
    for s in setups(ctx):
        if s.count:
            by_hw.setdefault(s.hardware, {}).setdefault(s.model, set()).add(s.count)
    out: dict[str, set[int]] = {}
    for hw, models in by_hw.items():
        if len(models) >= 2:
            out[hw] = {c for counts in models.values() for c in counts}
    return out


def gpu_conflict(ctx) -> tuple[str, list[tuple[int, str]]] | None:
    # counts in running prose only: a table row, a list item or a heading labels one setup of several ("- Single-node
    # 8xH200", "## DeepSeek V3 on 2x8xH200 (multi-node)"), and two setups are no inconsistency
    counted = [(n, sku, i, m) for n, sku, i, m in gpu_counts(ctx) if ctx.d.w.blocks[i].kind == "paragraph"]
    by_sku: dict[str, set[int]] = {}
    ev: dict[str, list] = {}
    for n, sku, i, m in counted:
        key = re.sub(r"^(NVIDIA|AMD)", "", sku) or "GPU"
        by_sku.setdefault(key, set()).add(n)
        ev.setdefault(key, []).append((i, m))
    generic = {n for n, sku, _, _ in counted if not sku}
    per_setup = setup_counts(ctx)
    for key, counts in by_sku.items():
        if key == "GPU":
            continue
        values = counts | generic
        if len(values) > 1 and len(per_setup.get(key, set())) >= len(values):
            continue  # each count belongs to a different model: several setups, not an inconsistency
        if len(values) > 1:
            items = ev[key] + ev.get("GPU", [])
            return (f"{key} count given as {', '.join(str(v) for v in sorted(values))}", ctx.d.evidence(items, 4))
    tp = TP_RX
    counts = {n for n, *_ in counted}
    if counts:
        for i, m in ctx.d.hits(tp):
            t = int(m.group(1) or m.group(2))
            if t > max(counts):
                return (f"tensor parallel size {t} exceeds the {max(counts)} GPUs stated",
                        ctx.d.evidence([(i, m)] + [(c[2], c[3]) for c in counted], 4))
    return None
