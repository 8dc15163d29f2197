"""How a free-text benchmark write-up measures up to the benchmark contract, item by item.

Deterministic pattern families (units, engine flags, Hub model ids, version strings, percentiles,
keywords such as ``ignore_eos`` or ``warm-up``) find the span that declares each contract item and
the figures each metric rule applies to. Values count wherever they are written: prose, tables,
code blocks, launch commands and footnotes. Conventions (DESIGN.md "Benchmark contract"):

- item status: ``declared`` (a specific value), ``partial`` (vague: "latest vLLM", "Llama 70B",
  "about 1k tokens", a bare "we warmed up"), ``missing`` (nothing found; the finding names the
  sections searched), ``not_applicable`` (speculative items without speculation, distinct_prefixes
  without a TTFT or prefill figure);
- rule status: ``violation`` when the text does what the rule forbids, ``unclear`` when the rule
  applies but the text does not say enough to judge it, ``ok`` when it holds, ``not_applicable``
  when the write-up reports nothing the rule is about. The headline is checked like any section.
"""

from __future__ import annotations

import functools
import itertools
import re
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field

from .writeup import Writeup, quote_line

__all__ = ["ITEM_GROUPS", "RULE_IDS", "TextFinding", "judge_writeup"]

ITEM_GROUPS: dict[str, str] = {
    **dict.fromkeys(["model_artifact", "tokenizer", "weight_format", "kv_format", "engine_revision",
                     "launch_command", "kernels", "hardware"], "stack"),
    **dict.fromkeys(["prompt_length", "output_length_requested", "output_length_completed", "request_count",
                     "concurrency", "sampling", "stopping"], "workload"),
    **dict.fromkeys(["prefix_cache_state", "warmup", "distinct_prefixes"], "state"),
    "latency_distributions": "distributions",
    **dict.fromkeys(["spec_draft_tokens", "spec_acceptance", "spec_verification", "spec_rejected_work"], "speculative"),
    **dict.fromkeys(["aggregation_rule", "exclusions"], "aggregation"),
}
RULE_IDS = ["observation_point", "tpot_definition", "throughput_basis", "goodput_slo", "cache_hit_labeling",
            "steady_decode", "capacity_vs_workload", "stack_comparison", "evidence_class"]


@dataclass
class TextFinding:
    """One judged item or rule: status, evidence lines (line, quoted text) and the reason."""

    id: str
    status: str
    why: str
    evidence: list[tuple[int, str]] = field(default_factory=list)


def _rx(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


# ---------------------------------------------------------------- vocabularies
_FAMILIES = (r"llama|qwen|mistral|mixtral|gemma|phi|deepseek|gpt-oss|gpt-j|gpt-neox|falcon|vicuna|granite|olmo|"
             r"nemotron|kimi|chatglm|glm|starcoder|codellama|minicpm|internlm|baichuan|jamba|dbrx|zephyr|bloom|"
             r"smollm|exaone|hunyuan|minimax|grok|command-r|yi")
_ENGINES = (r"vllm|sglang|tensorrt[- ]llm|trt[- ]?llm|tgi|text[- ]generation[- ]inference|llama\.cpp|ollama|exllama(?:v2)?|"
            r"lmdeploy|mlc[- ]llm|deepspeed(?:-mii|-fastgen)?|ctranslate2|triton inference server|openvino|"
            r"mlx(?:-lm)?|aphrodite|lorax|llm-d|dynamo|nvidia nim|\bnim\b|turbomind|fastertransformer|hf transformers|"
            r"hugging ?face transformers")
def _engine_key(name: str) -> str:
    """One spelling per engine: 'TensorRT-LLM', 'trt-llm' and 'TRTLLM' are the same engine."""
    key = re.sub(r"[^a-z0-9.]", "", name.lower())
    aliases = {"trtllm": "tensorrtllm", "textgenerationinference": "tgi", "mlxlm": "mlx",
               "huggingfacetransformers": "hftransformers", "exllamav2": "exllama"}
    return aliases.get(key, key)


_VAGUE_VERSION = re.compile(r"(?i)\b(?:latest|newest|current|recent|nightly|main(?:\s+branch)?|head|tip\s+of)\W{0,3}(?:\w+\W{1,3}){0,1}$")


def _vague_version(text: str, start: int) -> bool:
    """True when the words just before an engine name leave its version open ('the latest vLLM')."""
    return bool(_VAGUE_VERSION.search(text[max(0, start - 30):start]))


_VERSION = r"v?\d+\.\d+(?:\.\d+)?(?:[.-]?(?:post|rc|dev|a|b)\d+)?(?:\+\w+)?|\bb\d{3,5}\b|[0-9a-f]{7,40}\b"
_GPU = (r"(?:nvidia\s+|amd\s+|instinct\s+)?(?:[HAB]\d{2,3}[A-Z]?|GB[23]00|GH200|H20|L40S?|L4|T4|V100|A10G?|A30|A40|"
        r"RTX\s?\d{4}(?:\s?Ti)?|RTX\s?(?:A|PRO\s?)\d{4}|GeForce\s+\w+\s?\d{4}|(?:(?<=my\s)|(?<=single\s)|(?<=one\s)|(?<=a\s))[2345]0[5-9]0(?:\s?Ti)?|[2345]0[5-9]0\s?Ti|P40|P100|K80|A[2-6]000|W7900|7900\s?XTX|MI\d{3}[XA]?|Gaudi\s?\d?|TPU\s?v\d\w*|Trainium\d?|"
        r"Inferentia\d?|(?:Apple\s+)?M[1-4]\s(?:Max|Ultra|Pro)|Jetson\s\w+)")
_GPU_RX = re.compile(r"(?<![\w/.-])" + _GPU + r"(?![\w])", re.IGNORECASE)
_BENCH_TOOLS = (r"vllm\s+bench\s+\w+|benchmark_serving(?:\.py)?|benchmark_throughput(?:\.py)?|benchmark_latency(?:\.py)?|"
                r"bench_serving|genai-perf|aiperf|guidellm|llmperf|inference-perf|llama-bench|trtllm-bench|"
                r"text-generation-benchmark|locust|\bk6\b|bench_one_batch|bench_offline_throughput|ollama\s+run\s[^\n]*--verbose|"
                r"\bloadgen\b|perf_analyzer")
_FORMATS = (r"\d+(?:\.\d+)?\s?bpw|bf16|bfloat16|fp16|float16|f16|fp32|float32|fp8(?:[_-]?e4m3(?:fn)?|[_-]?e5m2)?|e4m3|int8|int4|w8a8|w4a16|"
            r"w4a8|awq|gptq|nvfp4|mxfp4|fp4|q[2-8]_k(?:_[sml])?|q[458]_[01]|exl2|nf4|bitsandbytes|smoothquant|gguf")
_VAGUE = _rx(r"\b(?:about|around|approx(?:imately|\.)?|roughly|some|circa|nearly|almost|typical(?:ly)?|latest|newest|"
             r"recent|current|nightly|main\s+branch|default|short|long|various|several|many|a\s+few|usually|whatever)\b|~|≈")

_CLIENT_FLAGS = {"num-prompts", "max-concurrency", "request-rate", "dataset-name", "dataset-path", "random-input-len",
                 "random-output-len", "random-range-ratio", "ignore-eos", "seed", "num-warmups", "percentile-metrics",
                 "metric-percentiles", "save-result", "save-detailed", "backend", "endpoint", "base-url", "burstiness",
                 "goodput", "sharegpt-output-len", "sharegpt-input-len", "result-dir", "result-filename", "host", "port",
                 "tokenizer", "model", "input-len", "output-len", "num-requests", "temperature", "top-p", "top-k"}

# ---------------------------------------------------------------- metric figures
_NUM = r"\d[\d,]*(?:\.\d+)?"
_IN_OUT_SHORT = r"\b\d[\d,.]*\s*k?\s*(?:in|input|ISL)\s*/\s*\d[\d,.]*\s*k?\s*(?:out|output|OSL)\b"  # "1k in / 1k out"
_IS = r"\s*(?:[=:]|\s(?:is|was|of|set\s+to|=))?\s*"
_IN_OUT_LABEL = r"\b(?:input|prompt|ISL)\s*/\s*(?:output|OSL)(?:\s+(?:tokens|lengths?))?\s*[:=]\s*\d[\d,.]*\s*k?\s*/\s*\d"  # "Input / output: 1,000 / 1,000"  # between a setting and its value: "max_tokens=20", "max_tokens is 20"
_DIGIT = re.compile(r"\d")
_TP_RX = re.compile(r"(?:--tensor-parallel-size|--tp(?:-size)?|(?<![\w-])-tp|tensor[- ]parallel(?:ism)?(?:\s+size)?(?:\s+of)?)[\s=]*(\d+)|"
                    r"\bTP\s*=?\s*(\d+)\b", re.IGNORECASE)
_COLUMN_GAP = re.compile(r"\S {2,}(?=\S)")
_LAT_KW = _rx(r"\bTTFT\b|time[- ]to[- ]first[- ]token|\bTPOT\b|time[- ]per[- ]output[- ]token|\bITL\b|inter[- ]token|"
              r"\bE2EL?\b|end[- ]to[- ]end|\blatency\b|ms\s*/\s*tok|ms\s+per\s+(?:output\s+)?token")
_TTFT_KW = _rx(r"\bTTFT\b|time[- ]to[- ]first[- ]token|first[- ]token\s+latency|prefill\s+(?:throughput|speed|latency|time|rate)|"
               r"prompt\s+processing|prompt\s+eval\w*|\bpp\s?\d{2,}\b")
_TPOT_KW = _rx(r"\bTPOT\b|time[- ]per[- ]output[- ]token|ms\s*/\s*tok(?:en)?\b|ms\s+per\s+(?:output\s+)?token|"
               r"\bITL\b|inter[- ]token\s+latency")
_RATE_UNIT = r"(?:tok(?:en)?s?\s*/\s*s(?:ec)?\b|tokens?\s+per\s+second|\bt/s\b|\btps\b)"
_RATE_FIG = _rx(_NUM + r"\s*(?:k\s*)?(?:(?:output|input|total|generated|prompt|completion|decode|prefill)\s+)?" + _RATE_UNIT + r"|" + _RATE_UNIT)
_REQ_RATE_FIG = _rx(r"req(?:uest)?s?\s*/\s*s\b|requests?\s+per\s+second|\bQPS\b|\bRPS\b")
_GOODPUT = _rx(r"goodput|SLO\s+attainment|requests?\s+(?:meeting|within)\s+(?:the\s+|our\s+)?SLOs?")
_SPEEDUP = _rx(r"\b\d+(?:\.\d+)?\s*[x×]\s+(?:faster|speed-?up|higher\s+throughput|lower\s+latency)|"
                r"speed-?ups?\b[^.\n|]{0,30}?\b\d+(?:\.\d+)?\s*[x×](?![\w])")
# Outputs forced to their full length: ignore_eos set (not set to false), or EOS said to be ignored.
_EOS_IGNORED = _rx(r"ignore[_-]eos(?!\s*[:=]\s*(?:false|0|no)\b)|\bEOS\s+(?:is|was|are|were)\s+ignored|ignor(?:e|es|ed|ing)\s+(?:the\s+)?EOS")


# A line break inside a prose paragraph is a soft wrap (not a sentence end) when the line does not end
# with a colon and the next line continues in lower case without starting a "key: value" record.
_SOFT_WRAP = re.compile(r"(?<![:])\n(?=[ \t]*[a-z0-9(`'\"])(?![ \t]*[\w -]{1,30}:\s)")
_STOPS = re.compile(r"(?<!\d)\.(?!\d)|[!?;\n|]")
# Runs longer than this (word characters, digits, punctuation inside tokens, or blanks) are cut with a
# separator in the scanned copy of a block, so that no pattern can backtrack over a megabyte-long "word"
# (real tokens, Hub ids and hashes are far shorter). Offsets and line numbers are unchanged.
_LONG_RUN = re.compile(r"[\d,.]{25,}|[\w.,:/+\-]{81,}|[ \t]{33,}")
_CUT = "\x7f"
_SENTENCE_REACH = 300


# JSON/YAML configs in code blocks quote keys and list items ('"num_prompts": 1000', '["--kv-cache-dtype", "fp8"]'):
# blanking the quotes (and a comma right after one) lets the same key/flag patterns read them as 'num_prompts: 1000'.
_JSON_QUOTE = re.compile(r'",?')


def _unquote(text: str) -> str:
    return _JSON_QUOTE.sub(lambda m: " " * len(m.group(0)), text)


def _cut_runs(text: str) -> str:
    def cut(m: re.Match[str]) -> str:
        run = m.group(0)
        keep = 32 if run[0] in " \t" else 24 if not run.strip("0123456789,.") else 80
        return re.sub(r"(.{%d})." % keep, lambda x: x.group(1) + _CUT, run, flags=re.S)
    return _LONG_RUN.sub(cut, text)


_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def _required(items) -> tuple[str, ...] | None:
    """Literal strings one of which every match of the parsed sequence ``items`` must contain (or None)."""
    from re import _constants as c

    candidates: list[tuple[str, ...]] = []
    run: list[str] = []
    for op, av in list(items) + [(None, None)]:
        if op is c.LITERAL:
            run.append(chr(av).lower() if av < 128 else chr(av))
            continue
        if run:
            candidates.append(("".join(run),))
            run = []
        found = None
        if op is c.SUBPATTERN:
            found = _required(av[3])
        elif op is c.ATOMIC_GROUP:
            found = _required(av)
        elif op is c.BRANCH:
            alternatives = [_required(x) for x in av[1]]
            if all(alternatives):
                found = tuple(sorted({lit for alt in alternatives for lit in alt}))
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT, c.POSSESSIVE_REPEAT) and av[0] >= 1:
            found = _required(av[2])
        if found:
            candidates.append(found)
    if not candidates:
        return None
    return max(candidates, key=lambda lits: (min(map(len, lits)), -len(lits)))


@functools.cache
def _lowered(pattern: str, flags: int) -> re.Pattern[str]:
    """A case-insensitive pattern as a case-sensitive one for ASCII-lower-cased text (about twice as fast).

    Letters are lower-cased except right after a backslash, so escapes (\\S, \\W, \\D, \\B) keep their meaning.
    """
    out, k = [], 0
    while k < len(pattern):
        if pattern[k] == "\\":
            out.append(pattern[k:k + 2])
            k += 2
        else:
            out.append(pattern[k].translate(_ASCII_LOWER))
            k += 1
    return re.compile("".join(out), flags & ~re.IGNORECASE)


@functools.cache
def _anchors(pattern: str, flags: int) -> tuple[str, ...] | None:
    """Lower-case literals of which every match must contain one, when all are at least 2 characters long.

    A block that contains none of them cannot match, so the (slow, case-insensitive) regex scan is skipped
    for it; the check is a plain substring test. Patterns without such literals are scanned everywhere.
    """
    from re import _parser

    try:
        found = _required(_parser.parse(pattern, flags))
    except Exception:  # noqa: BLE001 - an unparseable pattern just gets no prefilter
        return None
    return found if found and min(map(len, found)) >= 2 else None


class _Doc:
    """A write-up with pattern helpers that return quoted evidence.

    Line and sentence boundaries are looked up by bisection in offsets computed once per block, so the
    cost per match does not grow with the block's length (a 1 MB single-line input stays linear).
    """

    def __init__(self, writeup: Writeup):
        self.w = writeup
        self.plains = [_cut_runs(_unquote(b.plain) if b.kind == "code" else _label_column(b.plain) if b.kind == "table" else b.plain)
                       for b in writeup.blocks]
        self.lowers = [p.translate(_ASCII_LOWER) for p in self.plains]
        self._lower_all = "\n".join(self.lowers)
        self._starts: list[int] = []
        offset = 0
        for low in self.lowers:
            self._starts.append(offset)
            offset += len(low) + 1
        self.all_text = "\n".join(self.plains)
        self._newlines: dict[int, list[int]] = {}
        self._stops: dict[int, tuple[list[int], list[int]]] = {}
        self._hits: dict[tuple[str, int, tuple[str, ...] | None], list[tuple[int, re.Match[str]]]] = {}

    def _nl(self, i: int) -> list[int]:
        if i not in self._newlines:
            self._newlines[i] = [m.start() for m in re.finditer("\n", self.plains[i])]
        return self._newlines[i]

    def line_bounds(self, i: int, start: int, end: int | None = None) -> tuple[int, int]:
        """Start and end offsets of the line(s) of block i holding [start, end)."""
        nl = self._nl(i)
        k = bisect_left(nl, start)
        a = nl[k - 1] + 1 if k else 0
        j = bisect_left(nl, start if end is None else end)
        b = nl[j] if j < len(nl) else len(self.plains[i])
        return a, b

    def line_text(self, i: int, start: int, end: int | None = None) -> str:
        """The line around a match, clipped to a few hundred characters either side (long lines stay linear)."""
        a, b = self.line_bounds(i, start, end)
        return self.plains[i][max(a, start - _SENTENCE_REACH):min(b, (start if end is None else end) + _SENTENCE_REACH)]

    def header(self, i: int) -> str:
        """First line of block i (a table's header row)."""
        nl = self._nl(i)
        return self.plains[i][:nl[0]] if nl else self.plains[i]

    def bounds(self, i: int, start: int, end: int) -> tuple[int, int]:
        """Sentence (or table cell / line) around [start, end) in block i."""
        if i not in self._stops:
            text = self.plains[i]
            prose = self.w.blocks[i].kind in ("paragraph", "list_item", "quote")
            ends = [m.end() for m in _STOPS.finditer(text)
                    if not (prose and m.group(0) == "\n" and _SOFT_WRAP.match(text, m.start()))]
            self._stops[i] = (ends, [e - 1 for e in ends])
        ends, starts = self._stops[i]
        k = bisect_right(ends, start) - 1
        left = ends[k] if k >= 0 else 0
        j = bisect_left(starts, end)
        right = starts[j] if j < len(starts) else len(self.plains[i])
        # A "sentence" longer than this is not prose (a megabyte without a full stop): clip it, so that per-match
        # sentence checks stay linear in the input.
        return max(left, start - _SENTENCE_REACH), min(right, end + _SENTENCE_REACH)

    def _candidates(self, anchors: tuple[str, ...]) -> set[int]:
        """Blocks containing at least one of the anchor literals (str.find, at most one hit per block each)."""
        text, starts, found = self._lower_all, self._starts, set()
        for literal in anchors:
            pos = text.find(literal)
            while pos >= 0:
                b = bisect_right(starts, pos) - 1
                found.add(b)
                if b + 1 >= len(starts):
                    break
                pos = text.find(literal, starts[b + 1])
        return found

    def hits(self, rx: re.Pattern[str], kinds: tuple[str, ...] | None = None):
        """(block index, match) for every match (computed once per pattern)."""
        key = (rx.pattern, rx.flags, kinds)
        if key not in self._hits:
            anchors = _anchors(rx.pattern, rx.flags)
            candidates = self._candidates(anchors) if anchors else None
            texts = self.plains
            if rx.flags & re.IGNORECASE:
                rx, texts = _lowered(rx.pattern, rx.flags), self.lowers
            self._hits[key] = [(i, m) for i, block in enumerate(self.w.blocks)
                               if (kinds is None or block.kind in kinds)
                               and (candidates is None or i in candidates)
                               for m in rx.finditer(texts[i])]
        return iter(self._hits[key])

    def ev(self, i: int, start: int) -> tuple[int, str]:
        block = self.w.blocks[i]
        nl = self._nl(i)
        k = bisect_left(nl, start)
        line = block.first_line + k
        col = start - (nl[k - 1] + 1 if k else 0)
        return line, quote_line(self.w.lines[line - 1], col)

    def sentence(self, i: int, m: re.Match[str]) -> str:
        a, b = self.bounds(i, m.start(), m.end())
        return self.plains[i][a:b]

    def window(self, i: int, m: re.Match[str], before: int = 40, after: int = 20) -> str:
        text = self.plains[i]
        return text[max(0, m.start() - before):m.end() + after]

    def first(self, rx: re.Pattern[str], kinds: tuple[str, ...] | None = None):
        return next(self.hits(rx, kinds), None)

    def evidence(self, found, limit: int = 3) -> list[tuple[int, str]]:
        """Up to ``limit`` distinct (line, quote) pairs from the first matches (at most 64 are looked at:
        thousands of matches on one megabyte-long line would otherwise each quote that line)."""
        out: list[tuple[int, str]] = []
        for i, m in itertools.islice(found, 64):
            e = self.ev(i, m.start())
            if e not in out:
                out.append(e)
            if len(out) >= limit:
                break
        return out


_LABEL_ROW = re.compile(r"^(\s*\|[^|\n]*?\S[^|\n]*)\|", re.M)


def _label_column(table: str) -> str:
    """A table whose top-left header cell is empty keeps labels in its first column: the bar after each
    row label becomes a colon (same length, same offsets), so the row reads as 'label: value | value'."""
    if not re.match(r"\s*\|\s*\|", table):
        return table
    head, sep, body = table.partition("\n")
    return head + sep + _LABEL_ROW.sub(lambda m: m.group(1) + ":", body)


def _vague(text: str) -> bool:
    return bool(_VAGUE.search(text))


class _Judge:
    def __init__(self, doc: _Doc):
        self.d = doc
        self.searched = doc.w.sections()
        self._cache: dict[str, object] = {}

    # -------------------------------------------------------------- helpers
    def _missing(self, item: str, what: str) -> TextFinding:
        return TextFinding(item, "missing", f"no {what} found")

    def _status(self, item: str, declared, partial, what: str, why_decl: str, why_part: str) -> TextFinding:
        if declared:
            return TextFinding(item, "declared", why_decl, self.d.evidence(declared))
        if partial:
            return TextFinding(item, "partial", why_part, self.d.evidence(partial))
        return self._missing(item, what)

    def _split(self, rx: re.Pattern[str], kinds=None, vague_ctx: bool = True):
        """Matches of rx split into specific and vague ones (vague words in the sentence before the value)."""
        specific, vague = [], []
        for i, m in self.d.hits(rx, kinds):
            text = self.d.plains[i]
            a, _ = self.d.bounds(i, m.start(), m.end())
            lead = text[max(a, m.start() - 25):m.end()]
            (vague if vague_ctx and _vague(lead) else specific).append((i, m))
        return specific, vague

    # -------------------------------------------------------------- stack
    def model_artifact(self) -> TextFinding:
        hub = _rx(r"(?<![\w/.:-])[A-Za-z0-9][\w.-]*/[\w.-]*(?:" + _FAMILIES + r"|\d+(?:\.\d+)?[bm]\b)[\w.-]*")
        gguf = _rx(r"[\w.-]+\.gguf\b")
        canon = _rx(r"(?<![\w/.-])(?:meta-)?(?:" + _FAMILIES + r")[\w.]*(?:-[\w.]+)*-(?:\d+(?:\.\d+)?x)?\d+(?:\.\d+)?[bm]"
                    r"(?:-[\w.]+)*(?![\w/])")
        fam = _rx(r"\b(?:" + _FAMILIES + r")[\w.-]*")
        declared = [h for h in self.d.hits(hub) if not h[1].group(0).lower().startswith(("http", "github"))]
        declared += list(self.d.hits(gguf))
        declared += list(self.d.hits(_rx(r"(?<![\w/.-])(?:" + _FAMILIES + r")[\w.]*:[\w.-]*\d[\w.-]*")))
        if not declared:
            declared = [h for h in self.d.hits(canon) if re.search(r"-(?:instruct|chat|base|it|hf|v\d|\w*\d+(?:\.\d+)?[bm])\b",
                                                                    h[1].group(0), re.I) and "-" in h[1].group(0)
                        and re.search(r"(?i)(instruct|chat|base|-it\b|hf|v\d)", h[1].group(0))]
        return self._status("model_artifact", declared, list(self.d.hits(fam)), "model name or Hub id",
                            "exact artifact named (Hub id, file or full checkpoint name)",
                            "only a model family or size is named, not the exact artifact (Hub id + revision)")

    def tokenizer(self) -> TextFinding:
        decl = _rx(r"--tokenizer[\s=]+\S+|tokenizer(?:_id)?\s*[:=]\s*\S+|tokenizer\s*\(\s*\w|"
                   r"(?:model'?s|its|the\s+model'?s)\s+(?:own\s+|bundled\s+|default\s+)?tokenizer|tokeni[sz]er\s+of\s+the\s+model|"
                   r"(?:tiktoken|cl100k|o200k|sentencepiece)|token\s+counts?\s+(?:use|from|by|with)\s+(?:the\s+)?\S+|"
                   r"tokeni[sz]ed\s+with\s+\S+|usage\s+field|"
                   r"(?:counted|measured|computed)\s+(?:with|by|using)\s+(?:the\s+|each\s+)?(?:\S+\s+){0,3}?tokeni[sz]er")
        part = _rx(r"tokeni[sz]\w*")
        declared = [(i, m) for i, m in self.d.hits(decl) if m.group(0).lower() != "usage field"]
        return self._status("tokenizer", declared, list(self.d.hits(part)), "tokenizer statement",
                            "tokenizer identified", "tokenization mentioned but the tokenizer is not identified")

    def _kv_context(self, i: int, m: re.Match[str]) -> bool:
        text = self.d.plains[i]
        a, _ = self.d.bounds(i, m.start(), m.end())
        before = text[max(a, m.start() - 30):m.start()]
        row = text[max(self.d.line_bounds(i, m.start())[0], m.start() - _SENTENCE_REACH):m.start()]
        if "|" in row and re.search(r"\|\s*kv", row, re.I):
            return True
        after = text[m.end():m.end() + 12]
        return bool(re.search(r"\bkv\b|kv[-_ ]cache|cache[-_ ]type|-ctk|-ctv", before, re.I)
                    or re.match(r"\s*(?:kv\b|kv[-_ ]cache)", after, re.I))

    def _formats(self):
        rx = _rx(r"(?<![A-Za-z0-9])(?:" + _FORMATS + r")(?![A-Za-z0-9])")
        weight, kv = [], []
        for i, m in self.d.hits(rx):
            (kv if self._kv_context(i, m) else weight).append((i, m))
        return weight, kv

    def weight_format(self) -> TextFinding:
        weight, _ = self._formats()
        extra = _rx(r"--dtype[\s=]+(?!auto)\w+|--quantization[\s=]+\w+|-(?:fp8|awq|gptq|int4|w4a16|w8a8)\b")
        declared = weight + list(self.d.hits(extra))
        part = _rx(r"quantiz\w*|\b\d-bit\b|--dtype[\s=]+auto|default\s+(?:dtype|precision)")
        partial = [h for h in self.d.hits(part) if not re.search(r"\bno\s+quantiz", self.d.window(*h, 10, 0), re.I)]
        return self._status("weight_format", declared, partial, "weight dtype or quantization",
                            "weight format stated", "quantization mentioned without the format")

    def kv_format(self) -> TextFinding:
        _, kv = self._formats()
        flag = _rx(r"--kv-cache-dtype[\s=]+(\w+)|kv_cache_dtype\s*[=:]\s*[\"']?(\w+)|(?:--cache-type-k|-ctk)\s+\w+")
        declared = list(kv)
        partial = []
        for i, m in self.d.hits(flag):
            value = (m.group(1) or m.group(2) or "").lower()
            (partial if value in ("auto", "") else declared).append((i, m))
        partial += list(self.d.hits(_rx(r"kv[- ]cache\s+(?:quantiz\w*|precision|dtype)|quantiz\w*\s+kv")))
        return self._status("kv_format", declared, partial, "KV-cache dtype",
                            "KV-cache format stated", "KV-cache precision mentioned without a definite format ('auto' or vague)")

    def engine_revision(self) -> TextFinding:
        # The filler between name and version may not cross another engine's name ("vLLM and SGLang 0.4").
        near = _rx(r"\b(?:" + _ENGINES + r")(?:(?:(?!" + _ENGINES + r")[\s(:=,@\w-]){0,14}?(?:version|commit|build|release|tag)?[\s:=(`]*)(?:" + _VERSION + r")"
                   r"(?!\s*(?:bpw|bits?\b|b\b|gb\b|x\b|×|%|tok|t/s|ms\b)|\.[x*]\b|\.\*)")  # 0.8.x is a range, not a pin
        image = _rx(r"\b(?:" + _ENGINES + r")[\w.-]*/[\w.-]+:v?\d[\w.-]*|(?:" + _ENGINES + r")\s*==\s*\d[\w.]*|"
                    r"\b(?:" + _ENGINES + r")[\w.-]*@[0-9a-f]{7,40}")
        declared = []
        for i, m in self.d.hits(near):
            tail = m.group(0)[len(re.match(r"(?i)(?:" + _ENGINES + r")", m.group(0)).group(0)):]
            if re.search(r"(?i)\b(?:" + _FAMILIES + r")\b", tail):
                continue
            declared.append((i, m))
        declared += list(self.d.hits(image))
        declared += list(self.d.hits(re.compile(r"\b[A-Z][\w-]*\s+(?:Runtime|Inference\s+Engine|Serving|Server|SDK)\s+v?\d+\.\d+(?:\.\d+)?\b")))
        if self._engine_mentions():
            declared += list(self.d.hits(_rx(r"\bcommit\s+[0-9a-f]{7,40}\b")))
        if self._engine_mentions():  # the engine ships inside a pinned serving image ("runtime image: kserve/x:v0.14.1")
            declared += list(self.d.hits(_rx(r"\bimages?\b\W{0,4}(?:\w+\W{1,3}){0,2}?[\w.-]+(?:/[\w.-]+)+:v?\d[\w.-]*")))
        name = _rx(r"\b(?:" + _ENGINES + r")\b|our\s+(?:fork|engine|runtime|inference\s+engine)|inference\s+engine")
        partial = [h for h in self.d.hits(name) if not re.match(r"(?i)vllm\s+bench", self.d.plains[h[0]][h[1].start():h[1].start() + 12])]
        if declared:
            # A pin elsewhere does not cover "the latest vLLM": that engine's version is left open.
            loose = [(i, m) for i, m in self._engine_mentions() if _vague_version(self.d.plains[i], m.start())]
            if loose:
                names = ", ".join(sorted({self.d.plains[i][m.start():m.end()] for i, m in loose}))
                return TextFinding("engine_revision", "partial",
                                   f"an engine's version is left open ('latest', 'nightly', ...): {names}",
                                   self.d.evidence(loose + declared))
        return self._status("engine_revision", declared, partial, "engine name with version",
                            "engine version or commit pinned", "engine named without a version, commit or image tag")

    def _engine_mentions(self):
        """Engine names in the text, less the benchmark client ('vllm bench')."""
        engine_rx = _rx(r"\b(?:" + _ENGINES + r")\b")
        return [(i, m) for i, m in self.d.hits(engine_rx)
                if not re.match(r"(?i)vllm\s+bench", self.d.plains[i][m.start():m.start() + 12])]

    def launch_command(self) -> TextFinding:
        cmd = _rx(r"\bvllm\s+serve\s+(?:-|[\w.-]+/|\S+\.\w)|vllm\.entrypoints\.\w+|sglang\.launch_server|trtllm-serve\s+(?:-|[\w.-]+/|\S+\.\w)|"
                  r"text-generation-launcher\s|llama-server\s+-|llama-bench\s+-|llama-cli\s+-|\./main\s+-|lmdeploy\s+serve\s|"
                  r"docker\s+run\b[^\n]*(?:vllm|sglang|text-generation|tensorrt|trtllm|tgi|lmsysorg|nvcr)|ollama\s+(?:run|serve)\s|"
                  r"mlx_lm\.(?:server|generate)|vllm\s+bench\s+(?:throughput|latency)\s+-|benchmark_(?:throughput|latency)\.py\s+-|"
                  r"trtllm-bench\s|trtllm-build\s|tritonserver\s|sglang\.bench_(?:one_batch|offline_throughput)|LLM\(\s*model\s*=")
        declared = list(self.d.hits(cmd))
        # A structured config's argument list (Kubernetes 'args:', a CI job's "server_args": [...]).
        declared += self.d.hits(_rx(r"\b(?:server_|engine_|extra_|container_)?args\s*:\s*\[?\s*(?:-\s+)?--[a-z]"), kinds=("code",))
        # Any other entry point started with its model flag ('python -m medusa... --model-path ...'), less benchmark clients.
        entry = _rx(r"(?m)^\s*(?:python3?|torchrun|accelerate\s+launch|deepspeed)\s+(?:-m\s+)?(\S+)[^\n]*(?:\\\n[^\n]*)*?"
                    r"--model(?:[-_](?:path|id|name))?[\s=]")
        declared += [(i, m) for i, m in self.d.hits(entry, kinds=("code",)) if not re.search(_BENCH_TOOLS, m.group(1), re.I)]
        flag_rx = _rx(r"(?<![\w-])--([a-z][\w-]+)")
        partial = [(i, m) for i, m in self.d.hits(flag_rx) if m.group(1).lower() not in _CLIENT_FLAGS]
        partial += list(self.d.hits(_rx(r"default\s+(?:settings|flags|arguments|args|config\w*)|\btrtllm-serve\b|\bvllm\s+serve\b|"
                                       r"max(?:imum)?\s+batch(?:\s+size)?\s+\d|max(?:imum)?\s+context|gpu[- ]memory[- ]utili[sz]ation|"
                                       r"max[-_ ]num[-_ ]seqs|chunked[- ]prefill\s+(?:on|off|enabled|disabled)|"
                                       r"\bTP\s*=?\s*\d+\b|tensor[- ]parallel(?:ism|\s+size)?\s*(?:of\s+)?\d")))
        return self._status("launch_command", declared, partial, "server launch command",
                            "launch command given", "engine settings mentioned but no complete launch command")

    def kernels(self) -> TextFinding:
        decl = _rx(r"flash[-\s]?attention(?:[-\s]?[234])?|\bFA[234]\b|flashinfer|flashmla|xformers|\btriton\b|cutlass|"
                   r"\bmarlin\b|machete|cublas(?:lt)?|\baiter\b|composable[- ]kernel|VLLM_ATTENTION_BACKEND|attention[- _]backend|"
                   r"-fa\s+1\b|flash_attn|deep_?gemm|"
                   r"trtllm-gen|TORCH_SDPA|\bsdpa\b|exllama\s+kernels?|bitblas|fbgemm|\bhipblas")
        part = _rx(r"\bkernels?\b|cuda\s+graphs?|torch\.compile|enforce[-_]eager|\bfused\b|\b(?:metal|cuda|rocm|vulkan|sycl|cpu)\s+backend")
        return self._status("kernels", list(self.d.hits(decl)), list(self.d.hits(part)), "attention or GEMM kernel",
                            "kernels / attention backend named", "kernels mentioned only generically")

    def _gpu_counts(self):
        """(count, sku, block, match) for every GPU mention with a count."""
        out = []
        # The count must be a word of its own: "NVIDIA H100" is not "a H100".
        count_before = _rx(r"(?<![\w.-])(\d+|one|two|four|eight|sixteen|single|an?|my)\s*(?:[x×]\s*|\s+|-GPU\s+)(?:nvidia\s+|amd\s+)?(" + _GPU + r")")
        index_range = _rx(r"\bGPUs?\s+(\d+)\s*-\s*(\d+)\s*:\s*(?:nvidia\s+|amd\s+)?(" + _GPU + r")")
        count_after = _rx(r"(" + _GPU + r")[\w-]*(?:\s+\d+\s*GB)?\s*[x×]\s*(\d+)\b")
        gpus_n = _rx(r"\b(\d+)\s+(?:(" + _GPU + r")\s+)?(?:GPUs|accelerators|devices)\b|across\s+(\d+)\s+(" + _GPU + r")")
        words = {"one": 1, "two": 2, "four": 4, "eight": 8, "sixteen": 16, "single": 1, "a": 1, "an": 1, "my": 1}
        for i, m in self.d.hits(count_before):
            n = words.get(m.group(1).lower()) or (int(m.group(1)) if m.group(1).isdigit() else None)
            if n:
                out.append((n, m.group(2).upper().replace(" ", ""), i, m))
        for i, m in self.d.hits(index_range):  # collect_env / nvidia-smi style "GPU 0-1: NVIDIA H100"
            a, b = int(m.group(1)), int(m.group(2))
            if b >= a:
                out.append((b - a + 1, m.group(3).upper().replace(" ", ""), i, m))
        for i, m in self.d.hits(count_after):
            out.append((int(m.group(2)), m.group(1).upper().replace(" ", ""), i, m))
        for i, m in self.d.hits(gpus_n):
            n = int(m.group(1) or m.group(3))
            sku = (m.group(2) or m.group(4) or "").upper().replace(" ", "")
            out.append((n, sku, i, m))
        return out

    def hardware(self) -> TextFinding:
        counted = self._gpu_counts()
        instance = _rx(r"\b(?:p4de?|p5e?n?|g5|g6e?|p3|trn1|inf2)\.\d*x?large\b|\ba[23]-\w+-\d+g\b|Standard_ND\w+|\bDGX\s+[A-Z]\d+|"
                       r"Mac\s+(?:Studio|Pro|mini|Book\s+\w+)\s+M[1-4]|\bM[1-4]\s+(?:Max|Ultra)\b|v\d[ep]?-\d+\b")
        declared = [(i, m) for _, _, i, m in counted] + list(self.d.hits(instance))
        declared += list(self.d.hits(_rx(r"\b\d+\s*[x×]\s*(?:[A-Z][\w-]*\s+){1,3}(?:accelerators?|GPUs?|chips?|NPUs?)\b")))
        skus = list(self.d.hits(_GPU_RX))
        if not declared and skus:
            # A named SKU with a tensor-parallel degree ("H100 SXM GPUs ... with TP4") gives the count.
            tp = self.d.first(_TP_RX)
            if tp:
                declared = [skus[0], tp]
        partial = skus + list(self.d.hits(_rx(r"\bGPUs?\b|accelerators?|\bhardware\b|cloud\s+instance")))
        finding = self._status("hardware", declared, partial, "accelerator SKU and count",
                               "accelerator SKU and count stated", "hardware named without SKU or count")
        conflict = self.gpu_conflict()
        if conflict and finding.status == "declared" and not self._comparison():
            finding.status = "partial"
            finding.why = "GPU counts disagree: " + conflict[0]
            finding.evidence = conflict[1]
        return finding

    def gpu_conflict(self) -> tuple[str, list[tuple[int, str]]] | None:
        counted = [(n, sku, i, m) for n, sku, i, m in self._gpu_counts() if self.d.w.blocks[i].kind != "table"]
        by_sku: dict[str, set[int]] = {}
        ev: dict[str, list] = {}
        for n, sku, i, m in counted:
            key = re.sub(r"^(NVIDIA|AMD)", "", sku) or "GPU"
            by_sku.setdefault(key, set()).add(n)
            ev.setdefault(key, []).append((i, m))
        generic = {n for n, sku, _, _ in counted if not sku}
        for key, counts in by_sku.items():
            if key == "GPU":
                continue
            values = counts | generic
            if len(values) > 1:
                items = ev[key] + ev.get("GPU", [])
                return (f"{key} count given as {', '.join(str(v) for v in sorted(values))}", self.d.evidence(items, 4))
        tp = _TP_RX
        counts = {n for n, *_ in counted}
        if counts:
            for i, m in self.d.hits(tp):
                t = int(m.group(1) or m.group(2))
                if t > max(counts):
                    return (f"tensor parallel size {t} exceeds the {max(counts)} GPUs stated",
                            self.d.evidence([(i, m)] + [(c[2], c[3]) for c in counted], 4))
        return None

    # -------------------------------------------------------------- workload
    def _token_spans(self):
        """Classify every 'N tokens' span as prompt/output(requested|completed) with vagueness."""
        if "spans" in self._cache:
            return self._cache["spans"]
        rx = _rx(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*(k\b)?\s*(?:-\s*|\s+)?(?:(?:random|synthetic|fixed|unique|distinct|uniform)\s+)?(input\s+|prompt\s+|output\s+|new\s+|generated\s+|completion\s+)?"
                 r"(?:tokens?|tok)\b(?!\s*/\s*s|\s+per\s+s|/)(?:\s*-?\s*(prompts?|inputs?|system\s+prompts?|context|outputs?|responses?|completions?|repl(?:y|ies)))?")
        # "Prompt tokens: min 612, mean 3,940" and "completed output tokens (from usage): median 251" state a
        # distribution: a statistic word after the separator makes an output length a completed one.
        kv = _rx(r"(total|mean|median|average|avg|completed|actual|observed)?\s*(input|prompt|output|generated|completion)\s+(?:tokens?|lens?|lengths?)"
                 r"\s*(?:\([^)\n]{0,40}\))?\s*[:=|]\s*(?:(min|mean|median|average|avg|p\d{1,2})\s*[:=]?\s*)?(\d[\d,]*)")
        prompt_words = re.compile(r"prompt|input|\bisl\b|system|context|prefill|\bpp\d", re.I)
        out_words = re.compile(r"output|completion|complete[sd]\b|generat|\bnew\b|response|repl(?:y|ies)|\bosl\b|decode|\btg\d|answer|"
                               r"(?<!prompt\s)\beval\s+count|\bwr[io]te\b|\bwritten\b", re.I)
        done_words = re.compile(r"complet|generated|produced|actual|observed|\bmean\b|median|average|\bavg\b|\bp\d\d?\b|checked|verified|"
                                r"(?:all|every)\s+(?:outputs?|completions?|responses?|requests?)\s+(?:are|were|is|was|had|have)\b|eval\s+count|\bwr[io]te\b", re.I)
        cap_words = re.compile(r"\bmax|capped|\bcap\b|limit|up\s+to|budget|at\s+most|fewer\s+than|less\s+than|under\b|below|[<≤]", re.I)
        spans = []
        for i, m in self.d.hits(rx):
            text = self.d.plains[i]
            a, b = self.d.bounds(i, m.start(), m.end())
            label = (m.group(3) or "") + " " + (m.group(4) or "")
            before = text[max(a, m.start() - 45):m.start()]
            after = text[m.end():min(b, m.end() + 16)]
            if re.search(r"(?:shorter|longer)\s+than\s*$", before, re.I):
                continue
            kind = None
            if prompt_words.search(label):
                kind = "prompt"
            elif out_words.search(label):
                kind = "output"
            else:
                best = None
                for w, k in ((prompt_words, "prompt"), (out_words, "output")):
                    for mm in w.finditer(before):
                        if best is None or mm.start() > best[0]:
                            best = (mm.start(), k)
                kind = best[1] if best else None
            if kind is None:
                continue
            value = float(m.group(1).replace(",", "")) * (1000 if m.group(2) else 1)
            ctx = before + m.group(0) + after
            sub = None
            if kind == "output":
                sub = "completed" if done_words.search(before[-40:] + " " + after) or "generated" in label.lower() else "requested"
            spans.append({"kind": kind, "sub": sub, "value": value, "vague": _vague(before[-20:] + m.group(0)),
                          "cap": bool(cap_words.search(before[-30:])), "hit": (i, m), "ctx": ctx,
                          "capacity": self._capacity_sentence(text[a:b])})
        for i, m in self.d.hits(kv):
            kind = "prompt" if m.group(2).lower() in ("input", "prompt") else "output"
            sub = None
            if kind == "output":
                sub = "completed" if (m.group(1) or m.group(3) or m.group(2).lower() in ("generated", "completion")) else "requested"
            value = m.group(4)
            if (m.group(3) or "").lower() == "min":
                # A distribution opening with its minimum: the typical length is the median or mean that follows.
                mid = re.search(r"\b(?:median|mean|average|avg)\s*[:=]?\s*(\d[\d,]*)", self.d.plains[i][m.end():m.end() + 60], re.I)
                value = mid.group(1) if mid else value
            spans.append({"kind": kind, "sub": sub, "value": float(value.replace(",", "")), "vague": False,
                          "cap": False, "hit": (i, m), "ctx": m.group(0), "total": (m.group(1) or "").lower() == "total"})
        self._cache["spans"] = spans
        return spans

    _IN_OUT = r"\d[\d,]*\s*k?\s*(?:input|prompt)\s+(?:tokens\s+)?(?:and|/|,|with)\s+\d[\d,]*\s*k?\s*output\s+tokens"

    def prompt_length(self) -> TextFinding:
        flags = _rx(r"(?:--random-input-len|--input-len|--sharegpt-input-len|--isl|random_input_len|input_len|--prompt-len|"
                    r"(?<![\w-])-p)\s*[=: ]\s*\d+(?![\d:])|" + self._IN_OUT + r"|" + _IN_OUT_SHORT + r"|" + _IN_OUT_LABEL + r"|\bISL\b\s*[=:/]?\s*\d|\bpp\d{2,}\b|\b\d+(?:\.\d+)?k?\s*/\s*\d+(?:\.\d+)?k?\s+(?:ISL|in/out|input/output)")
        # A bound ("fewer than 4,096 prompt tokens", "up to 8k") is not a length; a context size in a
        # capacity statement ("serves 50 users with full 128k-token contexts") is not the workload.
        spans = [s for s in self._token_spans() if s["kind"] == "prompt" and not s.get("capacity")]
        declared = list(self.d.hits(flags)) + [s["hit"] for s in spans if not (s["vague"] or s["cap"])]
        lengths = _rx(r"(?:context|prompt|input)\s+(?:lengths?|sizes?)\W{0,4}\d+(?:\.\d+)?\s*k\b")
        declared += [h for h in self.d.hits(lengths) if not self._capacity_sentence(self.d.sentence(*h))]
        partial = [s["hit"] for s in spans if s["vague"] or s["cap"]]
        partial += list(self.d.hits(_rx(r"\bISL\b\s*[=:]?\s*(?:~|≈|about|around|roughly)\s*\d")))
        partial += list(self.d.hits(_rx(r"\b(?!(?:the|a|an|this|that|our|their|same|whole|full|random|synthetic|calibration|test|eval|"
                                        r"public|private|custom|internal|new|entire)\b)[a-z][\w-]*\s+dataset\b|"
                                        r"sharegpt|mt-bench|alpaca|lmsys-chat|longbench|sonnet\s+dataset|--dataset-name|"
                                        r"production\s+trace|synthetic\s+prompts|random\s+(?:dataset|prompts)|(?:short|long)\s+(?:prompts|chats|conversations|contexts|inputs)")))
        return self._status("prompt_length", declared, partial, "prompt length in tokens",
                            "prompt length stated in tokens", "prompt length vague or only the dataset is named")

    def output_length_requested(self) -> TextFinding:
        flags = _rx(r"(?:--random-output-len|--output-len|--sharegpt-output-len|--osl|max_tokens|max_new_tokens|max-tokens|"
                    r"max-new-tokens|--max-tokens|output_len|random_output_len|num_predict)" + _IS + r"\d+|(?<![\w-])-n\s*[=: ]\s*\d+|\bOSL\b\s*[=:/]?\s*\d|"
                    r"\btg\d{2,}\b|\b\d+(?:\.\d+)?k?\s*/\s*\d+(?:\.\d+)?k?\s+(?:ISL|in/out|input/output)|" + self._IN_OUT + r"|" + _IN_OUT_SHORT + r"|" + _IN_OUT_LABEL)
        spans = [s for s in self._token_spans() if s["kind"] == "output" and s["sub"] == "requested"]
        capped = _rx(r"(?:output|generation|completion|response|answer)\s+(?:length|len)s?\b[^.\n]{0,60}?"
                     r"(?:capped|limited|max(?:imum)?|at\s+most|up\s+to)\b[^.\n]{0,40}?\d[\d,]*")
        declared = list(self.d.hits(flags)) + list(self.d.hits(capped)) + [s["hit"] for s in spans if not s["vague"]]
        partial = [s["hit"] for s in spans if s["vague"]]
        partial += list(self.d.hits(_rx(r"(?:short|long)\s+(?:outputs|replies|responses|completions)|\bOSL\b\s*[=:]?\s*(?:~|≈|about|around|roughly)\s*\d")))
        if not declared and self.d.first(_EOS_IGNORED):
            # Outputs forced past EOS run to the requested length, so a stated completed length states it too.
            declared = [s["hit"] for s in self._token_spans() if s["sub"] == "completed" and not s["vague"]]
            if declared:
                declared.append(self.d.first(_EOS_IGNORED))
        return self._status("output_length_requested", declared, partial, "requested output length (max_tokens)",
                            "requested output length stated (or fixed: EOS ignored and completed length given)",
                            "requested output length vague")

    def output_length_completed(self) -> TextFinding:
        spans = [s for s in self._token_spans() if s["kind"] == "output" and s["sub"] == "completed"]
        extra = _rx(r"output_lens|completion_tokens\s*[:=]\s*\d|"
                   r"(?:every|each|all)\s+(?:req(?:uest)?s?|completions?|outputs?|responses?)\s+(?:is|are|was|were|completed|completes|"
                   r"generated|produced|had|has)\s+(?:exactly\s+)?\d")
        declared = [s["hit"] for s in spans if not s["vague"]] + list(self.d.hits(extra))
        partial = [s["hit"] for s in spans if s["vague"]]
        partial += list(self.d.hits(_EOS_IGNORED))
        return self._status("output_length_completed", declared, partial, "completed output length",
                            "completed output length reported",
                            "only requested length or ignore_eos given; completed tokens not reported")

    def _request_hits(self):
        """Spans that state how many requests were sent (computed once)."""
        if "requests" in self._cache:
            return self._cache["requests"]
        flags = _rx(r"--num-prompts[\s=]+\d+|num_prompts\s*[=:]\s*\d+|--num-requests[\s=]+\d+|request[_ ]count\s*[=:]\s*\d+|"
                    r"Successful\s+requests\s*[:|]\s*\d+|\b\d[\d,]*\s+repetitions\b|"
                    r"(?<![\w.])\d[\d,]*-(?:request|prompt|sample|query|conversation)\b")
        nreq = _rx(r"(?<![\w.])(\d[\d,]*)\s+(?:[A-Za-z][\w-]*\s+){0,2}?(?:requests|prompts|conversations|queries|samples|questions|chats|responses)\b")
        declared = list(self.d.hits(flags))
        times = _rx(r"\b(?:\d+|two|three|four|five|six|ten|twenty)\s+times\b(?!\s+(?:the|more|faster|slower|higher|lower|as|better|"
                    r"worse|less|fewer|larger|smaller|over))")
        declared += [(i, m) for i, m in self.d.hits(times)
                     if re.search(r"\b(?:ran|run|repeated|executed|measured|sent|issued)\b", self.d.window(i, m, 200, 0), re.I)]
        for i, m in self.d.hits(nreq):
            win = self.d.window(i, m, 25, 12).lower()
            if re.search(r"concurrent|simultaneous|parallel|in[- ]flight|warm|/\s*s|per\s+second|at\s+a\s+time|\d\s+of\s+\d", win):
                continue
            if re.search(r"^\d[\d,]*\s+warm", m.group(0).lower()):
                continue
            if re.search(r"(?:drawn|sampled|chosen|picked|selected)\s+(?:at\s+random\s+)?from\s+(?:a\s+(?:pool|set)\s+of\s+)?$|pool\s+of\s+$|out\s+of\s+$",
                         self.d.plains[i][max(0, m.start() - 40):m.start()], re.I):
                continue
            declared.append((i, m))
        self._cache["requests"] = declared
        return declared

    def _request_number(self) -> int | None:
        """The first stated request count, as a number (None when none is stated)."""
        for _, m in self._request_hits():
            n = re.search(r"\d[\d,]*", m.group(0))
            if n and int(n.group(0).replace(",", "")) > 0:
                return int(n.group(0).replace(",", ""))
        return None

    def request_count(self) -> TextFinding:
        declared = self._request_hits()
        partial = list(self.d.hits(_rx(r"(?:several|many|hundreds\s+of|thousands\s+of|a\s+few|a\s+batch\s+of)\s+(?:requests|prompts|queries)")))
        return self._status("request_count", declared, partial, "number of requests",
                            "request count stated", "request count vague")

    def _capacity_sentence(self, text: str) -> bool:
        return bool(re.search(r"can\s+(?:serve|support|handle|fit|hold)|supports?\b|capacity|could|would|"
                              r"(?<![-\w])max(?:imum)?[ _](?:concurrency|batch|users|sequences|requests|sessions)|"
                              r"\bup\s+to\s+\d[\d,]*\s+(?:concurrent|simultaneous|users|requests|sequences|sessions)|"
                              r"configured\s+(?:with|for|to)|max[-_ ]model[-_ ]len|max[-_ ]num[-_ ]seqs|max_seq_len", text, re.I))

    def concurrency(self) -> TextFinding:
        rx = _rx(r"--max-concurrency[\s=]+\d+|max_concurrency\s*[=:]\s*\d+|--request-rate[\s=]+(?:\d|inf)|request[_ ]rate\s*(?:of\s*|[=:]\s*)?(?:\d|inf\b)|"
                 r"(?:poisson|arrivals?)\b[^.\n]{0,20}?\d+(?:\.\d+)?\s*(?:req|requests?|qps|rps)|\b\d+(?:\.\d+)?\s*(?:QPS|RPS)\b|"
                 r"concurrency\s*(?:of\s*|[=:]\s*|levels?\s+)?\d+|\bconc\s*[=:]?\s*\d|"
                 r"\b\d+\s+(?:virtual\s+users|VUs)\b|virtual\s+users\s+\d+\s*(?:->|→|to)\s*\d+|"
                 r"\b\d+\s+(?:running|active)\s+(?:sequences|requests|streams)|\b\d+\s+(?:sequences|requests|conversations|sessions|streams)\s+in[- ]flight|\b\d+\s+concurrent\b|[\d}\]]\s*\}?\s+concurrent\s+(?:users|requests|clients|sessions|streams)|"
                 r"(?:\bat|rate\s+of)\s+\d+(?:\.\d+)?\s*(?:req(?:uest)?s?\s*/\s*s\b|requests?\s+per\s+second)|\b(?:QPS|RPS)\s*(?:of\s*|[=:]\s*)?\d|\bbatch\s+(?:of\s+)?\d+\b|"
                 r"\b\d+\s+(?:simultaneous|parallel)\s+(?:users|requests|sessions|clients|streams)|batch[- _]sizes?\s*(?:of\s*|[=:]\s*)?\d+|"
                 r"\bbs\s*=\s*\d+|one\s+(?:request\s+)?at\s+a\s+time|one\s+by\s+one|\bsingle\s+(?:user|request|stream|session|chat\s+session)\b|"
                 r"\bsequentially\b|--max-num-seqs[\s=]+\d+(?=[^\n]*bench)")
        declared, hedged = [], []
        for i, m in self.d.hits(rx):
            # the client's own setting (--max-concurrency, "max_concurrency": 32) is the load, not a capacity
            if self._capacity_sentence(self.d.sentence(i, m)) and not re.match(r"--|max_concurrency", m.group(0), re.I):
                continue
            a, _ = self.d.bounds(i, m.start(), m.end())
            lead = re.split(r"[,;()]", self.d.plains[i][max(a, m.start() - 25):m.start()])[-1]  # this clause only
            (hedged if _vague(lead) or re.search(r"\d\s*[-–]\s*$", lead) else declared).append((i, m))
        for i, block in enumerate(self.d.w.blocks):
            if block.kind == "table":
                header = self.d.header(i)
                mm = re.search(r"concurrency|batch\s*size|\busers\b|\bQPS\b|request\s+rate", header, re.I)
                if mm:
                    declared.append((i, mm))
        partial = hedged + list(self.d.hits(_rx(r"high\s+concurrency|(?<!how\s)many\s+(?:concurrent\s+)?users|under\s+(?:heavy\s+)?load")))
        return self._status("concurrency", declared, partial, "concurrency or request rate",
                            "load level stated (concurrency, rate or batch size)", "load described only vaguely")

    def sampling(self) -> TextFinding:
        rx = _rx(r"temperature\s*(?:of\s*|[=:]\s*)?\d|\btemp\s*=\s*\d|top[_-]?p\s*(?:of\s*|[=:]\s*)?\d|top[_-]?k\s*[=:]?\s*\d|\bgreedy\b|"
                 r"--temperature|do_sample|no\s+sampling|does\s+not\s+sample|\bargmax\b")
        part = _rx(r"default\s+sampling|sampling\s+(?:parameters|params|settings)")
        return self._status("sampling", list(self.d.hits(rx)), list(self.d.hits(part)), "sampling parameters",
                            "sampling parameters stated", "sampling mentioned without values")

    def stopping(self) -> TextFinding:
        # any ignore_eos setting (true or false) says how generation stops
        # any ignore_eos setting, true or false, says how generation stops
        rx = _rx(_EOS_IGNORED.pattern + r"|ignore[_-]eos|stop(?:ped|s|ping)?\s+(?:at|on)\s+(?:the\s+)?(?:EOS|end[- ]of[- ]sequence)|\bEOS\s+token|stop\s+(?:sequences?|tokens?|strings?|words?)|"
                 r"\bmin_tokens|until\s+EOS|\bstop\s*=|natural\s+stop|\bend_id\b|eos_token_id|stop_token_ids")
        implied = _rx(r"before\s+(?:it\s+)?stopp(?:ing|ed)|stopped\s+(?:on\s+its\s+own|by\s+itself)|until\s+(?:it\s+)?(?:stopped|finished)")
        return self._status("stopping", list(self.d.hits(rx)), list(self.d.hits(implied)), "stopping behaviour (EOS / ignore_eos / stop strings)",
                            "stopping behaviour stated", "generation stopped on its own (EOS implied, not stated)")

    # -------------------------------------------------------------- state
    def _cache_mentions(self):
        return list(self.d.hits(_rx(r"prefix[- ]cach\w*|prompt\s+cach\w*|radix\s+cache|kv[\s_-]+(?:cache[\s_-]+)?reuse|cache\s+hits?|"
                                   r"warm\s+(?:cache|prefix)|cold\s+cache|cached\s+prefix|\bAPC\b|context\s+caching|"
                                   r"enable[-_]prefix[-_]caching|disable[-_]radix[-_]cache")))

    def _cache_disabled(self):
        return list(self.d.hits(_rx(r"--no-enable-prefix-caching|--disable-radix-cache|enable_prefix_caching\s*=\s*False|"
                                    r"(?:prefix|prompt)[- ]cach\w*(?:(?!enabled|\bon\b|\bbut\b|\bwhile\b)[^.;|]){0,100}?"
                                    r"\b(?:disabled|off|turned\s+off|not\s+(?:used|enabled)|disallowed)\b|"
                                    r"kv[-_ ]cache[-_ ]reuse\W{0,3}\s*[:=]\s*false|"
                                    r"(?:disabled?|turned\s+off|without)\s+(?:the\s+)?(?:prefix|prompt)[- ]cach")))

    def prefix_cache_state(self) -> TextFinding:
        state_words = re.compile(r"disabled|\boff\b|enabled|\bon\b|cold|warm|reset|flush|clear|hit\s+rate|hits?\b|second\s+(?:pass|run)|"
                                 r"first\s+(?:pass|run)|turned|not\s+used|disallowed|[:=]\s*(?:false|true)\b", re.I)
        declared = self._cache_disabled()
        declared += list(self.d.hits(_rx(r"cache\s+(?:was\s+|is\s+)?(?:flushed|reset|cleared)|reset_prefix_cache|"
                                         r"(?:cold|warm)\s+(?:prefix\s+)?cache|cache\s+hit\s+rate|hit\s+rate")))
        partial = []
        for i, m in self._cache_mentions():
            (declared if state_words.search(self.d.sentence(i, m)) and "enable-prefix" not in m.group(0).lower()
             else partial).append((i, m))
        # A freshly (re)started server implies a cold cache without saying so.
        partial += list(self.d.hits(_rx(r"fresh(?:ly)?\s+(?:started|restarted|launched)\s+(?:\w+\s+)?(?:server|engine|instance)|"
                                        r"restart(?:ed|ing)?\s+the\s+(?:server|engine)|server\s+(?:was\s+)?restarted")))
        return self._status("prefix_cache_state", declared, partial, "prefix-cache state",
                            "prefix-cache state stated", "prefix caching mentioned without saying cold, warm, reused or cleared")

    def warmup(self) -> TextFinding:
        rx = _rx(r"(?:\d+|two|three|five|ten)\s+warm[- ]?ups?\b|warm[- ]?up(?:[\s_]+requests?|[\s_]+runs?|[\s_]+iterations?)?\s*(?:of\s*|[:=]\s*|with\s+)?\d+|"
                 r"--num-warmups?[\s=]+\d+|\d[\d,]*[- ](?:requests?|quer(?:y|ies)|prompts?|iterations?|runs?)[- ]warm[- ]?ups?\b|--warmup[\w-]*[\s=]+\d+|warmed\s+up\s+(?:with|using|by)\s+\S+|"
                 r"(?:discard|drop|exclud|skip|ignor)\w*\s+(?:the\s+)?(?:first|initial)\s+(?:\d+\s+)?(?:runs?|pass(?:es)?|iterations?|requests?)|"
                 r"(?:first|initial)\s+(?:runs?|pass(?:es)?|iterations?)\s+(?:was|were)\s+(?:discarded|dropped|excluded|ignored)|"
                 r"from\s+the\s+second\s+(?:pass|run)|second\s+(?:pass|run)|cuda\s+graphs?\s+(?:were\s+|was\s+|are\s+)?(?:captured|enabled|disabled|on|off)|"
                 r"graph\s+capture|enforce[-_]eager|torch\.compile|no\s+warm[- ]?up")
        part = _rx(r"warm(?:ed)?[- ]?up\w*|warm(?:ed|ing)\s+(?:the\s+)?\w+\s+up\b")  # "we warmed the server up"
        declared = list(self.d.hits(rx))
        # "we replayed 1,000 queries to warm the cache": a warm-up procedure with its size, in other words
        # ("the first 30 s at each rate are a warm-up ... and are discarded"): a warm-up procedure with its size.
        verb = _rx(r"\bto\s+warm\b|\bwarm(?:ed|ing)\s+(?:the\s+)?(?:cache|server|engine|model|gpus?)\b|\bwarm[- ]?ups?\b")
        size = re.compile(r"\d[\d,]*\s+(?:\w+\s+){0,2}(?:requests|queries|prompts|iterations|runs|passes|conversations)|"
                          r"\d+\s*(?:s|sec|seconds|min|minutes)\b", re.I)
        declared += [(i, m) for i, m in self.d.hits(verb) if size.search(self.d.sentence(i, m))]
        return self._status("warmup", declared, list(self.d.hits(part)), "warm-up procedure or graph-capture state",
                            "warm-up procedure or graph-capture state stated", "warm-up mentioned without the procedure")

    def _has_ttft_figure(self):
        for i, m in self.d.hits(_TTFT_KW):
            if re.search(r"\d", self.d.plains[i]):
                return (i, m)
        return None

    def distinct_prefixes(self) -> TextFinding:
        fig = self._has_ttft_figure()
        if fig is None:
            return TextFinding("distinct_prefixes", "not_applicable", "no TTFT or prefill figure is reported")
        rx = _rx(r"\bdistinct\b|\bunique\b|different\s+(?:prompts|prefixes|seeds?|--seed)|--seed\s+\$|--seed[^\n]{0,20}per\s+run|"
                 r"no\s+(?:two\s+runs|shared)\s+\w*\s*(?:share\s+)?prefix|share[sd]?\s+(?:a|the|no|one)\b[^.\n]{0,40}prefix|"
                 r"shared\s+(?:system\s+)?prompt|shared\s+by\s+all|no\s+prefix\s+(?:sharing|overlap|reuse)|"
                 r"fresh\s+(?:random\s+)?seed|new\s+seed|cache\s+(?:was\s+|is\s+)?(?:flushed|reset|cleared)")
        declared = list(self.d.hits(rx)) + self._cache_disabled()
        part = _rx(r"sharegpt|mt-bench|alpaca|lmsys-chat|random\s+(?:dataset|prompts|synthetic)|synthetic\s+prompts|--dataset-name|"
                   r"production\s+trace|\btrace\b|\bdataset\b|\blogs\b|replay\w*|(?:drawn|sampled)\s+from")
        return self._status("distinct_prefixes", declared, list(self.d.hits(part)), "statement on prefix distinctness",
                            "prefix sharing/distinctness stated", "prompt source named but not whether prefixes are distinct")

    # -------------------------------------------------------------- distributions
    def latency_distributions(self) -> TextFinding:
        stat = _rx(r"\b(p\d{2}(?:\.\d+)?|median|mean|average|averaged|avg|std(?:dev)?|stddev|standard\s+deviation|"
                   r"percentiles?|(?<![-_])min(?![-_])|(?<![-_])max(?![-_])|CDF|histogram)\b|(±|\+/-)")
        lat_stats: dict[str, tuple] = {}
        other_stats: dict[str, tuple] = {}
        for i, m in itertools.islice(self.d.hits(stat), 2000):  # bounded: a status is settled long before
            text = self.d.plains[i]
            line = self.d.line_text(i, m.start(), m.end())
            is_table = self.d.w.blocks[i].kind == "table"
            ctx = line + (" " + self.d.header(i) if is_table else "")
            a, _ = self.d.line_bounds(i, m.start())
            header_like = not re.search(r"\d", re.sub(r"\bp\d{2}(?:\.\d+)?\b", "", line))
            if (is_table and a == 0) or (not is_table and header_like and len(_COLUMN_GAP.findall(line)) >= 2):
                # A column header: a self-describing cell ("TTFT p50 (ms)", "avg accept length") speaks for
                # itself; a bare statistic ("p50") takes the row labels of the table (transposed layout).
                cell = self._cell(line, m.start() - max(a, m.start() - _SENTENCE_REACH), is_table)
                rest = re.sub(r"\b(?:p\d{2}(?:\.\d+)?|median|mean|average|avg|std\w*|min|max|ms|s)\b|[^A-Za-z]", " ", cell)
                ctx = cell if (_LAT_KW.search(cell) or re.search(_RATE_UNIT, cell, re.I) or re.search(r"[A-Za-z]{3,}", rest)) \
                    else self._row_labels(i, is_table)
            key = (m.group(1) or "std").lower()
            key = {"average": "mean", "averaged": "mean", "avg": "mean", "p50": "median", "stddev": "std",
                   "standard deviation": "std"}.get(key, key)
            if _LAT_KW.search(ctx) or (re.search(r"\bms\b", ctx) and not re.search(_RATE_UNIT, ctx, re.I)):
                lat_stats.setdefault(key, (i, m))
                if len(set(lat_stats) - {"percentiles"}) >= 2:
                    break  # already a distribution; the rest cannot change the status
            elif re.search(_RATE_UNIT, ctx, re.I):
                other_stats.setdefault(key, (i, m))
        for i, key, hit in self._describe_rows():
            lat_stats.setdefault(key, hit)
        per_req = list(self.d.hits(_rx(r"per[- ]request\s+(?:records|latenc\w+|data|results|traces?)|--save-detailed|"
                                       r"histogram|\bCDF\b|percentile-metrics|metric-percentiles")))
        lat_stats.pop("percentiles", None)
        if len(lat_stats) >= 2 or (per_req and lat_stats):
            return TextFinding("latency_distributions", "declared", "latency distribution statistics reported",
                               self.d.evidence(list(lat_stats.values()) + per_req))
        if lat_stats or other_stats or per_req:
            return TextFinding("latency_distributions", "partial",
                               "a single latency statistic (or only throughput spread) is reported, not a distribution",
                               self.d.evidence(list(lat_stats.values()) + list(other_stats.values()) + per_req))
        return self._missing("latency_distributions", "latency percentile or per-request record")

    def _describe_rows(self):
        """(block, statistic, hit) for the statistic rows ("mean", "50%", "99%") of a printed summary frame
        (pandas ``describe()``) whose header row names latency columns (ttft_ms, tpot_ms, e2e_ms)."""
        out = []
        stat_row = re.compile(r"[ \t]*(mean|std|min|max|\d{2}(?:\.\d+)?%)[ \t]+-?\d")
        for i, block in enumerate(self.d.w.blocks):
            if block.kind != "code":
                continue
            text, header = self.d.plains[i], ""
            for line in re.finditer(r"[^\n]+", text):
                m = stat_row.match(text, line.start())
                if not m:
                    if not re.match(r"\s*count\s", line.group(0)):
                        header = line.group(0)
                    continue
                if re.search(r"(?<![a-z])(?:ttft|tpot|itl|e2el?|latency)(?![a-z])", header, re.I):
                    stat = m.group(1).lower()
                    key = "median" if stat == "50%" else "p" + stat[:-1] if stat.endswith("%") else stat
                    out.append((i, key, (i, re.compile(re.escape(m.group(1))).match(text, m.start(1)))))
        return out

    @staticmethod
    def _cell(line: str, col: int, is_table: bool) -> str:
        """The table cell (or space-aligned column) of ``line`` that holds column ``col``."""
        if is_table:
            a = line.rfind("|", 0, col) + 1
            b = line.find("|", col)
            return line[a:b if b >= 0 else len(line)]
        pieces = [(m.start(), m.end()) for m in re.finditer(r"\S+(?:\s\S+)*", line)]
        return next((line[a:b] for a, b in pieces if a <= col < b), line)

    def _row_labels(self, i: int, is_table: bool) -> str:
        """First cell (or first space-aligned column) of every row of block i."""
        rows = self.d.plains[i].split("\n")[1:]
        if is_table:
            return " ".join(r.strip().strip("|").split("|")[0] for r in rows)
        return " ".join(re.split(r"\s{2,}", r.strip())[0] for r in rows)

    # -------------------------------------------------------------- speculative
    def speculative_used(self):
        rx = _rx(r"speculative|spec[-_ ]decod\w*|\bdraft\s+(?:model|head|tokens?)|\bEAGLE\d?\b|\bMedusa\b|\bMTP\b|"
                 r"multi[- ]token\s+prediction|n-?gram\s+(?:speculation|lookup|proposer)|lookahead\s+decoding|prompt\s+lookup")
        negated = re.compile(r"(?:no|without|disabled?|not\s+use\w*|off)\b[^.\n]{0,25}$", re.I)
        positive = []
        for i, m in self.d.hits(rx):
            text = self.d.plains[i]
            before = text[max(0, m.start() - 30):m.start()]
            after = text[m.end():m.end() + 60]
            if negated.search(before) or re.match(r"\s*(?:decoding\s+)?(?:was\s+|is\s+)?(?:disabled|off|not\s+used)", after, re.I) \
                    or re.match(r"(?:\s*(?:/|,|and|or)\s*[\w-]+)*\s+(?:decoding\s+)?(?:was|is|are|were|stays?|left)\s+"
                                r"(?:disabled|off|not\s+used|turned\s+off)\b", after, re.I):
                continue
            positive.append((i, m))
        return positive

    def spec_items(self) -> list[TextFinding]:
        used = self.speculative_used()
        ids = ["spec_draft_tokens", "spec_acceptance", "spec_verification", "spec_rejected_work"]
        if not used:
            return [TextFinding(x, "not_applicable", "no speculative decoding in the write-up") for x in ids]
        draft_decl = _rx(r"num[_-]speculative[_-]tokens\W*\d|--speculative-num-(?:draft-tokens|steps)[\s=]+\d|"
                         r"\b\d+\s+(?:draft|speculative|proposed)\s+tokens|draft\s+(?:length|depth|tokens?)\s*(?:of\s*|[=:]\s*)?\d|"
                         r"\bk\s*=\s*\d|\bgamma\s*=\s*\d|\d[\d,]*\s+(?:proposed|drafted)\b|proposed\s+\d|\b\d+\s+(?:medusa\s+)?heads\b")
        acc_decl = _rx(r"accept\w*\s+(?:rate|length|ratio)\b[^.\n|]{0,40}?\d|acceptance[^.\n|]{0,40}?\d|\d+(?:\.\d+)?\s*%?\s+(?:acceptance|accepted)|"
                       r"accepted[_ ]tokens?\W*\d|mean\s+accepted")
        ver_decl = _rx(r"verif\w*\s+(?:passes|steps|calls|traffic|tokens|forward\w*)\b[^.\n|]{0,30}?\d|\d[\d,]*\s+(?:target\s+)?(?:verification|target)\s+"
                       r"(?:steps|passes|forward|calls)|target\s+(?:forward\s+passes|model\s+calls)[^.\n]{0,30}\d")
        rej_decl = _rx(r"reject\w*[^.\n|]{0,40}?\d|\d[\d,.]*\s*%?\s+(?:rejected|wasted|discarded)|wasted\s+(?:draft|compute|work)[^.\n]{0,30}\d")
        method = _rx(r"\bEAGLE\d?\b|\bMedusa\b|\bMTP\b|draft\s+(?:model|head)|n-?gram|speculative[-_ ]draft[-_ ]model")
        # A table column of acceptance figures ("| avg accept length |" over numeric rows) reports them.
        acc_cols = [(i, mm) for i, block in enumerate(self.d.w.blocks)
                    if block.kind == "table" and _DIGIT.search(self.d.plains[i][len(self.d.header(i)):])
                    and (mm := re.search(r"accept\w*\s+(?:rate|length|len|ratio)|\bAL\b|accepted\s+tokens", self.d.header(i), re.I))]
        return [
            self._status("spec_draft_tokens", list(self.d.hits(draft_decl)), list(self.d.hits(method)),
                         "draft token count", "draft tokens per step stated", "draft method named without the number of draft tokens"),
            self._status("spec_acceptance", list(self.d.hits(acc_decl)) + acc_cols, list(self.d.hits(_rx(r"accept\w*"))),
                         "acceptance rate or length", "acceptance rate/length reported", "acceptance mentioned without figures"),
            self._status("spec_verification", list(self.d.hits(ver_decl)),
                         list(self.d.hits(_rx(r"verif\w*|target\s+(?:model\s+)?(?:forward\s+pass(?:es)?|forward|step)s?\b"))),
                         "target verification traffic", "verification traffic reported", "verification mentioned without figures"),
            self._status("spec_rejected_work", list(self.d.hits(rej_decl)), list(self.d.hits(_rx(r"reject\w*|wasted"))),
                         "rejected draft work", "rejected work reported", "rejected work mentioned without figures"),
        ]

    # -------------------------------------------------------------- aggregation
    def aggregation_rule(self) -> TextFinding:
        rx = _rx(r"(?:median|mean|average|best|worst|geometric\s+mean|max|min)\s+(?:run\s+)?(?:of|over|across)\s+(?:the\s+)?(?:\d+|three|five|ten|all)\b|"
                 r"(?:over|across)\s+(?:all\s+|the\s+)?(?:\d[\d,]*|three|five|ten)\s+(?:\w+\s+)?(?:runs|repetitions|trials|iterations|seeds)|"
                 r"\b(?:is|are)\s+the\s+(?:median|mean|average)\s+(?:of\s+)?(?:[\w/-]+\s+){0,6}?(?:we\s+)?(?:observed|measured)\b|"
                 r"percentiles?\s+(?:are\s+|were\s+)?(?:(?:computed|calculated|taken)\s+(?:by\s+\S+\s+)?)?(?:over|across|per)\b|"
                 r"reports?\s+the\s+(?:median|mean|best|average|worst|highest|lowest)|"
                 r"(?:median|mean|average)\s+(?:\([^)]{0,20}\)\s+)?(?:over|across)\s+(?:that|each|every)\b|"
                 r"\bone\s+run\s+per\b|\b(?:was|were)\s+run\s+once\b|"
                 r"(?:ratio|computed\s+from)\s+(?:of\s+)?(?:the\s+)?total\s+\w+\s+(?:over|divided\s+by|/)\s+(?:the\s+)?total|"
                 r"aggregat(?:ed|ion|ing)\s+(?:rule|over|across|by)|aggregation\s+rule|\b\d+\s+runs?\b[^.\n]{0,40}(?:report|take|median|mean|average)|"
                 r"\b(?:\d+|two|three|five|ten)\s+(?:times|runs|trials|repetitions)\b[^.\n]{0,80}?\b(?:median|mean|average|best|worst)\b|"
                 r"\bthe\s+run\s+with\s+the\s+(?:median|best|worst|lowest|highest)")
        # "aggregate across all requests" (an adjective: the throughput's scope) is not a rule for combining samples.
        part = _rx(r"\baverag(?:ed|ing)\b|(?:multiple|several|repeated)\s+runs|\b(?:the\s+)?(?:mean|average)\s+(?:number|count|fraction|share)\s+of\b")
        return self._status("aggregation_rule", list(self.d.hits(rx)), list(self.d.hits(part)), "aggregation rule",
                            "aggregation over samples/runs stated", "averaging mentioned without saying over what")

    def exclusions(self) -> TextFinding:
        rx = _rx(r"(?:no|none\s+of\s+the|zero|0)\s+(?:requests?|samples?|runs?)\s+(?:were\s+|was\s+)?(?:excluded|dropped|failed|removed|discarded)|"
                 r"no\s+(?:request|sample)\s+(?:failed|was\s+(?:excluded|dropped))|none\s+(?:were|was)\s+(?:dropped|excluded|removed)|"
                 r"(?:excluded|dropped|discarded|removed)\s+\d|\d[\d,]*\s+(?:of\s+[\d,]+\s+)?(?:requests?\s+)?(?:failed|errored|timed\s+out)|"
                 r"(?:failed|errored|timed\s+out)\b[^.\n]{0,30}\d|(?:Successful|Failed)\s+requests:\s*\d+|"
                 r"all\s+\d[\d,]*\s+requests\s+(?:completed|succeeded)|stay\s+in\s+the\s+denominator|no\s+(?:failures|errors)|"
                 r"excluded\s+from\s+(?:the\s+)?results|error\s+rate\s*[:=]?\s*\d|"
                 r"no\s+(?:requests?\s+|samples?\s+|runs?\s+)?(?:failed|errored|timed\s+out|errors|failures|timeouts)\b|"
                 r"(?:every|all)\s+(?:valid\s+)?(?:requests?|samples?)\b[^.\n]{0,40}?\b(?:is|are|was|were)\s+kept|"
                 r"(?:discard(?:ed)?|dropped|excluded)\s+(?:them|those|these)|(?:sent|issued|run)\s+first\s+and\s+discarded|"
                 r"(?:these|they|those|which)\s+(?:are|were)\s+(?:not\s+counted|discarded|excluded|dropped)|"
                 r"(?:first|initial|warm[- ]?up)\s+(?:\w+\s+){0,2}(?:was|were|is|are)\s+(?:discarded|dropped|excluded|not\s+counted)|"
                 r"(?:count(?:ed|s)?|treated)\s+as\s+(?:not\s+good|bad|failures|failed|errors|SLO\s+misses)|"
                 r"\d[\d,]*\s+(?:of\s+[\d,]+\s+)?requests?\b[^.\n]{0,40}?\b(?:failed|errored|timed\s+out|timeouts?|cancell?ed|rejected)\b|"
                 r"(?:no|without)\s+(?:any\s+)?(?:failed|errored)\s+requests|"
                 r"(?:shorter|longer|fewer|more)\s+than\s+\d[\d,]*\s+\w+\s+(?:are|were|is|was)\s+(?:excluded|dropped|discarded|removed|left\s+out|filtered\s+out)")
        part = _rx(r"outliers?\s+(?:were\s+)?(?:removed|excluded|dropped|filtered)|(?:removed|excluded|dropped|filtered)\s+outliers?|"
                   r"\bexclud\w+\s+(?:\w+\s+){0,3}?(?:requests?|samples?|runs?|outliers?|failures?|errors?)\b|\bfailed\s+requests")
        return self._status("exclusions", list(self.d.hits(rx)), list(self.d.hits(part)), "statement on excluded or failed samples",
                            "excluded/failed samples accounted for", "exclusions mentioned without the criterion or count")

    # -------------------------------------------------------------- rules
    def _figures(self):
        """Latency, decode-rate, throughput and goodput figures (block, match)."""
        if "figs" in self._cache:
            return self._cache["figs"]
        numeric = {i for i, text in enumerate(self.d.plains) if _DIGIT.search(text)}
        if self.d.first(_SPEEDUP):  # "2.3x faster" in tokens per second: the metric is named without a number
            numeric = set(range(len(self.d.plains)))
        lat, tpot, rate, req = ([h for h in self.d.hits(rx) if h[0] in numeric]
                                for rx in (_LAT_KW, _TPOT_KW, _RATE_FIG, _REQ_RATE_FIG))
        rate += [h for h in self.d.hits(_rx(r"\b(?:output|input|total|prompt|generation)[_ ](?:token[_ ])?throughput\b"),
                                         ("paragraph", "list_item")) if h[0] in numeric]
        figs = {"lat": lat, "tpot": tpot, "rate": rate, "req": req, "goodput": list(self.d.hits(_GOODPUT))}
        self._cache["figs"] = figs
        return figs

    def _decode_rates(self):
        """Token-rate figures that measure generation (not prefill/input/total)."""
        if "decode" in self._cache:
            return self._cache["decode"]
        out = []
        prefill = re.compile(r"prefill|prompt\s+processing|\binput\b|\bpp\d+|\btotal\b", re.I)
        decode = re.compile(r"output|generat|decode|\btg\d+", re.I)
        verdict: dict[str, bool] = {}  # the same line is judged once, however many figures it holds
        for i, m in self._figures()["rate"]:
            line = self.d.line_text(i, m.start(), m.end())
            if line not in verdict:
                verdict[line] = bool(prefill.search(line)) and not decode.search(line)
            if verdict[line]:
                continue
            out.append((i, m))
        self._cache["decode"] = out
        return out

    def _tool_named(self):
        return self.d.first(_rx(_BENCH_TOOLS))

    def observation_point(self) -> TextFinding:
        f = self._figures()
        if not (f["lat"] or f["rate"] or f["goodput"]):
            return TextFinding("observation_point", "not_applicable", "no latency or throughput figure reported")
        rx = _rx(r"(?:measured?|measures|observed|tim(?:ed|ing)|recorded|taken)\s+(?:\w+\s+){0,2}?(?:at|on|by|from|in|as)\s+(?:the\s+|our\s+|a\s+|each\s+)?"
                 r"(?:[\w-]+\s+){0,2}?(?:client|server|load\s*gen\w*|engine|gateway|proxy|harness)|"
                 r"\bclient\s+(?:runs?|ran|is|was|sits?)\s+(?:on|in|from)\b|"
                 r"latenc\w+\s+(?:\w+\s+){0,2}?(?:include|exclude)s?\s+(?:\w+\s+){0,2}?(?:network|queu\w+|transport|gateway)|"
                 r"client[- ]side|server[- ]side|at\s+the\s+(?:benchmark\s+)?client|from\s+the\s+client|client[- ]observed|observation\s+point|"
                 r"as\s+seen\s+by\s+the\s+(?:client|user)|engine[- ](?:side|metrics|logs)|/metrics\s+endpoint|prometheus|in-process")
        hit = self.d.first(rx) or self._tool_named()
        if hit:
            return TextFinding("observation_point", "ok", "observation point named (or implied by the named benchmark client)",
                               self.d.evidence([hit]))
        return TextFinding("observation_point", "unclear", "figures are reported without saying where the clock was read",
                           self.d.evidence(f["lat"][:1] + f["rate"][:1]))

    def tpot_definition(self) -> TextFinding:
        tpots = [h for h in self._figures()["tpot"] if not re.match(r"(?i)itl|inter", h[1].group(0))]
        if not tpots:
            # GenAI-Perf/AIPerf call (E2E - TTFT) / (output tokens - 1) "ITL": with that client named, its ITL is a
            # per-output-token figure whose definition the client fixes.
            itl = [h for h in self._figures()["tpot"] if re.match(r"(?i)itl|inter", h[1].group(0))]
            client = self.d.first(_rx(r"genai-perf|\baiperf\b"))
            if itl and client:
                return TextFinding("tpot_definition", "ok", "ITL here is the named client's per-output-token latency "
                                   "((E2E - TTFT) / (output tokens - 1))", self.d.evidence([client] + itl[:1]))
            return TextFinding("tpot_definition", "not_applicable", "no TPOT or ms-per-token figure reported")
        bad = _rx(r"TPOT\s*\(\s*(?:ITL|inter[- ]token\s+latency)\s*\)|(?:ITL|inter[- ]token\s+latency)\s*\(\s*TPOT\s*\)|"
                  r"TPOT\s*(?:,\s*)?(?:also\s+called|a\.k\.a\.?|aka|i\.e\.|or)\s+(?:ITL|inter[- ]token)|"
                  r"TPOT\s*=\s*(?:E2E\w*|end[- ]to[- ]end\s+latency|total\s+latency|latency)\s*/\s*(?:\(?\s*(?:number\s+of\s+)?(?:output\s+|generated\s+)?tokens\s*\)?)(?!\s*[-−]\s*1)")
        b = self.d.first(bad)
        if b:
            return TextFinding("tpot_definition", "violation", "TPOT is conflated with ITL or divided by all tokens without saying so",
                               self.d.evidence([b]))
        good = _rx(r"(?:E2E\w*|end[- ]to[- ]end(?:\s+latency)?|latency)\s*[-−–]\s*TTFT\s*\)?\s*/|first\s+token\s+(?:is\s+|was\s+)?(?:excluded|included)|"
                   r"(?:excluding|excl\.?|including|incl\.?)\s+(?:the\s+)?(?:1st|first)\s+token|\b[Nn]\s*[-−]\s*1\b|tokens?\s*[-−]\s*1\b|"
                   r"denominator|vLLM'?s\s+(?:definition|TPOT)|TPOT\s+here\s+is")
        g = self.d.first(good) or self.d.first(_rx(r"vllm\s+bench\s+serve|benchmark_serving(?:\.py)?|sglang\.bench_serving|bench_serving"))
        if g:
            return TextFinding("tpot_definition", "ok", "TPOT denominator / first-token treatment stated or fixed by the named client",
                               self.d.evidence([g]))
        return TextFinding("tpot_definition", "unclear", "TPOT-like figure without its denominator or first-token treatment",
                           self.d.evidence(tpots[:2]))

    def throughput_basis(self) -> TextFinding:
        f = self._figures()
        figs = f["rate"] + [h for h in f["req"] if not re.search(r"request[_ ]rate|arrival|poisson|--request-rate", self.d.sentence(*h), re.I)]
        figs += f["goodput"]
        if not figs:
            return TextFinding("throughput_basis", "not_applicable", "no throughput figure reported")
        basis_rx = re.compile(r"output|input|total|generat|prompt|prefill|decod|completion|\breq|request|text\s+generation|prompt\s+processing|goodput|\btg\d|\bpp\d|"
                              r"\beval\s+(?:rate|count|duration)", re.I)
        unlabeled = []
        for i, m in figs:
            text = self.d.plains[i]
            a, b = self.d.bounds(i, m.start(), m.end())
            ctx = text[a:b]
            if self.d.w.blocks[i].kind == "table":
                ctx += " " + self.d.header(i)
            title = self.d.w.title or ""
            if not basis_rx.search(ctx) and not (self.d.w.blocks[i].kind == "heading" and basis_rx.search(title)):
                unlabeled.append((i, m))
        # The same figure labelled elsewhere ("decodes at 209 tok/s" in the title, "= 209 tokens/s" in the derivation)
        # is labelled.
        value = lambda m: (re.match(r"\d[\d,]*(?:\.\d+)?", m.group(0)) or m).group(0).replace(",", "")
        unlabeled_ids = {id(m) for _, m in unlabeled}
        labelled_values = {value(m) for _, m in figs if id(m) not in unlabeled_ids and m.group(0)[:1].isdigit()}
        unlabeled = [(i, m) for i, m in unlabeled if not (m.group(0)[:1].isdigit() and value(m) in labelled_values)]
        definition = self.d.first(_rx(r"(?:prompt|input)\s*(?:\+|and|plus)\s*(?:completion|output)\s+tokens|"
                                      r"(?:throughput|speed|rate)\s+(?:is|counts|=)\s+(?:the\s+)?(?:\w+\s+){0,3}?(?:output|input|prompt|completion|total|generated)\s+tokens"))
        if unlabeled and definition:
            unlabeled = []
        requests_only = all(re.search(r"req|goodput|request|attainment", m.group(0), re.I) for _, m in figs)
        scope = self.d.first(_rx(r"aggregate|per[- ](?:user|session|gpu|request|stream|node|server|replica|instance)|summed\s+across|"
                                 r"from\s+the\s+first\s+(?:streamed\s+)?token\s+to\s+the\s+last|/\s*(?:gpu|user|node)\b|"
                                 r"\b(?:one|each|a\s+single|per)\s+(?:node|server|replica|instance)\s+(?:sustain|deliver|serve|reach|achieve|handle)\w*|"
                                 r"single\s+(?:user|session|chat\s+session|request|stream)|"
                                 r"batch\s+size\s+(?:of\s+)?1\b|concurrency\s+(?:of\s+)?1\b|one\s+(?:request\s+)?at\s+a\s+time|one\s+by\s+one|all\s+sessions")) \
            or self._tool_named()
        if unlabeled:
            return TextFinding("throughput_basis", "unclear", "a token rate is given without saying which tokens it counts",
                               self.d.evidence(unlabeled))
        if scope or requests_only:
            return TextFinding("throughput_basis", "ok", "token basis and aggregate/per-session scope stated",
                               self.d.evidence(figs[:1] + ([scope] if scope else [])))
        return TextFinding("throughput_basis", "unclear", "token basis stated but not whether the rate is aggregate or per session",
                           self.d.evidence(figs[:2]))

    def goodput_slo(self) -> TextFinding:
        g = self._figures()["goodput"]
        if not g:
            return TextFinding("goodput_slo", "not_applicable", "no goodput figure reported")
        slo = _rx(r"(?:TTFT|TPOT|ITL|E2E\w*|latency)\s*(?:<=|≤|<|under|below|of\s+at\s+most|within|at\s+most)\s*\d|--goodput\s+\w+:\d|"
                  r"\bSLOs?\b[^.\n]{0,60}\d+\s*(?:ms|s)\b|\w+:\d+\s*(?:ms)?\s+SLO")
        s = self.d.first(slo)
        if s:
            return TextFinding("goodput_slo", "ok", "goodput reported with declared SLO thresholds", self.d.evidence([s] + g[:1]))
        return TextFinding("goodput_slo", "violation", "goodput reported without the SLO thresholds that define it", self.d.evidence(g[:2]))

    def cache_hit_labeling(self) -> TextFinding:
        mentions = self._cache_mentions() + list(self.d.hits(_rx(r"second\s+(?:pass|run)|warm\s+(?:run|pass)")))
        if not mentions:
            return TextFinding("cache_hit_labeling", "not_applicable", "no prefix-cache reuse in the write-up")
        disabled = self._cache_disabled()
        enabled = [h for h in mentions if not self._in(disabled, h)]
        label = _rx(r"hit\s+rate|cache[- ]hits?|hit\s+ratio|never\s+hits|no\s+(?:cache\s+)?hits|\d+(?:\.\d+)?\s*%\s+(?:of\s+)?(?:prompt\s+|prefix\s+)?(?:tokens\s+)?(?:were\s+)?(?:cached|hits|reused)|"
                    r"(?:cold|warm)[- ](?:cache|prefix|run|pass)")
        title = self.d.w.title or ""
        speed = re.compile(r"\d+(?:\.\d+)?\s*[x×]|\d+\s*%|faster|lower|speed-?ups?|quicker|boost|cuts?\b", re.I)
        if speed.search(title) and re.search(r"cach|prefix|reuse|warm", title, re.I) and not re.search(
                r"cache[- ]hit|hit\s+rate|warm[- ]cache|cached\s+prefix", title, re.I):
            ev = [(self.d.w.title_line or 1, quote_line(self.d.w.lines[(self.d.w.title_line or 1) - 1]))]
            return TextFinding("cache_hit_labeling", "violation",
                               "the headline claims a cache-driven speed-up without labelling it as cache hits", ev)
        if not enabled:
            return TextFinding("cache_hit_labeling", "ok", "prefix caching stated as disabled", self.d.evidence(disabled))
        lab = self.d.first(label)
        if lab:
            return TextFinding("cache_hit_labeling", "ok", "cache-hit results are labelled (hit rate or cold/warm state)",
                               self.d.evidence([lab]))
        body_speed = [h for h in enabled if speed.search(self.d.sentence(*h))]
        if body_speed:
            return TextFinding("cache_hit_labeling", "violation", "a speed-up from cache reuse is reported without a hit rate or warm-cache label",
                               self.d.evidence(body_speed))
        return TextFinding("cache_hit_labeling", "unclear", "prefix caching is on but results are not labelled cold or warm",
                           self.d.evidence(enabled))

    @staticmethod
    def _in(hits, h) -> bool:
        """Whether match h starts inside (or within 5 characters after) one of ``hits`` in the same block."""
        return any(i == h[0] and m.start() <= h[1].start() < m.end() + 5 for i, m in hits if i == h[0])

    def steady_decode(self) -> TextFinding:
        rates = [h for h in self._figures()["tpot"] if not re.match(r"(?i)itl|inter", h[1].group(0))] + self._decode_rates()
        if not rates:
            # ITL percentiles are per-token decode figures too when nothing else measures decode.
            rates = [h for h in self._figures()["tpot"] if re.match(r"(?i)itl|inter", h[1].group(0))]
        if not rates:
            return TextFinding("steady_decode", "not_applicable", "no decode-rate figure (TPOT, ms/token, decode tok/s)")
        spans = [s for s in self._token_spans() if s["kind"] == "output"]
        flag = _rx(r"(?:--random-output-len|--output-len|--osl|random_output_len|output_len|(?<![\w-])-n)\s*[=: ]\s*(\d+)|\btg(\d{2,})\b|"
                   r"(?:max_tokens|max_new_tokens|max-tokens|max-new-tokens|--max-tokens|num_predict)" + _IS + r"(\d+)")
        fixed, caps, done = [], [], []
        requests = self._request_number()
        for s in spans:
            if s.get("total"):  # a run's token total says nothing per request without the request count
                if requests:
                    done.append((s["value"] / requests, s["hit"]))
                continue
            (done if s["sub"] == "completed" else caps if s["cap"] else fixed).append((s["value"], s["hit"]))
        for i, m in self.d.hits(flag):
            v = int(m.group(1) or m.group(2) or m.group(3))
            (caps if m.group(3) else fixed).append((v, (i, m)))
        for i, m in self.d.hits(_rx(_IN_OUT_SHORT)):  # "1k in / 1k out": the second figure is the output length
            n, k = re.findall(r"(\d[\d,.]*)\s*(k?)", m.group(0), re.I)[-1]
            fixed.append((float(n.replace(",", "")) * (1000 if k else 1), (i, m)))
        if self.d.first(_EOS_IGNORED):
            fixed += caps
            caps = []
        else:
            fixed = [x for x in fixed if x[0] not in {v for v, _ in caps}]
        pool = done or fixed
        if pool:
            low = min(pool, key=lambda x: x[0])
            if low[0] < 64:
                return TextFinding("steady_decode", "violation",
                                   f"decode-rate figures rest on {int(low[0])}-token outputs, too short for steady decode",
                                   self.d.evidence([low[1]] + rates[:1]))
            if low[0] >= 128:
                return TextFinding("steady_decode", "ok", f"outputs of at least {int(low[0])} tokens back the decode-rate figures",
                                   self.d.evidence([low[1]]))
            return TextFinding("steady_decode", "unclear", f"{int(low[0])}-token outputs are borderline for steady decode",
                               self.d.evidence([low[1]]))
        if caps and min(caps)[0] < 64:
            low = min(caps, key=lambda x: x[0])
            return TextFinding("steady_decode", "violation", f"outputs are capped at {int(low[0])} tokens, too short for steady decode",
                               self.d.evidence([low[1]]))
        return TextFinding("steady_decode", "unclear",
                           "decode-rate figures without a completed (or fixed) output length" + (" (only a cap is given)" if caps else ""),
                           self.d.evidence(rates[:2]))

    def capacity_vs_workload(self) -> TextFinding:
        cap = _rx(r"maximum\s+concurrency\s+for|max(?:imum)?\s+concurrency\s*(?:is|of|:)\s*\d|KV[- ]cache\s+(?:can\s+)?(?:holds?|fits?|capacity|size|has\s+room)[^.\n]{0,40}\d|"
                  r"#\s*GPU\s+blocks|GPU\s+KV\s+cache\s+size|can\s+(?:serve|support|handle|fit|hold)\s+(?:up\s+to\s+|about\s+|around\s+|roughly\s+|~\s*)?\d|"
                  r"(?:free|left|available|room)\s+for\s+(?:the\s+)?KV\b|"
                  r"supports?\s+(?:up\s+to\s+)?\d[\d,]*\s+(?:concurrent|simultaneous|users|requests|sequences|sessions)|"
                  r"\d[\d,.]*k?\s+tokens?\s+of\s+KV|(?:context\s+(?:window|length)|max[-_ ]model[-_ ]len)\s+(?:of|is|=)\s+\d")
        prose = ("paragraph", "list_item", "heading", "quote")
        misread = _rx(r"(?:serve|support|handle|run)s?\s+(?:up\s+to\s+|about\s+|around\s+|roughly\s+|~\s*)?\d[\d,]*\s+(?:concurrent\s+|simultaneous\s+|parallel\s+)?"
                      r"(?:chat\s+|[\d.]+k?-token\s+)?(?:users|requests|sessions|customers|conversations)|"
                      r"in\s+practice|users\s+at\s+full|(?:serve|run|handle|support)s?\b(?:[^.\n]|\.\d){0,60}?\bat\s+(?:its\s+|the\s+)?(?:full|max(?:imum)?)\s+(?:\d+\s*k\s+)?context|that\s+means\s+one|so\s+(?:one|the\s+server|it)\s+(?:can\s+)?(?:serve|support|handle)")
        found = [h for h in self.d.hits(cap, kinds=prose + ("table",))]
        code_cap = [h for h in self.d.hits(cap, kinds=("code",))]
        if not found:
            # A capacity flag quoted in prose is only a flag, unless the same paragraph reads it as served load
            # ("configured with --max-model-len 131072 and --max-num-seqs 50, each node serves 50 users").
            flags = list(self.d.hits(_rx(r"--max-model-len[\s=]+\d|--max-num-seqs[\s=]+\d|max_seq_len\s*[=:]?\s*\d|"
                                         r"max_num_seqs\s*[=:]\s*\d|--max-batch-size[\s=]+\d"), kinds=prose))
            if {i for i, _ in flags} & {i for i, _ in self.d.hits(misread, kinds=prose)}:
                found = flags
        if not found:
            if code_cap and self.d.first(_rx(r"so\s+(?:the|it|one)|in\s+practice|which\s+means|therefore"), ("paragraph", "list_item")):
                found = code_cap
            else:
                return TextFinding("capacity_vs_workload", "not_applicable",
                                   "no capacity figure is discussed (max-model-len only as a flag, if at all)")
        bad = [(i, m) for i, m in self.d.hits(misread, kinds=("paragraph", "list_item", "heading", "quote"))
               if any(j == i for j, _ in found) or any(abs(j - i) <= 1 for j, _ in found + code_cap)]
        if bad:
            return TextFinding("capacity_vs_workload", "violation", "a capacity figure is read as served load",
                               self.d.evidence(found[:1] + bad))
        good = self.d.first(_rx(r"capacity,?\s+not|is\s+(?:a\s+)?capacity|configured\s+(?:capacity|maximum)|not\s+the\s+(?:active|served)|"
                                r"active\s+(?:tokens|sequences|context)|actual\s+(?:prompt|context|load)"))
        if good:
            return TextFinding("capacity_vs_workload", "ok", "capacity is kept apart from the served workload", self.d.evidence([good]))
        return TextFinding("capacity_vs_workload", "unclear", "a capacity figure appears; its relation to the served load is not stated",
                           self.d.evidence(found[:2]))

    def _comparison(self):
        if "cmp" in self._cache:
            return self._cache["cmp"]
        rx = _rx(r"\bvs\.?\b|\bversus\b|compared\s+(?:to|with|against)|\bcompar(?:e|ed|ing|ison)\b|(?:faster|slower|higher|lower|better|worse|more|less|greater|cheaper|quicker)\s+(?:\w+\s+){0,3}?than\b|relative\s+to|"
                 r"(?:than|vs\.?|against|over|relative\s+to)\s+(?:the\s+)?baseline|\bA/B\b|\bbeats?\b|outperform\w*|\d+(?:\.\d+)?\s*[x×]\s+(?:faster|higher|lower|more|better|speed-?up|the)|"
                 r"drops?\s+by|speed-?up\s+(?:over|of)|\bbecomes\b|switch(?:ed|ing)?\s+from\b|\bwent\s+from\s+~?\d|"
                 r"\b(?:the\s+)?fastest\s+(?:[\w.-]+\s+){0,3}?(?:on|in|of|available)\b|\bwith\s+and\s+without\b|\b(?:baseline|reference)\s*(?:\(|:)|\bregress(?:ed|ion|es)?\b")
        metric = r"(?:throughput|latency|inferences?/s\w*|tok(?:en)?s?/s|req(?:uest)?s?/s|concurrency|qps|ttft|tpot|itl|batch\s+size)"
        axes = re.compile(metric + r"\W*(?:vs\.?|versus)\s+(?:\w+\s+){0,3}?" + metric, re.I)
        hits = [(i, m) for i, m in self.d.hits(rx)
                if not (m.group(0).lower().startswith(("vs", "versus")) and axes.search(self.d.window(i, m, 40, 40)))]
        for i, block in enumerate(self.d.w.blocks):
            if block.kind == "table":
                header = self.d.header(i)
                if re.search(r"\b(?:setup|config\w*|stack|engine|framework|system|variant|arm|version|commit|revision|build|branch|backend|method|mode|dtype|"
                             r"precision|quantization|hardware|gpu)\b", header, re.I) or re.search(r"stack\s+[ab]\b", header, re.I):
                    hits.append((i, re.search(r"\S", header)))
        self._cache["cmp"] = hits
        return hits

    def _single_variable(self):
        """Where the text says a comparison changes one thing only (first match, or None)."""
        return self.d.first(_rx(
            r"only\s+(?:the\s+)?(?:\S+\s+){0,3}(?:variable|difference|change|thing)|the\s+only\s+(?:\w+\s+)?(?:variable|difference|change)|"
            r"only\s+the\s+[\w.-]+\s+(?:\w+\s+)?(?:changed|differs?)|everything\s+else\s+(?:is\s+|was\s+)?(?:identical|the\s+same|unchanged|held\s+constant)|"
            r"all\s+(?:other\s+)?(?:settings|knobs|parameters|flags)\s+(?:are\s+|were\s+)?(?:identical|the\s+same|unchanged)|"
            r"same\s+(?:machine|stack|command|hardware|settings|binary|image)|same\s+(?:\d+\s+)?(?:nodes?|gpus?|cluster|servers?)\b|single[- ]variable|held\s+constant|"
            r"identical\s+(?:stack|settings|configuration)|"
            r"\bboth\s+(?:\w+\s+){0,2}(?:run|ran|use|used|loaded|served?)\s+(?:the\s+same\b|\S+\s+\S*\d)|"
            r"(?:identical|the\s+same|unchanged)\s+(?:on|for|across|in)\s+(?:both|all|each)\b"))

    def stack_comparison(self) -> TextFinding:
        single = self._single_variable()
        cmp_hits = self._comparison() or ([single] if single else [])  # "only X changed" says something is compared
        if not cmp_hits:
            return TextFinding("stack_comparison", "not_applicable", "nothing is compared")
        engines = {_engine_key(m.group(0)) for _, m in self._engine_mentions()}
        against = self.d.first(_rx(r"(?:than|vs\.?|versus|over|against|compared\s+(?:to|with)|beats?|outperforms?)\s+(?:the\s+)?(?:" + _ENGINES + r")\b"))
        gpus = {re.sub(r"(?i)^(nvidia|amd|instinct)\s+", "", m.group(0)).upper().replace(" ", "") for _, m in self.d.hits(_GPU_RX)}
        engine_or_hw = len(engines) >= 2 or len(gpus) >= 2 or against is not None
        weight, kv = self._formats()
        wf = _format_classes(m.group(0) for _, m in weight)
        kf = _format_classes(m.group(0) for _, m in kv)
        kernels = {m.group(0).lower() for _, m in self.d.hits(_rx(r"flashinfer|flash[-\s]?attention(?:[-\s]?[234])?|\btriton\b|xformers|aiter|cutlass|marlin"))}
        changes = []
        if len(wf) >= 2:
            changes.append("weight format (" + ", ".join(sorted(wf)) + ")")
        if len(kf) >= 2:
            changes.append("KV precision (" + ", ".join(sorted(kf)) + ")")
        if len(kernels) >= 2:
            changes.append("kernels (" + ", ".join(sorted(kernels)) + ")")
        if self.speculative_used():
            changes.append("speculative draft")
        providers = self.d.first(_rx(r"(?:other|competing|third[- ]party|rival)\s+(?:API\s+)?(?:providers?|vendors?|clouds?)(?:'s?)?\b|"
                                     r"varies\s+by\s+(?:provider|vendor)|each\s+model's\s+(?:default\s+)?(?:API\s+)?provider"))
        if providers:
            engine_or_hw = True
            changes.append("other providers' undisclosed stacks")
        if engine_or_hw and self._cache_disabled() and [h for h in self._cache_mentions() if not self._in(self._cache_disabled(), h)
                                                       and re.search(r"\b(?:on|enabled)\b", self.d.sentence(*h), re.I)]:
            changes.append("prefix caching on one side only")
        if engine_or_hw and not wf and self.d.first(_rx(r"quantiz\w*")):
            changes.append("quantization on one side")
        if engine_or_hw and self.d.first(_rx(r"(?:hand[- ]tuned|custom|fused|proprietary)\s+(?:\w+\s+)?kernels?")):
            changes.append("custom kernels on one side")
        ev_cmp = self.d.evidence(([against] if against else []) + cmp_hits[:2])
        if engine_or_hw and changes:
            return TextFinding("stack_comparison", "violation",
                               "an engine/hardware comparison that also changes " + "; ".join(changes) + ": a stack comparison", ev_cmp)
        if engine_or_hw and single:
            return TextFinding("stack_comparison", "ok", "single-variable comparison, stated as such", self.d.evidence([single]))
        if engine_or_hw:
            return TextFinding("stack_comparison", "unclear",
                               "engines or hardware are compared without showing the rest of the stack is identical", ev_cmp)
        return TextFinding("stack_comparison", "ok", "the comparison varies one dimension on a fixed engine and hardware",
                           self.d.evidence(([single] if single else []) + cmp_hits[:1]))

    def _table_values(self) -> list[str]:
        """Every number written in a table (the measured results, in most write-ups)."""
        return [n.replace(",", "") for i, b in enumerate(self.d.w.blocks) if b.kind == "table"
                for n in re.findall(r"\d[\d,]*(?:\.\d+)?", self.d.plains[i])]

    def evidence_class(self, capacity: TextFinding) -> TextFinding:
        f = self._figures()
        if not (f["lat"] or f["rate"] or f["req"] or f["goodput"]) and capacity.status == "not_applicable":
            return TextFinding("evidence_class", "not_applicable", "no performance figure reported")
        prose = ("paragraph", "list_item", "heading", "quote", "table")
        peak = _rx(r"\bup\s+to\s+(?:\d[\d,.]*\s*(?:k\s*)?(?:x\b|×|%|tok|tokens|t/s|req|ms\b|times|users)|[a-z]+\s+times)|(?<!off-)(?<!non-)\bpeak\b(?!\s+(?:load|traffic|hours?|usage|demand|concurrency|periods?|QPS|RPS))|\btheoretical(?:ly)?\b|on\s+paper|max(?:imum)?\s+(?:achievable|possible)|\broofline\b|"
                   r"memory[- ]bound|bandwidth[^.\n]{0,80}(?:\s/\s|divided|so\b)|(?<!\bno\s)(?<!\bnot\s)\bsynthetic\s+acceptance|(?<!\bno\s)(?<!\bnot\s)simulated\s+acceptance|"
                   # a spec-sheet compute figure used to derive a result ("1,979 TFLOPS ..., so prefilling ... takes 290 ms")
                   r"\d[\d,.]*\s*[TP]FLOP/?S\b[^.\n]{0,160}?(?:\bso\b|therefore|thus|=|divided|\s/\s)")
        labelled = _rx(r"\bceiling\b|\bin\s+theory\b|upper\s+bound|\bestimate[ds]?\b|not\s+(?:a\s+)?measure\w*|\bat\s+best\b|(?:upper|lower)\s+bound|projected|modelled|modeled|"
                       r"(?:vs|versus|against)\s+(?:the\s+)?measured|measured\s+(?:value|figure|result)s?\s+(?:is|are|was|were)")
        claim = _rx(r"deliver\w*|achiev\w*|\bhits?\b|you\s+get|serves?\b|we\s+(?:see|get|measured)|runs?\s+at|decodes?\s+at|reach\w*|"
                    r"in\s+practice|real[- ]world|our\s+service|every\s+customer|customers")
        # "up to 3.0x at 64 users" names the measured operating point of a sweep: a measurement, not a peak claim.
        pinned = re.compile(r"\bat\s+(?:(?:a\s+)?(?:concurrency|batch(?:\s+size)?|bs|QPS|rate|N)\s*(?:of\s*|=\s*)?\d|"
                            r"\d[\d,]*\s+(?:concurrent\s+)?(?:users|requests|clients|sessions|streams|QPS|req/s))", re.I)
        measured = self._table_values()
        peaks = [(i, m) for i, m in self.d.hits(peak, prose)
                 if not (m.group(0).lower().startswith("up") and (pinned.search(self.d.sentence(i, m)) or _in_values(m.group(0), measured)))]
        if capacity.status == "violation":
            return TextFinding("evidence_class", "violation", "a capacity estimate is presented as measured serving capability",
                               capacity.evidence)
        title = self.d.w.title or ""
        projected = self.d.first(_rx(r"\b(?:projected|extrapolated|simulated)\s+(?:from|performance|results?|figures?|using|with|by)\b"))
        if projected and (_RATE_FIG.search(title) or _LAT_KW.search(title)) and re.search(r"\d", title) \
                and not re.search(r"projected|estimated?|expected|simulated|up\s+to|ceiling", title, re.I):
            line = self.d.w.title_line or 1
            return TextFinding("evidence_class", "violation", "the headline states a projected figure as delivered performance",
                               [(line, quote_line(self.d.w.lines[line - 1]))] + self.d.evidence([projected]))
        if peaks:
            if self.d.first(labelled, prose):
                return TextFinding("evidence_class", "ok", "peak/ceiling figures are labelled as such",
                                   self.d.evidence([self.d.first(labelled, prose)]))
            if self.d.first(claim, prose):
                return TextFinding("evidence_class", "violation",
                                   "a peak or theoretical figure is presented as delivered performance",
                                   self.d.evidence(peaks[:2] + [self.d.first(claim, prose)]))
            return TextFinding("evidence_class", "unclear", "peak or theoretical language without saying what was measured",
                               self.d.evidence(peaks[:2]))
        return TextFinding("evidence_class", "ok", "figures are not presented as ceilings or peaks",
                           self.d.evidence((f["lat"] + f["rate"])[:1]))


_FORMAT_CLASS = [
    (r"bf16|bfloat16", "bf16"), (r"fp16|float16|f16", "fp16"), (r"fp32|float32", "fp32"),
    (r"fp8\w*|e4m3\w*|e5m2", "fp8"), (r"int8", "int8"), (r"int4|awq|gptq|w4a16|w4a8|nf4|bitsandbytes", "int4"),
    (r"nvfp4", "nvfp4"), (r"mxfp4", "mxfp4"), (r"fp4", "fp4"), (r"q(\d)_.*", r"gguf-q\1"), (r"(\d+(?:\.\d+)?)\s?bpw", r"exl2-\1bpw"),
]
# Scheme or container words that qualify a format rather than name one: "FP8 (W8A8)", "GGUF Q4_K_M", "INT8 SmoothQuant".
_FORMAT_QUALIFIERS = {"w8a8": "int8", "gguf": None, "exl2": None, "smoothquant": "int8"}


def _format_classes(names) -> set[str]:
    """Distinct precisions among format mentions (aliases and qualifiers folded)."""
    out: set[str] = set()
    qualifiers: set[str] = set()
    for name in names:
        key = re.sub(r"[_-]", "", name.lower()) if not re.match(r"(?i)q\d_", name) else name.lower()
        if key in _FORMAT_QUALIFIERS:
            qualifiers.add(key)
            continue
        for rx, cls in _FORMAT_CLASS:
            if re.fullmatch(rx, key):
                out.add(re.sub(rx, cls, key) if "\\" in cls else cls)
                break
        else:
            out.add(key)
    if "fp4" in out and out & {"nvfp4", "mxfp4"}:
        out.discard("fp4")
    for q in qualifiers:  # a qualifier alone still names a format
        if not out and _FORMAT_QUALIFIERS[q]:
            out.add(_FORMAT_QUALIFIERS[q])
    return out


def _in_values(claim: str, values: list[str]) -> bool:
    """Whether the number in ``claim`` ("up to 2.3x") is one of ``values`` at the claim's precision (2.29 -> 2.3):
    an "up to" that quotes the best measured row is a measurement, not a peak."""
    n = re.search(r"\d[\d,]*(?:\.(\d+))?", claim)
    if not n:
        return False
    digits = len(n.group(1) or "")
    target = float(n.group(0).replace(",", ""))
    return any(abs(round(float(v), digits) - target) < 1e-9 for v in values)


def judge_writeup(writeup: Writeup) -> tuple[list[TextFinding], list[TextFinding], list[tuple[str, list[tuple[int, str]]]], list[str]]:
    """Judge every contract item and metric rule on a parsed write-up.

    Returns (items, rules, inconsistencies, sections searched).
    """
    j = _Judge(_Doc(writeup))
    items = [j.model_artifact(), j.tokenizer(), j.weight_format(), j.kv_format(), j.engine_revision(), j.launch_command(),
             j.kernels(), j.hardware(), j.prompt_length(), j.output_length_requested(), j.output_length_completed(),
             j.request_count(), j.concurrency(), j.sampling(), j.stopping(), j.prefix_cache_state(), j.warmup(),
             j.distinct_prefixes(), j.latency_distributions(), *j.spec_items(), j.aggregation_rule(), j.exclusions()]
    capacity = j.capacity_vs_workload()
    rules = [j.observation_point(), j.tpot_definition(), j.throughput_basis(), j.goodput_slo(), j.cache_hit_labeling(),
             j.steady_decode(), capacity, j.stack_comparison(), j.evidence_class(capacity)]
    conflict = j.gpu_conflict()
    inconsistencies = [conflict] if conflict else []
    return items, rules, inconsistencies, j.searched
