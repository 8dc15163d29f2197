"""What the write-up says about cache and warm-up state: prefix cache, warm-up, distinct prefixes
(contract group "state").
"""

from __future__ import annotations

import re

from .reading.cells import vague_phrases
from .reading.lexicon import TTFT_KW, icase
from .findings import TextFinding, cite, run_setting, status_of, unless_declared
from .stack import engines_without

__all__ = ["cache_disabled", "cache_mentions", "distinct_prefixes", "has_ttft_figure", "prefix_cache_state", "warmup"]


@run_setting
def cache_mentions(ctx):
    return list(ctx.d.hits(icase(r"prefix[- ]cach\w*|prompt\s+cach\w*|radix\s+cache|kv[\s_-]+(?:cache[\s_-]+)?reuse|cache\s+hits?|"
                                 r"warm\s+(?:cache|prefix)|cold\s+cache|cached\s+prefix|\bAPC\b|context\s+caching|"
                                 r"enable[-_]prefix[-_]caching|disable[-_]radix[-_]cache")))


@run_setting
def cache_disabled(ctx):
    return list(ctx.d.hits(icase(r"--no-enable-prefix-caching|--disable-radix-cache|enable_prefix_caching\s*=\s*False|"
                                 r"(?:prefix|prompt)[- ]cach\w*(?:(?!enabled|\bon\b|\bbut\b|\bwhile\b)[^.;|]){0,100}?"
                                 r"\b(?:disabled|off|turned\s+off|not\s+(?:used|enabled)|disallowed)\b|"
                                 r"kv[-_ ]cache[-_ ]reuse\W{0,3}\s*[:=]\s*false|"
                                 r"(?:disabled?|turned\s+off|without)\s+(?:the\s+)?(?:prefix|prompt)[- ]cach|"
                                 # a list of what was switched off: "turn off specific optimizations like quantization, ..., prefix cache"
                                 r"\b(?:turn(?:ed|s)?\s+off|disabl(?:e|ed|es))\s+(?:\w+\s+){0,3}?(?:optimizations?|features?)\s+"
                                 r"(?:like|such\s+as|including)\s+[^.;]{0,80}?(?:prefix|prompt)[- ]cach")))


_ROUTING = re.compile(r"[\s-]*(?:aware|scorer|scoring|routing|router|affinity|based\s+routing)\b", re.I)


def prefix_cache_state(ctx) -> TextFinding:
    state_words = re.compile(r"disabled|\boff\b|enabled|\bon\b|cold|warm|reset|flush|clear|hit\s+rate|hits?\b|second\s+(?:pass|run)|"
                             r"first\s+(?:pass|run)|turned|not\s+used|disallowed|[:=]\s*(?:false|true)\b", re.I)
    declared = cache_disabled(ctx) + ctx.d.flag_hits("prefix_cache")
    declared += list(ctx.d.hits(icase(r"cache\s+(?:was\s+|is\s+)?(?:flushed|reset|cleared)|reset_prefix_cache|"
                                      r"(?:cold|warm)\s+(?:prefix\s+)?cache|cache\s+hit\s+rate|hit\s+rate|"
                                      # "the benchmark intentionally measured zero reuse"
                                      r"\b(?:zero|0\s*%?)\s+(?:prefix[- ]cache\s+|cache\s+|kv[- ]cache\s+|prefix\s+)?(?:reuse|cache\s+hits)\b|"
                                      r"\bno\s+(?:prefix[- ]cache|cache|kv[- ]cache|prefix)\s+(?:reuse|hits)\b")))
    partial = []
    for i, m in cache_mentions(ctx):
        if _ROUTING.match(ctx.d.plains[i], m.end()):
            # "prefix-cache aware routing", "prefix cache scorer": caching is in play, but this says how requests are
            # routed, not the state of the cache in the reported runs
            partial.append((i, m))
            continue
        (declared if state_words.search(ctx.d.sentence(i, m)) and "enable-prefix" not in m.group(0).lower()
         else partial).append((i, m))
    # A freshly (re)started server implies a cold cache without saying so.
    restarted = ctx.d.hits(icase(r"fresh(?:ly)?\s+(?:started|restarted|launched)\s+(?:\w+\s+)?(?:server|engine|instance)|"
                                 r"restart(?:ed|ing)?\s+the\s+(?:server|engine)|server\s+(?:was\s+)?restarted"))
    reused = ctx.d.hits(vague_phrases("prefix_cache_state"))  # KV or context reuse, state at each run's start open
    # '--disable-radix-cache' on the SGLang side says nothing of the vLLM runs it is compared with
    uncovered = engines_without(ctx, declared) if declared else []
    if uncovered:
        return TextFinding("prefix_cache_state", "partial",
                           f"{cite(ctx, declared, 1)} is stated for some engines only; nothing for {cite(ctx, uncovered, 2)}",
                           ctx.d.evidence(declared[:2] + uncovered[:1]))
    return status_of(ctx, "prefix_cache_state", declared, unless_declared(declared, partial, restarted, reused), "prefix-cache state",
                     "prefix-cache state stated", "prefix caching mentioned without saying cold, warm, reused or cleared")


def warmup(ctx) -> TextFinding:
    rx = icase(r"(?:\d+|two|three|five|ten)\s+warm[- ]?ups?\b|warm[- ]?up(?:[\s_]+requests?|[\s_]+runs?|[\s_]+iterations?)?\s*(?:of\s*|[:=]\s*|with\s+)?\d+|"
               r"--num-warmups?[\s=]+\d+|\d[\d,]*[- ](?:requests?|quer(?:y|ies)|prompts?|iterations?|runs?)[- ]warm[- ]?ups?\b|--warmup[\w-]*[\s=]+\d+|warmed\s+up\s+(?:with|using|by)\s+\S+|"
               r"(?:discard|drop|exclud|skip|ignor)\w*\s+(?:the\s+)?(?:first|initial)\s+(?:\d+\s+)?(?:runs?|pass(?:es)?|iterations?|requests?)|"
               r"(?:first|initial)\s+(?:runs?|pass(?:es)?|iterations?)\s+(?:was|were)\s+(?:discarded|dropped|excluded|ignored)|"
               r"from\s+the\s+second\s+(?:pass|run)|second\s+(?:pass|run)|cuda\s+graphs?\s+(?:were\s+|was\s+|are\s+)?(?:captured|enabled|disabled|on|off)|"
               r"graph\s+capture|enforce[-_]eager|no\s+warm[- ]?up")
    # torch.compile is a compilation mode, not a warm-up procedure or a graph-capture state: it says nothing of what
    # ran before timing (sgl-project/sglang EAGLE docs, pytorch/ao inference docs)
    # "we warmed the server up"; a bare use of CUDA graphs with nothing about timing (LABELLING.md, batch-2: partial)
    part = icase(r"warm(?:ed)?[- ]?up\w*|warm(?:ed|ing)\s+(?:the\s+)?\w+\s+up\b|预热|ウォームアップ|"
                 r"cuda[- ]?graphs?\b|--use[-_]cuda[-_]graph|--cuda-graph-max-bs|--max-seq-len-to-capture|"
                 # graphs compiled ahead of time (LABELLING.md after batch 8: Neuron, TensorRT engines): "All models are
                 # compiled", "compiled for Neuron"
                 r"\b(?:all\s+)?models?\s+(?:are|were|is|was)\s+compiled\b|\bcompiled\s+(?:for|to|into)\s+(?:AWS\s+)?(?:neuron|inferentia|tensorrt)")
    declared = list(ctx.d.hits(rx)) + ctx.d.flag_hits("warmup", when=lambda v: v.strip() not in ("", "0")) + ctx.d.flag_hits("graph_capture")
    # "we replayed 1,000 queries to warm the cache": a warm-up procedure with its size, in other words
    # ("the first 30 s at each rate are a warm-up ... and are discarded"): a warm-up procedure with its size.
    verb = icase(r"\bto\s+warm\b|\bwarm(?:ed|ing)\s+(?:the\s+)?(?:cache|server|engine|model|gpus?)\b|\bwarm[- ]?ups?\b")
    size = re.compile(r"\d[\d,]*\s+(?:\w+\s+){0,2}(?:requests|queries|prompts|iterations|runs|passes|conversations)|"
                      r"\d+\s*(?:s|sec|seconds|min|minutes)\b", re.I)
    declared += [(i, m) for i, m in ctx.d.hits(verb) if size.search(ctx.d.sentence(i, m))]
    return status_of(ctx, "warmup", declared, unless_declared(declared, ctx.d.hits(part)), "warm-up procedure or graph-capture state",
                     "warm-up procedure or graph-capture state stated", "warm-up mentioned without the procedure")


# a prefill figure in other words than TTFT_KW's: "Prefill (tokens/sec)", "19 prompt tokens processed", llama.cpp's
# "PG (22) T/s" and "(PP)" columns, "pre-filling latency", "encoding time" (batches 7-9)
_PREFILL_FIGURE = icase(r"\bprefill(?:ing)?\b[^.\n|]{0,20}?(?:tok(?:en)?s?\s*/\s*s|tokens?\s+per\s+second|\bt/s|\bms\b|speed|latency|time|rate)|"
                        r"\bpre-?filling\s+(?:speed|latency|time|stage|speed-?up)|\bprompt\s+tokens?\s+processed|\bPG\s*\(\s*\d|\(\s*PP\s*\)|"
                        r"\bencoding\s+time\b|预填充|预处理速度|プリフィル|"
                        # a prefill speed-up, a prompt rate as mlx_lm prints it, Ascend's '全量' (the full, first step),
                        # an encoder's speed (batches 1-10)
                        r"\bpre-?fill(?:ing)?\b[^.\n|]{0,20}?\d+(?:\.\d+)?\s*[x×]|"
                        r"\bprompt\b(?:[^.\n|]|\.\d){0,25}?tok(?:en)?s?[\s-]*(?:/|per)[\s-]*s(?:ec(?:ond)?)?\b|"
                        r"全量\s*(?:[（(]\s*m?s\s*[)）]|耗时|时延|延迟)|编码速度|"
                        # llama-bench's pp tests and sweep-bench's S_PP / T_PP columns, a prompt speed in words
                        r"\bpp\d{2,}\b|\b[ST]_PP\b|\bprompt\s+(?:processing\s+)?speed\b")


def has_ttft_figure(ctx):
    for rx in (TTFT_KW, _PREFILL_FIGURE):
        for i, m in ctx.d.hits(rx):
            if re.search(r"\d", ctx.d.plains[i]):
                return (i, m)
    # a table column of first-token or prefill figures named by its header, glossary, caption or heading
    for claim in ctx.d.claims:
        if claim.metric in ("ttft", "prefill_latency", "prefill_rate") and ctx.d.in_view(claim.block, claim.start, "run"):
            from .reading.document import Spot

            return (claim.block, Spot(claim.start, claim.end, claim.label))
    return None


def distinct_prefixes(ctx) -> TextFinding:
    fig = has_ttft_figure(ctx)
    if fig is None:
        return TextFinding("distinct_prefixes", "not_applicable", "no TTFT or prefill figure is reported")
    rx = icase(r"\bdistinct\b|\bunique\b|different\s+(?:prompts|prefixes|seeds?|--seed)|--seed\s+\$|--seed[^\n]{0,20}per\s+run|"
               r"no\s+(?:two\s+runs|shared)\s+\w*\s*(?:share\s+)?prefix|share[sd]?\s+(?:a|the|no|one)\b[^.\n]{0,40}prefix|"
               r"shared\s+(?:system\s+)?prompt|shared\s+by\s+all|no\s+prefix\s+(?:sharing|overlap|reuse)|"
               r"fresh\s+(?:random\s+)?seed|new\s+seed|cache\s+(?:was\s+|is\s+)?(?:flushed|reset|cleared)|"
               # stated repeats settle it too ("two production-shaped prompts repeated")
               r"prompts?\s+(?:were\s+|are\s+|is\s+|was\s+)?repeated|repeated\s+(?:prompts?|requests?)|"
               # random-token prompts share no prefix (LABELLING.md distinct_prefixes)
               r"random\s+(?:dataset|prompts?|tokens?|token\s+prompts?|inputs?)|--dataset-name[\s=]+random\b|"
               r"[\"']?dataset(?:_name)?[\"']?\s*[:=]\s*[\"']?random\b|--random-input-len")
    declared = list(ctx.d.hits(rx))
    part = icase(r"sharegpt|mt-bench|alpaca|lmsys-chat|synthetic\s+prompts|--dataset-name|"
                 r"production\s+trace|(?:request|workload|traffic|user)\s+traces?|\btraces?\s+(?:of|from)\s+(?:production|real|user|live)|"
                 r"\bdataset\b|\blogs\b|replay(?:s|ed|ing)?\s+(?:of\s+)?(?:a\s+|the\s+)?(?:production\s+|recorded\s+|real\s+)?"
                 r"(?:traces?|traffic|requests|logs|conversations)|(?:drawn|sampled)\s+from")
    partial = list(ctx.d.hits(part)) + list(ctx.d.hits(vague_phrases("distinct_prefixes")))
    if not partial:
        # With the prefix cache off, shared prefixes cannot shorten TTFT; but prompts drawn from a dataset still
        # leave open whether they share prefixes (LABELLING.md: partial), whatever the engine did.
        declared += cache_disabled(ctx)
    return status_of(ctx, "distinct_prefixes", declared, partial, "statement on prefix distinctness",
                     "prefix sharing/distinctness stated", "prompt source named but not whether prefixes are distinct")
