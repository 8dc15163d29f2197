"""Rule capacity_vs_workload: a configured or memory-derived capacity is not the served load.
"""

from __future__ import annotations

from ..reading.lexicon import icase
from ..findings import TextFinding, said
from ..reading.cells import cell_hits

__all__ = ["capacity_vs_workload"]

_CAPACITY_LABEL = icase(r"\bcontext\s+(?:size|length|window)\b|\bcache\s+length\b|\bcapacity\s*\(tokens?\)|"
                        r"\bmax(?:imum)?[\s_-]*(?:context|model)[\s_-]*len(?:gth)?\b|上下文长度")
"""Table headers whose cells are capacities (a configured or supported context, a KV pool in tokens)."""

# the lines of vLLM's start-up log that report a capacity ("GPU KV cache size: 52,960 tokens", "Maximum concurrency for
# 16,384 tokens per request: 3.23x", "# GPU blocks: 3310")
_ENGINE_LOG = icase(r"GPU\s+KV\s+cache\s+size|maximum\s+concurrency\s+for|#\s*GPU\s+blocks")


# a setting explained as the most that fits: a capacity, not a bare flag
_MOST_THAT_FITS = r"\d[\d,.]*\s*[kK]?\b[^.\n\d]{0,12}?\bmax(?:imum)?\b(?:\s+[\w-]+){0,2}?\s+(?:that|which)\s+(?:can\s+)?fits?\b"
_FITS = icase(_MOST_THAT_FITS)


def capacity_vs_workload(ctx) -> TextFinding:
    cap = icase(r"maximum\s+concurrency\s+for|max(?:imum)?\s+concurrency\s*(?:is|of|:)\s*\d|KV[- ]cache\s+(?:can\s+)?(?:holds?|fits?|capacity|size|has\s+room)[^.\n]{0,40}\d|"
                r"#\s*GPU\s+blocks|GPU\s+KV\s+cache\s+size|can\s+(?:serve|support|handle|fit|hold)\s+(?:up\s+to\s+|about\s+|around\s+|roughly\s+|~\s*)?\d|"
                r"(?:free|left|available|room)\s+for\s+(?:the\s+)?KV\b|"
                r"supports?\s+(?:up\s+to\s+)?\d[\d,]*\s+(?:concurrent|simultaneous|users|requests|sequences|sessions)|"
                r"\d[\d,.]*k?\s+tokens?\s+of\s+KV|\d[\d,.]*\s*[kM]?[- ]tokens?\s+KV[- ]cache|\d[\d,.]*\s*[kM]?\s+(?:HBM\s+|GPU\s+)?KV(?:[- ]cache)?\s+tokens\b|(?:context\s+(?:window|length)|max[-_ ]model[-_ ]len)\s+(?:of|is|=)\s+\d|"
                # a context capacity stated as a limit or a model's support ("Context limit | 20,480", "Default context length:
                # 1024 tokens", "原生支持 65,536 tokens 的上下文长度", "上下文长度 | 4K", "limits the context size to 2048")
                r"context\s+limit\b[^.\n]{0,12}?\d|(?:default|max(?:imum)?|native)\s+context(?:\s+(?:length|window|size))?\s*(?:of|is|=|:)\s*\d|"
                r"limits?\s+the\s+context(?:\s+size)?\s+to\s+\d|(?:支持|原生|最大|最长|默认)[^。\n\d]{0,4}\d[\d,.]*\s*[kK]?[^。\n]{0,12}?上下文|上下文(?:长度|窗口)[^。\n|]{0,20}\|[^|\n]{0,12}\d|"
                # what a model or a KV pool can hold: "supports a context length of up to 3.3 million tokens", "can accommodate
                # 3.3 million tokens", "16864 usable tokens", "模型的最大长度为 128K", "最大 8192 シーケンス長をサポート",
                # "最大で320,000トークンまでサポート" (batches 7-9)
                r"supports?\s+(?:a\s+)?(?:context|sequence)\s+(?:length|window|size)s?\s+of\s+(?:up\s+to\s+)?\d|can\s+accommodate\s+(?:up\s+to\s+)?\d|"
                r"\d[\d,.]*\s*[kM]?\s+usable\s+(?:KV\s+)?tokens|KV\s+(?:cache\s+)?(?:pool|capacity)\s+(?:size\s+)?(?:of|is|=|:)\s*\d|"
                r"最大(?:长度|上下文长度|序列长度)\s*(?:为|是|:|：)?\s*\d|最大\s*\d[\d,.]*\s*[kK]?\s*(?:の)?(?:シーケンス長|トークン|コンテキスト)[^。\n]{0,12}?サポート|"
                r"最大で\s*\d[\d,.]*\s*[kK]?\s*(?:トークン|tokens?)\s*まで|"
                # a KV pool or its memory, a context window in parentheses, a KV reduction ("KV pool sizes 53.15 GiB",
                # "KV capacities 68,000 tokens", "51% more memory for the KV cache", "reduces the KV cache by 93.3%",
                # "フルコンテキストウィンドウ（262Kトークン）", "Context size 4096": batches 7-10)
                r"KV\s+(?:cache\s+)?pool\s+sizes?\b[^.\n]{0,20}\d|KV\s+(?:cache\s+)?capacit(?:y|ies)\b[^.\n]{0,20}\d|"
                r"(?:more|less)\s+memory\s+for\s+(?:the\s+)?KV\s+cache|reduc\w*\s+(?:the\s+)?KV[- ]cache\s+(?:\w+\s+)?by\s+\d|"
                r"context\s+window\s*[（(]\s*\d|コンテキストウィンドウ\s*[（(]\s*\d|\bcontext\s+size\s*(?:of\s+|[=:|]\s*)?\d|"
                # a setting explained as the most that fits ("--ctx-size 28500 max that can fit on 3090 after draft model",
                # "--ctx-size 80000 - the maximum context size that can fit in the remaining VRAM": llama-swap examples, batch 13)
                + _MOST_THAT_FITS)
    prose = ("paragraph", "list_item", "heading", "quote")
    misread = icase(r"(?:serve|support|handle|run)s?\s+(?:up\s+to\s+|about\s+|around\s+|roughly\s+|~\s*)?\d[\d,]*\s+(?:concurrent\s+|simultaneous\s+|parallel\s+)?"
                    r"(?:chat\s+|[\d.]+k?-token\s+)?(?:users|requests|sessions|customers|conversations)|"
                    r"in\s+practice|users\s+at\s+full|(?:serve|run|handle|support)s?\b(?:[^.\n]|\.\d){0,60}?\bat\s+(?:its\s+|the\s+)?(?:full|max(?:imum)?)\s+(?:\d+\s*k\s+)?context|that\s+means\s+one|so\s+(?:one|the\s+server|it)\s+(?:can\s+)?(?:serve|support|handle)")
    found = [h for h in ctx.d.hits(cap, kinds=prose + ("table",))]
    if not found:
        # a table column or row of capacities: 'Context size', 'cache length', 'GPU / CPU capacity (tokens)' (batches 7-11)
        found = cell_hits(ctx, _CAPACITY_LABEL, scope="any")[:2]
    code_cap = [h for h in ctx.d.hits(cap, kinds=("code",))]
    if not found:
        # A capacity flag quoted in prose is only a flag, unless the same paragraph reads it as served load
        # ("configured with --max-model-len 131072 and --max-num-seqs 50, each node serves 50 users").
        flags = list(ctx.d.hits(icase(r"--max-model-len[\s=]+\d|--max-num-seqs[\s=]+\d|max_seq_len\s*[=:]?\s*\d|"
                                      r"max_num_seqs\s*[=:]\s*\d|--max-batch-size[\s=]+\d"), kinds=prose))
        if {i for i, _ in flags} & {i for i, _ in ctx.d.hits(misread, kinds=prose)}:
            found = flags
    if not found:
        if code_cap and ctx.d.first(icase(r"so\s+(?:the|it|one)|in\s+practice|which\s+means|therefore"), ("paragraph", "list_item")):
            found = code_cap
        elif fits := [h for h in code_cap if _FITS.search(h[1].group(0))]:
            found = fits  # a command's setting explained as the most that fits: judged below like one in prose
        elif logged := [h for h in code_cap if _ENGINE_LOG.match(h[1].group(0))]:
            # the engine's start-up log quoted in the write-up reports a capacity (LABELLING.md: "max concurrency" from a
            # log is a capacity figure); a flag alone is not one
            i, m = logged[0]
            return TextFinding("capacity_vs_workload", "ok", f"the engine log quoted at line {ctx.d.ev(i, m.start())[0]} reports a "
                               "capacity, and no sentence reads it as served load", ctx.d.evidence(logged[:1]))
        else:
            return TextFinding("capacity_vs_workload", "not_applicable",
                               "no capacity figure is discussed (max-model-len only as a flag, if at all)")
    bad = [(i, m) for i, m in ctx.d.hits(misread, kinds=("paragraph", "list_item", "heading", "quote"))
           if any(ctx.d.beside(i, j) for j, _ in found + code_cap)]
    if bad:
        return TextFinding("capacity_vs_workload", "violation",
                           f"the capacity figure {said(ctx, found[0])} is read as served load by {said(ctx, bad[0])}: "
                           "what fits is not what the benchmark ran", ctx.d.evidence(found[:1] + bad))
    good = ctx.d.first(icase(r"capacity,?\s+not|is\s+(?:a\s+)?capacity|configured\s+(?:capacity|maximum)|not\s+the\s+(?:active|served)|"
                             r"active\s+(?:tokens|sequences|context)|actual\s+(?:prompt|context|load)"))
    if good:
        return TextFinding("capacity_vs_workload", "ok", "capacity is kept apart from the served workload", ctx.d.evidence([good]))
    # LABELLING.md: ok when the write-up keeps capacity and measured workload apart; a capacity figure that no
    # sentence reads as served load or as what the benchmark ran is kept apart
    i, m = found[0]
    quoted = m.group(0) if type(m).__name__ == "Spot" else ctx.d.sentence(i, m)  # a table cell quotes its label too
    return TextFinding("capacity_vs_workload", "ok",
                       f"the capacity figure '{' '.join(quoted.split())[:80]}' (line {ctx.d.ev(i, m.start())[0]}) "
                       "is not presented as served load or as what the benchmark ran", ctx.d.evidence(found[:2]))
