"""The tokenizer, the weight format and the KV-cache format of the measured runs (contract group "stack").

LABELLING.md: a weight format is declared for a precision or scheme of the served weights (BF16, FP8,
AWQ, GPTQ, Q4_K_M, ``--dtype bfloat16``, a repo id ending in ``-FP8``); "quantized", "4-bit", "16-bit"
or a bare ``int4``/``int8`` leave the scheme open and are partial (batch-4 clarifications). A format
named in a sentence about the KV cache is the KV format, not the weights'. A format inside an
identifier counts only when that identifier is a checkpoint of the runs ("Qwen/Qwen3-35B-A3B-FP8",
not a drafter's "EAGLE3-gpt-oss-120b-bf16"). A tokenizer is declared only when it is identified on its
own (``--tokenizer X``, "token counts use the Llama-3 tokenizer"); a line of code that builds one
(``tokenizer = AutoTokenizer.from_pretrained(path)``) names none.
"""

from __future__ import annotations

import re

from .artifacts import model_mentions
from .findings import TextFinding, cite, partial_where_uncovered, run_setting, status_of, unless_declared
from .reading.anchors import anchors
from .reading.document import SENTENCE_REACH
from .reading.flagvalues import definite
from .reading.lexicon import INFERENCE, TRAINING, icase
from .reading.statements import capability, glued
from .reading.vocabulary import FAMILIES, FORMATS

__all__ = ["format_mentions", "kv_format", "tokenizer", "weight_format"]

# A bare integer width or bit count names no scheme (LABELLING.md batch-4: 'int4' alone is partial).
_BARE = re.compile(r"(?i)^(?:int[48]|\d{1,2}[- ]?bits?)$")


# A sentence about the precision of the KV cache ('KV cache quantization', 'kv int8', 'KV 量化'),
# not one that merely mentions the cache ('the KV cache for a model running with FP8').
_KV_QUANT = re.compile(r"kv[-_ ]?cache\s+(?:\w+\s+){0,2}?(?:quantiz|dtype|precision|format)|quantiz\w*\s+(?:\w+\s+){0,2}?kv\b|"
                       r"\bkv\s*(?:量化|int\d|fp\d|type|dtype)|\bkv[-_ ]?cache\s*量化", re.I)
_COMPUTE = re.compile(r"(?i)(?:multiplication|matmul|gemm|compute|computation|arithmetic|accumulat\w*|math)\s+(?:is\s+|are\s+)?(?:done\s+|performed\s+)?in\s+$")
_NOT_WEIGHTS = re.compile(r"(?i)\s+(?:logits?|buffers?|accumulat\w*|activations?|scores?|softmax|workspace|master\s+weights|gradients?|optimizer)\b")
_TODO = re.compile(r"\b(?:TODO|TBD|XXX)\b")
_WIDTH = icase(r"(?<![\w.-])(?:\d{1,2}[- ]?bits?|\d(?:\.\d+)?[- ]?bpw)\b(?![- ](?:kv|cache|activation))")
_WEIGHT_SCHEME = re.compile(r"(?i)awq|gptq|smooth\s*quant|gguf|q\d_|exl2|exllama|marlin|nf4|w\d+a\d+")


def tokenizer(ctx) -> TextFinding:
    decl = icase(r"--tokenizer[\s=]+\S+|tokenizer(?:_id|_name)?\s*[:=]\s*[\"']?[\w.-]+/[\w./-]+|"
                 r"(?:model'?s|its|the\s+model'?s)\s+(?:own\s+|bundled\s+|default\s+)?tokenizer|tokeni[sz]er\s+of\s+the\s+model|"
                 r"(?:tiktoken|cl100k|o200k)|sentencepiece\s+(?:tokeni[sz]er|model)|token\s+counts?\s+(?:use|from|by|with)\s+(?:the\s+)?\S+|"
                 r"tokeni[sz]ed\s+with\s+\S+|(?<![\w/.-])(?:" + FAMILIES + r")[\w.]*(?:[\s-]\d[\w.]*)?\s+tokeni[sz]er|"
                 r"tokeni[sz]er\s+(?:\w+\s+){0,4}?from\s+the\s+(?:target|model|same|served)\b|"
                 r"(?:counted|measured|computed)\s+(?:with|by|using)\s+(?:the\s+|each\s+)?(?:\S+\s+){0,3}?tokeni[sz]er")
    declared = list(ctx.d.hits(decl)) + ctx.d.flag_hits("tokenizer")
    # Tokenization discussed in the prose about the runs (how tokens were counted) without naming the tokenizer.
    counted = icase(r"tokeni[sz]\w*[^.\n]{0,60}\b(?:count|length|tokens\s+per)|\b(?:count|length)\w*[^.\n]{0,60}tokeni[sz]\w*")
    partial = ctx.d.hits(counted, ("paragraph", "list_item", "quote"))
    return status_of(ctx, "tokenizer", declared, unless_declared(declared, partial), "tokenizer statement",
                     "tokenizer identified", "tokenization discussed but the tokenizer is not identified")


def _kv_context(ctx, i: int, m: re.Match[str]) -> bool:
    text = ctx.d.plains[i]
    a, b = ctx.d.bounds(i, m.start(), m.end())
    if ctx.d.w.blocks[i].kind == "table" and _kv_column(ctx, i, m.start()):
        return True
    # names are not words: 'KVCache-ai/DeepSeek-R1-GGML-FP8' is an organisation, not a KV cache
    before = re.sub(r"[\w.-]+/[\w.-]*", " ", text[max(a, m.start() - 30):m.start()])
    row = text[max(ctx.d.line_bounds(i, m.start())[0], m.start() - SENTENCE_REACH):m.start()]
    if "|" in row and re.search(r"\|\s*kv", row, re.I):
        return True
    after = text[m.end():m.end() + 12]
    if re.search(r"\bkv\b|kv[-_ ]cache|cache[-_ ]type|-ctk|-ctv", before, re.I) or re.match(r"\s*(?:kv\b|kv[-_ ]cache)", after, re.I):
        return True
    # A sentence about KV-cache quantization names KV formats unless it says the weights ("int4/int8 量化 ... int8 kv").
    # Only a dtype can be a KV format: a weight scheme (AWQ, SmoothQuant, Q4_K_M) stays with the weights.
    sentence = re.sub(r"[\w.-]+/[\w.-]*", " ", text[a:b])
    return bool(_KV_QUANT.search(sentence)) and not _WEIGHT_SCHEME.match(m.group(0)) and \
        not re.search(r"weight|checkpoint|权重|重み|\bW\d+A\d+\b", sentence, re.I)


def _kv_column(ctx, block: int, offset: int) -> bool:
    """Whether the table cell at ``offset`` sits under a KV-cache column header ('kv type', 'KV dtype')."""
    for t in ctx.d.tables_at(block):
        for row in t.rows:
            for c, cell in enumerate(row):
                if cell.start <= offset < cell.end + 1 and c < len(t.header):
                    return bool(re.search(r"\bkv\b|kv[-_ ]?cache", t.header[c].text, re.I))
    return False


@run_setting
def format_mentions(ctx):
    """(weight, kv) format mentions of the measured runs, as (block, match)."""
    rx = icase(r"(?<![A-Za-z0-9])(?:" + FORMATS + r")(?![A-Za-z0-9])")
    checkpoints = [m for _, m in model_mentions(ctx)[0]]
    weight, kv = [], []
    for i, m in ctx.d.hits(rx):
        text = ctx.d.plains[i]
        if glued(text, m.start(), m.end()) and not any(c.start() <= m.start() < c.end() for c in checkpoints):
            continue  # a format inside a name that is not the runs' checkpoint (a drafter, a download table)
        if ctx.d.w.blocks[i].kind in ("paragraph", "list_item", "quote") and capability(ctx.d.sentence(i, m)):
            continue  # "supports FP8": what the engine can do, not what ran
        if _COMPUTE.search(text[max(0, m.start() - 40):m.start()]) or _NOT_WEIGHTS.match(text, m.end()):
            continue  # "the matrix multiplication in bfloat16", "the fp32 logits": arithmetic or tensors, not a stored format
        if ctx.d.w.blocks[i].kind in ("paragraph", "list_item", "quote"):
            sentence = ctx.d.sentence(i, m)
            if TRAINING.search(sentence) and not INFERENCE.search(sentence):
                continue  # "train (bf16) -> quantize -> export": the training flow, not the served weights
        (kv if _kv_context(ctx, i, m) else weight).append((i, m))
    return weight, kv


def weight_format(ctx) -> TextFinding:
    weight, _ = format_mentions(ctx)
    # a checkpoint named by its scheme ('-AWQ', '-FP8'); a name ending in '-int4' gives only a bit width (partial below)
    extra = icase(r"--dtype[\s=]+(?!auto)\w+|--quantization[\s=]+\w+|-(?:fp8|awq|gptq|w4a16|w8a8)\b")
    named = [h for h in weight if not _BARE.match(h[1].group(0))]
    bare = [h for h in weight if _BARE.match(h[1].group(0))]
    declared = named + list(ctx.d.hits(extra)) + ctx.d.flag_hits("weight_format", when=definite)
    vague = icase(r"quantiz\w*|(?<![\w.-])\d{1,2}[- ]bits?\b|--dtype[\s=]+auto|default\s+(?:dtype|precision)|半精度|量化|-int[48]\b")
    # (the vague mentions count only when nothing declares the format, as status_of reads them only then: looked up
    # here, taking their share of the scan budget, read only if needed)
    vague_hits = ctx.d.hits(vague)
    partial = [] if declared else bare + [h for h in vague_hits if not re.search(r"\bno\s+quantiz", ctx.d.window(*h, 10, 0), re.I)
                                          and not _kv_context(ctx, *h) and not _feature(ctx, *h)]
    finding = status_of(ctx, "weight_format", declared, partial, "weight dtype or quantization",
                        "weight format stated", "precision or quantization named without the scheme")
    if finding.status == "declared":
        # A setup whose weights are given only as a bit width ('INT4' rows beside 'BF16' rows, "with 4-bit
        # quantization" beside an AWQ command) leaves its scheme open: declared for some setups only, so partial
        # (LABELLING.md "Several setups" and batch-4: a bare int4 is partial). A width stated with its scheme on the
        # same line ("the INT4 implementation applies AWQ") is not open.
        widths = bare + [h for h in ctx.d.hits(_WIDTH) if not _kv_context(ctx, *h)]
        open_ = [(i, m) for i, m in _at_results(ctx, widths) if not _WEIGHT_SCHEME.search(ctx.d.line_text(i, m.start()))
                 and not ctx.d.plains[i].startswith("_", m.end())]  # 'int8_rowwise': a scheme's name
        if open_:
            return TextFinding("weight_format", "partial",
                               f"weight format stated ({cite(ctx, declared, 1)}), but {cite(ctx, open_, 1)} gives only a bit width",
                               ctx.d.evidence(open_[:1] + declared[:2]))
        # Declared for every measured setup, or partial (LABELLING.md "Several setups"): a result whose section
        # states no format while others do ("at fp16 precision" under one figure of several).
        partly = partial_where_uncovered(ctx, "weight_format", declared, "weight format stated")
        if partly:
            return partly
    return finding


def _at_results(ctx, hits) -> list:
    """The hits that label a reported result: in its table row or its sentence."""
    spans: dict[int, list[tuple[int, int]]] = {}
    for an in anchors(ctx):
        if _TODO.search(ctx.d.w.lines[ctx.d.ev(an.block, an.start)[0] - 1]):
            continue  # a row of placeholders ('| int4 | TODO(...) | - |') reports nothing (LABELLING.md)
        table = ctx.d.w.blocks[an.block].kind == "table"
        bounds = ctx.d.line_bounds if table else ctx.d.bounds
        spans.setdefault(an.block, []).append(bounds(an.block, an.start, an.end))
    return [(i, m) for i, m in hits if any(a <= m.start() < b for a, b in spans.get(i, ()))]


def _feature(ctx, i: int, m) -> bool:
    """A vague 'quantization' in a feature list, a capability sentence or the training flow ('* Quantization support',
    "supports quantized checkpoints", "quantization ... not yet measured"): not the weights of the runs."""
    if ctx.d.w.blocks[i].kind not in ("paragraph", "list_item", "quote"):
        return False
    sentence = ctx.d.sentence(i, m)
    if glued(ctx.d.plains[i], m.start(), m.end()) or (TRAINING.search(sentence) and not INFERENCE.search(sentence)):
        return True  # 'mtq.quantize(...)' is a call, "train (bf16) -> quantize -> export" the training flow
    return capability(sentence) or bool(re.search(r"(?i)\bnot\s+yet\b|尚未|暂不", sentence))


def kv_format(ctx) -> TextFinding:
    _, kv = format_mentions(ctx)
    flag = icase(r"--kv-cache-dtype[\s=]+(\w+)|kv_cache_dtype\s*[=:]\s*[\"']?(\w+)|(?:--cache-type-k|-ctk)\s+\w+")
    declared = list(kv) + ctx.d.flag_hits("kv_format", when=definite)
    partial = []
    for i, m in ctx.d.hits(flag):
        value = (m.group(1) or m.group(2) or "").lower()
        (partial if value in ("auto", "") else declared).append((i, m))
    # vague: a KV quantization named without its format, the cache's width only ("compressed to 4 bits"), a flag that
    # ties it to another setting ('--quantize_kv_cache'), the K cache's type alone (batches 1, 3, 9, 10)
    loose = ctx.d.hits(icase(r"kv[- ]cache\s+(?:quantiz\w*|precision|dtype)|quantiz\w*\s+kv|\bKV\d\b|quantize[_-]kv[_-]cache|"
                             r"kv[- ]cache\s+(?:is\s+|was\s+)?(?:compressed|quantized)\s+to\s+\d+[- ]?bits?|\bK[- ]cache\b"))
    return status_of(ctx, "kv_format", declared, unless_declared(declared, partial, loose), "KV-cache dtype",
                     "KV-cache format stated", "KV-cache precision mentioned without a definite format ('auto' or vague)")
