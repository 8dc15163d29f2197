"""Which blocks describe the measured runs, and which are context a reviewer would not credit.

Only statements about what was measured declare anything (tests/data/audit/LABELLING.md, "What
counts as a statement about the measured run"). ``classify_blocks`` gives each block a scope:

- ``run``: the sections, tables, lists and commands that describe the runs whose numbers are reported
  (results, setup, methodology, reproduction steps, appendices), and the headline and opening;
- ``howto``: installation, quick-start and usage instructions, and code not used for the numbers;
- ``background``: how an engine works, definitions, related work;
- ``advice``: recommendations and best practices;
- ``future``: future work, plans, roadmaps;
- ``links``: references, citations, acknowledgements.

A section takes its scope from its heading, or inherits its parent's. A code block is how-to when
it only installs or fetches things, or when the sentence introducing it offers it to the reader
("you can run", "for example"); it is a run when that sentence says it was used ("we launched the
server with"). A document that reports no figure at all and never says it measured anything has no
measured run: everything in it is how-to or background.

``sentence_masks`` finds sentences inside run blocks that are advice or plans ("we recommend
disabling prefix caching", "we plan to add speculative decoding"), so they are read as context too.
"""

from __future__ import annotations

import functools
import re

from .blocks import Block
from .firstchars import guard

__all__ = ["CONTEXT_SCOPES", "RUN_SCOPES", "classify_blocks", "has_measured_run", "run_sentences", "scope_views", "sentence_masks"]

RUN_SCOPES = frozenset({"run"})
CONTEXT_SCOPES = frozenset({"howto", "background", "advice", "future", "links"})

_HEADINGS: list[tuple[str, re.Pattern[str]]] = [
    ("future", re.compile(r"future\s+work|next\s+steps?|road\s?map|what'?s\s+next|coming\s+soon|\bTODO\b|(?:future|our)\s+plans?\b|upcoming|outlook|"
                          r"未来|计划|路线图|今後|ロードマップ", re.I)),
    ("links", re.compile(r"^\W*(?:references?|citations?|cite|bibliography|acknowledge?ments?|thanks|credits|resources|further\s+reading|"
                         r"related\s+links|links|license|contribut\w*|contact|third[- ]party\s+\w+|community|ecosystem|about\s+(?:us|the\s+authors?)|"
                         r"引用|致谢|参考(?:文献|资料)?|许可\w*|开源协议|ライセンス|謝辞|参考文献|引用)\W*$", re.I)),
    ("advice", re.compile(r"recommend\w*|best\s+practices?|\btips?\b|tuning\s+guide|\bFAQ\b|troubleshoot\w*|pitfalls|"
                          r"lessons|guidelines?|when\s+to\s+use|how\s+to\s+choose|dos\s+and\s+don", re.I)),
    ("howto", re.compile(r"install\w*|quick\s?start|getting\s+started|(?<!\bram\s)(?<!memory\s)(?<!gpu\s)(?<!cpu\s)(?<!power\s)(?<!energy\s)(?<!disk\s)(?<!resource\s)\busage\b|how\s+to\s+(?:use|run|install|deploy|serve|launch|start)|"
                         r"prerequisites?|requirements|build\s+from\s+source|\bdemo\b|try\s+it|tutorial|\bAPI\b|sample\s+code|"
                         r"code\s+examples?|^\W*examples?\W*$|usage\s+examples?|deploy(?:ing|ment)\s+(?:guide|steps)|run(?:ning)?\s+locally|"
                         # '使用' alone is "using" ("3. 使用FP6服务LLMs", "ロードバランシングを使用した..."): only its usage compounds
                         r"使用(?:方法|方式|指南|说明|示例|与演示|教程)|使用[^\n]{0,20}?(?:代码|运行|构建|安装)|客户端使用|如何使用|"
                         # "如何开始", "如何启动模型": how to start, run or set up (as "how to run" above)
                         r"如何(?:开始|运行|启动|部署|安装|设定|设置|配置)|"
                         r"用法|安装|快速(?:开始|上手|入门)|部署|示例|教程|入门|インストール|使い方|クイックスタート|はじめに|"
                         # a heading that is only "Inference" or "<engine> inference" / "Inference with <engine>": how to run the model
                         r"^[\w.、,/ -]{0,40}?\s*(?:inference|推理|推論)(?:\s+(?:with|using|via|on)\s+[\w.、,/ -]{1,40})?\W*$", re.I)),
    ("background", re.compile(r"background|introduction|overview|motivation|news|changelog|release\s+notes|what'?s\s+new|"
                              r"updates|^\W*new\s+in\b|supported\s+\w+|features?\b|介绍|简介|概述|背景|原理|特性|特点|新闻|动态|概要|特徴|ニュース|"
                              r"what\s+is\b|how\s+[\w\s-]{1,40}works?|related\s+work|"
                              # what a reader may download: a model zoo, the released weights or checkpoints
                              r"model\s+(?:zoo|weights|checkpoints|downloads?)|^\W*(?:downloads?|checkpoints|released\s+models)\W*$|模型下载|下载|"
                              r"concepts?|glossary|definitions?|understanding|primer|architecture|design|under\s+the\s+hood|key\s+features?|"
                              # training or fine-tuning a model (a drafter, a checkpoint) is not the measured inference run
                              r"^\W*(?:[\w-]+\s+){0,3}?(?:train(?:ing)?|fine-?tun\w*)\b|训练|微调|精调|学習|ファインチューニング", re.I)),
]
_HOWTO = _HEADINGS[3][1]
_DEPLOY = re.compile(r"(?:部署|deploy(?:ing|ment)?|デプロイ)(?!\s*(?:guide|steps|指南|步骤|教程))", re.I)
"""The deployment words of a heading: under a results section they name the setup that was measured."""
# A heading that names the measured runs overrides a context word in it ("Benchmark setup", "How we ran it").
_RUN_HEADING = re.compile(r"\b(?:benchmark\w*|results?|performance|evaluation|experiment\w*|methodology|setup|set-up|configuration|"
                          r"environment|hardware|reproduc\w*|appendix|throughput|latency|measure\w*|numbers|findings|"
                          r"how\s+we\s+(?:ran|tested|measured|benchmarked)|comparison|speed|test(?:ing|s)?)\b|"
                          r"性能|测试|评测|基准|结果|实验|测评|压测|对比|比较|ベンチマーク|性能評価|結果|実験|評価|比較", re.I)

# Lines that only install, fetch or move around: nothing here is the measured configuration.
_INSTALL_LINE = re.compile(r"^\s*(?:[$>#]\s*)?(?:sudo\s+)?(?:pip3?|uv\s+pip|uv|conda|mamba|apt(?:-get)?|brew|yum|npm|git|wget|curl\s+-[LOsS]+\b|"
                           r"docker\s+(?:pull|build|login)|cd|export|source|mkdir|cp|mv|ls|cat|echo|huggingface-cli|hf\s+download|"
                           r"python3?\s+-m\s+pip|nvidia-smi|make|cmake|chmod|tar|unzip|rm|ln)\b|^\s*#|^\s*$", re.I)
_API_DEMO = re.compile(r"curl\b[^\n]*(?:/v1/|/generate\b|localhost|127\.0\.0\.1)|requests\.(?:post|get)\(|(?<![\w.])openai\.(?:ChatCompletion|Completion|chat|completions|api_key|base_url)|OpenAI\(|"
                       r"chat\.completions\.create|completions\.create|InferenceClient\(|client\.(?:generate|text_generation|chat)|"
                       # one literal greeting-style prompt: a usage demo, not a benchmark workload
                       r"[(\[,=]\s*[\"'](?:hello|hi\b|hey\b|how\s+are\s+you|what\s+is|who\s+are|tell\s+me|write\s+a|the\s+capital|san\s+francisco)", re.I)
_INTRO_HOWTO = re.compile(r"\byou\s+(?:can|could|may|might|should|need|will|must)\b|\bfor\s+example\b|\be\.g\.|\bas\s+an\s+example\b|"
                          r"\bto\s+(?:install|get\s+started|try|query|call|send\s+a\s+request|test\s+the\s+server)\b|\bsimply\s+run\b|"
                          r"\bhere\s+is\s+how\b|\blike\s+this\b|\bsuch\s+as\b|\busage\s*:|\bexample\s+(?:usage|request|command|output)\b|"
                          r"\bif\s+you\b|\byour\s+own\b|\bsample\s+(?:request|code)\b", re.I)
_INTRO_RUN = re.compile(r"\bwe\s+(?:\w+\s+){0,2}?(?:ran|run|used|use|launched|launch|started|start|served|serve|measured|benchmarked|invoked|"
                        r"executed|deployed|tested|set|configured|evaluated)\b|\bwas\s+(?:launched|started|run|used|served|measured|deployed)\b|"
                        r"\bwere\s+(?:launched|started|run|used|served|measured|collected|obtained|generated|produced)\b|\bto\s+reproduce\b|"
                        r"\breproduc\w+\b|\b(?:benchmark|launch|server|serving|client)\s+commands?\b|\bcommand\s+(?:used|we\s+used)\b|"
                        r"\bour\s+(?:setup|config\w*|command|server|launch|benchmark)\b|\bresults?\s+(?:below|above)\b|"
                        r"\b(?:following|these)\s+(?:settings|flags|arguments|commands?|configurations?)\b", re.I)

# A sentence inside a run section that is advice or a plan, not a statement about the runs.
_ADVICE = re.compile(r"\b(?:we|I)\s+(?:would\s+)?(?:strongly\s+|generally\s+)?(?:recommend|suggest|advise|encourage)\w*|"
                     r"\byou\s+(?:should|may\s+want|might\s+want|will\s+want|need\s+to|must|can\s+(?!see\b|notice\b|observe\b|find\b|tell\b))|"
                     r"\b(?:it\s+is|it's)\s+(?:recommended|advisable|best\s+to|a\s+good\s+idea)|\bconsider\s+(?:using|enabling|disabling|setting|turning)|"
                     r"\bmake\s+sure\b|\bif\s+you\s+(?:want|need|are|use|have|plan)\b|\bfor\s+(?:production|your\s+own)\b|\bbest\s+practice", re.I)
_FUTURE = re.compile(r"\bfuture\s+(?:work|releases?|versions?)\b|\bin\s+the\s+(?:near\s+)?future\b|\bwe\s+(?:plan|intend|hope|aim|expect)\s+to\b|"
                     r"\b(?:we|it)\s+will\s+(?:add|support|explore|investigate|look\s+into|publish|release|try|evaluate|benchmark)\b|"
                     r"\bcoming\s+soon\b|\bstay\s+tuned\b|\bnot\s+yet\s+(?:supported|implemented|tested|benchmarked)\b|\bwork\s+in\s+progress\b|"
                     r"\bnext\s+(?:step|release|version)s?\s+(?:will|is|are)\b|\bwe\s+(?:are|were)\s+(?:working\s+on|exploring)\b|\bleft\s+for\s+future\b", re.I)
_SENTENCE = re.compile(r"(?:[^.!?;\n]|\.(?=\d))*(?:[.!?;]|\n|$)")

# Evidence that something was measured at all.
_FIGURE = re.compile(r"\d[\d,.]*\s*(?:k\s*)?(?:ms\b|s\b|sec\b|seconds\b|tok(?:en)?s?\s*/\s*s|tokens?\s+per\s+second|t/s\b|tps\b|"
                     r"req(?:uest)?s?\s*/\s*s|requests?\s+per\s+second|qps\b|rps\b|[x×](?![\w])|%)|(?:TTFT|TPOT|ITL|latency|throughput)\b[^.\n]{0,40}?\d", re.I)
# the passive voice of a methods note or caption: "All the experiments are conducted on a single NVIDIA A6000 GPU"
_CONDUCTED = (r"\b(?:experiments?|evaluations?|measurements?|benchmarks?)\s+(?:\w+\s+){0,2}?(?:are|were|was|is)\s+"
              r"(?:conducted|performed|carried\s+out|done|run|measured)\s+(?:on|with|using|under|in)\b")
_MEASURED = re.compile(r"\b(?:we|I)\s+(?:\w+\s+){0,2}?(?:measured|benchmarked|observed|saw|see|got|achieved|recorded|obtained|ran|tested|compared|"
                       r"evaluated|started|launched|deployed|served|profiled|timed|replayed|swept)\b|\b(?:startup|server|engine)\s+logs?\s+(?:reports?|shows?|says)\b|"
                       r"\b(?:results?|benchmarks?|measurements?|charts?|graphs?|plots?)\s+(?:below|above|show|shows|showed|are\s+shown)\b|"
                       r"\b(?:examples?|benchmarks?|numbers|results|measurements|runs?|tests?)\s+(?:\w+\s+){0,2}?(?:were|was)\s+(?:run|measured|benchmarked|obtained|collected)\s+(?:on|with|using)\b|"
                       r"!\[[^\]]*(?:bench|throughput|latency|ttft|tpot|tok|perf|result|speed|chart|plot)|" + _CONDUCTED, re.I)

# Searched over every prose block of a document: behind their first-character guard (same matches, faster).
_ADVICE, _FUTURE, _FIGURE, _MEASURED = map(guard, (_ADVICE, _FUTURE, _FIGURE, _MEASURED))


@functools.lru_cache(maxsize=4096)  # a long write-up repeats its section headings ("Results", "Setup") under each part
def _heading_scope(text: str) -> str | None:
    text = text.strip().strip("#").strip()
    if _RUN_HEADING.search(text):
        future = _HEADINGS[0][1].search(text)
        return "future" if future else "run"
    for scope, rx in _HEADINGS:
        if rx.search(text):
            return scope
    return None


# A list item that explains a command-line flag ("- `--max-num-seqs`: Maximum number of sequences per iteration.
# Default: 256", "- `--temperature`：生成温度"): the tool's documentation; its defaults are not the runs' settings.
_FLAG_GLOSSARY = re.compile(r"^\s*(?:[-*+]|\d+[.)])?\s*`--?[A-Za-z][\w-]*`\s*[:：]")

_WEAK_RUN = re.compile(r"\b(?:following|these)\s+(?:settings|flags|arguments|commands?|configurations?)\b|"
                       r"\b(?:benchmark|launch|server|serving|client)\s+commands?\b", re.I)


def _code_scope(text: str, intro: str) -> str | None:
    """A code block's own scope, or None to keep its section's."""
    lines = [line for line in text.split("\n")[1:-1] if line.strip()] or text.split("\n")
    if all(_INSTALL_LINE.match(line) for line in lines):
        return "howto"
    intro_run = bool(_INTRO_RUN.search(intro))
    if _API_DEMO.search(text) and not intro_run:
        return "howto"
    # "You can test the speed ... using the following command": the reader's command, unless the intro also says
    # the authors ran it ("we ran the following command", "to reproduce").
    weak = intro_run and not _INTRO_RUN.search(_WEAK_RUN.sub(" ", intro))
    if intro and _INTRO_HOWTO.search(intro) and (not intro_run or weak):
        return "howto"
    return None


def has_measured_run(blocks: list[Block], texts: list[str]) -> bool:
    """Whether the document reports a figure or says it measured something (else it is a how-to or an explainer)."""
    for block, text in zip(blocks, texts):
        if block.kind == "code":
            if re.search(r"(?:TTFT|TPOT|ITL|latency|throughput)[^\n]{0,40}?[:=|]\s*\d|\d[\d.,]*\s*(?:ms|tok(?:en)?s?/s(?:ec)?|req/s)\b|"
                         r"\d[\d.,]*\s*tokens?\s+per\s+second", text, re.I):
                return True
            continue
        if _FIGURE.search(text) or _MEASURED.search(text):
            return True
    return False


_INSTRUCTIONS = re.compile(r"^\W*(?:please|first|then|next|now|to\s+\w+\b[^.\n]{0,60},)\b|\b(?:run|execute|launch|install|download|clone)\s+the\s+following\b|"
                           r"\byou\s+(?:can|may|should|need\s+to|must)\b|\bfor\s+(?:a\s+)?(?:comprehensive|detailed|full)\s+list\b|"
                           r"\b(?:please|simply)\s+(?:run|install|execute|refer|use|download)\b", re.I | re.M)


def _instructions_only(blocks: list[Block], texts: list[str], table_figures: bool) -> bool:
    """A document that measures nothing and tells the reader what to run: a how-to, not a write-up."""
    if table_figures or has_measured_run(blocks, texts):
        return False
    return any(b.kind == "code" for b in blocks) and any(_INSTRUCTIONS.search(t) for b, t in zip(blocks, texts) if b.kind != "code")


def classify_blocks(blocks: list[Block], texts: list[str], table_figures: bool = False) -> list[str]:
    """A scope per block (see the module docstring); ``texts`` are the blocks' masked texts; ``table_figures``
    says whether a table reports figures under a metric header (reading.claims)."""
    if _instructions_only(blocks, texts, table_figures):
        return ["howto" if b.kind == "code" else "background" for b in blocks]
    scopes: list[str] = []
    # (heading level, scope, whether a results heading of the body set that scope) of the open headings
    stack: list[tuple[int, str, bool]] = []
    current = "run"
    intro = ""
    reader_code = False  # a code block of this section was offered to the reader (not an install line)
    for n, (block, text) in enumerate(zip(blocks, texts)):
        if block.kind == "heading" and not stack and n == 0:
            stack.append((block.level, "run", False))  # the title is the headline: always about the runs
            scopes.append("run")
            continue
        if block.kind == "heading":
            reader_code = False
            while stack and stack[-1][0] >= block.level:
                stack.pop()
            own = _heading_scope(text)
            heading = text.strip().strip("#").strip()
            if own == "howto" and stack and stack[-1][2] and not _HOWTO.search(_DEPLOY.sub(" ", heading)):
                # "在 A800 集群上部署 DeepSeek-R1" under "性能数据": the deployment that was measured, not a guide
                own = "run"
            current = own or (stack[-1][1] if stack else "run")
            explicit = (own == "run" and not _HOWTO.search(heading)) or (own is None and bool(stack) and stack[-1][2])
            stack.append((block.level, current, explicit))
            scopes.append(current if current != "run" else "run")
            intro = ""
            continue
        scope = current
        if block.kind == "list_item" and _FLAG_GLOSSARY.match(block.text):
            scope = "background"  # "`--temperature`: sampling temperature": what a flag does, not the value the runs used
        if block.kind == "code":
            own = _code_scope(text, intro)
            # instructions continue: after a code block offered to the reader, the next ones of the same section
            # are the reader's too unless their own intro says the authors ran them
            if own is None and reader_code and current == "run" and not _INTRO_RUN.search(intro):
                own = "howto"
            if own == "howto" and not all(_INSTALL_LINE.match(x) for x in text.split("\n")[1:-1] if x.strip()):
                reader_code = True
            scope = own or current
        scopes.append(scope)
        intro = text if block.kind in ("paragraph", "list_item") else intro if block.kind == "code" else ""
    return scopes


def sentence_masks(text: str) -> list[tuple[int, int]]:
    """Spans of advice and future-work sentences in a prose block."""
    if not (_ADVICE.search(text) or _FUTURE.search(text)):
        return []
    spans = []
    for m in _SENTENCE.finditer(text):
        if m.end() > m.start() and (_ADVICE.search(m.group(0)) or _FUTURE.search(m.group(0))):
            spans.append(m.span())
    return spans


# A sentence in background prose that still speaks about the measured runs.
_RUN_SENTENCE = re.compile(r"\b(?:we|I)\s+(?:\w+\s+){0,2}?(?:measured|benchmarked|ran|run|tested|used|evaluated|compared|served|deployed|"
                           r"launched|profiled|swept|collected)\b|\bin\s+(?:this|our)\s+(?:post|blog|benchmark|study|experiments?|tests?)\b|"
                           r"\bour\s+(?:benchmarks?|setup|tests?|experiments?|runs?|measurements?)\b|\bthe\s+(?:measured|benchmarked)\b|" + _CONDUCTED, re.I)

_RUN_SENTENCE = guard(_RUN_SENTENCE)


def run_sentences(text: str) -> list[tuple[int, int]]:
    """Spans of the sentences of a background paragraph that speak about the measured runs."""
    if not _RUN_SENTENCE.search(text):
        return []
    return [m.span() for m in _SENTENCE.finditer(text) if m.end() > m.start() and _RUN_SENTENCE.search(m.group(0))]


def scope_views(blocks: list[Block], scopes: list[str], plains: list[str]) -> dict[str, list[list[tuple[int, int]] | None]]:
    """Per view, per block: None (all of it counts), [] (none of it) or the spans that count.

    In the 'run' view a background paragraph still declares through its sentences about the runs
    ("we benchmarked Llama 3 70B on 8x H100"); in the 'claims' view all background prose counts.
    """
    run: list[list[tuple[int, int]] | None] = []
    claims: list[list[tuple[int, int]] | None] = []
    for block, scope, text in zip(blocks, scopes, plains):
        if scope in RUN_SCOPES:
            run.append(None)
            claims.append(None)
        elif scope == "background" and block.kind != "code":
            run.append(run_sentences(text))
            claims.append(None)
        else:
            run.append([])
            claims.append([])
    return {"run": run, "claims": claims}
