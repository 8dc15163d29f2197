"""Which model ran: the model_artifact item, read as LABELLING.md reads model names.

Declared: a Hub id (``org/name``), a weights file (``*.gguf``, ``*.pte``, ``*.flm``), or an official name that picks one
checkpoint: family, version and size ("Llama 3.1 8B Instruct", "Qwen2.5-7B", "ERNIE-4.5-21B-A3B"; with
no suffix an official name is the base checkpoint, batch-3 clarifications). Partial: a family or size
alone ("Llama 70B", "a 7B model", "Qwen", "Vicuna 13B" where several versions exist), two different
checkpoints given for the same setup (prose "Llama 3.1 70B", command ``Meta-Llama-3-70B-Instruct``), or
a checkpoint named for some of the reported results only. Missing: no model named for the runs.

Not models of the runs: a drafter or speculator's id (the target is what ran), a code path that happens
to contain a family name (``models/qwen_3_dspark.py``), a class name (``LlamaForCausalLM``), a person's
name in an author list ("Yi Wang").
"""

from __future__ import annotations

import re

from .findings import TextFinding, cite, hit_text, partial_where_uncovered, status_of
from .reading.anchors import anchors
from .reading.flagvalues import is_artifact
from .reading.lexicon import icase
from .reading.vocabulary import ENGINES, FAMILIES, patterns

__all__ = ["model_artifact", "model_mentions"]

_HUB = icase(r"(?<![\w/.:-])[A-Za-z0-9][\w.-]*/[\w.-]*(?:" + FAMILIES + r"|\d+(?:\.\d+)?[bm]\b)[\w.-]*")
_WEIGHTS_FILE = icase(r"[\w.-]+\.(?:" + patterns("weight_files", "extensions") + r")\b")  # "model.gguf", "gemma4.pte"
_TAG = icase(r"(?<![\w/.-])(?:" + FAMILIES + r")[\w.]*:[\w.-]*\d[\w.-]*")  # ollama tags: "llama3.1:8b"
# A model name as written: the family, then the words that belong to it ("Llama 3.1 8B Instruct",
# "Qwen2.5-7B-Instruct", "LLaMA-2-70b", "Vicuna 13B v1.3", "ERNIE-4.5-300B-A47B").
# ASCII words only: in Chinese or Japanese text the name touches other word characters ("LLaMA-70b模型", "Llama 2 70Bモデル").
_NAME = icase(r"(?<![A-Za-z0-9_/.-])(?:meta[-\s])?(?:" + FAMILIES + r")(?:[A-Za-z0-9_.]*)(?:(?:[-\s](?=[A-Za-z0-9_.]*\d)|-)[A-Za-z0-9_.]+){0,5}")
_SIZE = re.compile(r"(?i)(?<![A-Za-z])(?:\d+x)?\d+(?:\.\d+)?\s?[bm](?![A-Za-z])|\b(?:small|medium|large|xl)\b")
_VERSION = re.compile(r"(?i)^(?:meta[-\s])?[a-z-]+?[-\s]?v?\d+(?:\.\d+)?(?![\d.]*\s?[bm]\b)|[-\s]v\d+(?:\.\d+)?\b|-\d{4}\b")
_DRAFTER = re.compile(r"(?i)eagle|medusa|draft|specul|accelerator|\bmtp\b|lookahead|redrafter")
_NOT_MODEL = re.compile(r"(?i)^(?:For[A-Z]\w*|Model\b|Tokenizer|Config|Attention|Decoder|MLP)|^\s+[A-Z][a-z]+\b(?!\s*\d)")
# Families released once, one checkpoint per size: the size alone picks it ("OPT-30B", "GPT-J-6B", "gpt-oss-20b":
# openai/gpt-oss-20b and -120b, no base or instruct split).
_ONE_VERSION = re.compile(r"(?i)(?:meta[-\s])?(?:opt|gpt-j|gpt-neox|gpt-oss)-\d")
# A family word that starts a tool's or engine's name ('llama-bench', 'llama-server', 'llamacpp'): not a model.
_TOOL_NAME = re.compile(r"(?i)llama[-_.]?(?:bench|server|cli|cpp|swap|box|file|index|stack|factory)\b")
_FILE = re.compile(r"(?i)\.(?:py|json|ya?ml|md|txt|sh|cpp|h|cu|png|jpg)$")
_NUMBER_OWNER = re.compile(r"[\d.,]+/")
"""A number before the slash is a price or a ratio ("$0.35/1M tokens"), not a Hub owner."""
_ENGINE_NAME = icase(r"(?:" + ENGINES + r")(?![\w.-]*\d+(?:\.\d+)?\s?[bm]\b)")
"""An engine named after a model family ("llama.cpp", "mistral.rs", "llamafile"): not a model."""


def _exact_hits(ctx) -> list:
    out = [h for h in ctx.d.hits(_HUB) if not h[1].group(0).lower().startswith(("http", "github"))
           and not _FILE.search(h[1].group(0)) and not _DRAFTER.search(h[1].group(0))
           and not _NUMBER_OWNER.match(h[1].group(0))]
    out += list(ctx.d.hits(_WEIGHTS_FILE)) + list(ctx.d.hits(_TAG))
    out += ctx.d.flag_hits("model_artifact", when=lambda v: is_artifact(v) and not _DRAFTER.search(v))
    return out


def _named(text: str) -> bool:
    """An official name that picks one checkpoint: a version and a size, or a size with a variant suffix and a
    version given as 'v1.3'."""
    return bool(_SIZE.search(text)) and bool(_VERSION.search(text) or _ONE_VERSION.match(text))


def model_mentions(ctx) -> tuple[list, list]:
    """(checkpoints, vague mentions) of models in the measured runs, as (block, match)."""
    if "model_mentions" in ctx.cache:
        return ctx.cache["model_mentions"]
    exact = _exact_hits(ctx)
    spans = {(i, m.start()) for i, m in exact}
    by_block: dict[int, list[tuple[int, int]]] = {}  # the exact hits' spans per block, for _inside
    for i, h in exact:
        by_block.setdefault(i, []).append((h.start(), h.end()))
    named, vague = [], []
    for i, m in ctx.d.hits(_NAME):
        text = ctx.d.plains[i]
        if _NOT_MODEL.match(text, m.end()) or (i, m.start()) in spans or _inside(by_block.get(i, ()), m):
            continue
        if _ENGINE_NAME.match(text, m.start()) or _TOOL_NAME.match(text, m.start()):
            continue
        word = text[m.start():m.end()]
        if re.search(r"For[A-Z]|Model$|Tokenizer|Config|Attention|Decoder", ctx.d.w.blocks[i].text[m.start():m.end()]):
            continue  # a class name (LlamaForCausalLM) is code, not the model that ran
        if re.fullmatch(r"(?i)yi|phi|glm", word.strip()):
            continue  # a bare short family word is more often a name or a word than a model ("Yi Wang")
        (named if _named(word) else vague).append((i, m))
    vague += ctx.d.flag_hits("model_artifact", when=lambda v: not is_artifact(v) and not _DRAFTER.search(v))
    ctx.cache["model_mentions"] = (exact + named, vague)
    return ctx.cache["model_mentions"]


def _inside(spans, m) -> bool:
    """Whether ``m`` starts inside one of ``spans`` (the exact hits of its own block)."""
    return any(a <= m.start() < b for a, b in spans)


def _key(text: str) -> tuple[str, str] | None:
    """(family, size) of a model name, for telling two checkpoints of one setup apart."""
    fam = re.search(r"(?i)(?:" + FAMILIES + r")", text)
    size = _SIZE.search(text)
    return (fam.group(0).lower(), size.group(0).lower().replace(" ", "")) if fam and size else None


def _version(text: str) -> str:
    """The generation written right after the family ('3.1' of 'Llama 3.1 70B', '3' of 'Meta-Llama-3-70B')."""
    m = re.search(r"(?i)(?:" + FAMILIES + r")[-\s]?(\d+(?:\.\d+)?)(?![\d.]*\s?[bm]\b)", text.split("/")[-1])
    return m.group(1).replace(".", "") if m else ""  # 'llama31-8b' and 'Llama-3.1-8B' are one generation


def _conflict(ctx, hits) -> list:
    """The model a run command loads and a name in the prose that disagree on the generation for the same
    family and size (prose "Llama 3.1 70B", command ``Meta-Llama-3-70B-Instruct``): one setup, two values.
    Only when the commands load one model: several models are several setups."""
    loaded = ctx.d.flag_hits("model_artifact", when=is_artifact)
    if len({_key(hit_text(ctx, h)) for h in loaded}) != 1:
        return []
    command = loaded[0]
    key, version = _key(hit_text(ctx, command)), _version(hit_text(ctx, command))
    if not key or not version:
        return []
    for hit in hits:
        text = hit_text(ctx, hit)
        if hit[0] != command[0] and _key(text) == key and _version(text) and _version(text) != version:
            return [hit, command]
    return []


def _vague_results(ctx, checkpoints, vague) -> list:
    """Vague names inside reported results ('| Llama 7B | 164 t/s |') that no checkpoint of the same family
    and size settles anywhere in the runs."""
    rows = {(a.block, a.start) for a in anchors(ctx)}
    blocks = {b for b, _ in rows}
    named = [(_key(hit_text(ctx, h)), hit_text(ctx, h).lower()) for h in checkpoints]
    out = []
    for i, m in vague:
        if i not in blocks or (ctx.d.w.blocks[i].kind == "table" and (i, ctx.d.line_bounds(i, m.start())[0]) not in rows):
            continue
        text = hit_text(ctx, (i, m))
        key = _key(text)
        fam = re.search(r"(?i)(?:" + FAMILIES + r")", text)
        settled = any(k == key for k, _ in named) if key else any(fam and fam.group(0).lower() in t for _, t in named)
        if not settled:
            out.append((i, m))
    return out


def model_artifact(ctx) -> TextFinding:
    exact, vague = model_mentions(ctx)
    if exact:
        clash = _conflict(ctx, exact)
        if clash:
            return TextFinding("model_artifact", "partial",
                               f"two checkpoints for one setup: {cite(ctx, clash, 2)}", ctx.d.evidence(clash))
        loose = _vague_results(ctx, exact, vague)
        if loose:
            return TextFinding("model_artifact", "partial",
                               f"checkpoint named ({cite(ctx, exact, 1)}), but results name only {cite(ctx, loose, 2)}",
                               ctx.d.evidence(loose + exact[:1]))
        partly = partial_where_uncovered(ctx, "model_artifact", exact, "checkpoint named")
        if partly:
            return partly
    return status_of(ctx, "model_artifact", exact, vague, "model name or Hub id",
                     "exact artifact named (Hub id, file or full checkpoint name)",
                     "only a model family or size is named, not one checkpoint")
