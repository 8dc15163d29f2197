"""Rule stack_comparison: a comparison that changes several stack elements cannot credit one of them.
"""

from __future__ import annotations

import re

from ..findings import TextFinding, hit_text
from ..reading.lexicon import icase
from ..reading.mentions import comparison_hits, listed_only
from ..reading.vocabulary import ENGINE_RX, ENGINES
from .baseline import baseline_elsewhere
from .sides import compared_sides, differences, format_classes
from .trend import confounded_trend
from .trace import credited_mixups

__all__ = ["format_classes", "stack_comparison"]


def _single_variable(ctx):
    """Where the text says a comparison changes one thing only (first match, or None)."""
    return ctx.d.first(icase(
        r"only\s+(?:the\s+)?(?:\S+\s+){0,3}(?:variable|difference|change|thing)|the\s+only\s+(?:\w+\s+)?(?:variable|difference|change)|"
        r"only\s+the\s+[\w.-]+\s+(?:\w+\s+)?(?:changed|differs?)|everything\s+else\s+(?:is\s+|was\s+)?(?:identical|the\s+same|unchanged|held\s+constant)|"
        r"all\s+(?:other\s+)?(?:settings|knobs|parameters|flags)\s+(?:are\s+|were\s+)?(?:identical|the\s+same|unchanged)|"
        r"same\s+(?:machine|stack|command|hardware|settings|binary|image)|same\s+(?:\d+\s+)?(?:nodes?|gpus?|cluster|servers?)\b|single[- ]variable|held\s+constant|"
        r"identical\s+(?:stack|settings|configuration)|"
        r"\bboth\s+(?:\w+\s+){0,2}(?:run|ran|use|used|loaded|served?)\s+(?:the\s+same\b|\S+\s+\S*\d)|"
        # every compared system set up alike: "all frameworks turn off specific optimizations like quantization ..."
        r"\ball\s+(?:the\s+)?(?:frameworks|engines|systems|baselines|runtimes)\s+(?:turn\s+off|disable|use|run|share|were\s+run|are\s+run)\b|"
        r"(?:identical|the\s+same|unchanged)\s+(?:on|for|across|in)\s+(?:both|all|each)\b|"
        # Chinese and Japanese: only one parameter changed, the rest identical, the same machine
        r"只改(?:了|变了?)?一个|仅(?:改变|修改)了?一个|唯一的?(?:变量|区别|差异|不同)|其[余他](?:的)?(?:配置|参数|设置)\S{0,4}?(?:相同|一致|不变)|"
        r"同一(?:台|套|个|组)(?:机器|服务器|节点|硬件|配置|环境)|のみを?変更|同じ(?:ハードウェア|マシン|設定|環境|ノード)"))


def stack_comparison(ctx) -> TextFinding:
    """Judge the comparison from the two sides actually compared and what the text says about each.

    violation: the sides differ in the element compared and in another stack element, both stated,
    and the gain is credited to the comparison; ok: the text says one thing changed, or it toggles one
    feature, or compares engines/accelerators on a shared stated setup with nothing else differing;
    unclear: what else differed is not stated.
    """
    mixups = credited_mixups(ctx)
    if mixups:
        x = mixups[0]
        others = "; ".join(f"{name} ({a or 'empty'} vs {b or 'empty'})" for name, a, b in x.others)
        return TextFinding("stack_comparison", "violation",
                           f"line {x.line} credits {x.credited} with {x.figure}, which compares {x.row} with {x.baseline} "
                           f"(configuration table, line {x.table_line}); those rows also differ in {others}: "
                           "the gain cannot be credited to one element",
                           [(x.line, x.quote)] + [(n, " ".join(ctx.d.w.lines[n - 1].split())[:120]) for n in x.row_lines if n])
    away = baseline_elsewhere(ctx)
    if away:
        return TextFinding("stack_comparison", "violation",
                           f"line {away.lines[2]} credits a gain against {away.fmt} ('{away.quotes[0]}'), but the {away.fmt} "
                           f"side ran on {away.engine} (line {away.lines[0]}) and the other side on {away.ours} (line "
                           f"{away.lines[1]}): weight format and engine both differ, so the gain cannot be credited to one element",
                           [(n, " ".join(ctx.d.w.lines[n - 1].split())[:120]) for n in dict.fromkeys(away.lines)])
    trend = confounded_trend(ctx)
    if trend:
        return TextFinding("stack_comparison", "violation",
                           f"line {trend.line} credits the change to {trend.setting} ('{trend.quote}'), but the rows of the table "
                           f"(line {trend.table_line}) also change {trend.element} on every row ({', '.join(trend.values[:4])}): "
                           "the trend cannot be credited to one element",
                           [(trend.line, trend.quote), (trend.table_line, " ".join(ctx.d.w.lines[trend.table_line - 1].split())[:120])])
    single = _single_variable(ctx)
    hits = [h for h in comparison_hits(ctx) if not _against_a_bound(ctx, h)]
    if listed_only(ctx, hits):
        hits = []  # LABELLING.md: a results table with a row per setup and no comparative sentence is not a comparison
    if not hits and not single:
        toggle = _juxtaposed(ctx)
        if toggle:
            return TextFinding("stack_comparison", "ok", f"'{_quote(ctx, toggle)}' (line {ctx.d.ev(toggle[0], toggle[1].start())[0]}) "
                               "sets results with and without one change side by side", ctx.d.evidence([toggle]))
        return TextFinding("stack_comparison", "not_applicable", "nothing is compared")
    hits = hits or [single]
    claim = hits[0]
    where = f"'{_quote(ctx, claim)}' (line {ctx.d.ev(claim[0], claim[1].start())[0]})"
    kind, sides = compared_sides(ctx, hits)
    diffs = differences(kind, sides) if kind else {}
    named = list(ctx.d.hits(_PROVIDERS))
    providers = next((h for h in named if _measured_against(ctx, h, hits)), None)
    if providers:
        return TextFinding("stack_comparison", "violation",
                           f"{where} compares against other providers whose stacks (engine, hardware, formats) are not disclosed: "
                           "the gain cannot be credited to one element", ctx.d.evidence([claim, providers]))
    own, loose = _changes_beside_engine_claim(ctx, kind)
    if own:
        return TextFinding("stack_comparison", "violation",
                           f"{where} compares a new stack with {', '.join(s.key for s in sides)}, and the new side also brings "
                           f"{'; '.join(m for m, _ in own)}: the gain cannot be credited to one element",
                           ctx.d.evidence([claim] + [h for _, h in own]))
    if kind and (len(diffs) >= 2 or (diffs and kind != "setup")):
        named = "; ".join(f"{dim} ({'; '.join(vals)})" for dim, vals in diffs.items())
        evidence = [claim] + [e for s in sides for e in s.evidence][:3] + ([providers] if providers else [])
        compared = {"engine": "engines", "gpu": "accelerators", "setup": "stacks", "toggle": "settings"}[kind]
        return TextFinding("stack_comparison", "violation",
                           f"{where} compares {compared} ({', '.join(s.key for s in sides)}) that also differ in {named}: "
                           "the gain cannot be credited to one element", ctx.d.evidence(evidence, 4))
    if loose:
        at = ctx.d.ev(loose[0][0], loose[0][1].start())[0]
        return TextFinding("stack_comparison", "unclear",
                           f"{where} credits a gain over a named engine, and line {at} names a change apart from the new side: "
                           "whether the new side also brings it is not said", ctx.d.evidence([claim, loose[0]]), reason="ambiguous")
    if named and not providers:
        # other providers are named, but apart from the comparison: whether they are its other side is not said
        at = ctx.d.ev(named[0][0], named[0][1].start())[0]
        return TextFinding("stack_comparison", "unclear",
                           f"{where} is a comparison, and other providers are named on line {at}, apart from it and from any "
                           "measured result: whether their undisclosed stacks are the other side is not said",
                           ctx.d.evidence([claim, named[0]]), reason="ambiguous")
    if single:
        return TextFinding("stack_comparison", "ok", f"single-variable comparison, stated as such (line {ctx.d.ev(single[0], single[1].start())[0]})",
                           ctx.d.evidence([single]))
    if kind == "toggle":
        return TextFinding("stack_comparison", "ok", f"{where} switches one feature on the same setup", ctx.d.evidence([claim]))
    if kind in ("engine", "gpu") and _shared_setup(ctx):
        return TextFinding("stack_comparison", "ok",
                           f"{where} compares {', '.join(s.key for s in sides)} on one stated model and workload; no other stack "
                           "element is stated to differ", ctx.d.evidence([claim]))
    if kind is None and _fixed_stack(ctx):
        return TextFinding("stack_comparison", "ok", f"{where} varies a setting on one engine and one accelerator",
                           ctx.d.evidence([claim]))
    what = ", ".join(s.key for s in sides) if sides else "two results"
    return TextFinding("stack_comparison", "unclear",
                       f"{where} compares {what}; the text does not say what else differed between them", ctx.d.evidence(hits[:2]))


# Results set side by side without a comparative word: a patch against the code it changes ("Main branch (3 trials)" /
# "This PR (3 trials)", "When by default ... After applying this patch"), or a table whose columns are one setting
# off and on ("| not wired | wired", "| w/o X | w/ X"). Each changes one thing on the same command.
_PATCH = re.compile(r"\bthis\s+(?:PR|pull\s+request|patch)\b|\bafter\s+(?:applying\s+)?(?:this|the)\s+(?:patch|PR|change|fix)\b", re.I)
_UNPATCHED = re.compile(r"\b(?:main|master)\s+branch\b|\bby\s+default\b|\bbefore\s+(?:this|the)\s+(?:patch|PR|change)\b", re.I)
_ON_OFF = re.compile(r"\|\s*(?:not|no|without|w/o)\s+([\w-]+)\s*\|\s*(?:with\s+|w/\s*)?\1\s*(?:\||$)|"
                     r"\|\s*(?:with\s+|w/\s*)?([\w-]+)\s*\|\s*(?:not|no|without|w/o)\s+\2\s*(?:\||$)", re.I | re.M)


def _juxtaposed(ctx):
    """Where the write-up sets results with and without one change side by side (first hit, or None)."""
    patch, unpatched = ctx.d.first(_PATCH), ctx.d.first(_UNPATCHED)
    if patch and unpatched:
        return patch
    for i, block in enumerate(ctx.d.w.blocks):
        if block.kind == "table" and ctx.d.in_view(i, 0):
            m = _ON_OFF.search(ctx.d.header(i))
            if m:
                return i, re.search(r"\S", ctx.d.plains[i])
    return None


def _against_a_bound(ctx, hit) -> bool:
    """A measurement set against a theoretical or link maximum is not a comparison of stacks."""
    sentence = ctx.d.sentence(*hit)
    return bool(re.search(r"(?:than|vs\.?|versus|against|of|to)\s+(?:the\s+)?(?:theoretical|peak|line[- ]rate|link|spec(?:ified)?|nominal|"
                          r"maximum|max|hardware)\b", sentence, re.I)) and not ENGINE_RX.search(sentence)




def _fixed_stack(ctx) -> bool:
    """One named engine and one accelerator type: a comparison inside it varies a setting, not the stack. With no engine
    named, the shared setup of the two sides is not stated (LABELLING.md after batch 2: unclear, not_stated)."""
    from ..stack import engine_mentions, hardware
    from .sides import GPU_RX, engine_key

    engines = {engine_key(m.group(0)) for _, m in engine_mentions(ctx)}
    gpus = {m.group(0).upper() for _, m in ctx.d.hits(GPU_RX, scope="run")}
    return len(engines) == 1 and len(gpus) <= 1 and hardware(ctx).status != "missing"


_PROVIDERS = icase(r"(?:other|competing|third[- ]party|rival)\s+(?:API\s+)?(?:providers?|vendors?|clouds?)(?:'s?)?\b|"
                   r"varies\s+by\s+(?:provider|vendor)|each\s+model's\s+(?:default\s+)?(?:API\s+)?provider")
# what makes other providers a side of a measured comparison: their results measured, observed, compared or timed
_MEASURED = re.compile(r"compar\w*|measur\w*|observ\w*|bench\w*|\btested\b|\btimed\b|faster|slower|\bspeed|latenc\w*|throughput|"
                       r"\bTTFT\b|tok(?:en)?s?\s*/\s*s|tokens?\s+per\s+second|\bvs\.?(?!\w)|versus|\bthan\b", re.I)


def _measured_against(ctx, hit, claims) -> bool:
    """Whether other providers named at ``hit`` are the other side of the comparison: named beside a compared passage
    (its block or the next), in a table of test configurations, or in a sentence about their measured results, not
    in a remark elsewhere ("Unlike other providers, we charge per output token only")."""
    i, m = hit
    if any(ctx.d.beside(i, j) for j, _ in claims) or ctx.d.w.blocks[i].kind == "table":
        return True
    return bool(_MEASURED.search(ctx.d.sentence(i, m)))


def _changes_beside_engine_claim(ctx, kind) -> tuple[list[tuple[str, tuple]], list[tuple]]:
    """A product compared with a named engine ("3x faster than vLLM"): the quantization or custom kernels its own
    description adds (the new side changes more than the engine), and those named apart from the new side
    ("community quantized versions exist on the Hub" under 'About the model'), which only make the comparison unclear."""
    if kind is not None:
        return [], []
    against = ctx.d.first(icase(r"(?:than|vs\.?|versus|over|against|compared\s+(?:to|with)|beats?|outperforms?)\s+(?:the\s+)?(?:" + ENGINES + r")\b"))
    if against is None:
        return [], []
    found = []
    quant = ctx.d.first(icase(r"(?<!no\s)quantiz\w*"), scope="run")
    if quant and not ctx.d.first(icase(r"(?<![A-Za-z0-9])(?:fp8|int8|int4|awq|gptq|bf16|fp16|fp4|nvfp4|mxfp4)(?![A-Za-z0-9])"), scope="run"):
        found.append(("quantization", quant))
    kernels = ctx.d.first(icase(r"(?:hand[- ]tuned|custom|fused|proprietary)\s+(?:\w+\s+)?kernels?"), scope="run")
    if kernels:
        found.append(("custom kernels", kernels))
    own = [(what, h) for what, h in found if _of_the_new_side(ctx, h, against)]
    return own, ([] if own else [h for _, h in found])


# a section that explains the new system's speed or design ("Why it's fast", "Under the hood", "Key features")
_EXPLAINS = re.compile(r"\bwhy\b|\bhow\b|\bfast|under\s+the\s+hood|features?|inside|architecture|design|what'?s\s+new|optimi[sz]", re.I)
_FIRST_PERSON = re.compile(r"\b(?:we|our|us|it|its)\b", re.I)


def _of_the_new_side(ctx, hit, against) -> bool:
    """Whether a change is the new side's: named beside the comparison (its block or the next), in a sentence about
    our own system, or in a section that explains its speed or design; not a remark about someone else's models."""
    i, m = hit
    if ctx.d.beside(i, against[0]) or _FIRST_PERSON.search(ctx.d.sentence(i, m)):
        return True
    return bool(_EXPLAINS.search(ctx.d.w.blocks[i].section or ""))


def _shared_setup(ctx) -> bool:
    """Whether the compared sides share a stated model and hardware (the rest of the setup)."""
    from ..stack import hardware, model_artifact

    if model_artifact(ctx).status != "declared" or hardware(ctx).status != "declared":
        return False
    return len(_model_families(ctx)) <= 1


def _model_families(ctx) -> set[str]:
    """The model families the measured runs name: several families are several setups, not one shared one."""
    from ..artifacts import model_mentions
    from ..reading.vocabulary import FAMILIES

    exact, vague = model_mentions(ctx)
    out = set()
    for hit in exact + vague:
        text = hit_text(ctx, hit)
        fam = re.search(r"(?i)(?:" + FAMILIES + r")", text)
        if fam:
            out.add(fam.group(0).lower())
    return out


def _quote(ctx, hit) -> str:
    return ctx.d.excerpt(hit[0], hit[1].start(), hit[1].start() + 1, before=50, after=60, limit=110)


