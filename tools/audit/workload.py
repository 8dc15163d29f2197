"""What the write-up says about the workload: prompt and output lengths, request count, load,
sampling and stopping (contract group "workload").
"""

from __future__ import annotations

import re

from .reading.cells import cell_hits, label, phrases, vague_phrases
from .reading.lexicon import (EOS_IGNORED, IN_OUT_LABEL, IN_OUT_SHORT, IN_OUT_TOKENS, OUTPUT_LEN_CAP, OUTPUT_LEN_FIXED,
                               OUTPUT_LEN_IS, icase)
from .reading.vocabulary import vague
from .findings import TextFinding, cite, run_setting, status_of, unless_declared
from .reading.vocabulary import patterns
from .reading.flagvalues import extra_value, numeric, sampling_keys
from .reading.statements import capability
from .reading.firstchars import guard

__all__ = ["capacity_sentence", "concurrency", "output_length_completed", "output_length_requested", "prompt_length", "request_count", "request_number", "sampling", "stopping", "token_spans"]


@run_setting
def token_spans(ctx):
    """Classify every 'N tokens' span as prompt/output(requested|completed) with vagueness."""
    if "spans" in ctx.cache:
        return ctx.cache["spans"]
    rx = icase(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)\s*(k\b)?\s*(?:-\s*|\s+)?(?:(?:random|synthetic|fixed|unique|distinct|uniform)\s+)?(input\s+|prompt\s+|output\s+|new\s+|generated\s+|completion\s+)?"
               r"(?:tokens?|tok)\b(?!\s*/\s*s|\s+per\s+s|/)(?:\s*-?\s*(prompts?|inputs?|system\s+prompts?|context|outputs?|responses?|completions?|repl(?:y|ies)))?")
    # "Prompt tokens: min 612, mean 3,940" and "completed output tokens (from usage): median 251" state a
    # distribution: a statistic word after the separator makes an output length a completed one.
    kv = icase(r"(total|mean|median|average|avg|completed|actual|observed)?\s*(input|prompt|output|generated|completion)\s+(?:tokens?|lens?|lengths?)"
               r"\s*(?:\([^)\n]{0,40}\))?\s*[:=|]\s*(?:(min|mean|median|average|avg|p\d{1,2})\s*[:=]?\s*)?(\d[\d,]*)")
    prompt_words = re.compile(r"prompt|input|\bisl\b|system|context|prefill|\bpp\d", re.I)
    out_words = re.compile(r"output|completion|complete[sd]\b|generat|\bnew\b|response|repl(?:y|ies)|\bosl\b|decode|\btg\d|answer|"
                           r"(?<!prompt\s)\beval\s+count|\bwr[io]te\b|\bwritten\b", re.I)
    done_words = re.compile(r"complet|generated|produced|actual|observed|\bmean\b|median|average|\bavg\b|\bp\d\d?\b|checked|verified|"
                            r"(?:all|every)\s+(?:outputs?|completions?|responses?|requests?)\s+(?:are|were|is|was|had|have)\b|eval\s+count|\bwr[io]te\b", re.I)
    cap_words = re.compile(r"\bmax|capped|\bcap\b|limit|up\s+to|budget|at\s+most|fewer\s+than|less\s+than|under\b|below|[<≤]", re.I)
    spans = []
    for i, m in ctx.d.hits(rx):
        text = ctx.d.plains[i]
        if "\n" in m.group(0) and ctx.d.w.blocks[i].kind not in ("paragraph", "list_item", "quote"):
            continue  # a figure ending one line of a printout and the label starting the next are unrelated
        a, b = ctx.d.bounds(i, m.start(), m.end())
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
        around = before + m.group(0) + after
        sub = None
        if kind == "output":
            sub = "completed" if done_words.search(before[-40:] + " " + after) or "generated" in label.lower() else "requested"
        spans.append({"kind": kind, "sub": sub, "value": value, "vague": vague(before[-20:] + m.group(0)),
                      "cap": bool(cap_words.search(before[-30:])), "hit": (i, m), "ctx": around,
                      "capacity": capacity_sentence(ctx, text[a:b])})
    for i, m in ctx.d.hits(kv):
        text = ctx.d.plains[i]
        # "latency per output token: 0.73 s" is a time per token, not a length
        if re.search(r"per\s+$|latency\s+$|time\s+$", text[max(0, m.start(2) - 12):m.start(2)], re.I) \
                or re.match(r"(?:\.\d+)?\s*(?:s|ms|sec|seconds)\b", text[m.end():m.end() + 12], re.I):
            continue
        kind = "prompt" if m.group(2).lower() in ("input", "prompt") else "output"
        sub = None
        if kind == "output":
            sub = "completed" if (m.group(1) or m.group(3) or m.group(2).lower() in ("generated", "completion")) else "requested"
        value = m.group(4)
        if (m.group(3) or "").lower() == "min":
            # A distribution opening with its minimum: the typical length is the median or mean that follows.
            mid = re.search(r"\b(?:median|mean|average|avg)\s*[:=]?\s*(\d[\d,]*)", ctx.d.plains[i][m.end():m.end() + 60], re.I)
            value = mid.group(1) if mid else value
        spans.append({"kind": kind, "sub": sub, "value": float(value.replace(",", "")), "vague": False,
                      "cap": False, "hit": (i, m), "ctx": m.group(0), "total": (m.group(1) or "").lower() == "total"})
    ctx.cache["spans"] = spans
    return spans


def prompt_length(ctx) -> TextFinding:
    flags = icase(r"(?:--random-input-len|--input-len|--sharegpt-input-len|--isl|random_input_len|input_len|--prompt-len|"
                  r"(?<![\w-])-p)\s*[=: ]\s*\d+(?![\d:])|" + IN_OUT_TOKENS + r"|" + IN_OUT_SHORT + r"|" + IN_OUT_LABEL + r"|\bISL\b\s*[=:/]?\s*\d|\bpp\s?\d{2,}\b|\b\d+(?:\.\d+)?k?\s*/\s*\d+(?:\.\d+)?k?\s+(?:ISL|in/out|input/output)")
    # A bound ("fewer than 4,096 prompt tokens", "up to 8k") is not a length; a context size in a
    # capacity statement ("serves 50 users with full 128k-token contexts") is not the workload.
    spans = [s for s in token_spans(ctx) if s["kind"] == "prompt" and not s.get("capacity")]
    declared = list(ctx.d.hits(flags)) + [s["hit"] for s in spans if not (s["vague"] or s["cap"])]
    declared += ctx.d.flag_hits("prompt_length", when=numeric)
    declared += cell_hits(ctx, label("prompt_length"))  # an input-length column or row of the results
    declared += list(ctx.d.hits(phrases("prompt_length")))
    # The prompt given verbatim in the run command (llama-cli -p "...", mlx_lm.generate --prompt "..."): a reader
    # can reproduce it, though no token count is written.
    declared += ctx.d.flag_hits("prompt_text", when=lambda v: len(v.strip()) > 3)
    declared += ctx.d.flag_hits("guidellm_data", when=lambda v: extra_value(v, "prompt_tokens") is not None)
    lengths = icase(r"(?:context|prompt|input)\s+(?:lengths?|sizes?)\W{0,4}\d+(?:\.\d+)?\s*k\b")
    declared += [h for h in ctx.d.hits(lengths) if not capacity_sentence(ctx, ctx.d.sentence(*h))]
    # The vaguer statements count only when nothing declares the length (status_of reads them only then): looked
    # up here, each taking its share of the scan budget, read only if needed.
    vaguer = (ctx.d.hits(icase(r"\bISL\b\s*[=:]?\s*(?:~|≈|about|around|roughly)\s*\d")),
              ctx.d.hits(icase(r"\b(?!(?:the|a|an|this|that|our|their|same|whole|full|random|synthetic|calibration|test|eval|"
                               r"public|private|custom|internal|new|entire)\b)[a-z][\w-]*\s+dataset\b|"
                               r"sharegpt|mt-bench|alpaca|lmsys-chat|longbench|sonnet\s+dataset|--dataset-name|"
                               r"production\s+trace|synthetic\s+prompts|random\s+(?:dataset|prompts)|(?:short|long)\s+(?:prompts|chats|conversations|contexts|inputs)|"
                               # live or internal traffic: the prompts are whatever the users sent (LABELLING.md: partial)
                               r"(?:internal\s+)?production\s+(?:environment|traffic|deployment|workload)|live\s+traffic|"
                               r"real(?:-world)?\s+(?:user\s+)?traffic|internal\s+(?:traffic|workloads?)")),
              ctx.d.hits(_PUBLIC_DATASET), ctx.d.hits(vague_phrases("prompt_length")))
    if not declared:
        # A public named dataset with how many prompts were drawn from it (LABELLING.md: declared): a reader can
        # reproduce the prompts, though no token count is written.
        named = list(ctx.d.hits(_PUBLIC_DATASET))
        if named:
            count = request_count(ctx)
            if count.status == "declared":
                return TextFinding("prompt_length", "declared",
                                   f"public dataset {cite(ctx, named, 1)} with its prompt count: {count.why.split(': ', 1)[-1]}",
                                   ctx.d.evidence(named[:1]) + count.evidence[:1])
    partial = unless_declared(declared, [s["hit"] for s in spans if s["vague"] or s["cap"]], *vaguer)
    return status_of(ctx, "prompt_length", declared, partial, "prompt length in tokens",
                     "prompt length stated in tokens", "prompt length vague or only the dataset is named")


_PUBLIC_DATASET = icase(r"(?<![A-Za-z-])(?:" + patterns("public_datasets", "patterns") + r")(?![A-Za-z])")


def output_length_requested(ctx) -> TextFinding:
    declared = requested_output_hits(ctx)
    spans = [s for s in token_spans(ctx) if s["kind"] == "output" and s["sub"] == "requested"]
    partial = [s["hit"] for s in spans if s["vague"]]
    loose = ctx.d.hits(icase(r"(?:short|long)\s+(?:outputs|replies|responses|completions)|\bOSL\b\s*[=:]?\s*(?:~|≈|about|around|roughly)\s*\d"))
    if not declared and ctx.d.first(EOS_IGNORED):
        # Outputs forced past EOS run to the requested length, so a stated completed length states it too.
        declared = [s["hit"] for s in token_spans(ctx) if s["sub"] == "completed" and not s["vague"]]
        if declared:
            declared.append(ctx.d.first(EOS_IGNORED))
    return status_of(ctx, "output_length_requested", declared, unless_declared(declared, partial, loose), "requested output length (max_tokens)",
                     "requested output length stated (or fixed: EOS ignored and completed length given)",
                     "requested output length vague")


def requested_output_hits(ctx) -> list:
    """Every statement of a requested output length in the runs (flags, phrases, table cells, tool data specs): what
    output_length_requested declares and what steady_decode reads the requested length from."""
    if "requested_output" in ctx.cache:
        return list(ctx.cache["requested_output"])
    flags = icase(r"(?:" + OUTPUT_LEN_FIXED + "|" + OUTPUT_LEN_CAP + r")" + OUTPUT_LEN_IS + r"\d+|(?<![\w-])-n\s*[=: ]\s*\d+|\bOSL\b\s*[=:/]?\s*\d|"
                  r"\btg\s?\d{2,}\b|\b\d+(?:\.\d+)?k?\s*/\s*\d+(?:\.\d+)?k?\s+(?:ISL|in/out|input/output)|" + IN_OUT_TOKENS + r"|" + IN_OUT_SHORT + r"|" + IN_OUT_LABEL)
    spans = [s for s in token_spans(ctx) if s["kind"] == "output" and s["sub"] == "requested"]
    capped = icase(r"(?:output|generation|completion|response|answer)\s+(?:length|len)s?\b[^.\n]{0,60}?"
                   r"(?:capped|limited|max(?:imum)?|at\s+most|up\s+to)\b[^.\n]{0,40}?\d[\d,]*")
    declared = list(ctx.d.hits(flags)) + list(ctx.d.hits(capped)) + [s["hit"] for s in spans if not s["vague"]]
    declared += ctx.d.flag_hits("output_length_requested", when=numeric)
    # An output-length column states what was asked for (LABELLING.md, batch-3 clarifications), unless its
    # label says the lengths were measured (a mean, the generated tokens): that is the completed length.
    completed_cells = {(i, m.start()) for i, m in _completed_cells(ctx)}
    declared += [h for h in cell_hits(ctx, label("output_length_requested")) if (h[0], h[1].start()) not in completed_cells]
    declared += list(ctx.d.hits(phrases("output_length_requested")))
    declared += ctx.d.flag_hits("extra_inputs", when=lambda v: extra_value(v, "max_tokens") is not None)
    declared += ctx.d.flag_hits("guidellm_data", when=lambda v: extra_value(v, "output_tokens") is not None)
    ctx.cache["requested_output"] = declared
    return list(declared)


_STAT = re.compile(r"\b(?:mean|avg|average|median|p\d{2}(?:\.\d+)?|min|max)\b|平均|中位", re.I)


def _completed_cells(ctx):
    """Table cells of measured output lengths: labelled so ('Mean Output Length'), or an output-length
    row or column crossed with a statistic ('Output Sequence Length' under 'avg')."""
    if "completed_cells" not in ctx.cache:
        ctx.cache["completed_cells"] = cell_hits(ctx, label("output_length_completed")) + \
            cell_hits(ctx, label("output_length_requested"), cross=_STAT)
    return ctx.cache["completed_cells"]


def output_length_completed(ctx) -> TextFinding:
    spans = [s for s in token_spans(ctx) if s["kind"] == "output" and s["sub"] == "completed"]
    extra = icase(r"output_lens|completion_tokens\s*[:=]\s*\d|"
                  r"(?:every|each|all)\s+(?:req(?:uest)?s?|completions?|outputs?|responses?)\s+(?:is|are|was|were|completed|completes|"
                  r"generated|produced|had|has)\s+(?:exactly\s+)?\d")
    declared = [s["hit"] for s in spans if not s["vague"]] + list(ctx.d.hits(extra))
    declared += _completed_cells(ctx)  # a column (or row) of measured output lengths
    declared += list(ctx.d.hits(phrases("output_length_completed")))
    partial, loose = [s["hit"] for s in spans if s["vague"]], ctx.d.hits(vague_phrases("output_length_completed"))
    forced = list(ctx.d.hits(EOS_IGNORED)) + ctx.d.flag_hits("ignore_eos")
    forced += ctx.d.flag_hits("extra_inputs", when=lambda v: (extra_value(v, "ignore_eos") or "").lower() in ("true", "1"))
    if not declared and forced and output_length_requested(ctx).status == "declared":
        # LABELLING.md: outputs forced to the requested length (EOS ignored) state the completed length too.
        return TextFinding("output_length_completed", "declared",
                           "outputs are forced to the requested length (EOS ignored), so the completed length is the requested one",
                           ctx.d.evidence(forced))
    return status_of(ctx, "output_length_completed", declared, unless_declared(declared, partial, loose, forced), "completed output length",
                     "completed output length reported",
                     "only requested length or ignore_eos given; completed tokens not reported")


@run_setting
def _request_hits(ctx):
    """Spans that state how many requests were sent (computed once)."""
    if "requests" in ctx.cache:
        return ctx.cache["requests"]
    flags = icase(r"--num-prompts[\s=]+\d+|num_prompts\s*[=:]\s*\d+|--num-requests[\s=]+\d+|request[_ ]count\s*[=:]\s*\d+|"
                  r"Successful\s+requests\s*[:|]\s*\d+|\b\d[\d,]*\s+repetitions\b|"
                  r"(?<![\w.])\d[\d,]*-(?:request|prompt|sample|query|conversation)\b")
    nreq = icase(r"(?<![\w.])(\d[\d,]*)\s+(?:[A-Za-z][\w-]*\s+){0,2}?(?:requests|prompts|conversations|queries|samples|questions|chats|responses)\b")
    declared = list(ctx.d.hits(flags)) + ctx.d.flag_hits("request_count", when=numeric)
    times = icase(r"\b(?:\d+|two|three|four|five|six|ten|twenty)\s+times\b(?!\s+(?:the|more|faster|slower|higher|lower|as|better|"
                  r"worse|less|fewer|larger|smaller|over))")
    declared += [(i, m) for i, m in ctx.d.hits(times)
                 if re.search(r"\b(?:ran|run|repeated|executed|measured|sent|issued)\b", ctx.d.window(i, m, 200, 0), re.I)]
    for i, m in ctx.d.hits(nreq):
        win = ctx.d.window(i, m, 25, 12).lower()
        if re.search(r"concurrent|simultaneous|parallel|in[- ]flight|warm|at\s+a\s+time|\d\s+of\s+\d", win):
            continue
        if re.match(r"\s*(?:/\s*s|per\s+sec)", ctx.d.plains[i][m.end():m.end() + 12], re.I):
            continue  # "500 requests/s" is a rate; "41 tok/s over 500 requests" is a count
        if re.search(r"^\d[\d,]*\s+warm", m.group(0).lower()):
            continue
        if re.search(r"(?:drawn|sampled|chosen|picked|selected)\s+(?:at\s+random\s+)?from\s+(?:a\s+(?:pool|set)\s+of\s+)?$|pool\s+of\s+$|out\s+of\s+$",
                     ctx.d.plains[i][max(0, m.start() - 40):m.start()], re.I):
            continue
        declared.append((i, m))
    ctx.cache["requests"] = declared
    return declared


def request_number(ctx) -> int | None:
    """The first stated request count, as a number (None when none is stated)."""
    for _, m in _request_hits(ctx):
        n = re.search(r"\d[\d,]*", m.group(0))
        if n and int(n.group(0).replace(",", "")) > 0:
            return int(n.group(0).replace(",", ""))
    return None


def _derived_counts(ctx) -> list:
    """Request counts a command fixes by its flags: clients x rounds (LABELLING.md, batch-1 clarifications: a
    count derived from flags is declared)."""
    from .reading.document import Spot

    out = []
    for c in ctx.d.commands:
        if not ctx.d._run[c.block]:
            continue
        rounds = [f for f in c.values("rounds") if numeric(f.value or "")]
        clients = [f for f in c.values("concurrency") if "client" in f.name and numeric(f.value or "")]
        if rounds and clients:
            n = int(float(rounds[0].value)) * int(float(clients[0].value))
            out.append((c.block, Spot(clients[0].offset, clients[0].offset + len(clients[0].written),
                                      f"{clients[0].written} {clients[0].value} x {rounds[0].written} {rounds[0].value} = {n} requests")))
    return out


_LIMIT = re.compile(r"(?i)(?:最多|至多|最大|上限|up\s+to|at\s+most|max(?:imum)?(?:\s+of)?)\s*(?:处理|处理的)?\s*$")


def request_count(ctx) -> TextFinding:
    # "最多处理 4 个请求", "up to 4 requests": a limit, not how many were sent
    declared = [h for h in _request_hits(ctx) + list(ctx.d.hits(phrases("request_count")))
                if not _LIMIT.search(ctx.d.plains[h[0]][max(0, h[1].start() - 12):h[1].start()])]
    declared += cell_hits(ctx, label("request_count")) + _derived_counts(ctx)
    # "30 users x 8 turns": a count derived from the stated load (LABELLING.md, batch 1: declared)
    declared += list(ctx.d.hits(icase(r"\b\d[\d,]*\s+(?:users|clients|sessions|conversations)\s*[x×*]\s*\d[\d,]*\s+(?:turns|rounds|requests|queries|prompts)\b")))
    partial = ctx.d.hits(icase(r"(?:several|many|hundreds\s+of|thousands\s+of|a\s+few|a\s+batch\s+of)\s+(?:requests|prompts|queries)"))
    # a duration or a number of runs without the requests in each (LABELLING.md, batch 1: a duration only is partial)
    durations = ctx.d.hits(_DURATION_ONLY)
    return status_of(ctx, "request_count", declared, unless_declared(declared, partial, durations), "number of requests",
                     "request count stated", "request count vague")


_DURATION_ONLY = icase(r"\b\d+\s*(?:s|sec|seconds?|min(?:utes?)?|h|hours?)\s+(?:per\s+(?:level|experiment|run|cell|point|rate|step|test)|windows?|each)\b|"
                       r"\b(?:duration|injection\s+time|test\s+time|run\s+time)\s*[:=]\s*\d+\s*(?:s|sec|seconds?|min(?:utes?)?|h|hours?)\b|"
                       r"[×x]\s*\d+\s*s\s*窗口|\b\d+[- ]hour\s+(?:window|period)|\b(?:across|over)\s+(?:\d+|two|three|five|ten|multiple|several)\s+runs\b|"
                       r"\bmultiple\s+runs\b")


# A sentence about what a deployment can hold, not the load it was given (searched once per load figure: guarded).
_CAPACITY = guard(re.compile(r"can\s+(?:serve|support|handle|fit|hold)|supports?\b|capacity|could|would|"
                             r"(?<![-\w])max(?:imum)?[ _](?:concurrency|batch|users|sequences|requests|sessions)|"
                             r"\bup\s+to\s+\d[\d,]*\s+(?:concurrent|simultaneous|users|requests|sequences|sessions)|"
                             r"configured\s+(?:with|for|to)|max[-_ ]model[-_ ]len|max[-_ ]num[-_ ]seqs|max_seq_len", re.I))


def capacity_sentence(ctx, text: str) -> bool:
    return bool(_CAPACITY.search(text))


_PLANNING = re.compile(r"(?i)\bplan\s+for\s+(?:roughly|about|around|up\s+to|at\s+most|~?\d)")


def concurrency(ctx) -> TextFinding:
    rx = icase(r"--max-concurrency[\s=]+\d+|max_concurrency\s*[=:]\s*\d+|--request-rate[\s=]+(?:\d|inf)|request[_ ]rate\s*(?:of\s*|[=:]\s*)?(?:\d|inf\b)|"
               r"(?:poisson|arrivals?)\b[^.\n]{0,20}?\d+(?:\.\d+)?\s*(?:req|requests?|qps|rps)|\b\d+(?:\.\d+)?\s*(?:QPS|RPS)\b|"
               r"concurrency\s*(?:of\s*|[=:]\s*|levels?\s+)?\d+|\bconc\s*[=:]?\s*\d|"
               r"\b\d+\s+(?:virtual\s+users|VUs)\b|virtual\s+users\s+\d+\s*(?:->|→|to)\s*\d+|"
               r"\b\d+\s+(?:running|active)\s+(?:sequences|requests|streams)|\b\d+\s+(?:sequences|requests|conversations|sessions|streams)\s+in[- ]flight|\b\d+\s+concurrent\b|[\d}\]]\s*\}?\s+concurrent\s+(?:users|requests|clients|sessions|streams)|"
               r"(?:\bat|rate\s+of)\s+\d+(?:\.\d+)?\s*(?:req(?:uest)?s?\s*/\s*s\b|requests?\s+per\s+second)|\b(?:QPS|RPS)\s*(?:of\s*|[=:]\s*)?\d|\bbatch\s+(?:of\s+)?\d+\b|"
               r"\b\d+\s+(?:simultaneous|parallel)\s+(?:users|requests|sessions|clients|streams|sequences)|batch[- _]?sizes?\s*(?:of\s*|[=:]\s*)?\d+|"
               r"\bbs\s*=\s*\d+|one\s+(?:request\s+)?at\s+a\s+time|one\s+by\s+one|\bsingle\s+(?:user|request|stream|session|chat\s+session|sequence)\b|"
               # requests sent one after another; "tensor operations executing sequentially" is no load
               r"(?:requests?|prompts?|queries|questions)\b[^.\n]{0,30}?\bsequentially\b|\b(?:sent|issued|submitted|processed|run)\s+sequentially\b|"
               r"--max-num-seqs[\s=]+\d+(?=[^\n]*bench)|"
               r"\d+\s*(?:个|名)\s*(?:客户端|并发用户|用户|并发请求)|并发(?:数|度|量)?\s*(?:[:：=为]|设为|设置为)\s*\d+|同时実行数\s*[:：=]?\s*\d+")
    declared, hedged = [], []
    for i, m in ctx.d.hits(rx):
        # the client's own setting (--max-concurrency, "max_concurrency": 32) is the load, not a capacity
        if capacity_sentence(ctx, ctx.d.sentence(i, m)) and not re.match(r"--|max_concurrency", m.group(0), re.I):
            continue
        if _PLANNING.search(ctx.d.sentence(i, m)):
            continue  # "plan for roughly 8-16 concurrent requests": sizing advice, not the measured load
        a, _ = ctx.d.bounds(i, m.start(), m.end())
        lead = re.split(r"[,;()]", ctx.d.plains[i][max(a, m.start() - 25):m.start()])[-1]  # this clause only
        # "a batch of 5 queries" from an online client: not said to be in flight together (LABELLING.md, batch-2: partial)
        queries = re.match(r"batch\s+of\s+\d+\s+(?:queries|requests|prompts|questions)\b", m.group(0) + ctx.d.plains[i][m.end():m.end() + 12], re.I)
        # "beyond a batch size of 64", "up to 8 parallel sequences": a threshold or a maximum, not the levels run
        bound = re.search(r"(?i)\b(?:beyond|above|below|exceed\w*|more\s+than|less\s+than|up\s+to)\s+(?:a\s+|the\s+)?(?:\w+\s+){0,2}$", lead)
        (hedged if vague(lead) or re.search(r"\d\s*[-–]\s*$", lead) or queries or bound else declared).append((i, m))
    for i, block in enumerate(ctx.d.w.blocks):
        if block.kind == "table":
            header = ctx.d.header(i)
            mm = re.search(r"concurrency|batch\s*size|\busers\b|\bQPS\b|request\s+rate", header, re.I)
            if mm:
                declared.append((i, mm))
    declared += cell_hits(ctx, label("concurrency")) + list(ctx.d.hits(phrases("concurrency")))
    # An offline run of one prompt (llama-cli -p, mlx_lm.generate --prompt) is a batch of one (LABELLING.md,
    # batch-1 clarifications: for offline runs the batch size is the concurrency).
    declared += [(c.block, m) for c, f in ctx.d.flags("prompt_text", roles=("offline",))
                 if not c.values("concurrency") for m in [_spot(f, "one prompt per run (batch of 1)")]]
    loose = ctx.d.hits(vague_phrases("concurrency"))
    declared += ctx.d.flag_hits("concurrency", when=lambda v: numeric(v) or v.lower() in ("sweep", "synchronous", "throughput", "concurrent", "constant", "poisson"))
    return status_of(ctx, "concurrency", declared, unless_declared(declared, hedged, loose), "concurrency or request rate",
                     "load level stated (concurrency, rate or batch size)", "load described only vaguely")


def _spot(flag, text: str):
    from .reading.document import Spot

    return Spot(flag.offset, flag.offset + len(flag.written), f"{flag.written} {flag.value or ''}: {text}".strip())


def sampling(ctx) -> TextFinding:
    # '--speculative-eagle-topk 8' is the draft tree's branching, not top-k sampling: no word glued before 'topk'
    # "temperature of 0", "temperature=0.7", "The temperature is set to 0.8 and the top-p to 0.95", "温度设为 0"
    rx = icase(r"temperature\s*(?:of\s*|[=:]\s*|(?:is|was|are|were)\s+(?:set\s+)?(?:to\s+|at\s+)?)?\d+(?:\.\d+)?|\btemp\s*=\s*\d+(?:\.\d+)?|"
               r"(?<![A-Za-z]-)top[_-]?p\s*(?:of\s*|[=:]\s*|(?:is|was)\s+(?:set\s+)?(?:to\s+)?|to\s+)?\d+(?:\.\d+)?|温度\s*(?:为|设为|设置为|=|:|：)?\s*\d+(?:\.\d+)?|"
               r"(?<![A-Za-z]-)(?<![A-Za-z]_)top[_-]?k\s*[=:]?\s*\d+|\bgreedy\b|"
               r"--temperature|do_sample|no\s+sampling|does\s+not\s+sample|\bargmax\b")
    part = icase(r"default\s+sampling|sampling\s+(?:parameters|params|settings)")
    # "Support non-greedy inference" in a feature list says what the code can do, not what the runs used
    declared = [h for h in ctx.d.hits(rx) if ctx.d.w.blocks[h[0]].kind not in ("paragraph", "list_item", "quote")
                or re.search(r"\d", h[1].group(0)) or not capability(ctx.d.sentence(*h))]
    declared += ctx.d.flag_hits("sampling", when=lambda v: numeric(v) or sampling_keys(v))
    declared += ctx.d.flag_hits("extra_inputs", when=sampling_keys)
    return status_of(ctx, "sampling", declared, unless_declared(declared, ctx.d.hits(part)), "sampling parameters",
                     "sampling parameters stated", "sampling mentioned without values")


def stopping(ctx) -> TextFinding:
    # any ignore_eos setting (true or false) says how generation stops
    # any ignore_eos setting, true or false, says how generation stops
    rx = icase(EOS_IGNORED.pattern + r"|ignore[_-]eos|stop(?:ped|s|ping)?\s+(?:at|on)\s+(?:the\s+)?(?:EOS|end[- ]of[- ]sequence)|\bEOS\s+token|stop\s+(?:sequences?|tokens?|strings?|words?)|"
               r"\bmin_tokens|until\s+EOS|\bstop\s*=|natural\s+stop|\bend_id\b|eos_token_id|stop_token_ids")
    implied = icase(r"before\s+(?:it\s+)?stopp(?:ing|ed)|stopped\s+(?:on\s+its\s+own|by\s+itself)|until\s+(?:it\s+)?(?:stopped|finished)")
    declared = list(ctx.d.hits(rx)) + ctx.d.flag_hits("ignore_eos") + ctx.d.flag_hits("stopping")
    # a generation length the benchmark fixes ("实际连续生成 128 个 token") says how generation stopped (LABELLING.md, batch 3)
    declared += list(ctx.d.hits(phrases("output_length_completed")))
    declared += ctx.d.flag_hits("extra_inputs", when=lambda v: any(extra_value(v, k) is not None for k in ("ignore_eos", "min_tokens", "stop")))
    return status_of(ctx, "stopping", declared, unless_declared(declared, ctx.d.hits(implied)), "stopping behaviour (EOS / ignore_eos / stop strings)",
                     "stopping behaviour stated", "generation stopped on its own (EOS implied, not stated)")
