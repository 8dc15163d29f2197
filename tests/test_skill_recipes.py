"""SKILL.md's tool table, recipes and traps: every mapping true for the MCP server and the CLI, every trap sourced."""

import re
import shlex
from pathlib import Path

import pytest
from mcp import Client

from llm_inference_fundamentals.cli import _build_parser
from llm_inference_fundamentals.server import build_server
from llm_inference_fundamentals.tools.corpus import ReadRequest, default_corpus

ROOT = Path(__file__).resolve().parent.parent
SKILL = (ROOT / "SKILL.md").read_text(encoding="utf-8")

CLI_OF_TOOL = {
    "search_references": "search",
    "read_reference": "read",
    "size_deployment": "size",
    "compute_metrics": "metrics",
    "audit_benchmark": "audit",
    "compare_runs": "compare",
    "analyze_sweep": "sweep",
    "plan_deployment": "plan",
    "speculative_decoding": "spec",
}
"""Which subcommand mirrors which MCP tool (README and DESIGN.md: the CLI mirrors the tools)."""

PLACEHOLDERS = [
    ("--engine-log FILE", "--engine-log tests/data/engine_logs/vllm-0.10-v1-qwen3-14b.log"),
    (" A B ", " tests/data/metrics/vllm_detailed.json tests/data/metrics/sglang_bench_serving.jsonl "),
    ('"X"', "prefill"), ("MODEL", "Llama-3.1-8B"), ("PAGE", "metrics"), ("[SECTION ...]", "ttft tpot"),
    ("[--all]", "--all"), ("FILE", "tests/data/metrics/vllm_detailed.json"),
]
NUMBER_PLACEHOLDERS = {"N": "1024", "T": "4096", "C": "4", "K": "4"}
"""Single capital letters in a command stand for numbers (tokens, concurrency, draft tokens)."""


def tool_rows():
    """(MCP tool, command) for each row of the first table in SKILL.md."""
    table = SKILL.split("| question | MCP tool | command |", 1)[1].split("\n\n", 1)[0]
    rows = []
    for line in table.strip().splitlines()[1:]:
        cells = [c.strip() for c in line.strip("|").split("|")]
        tool = re.match(r"`(\w+)`", cells[1]).group(1)
        command = re.fullmatch(r"`(.+)`", cells[2]).group(1)
        rows.append((tool, command))
    return rows


@pytest.mark.anyio
async def test_every_tool_in_the_table_is_a_server_tool():
    async with Client(build_server(), raise_exceptions=True) as client:
        served = {t.name for t in (await client.list_tools()).tools}
    assert {tool for tool, _ in tool_rows()} <= served


@pytest.mark.parametrize("tool, command", tool_rows(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_command_in_the_table_is_the_cli_mirror_of_its_tool_and_parses(tool, command):
    words = command.split()
    assert words[0] == "lif" and words[1] == CLI_OF_TOOL[tool], (tool, command)
    line = f" {command} "
    for placeholder, value in PLACEHOLDERS:
        line = line.replace(placeholder, value)
    words = [NUMBER_PLACEHOLDERS.get(w, w) for w in shlex.split(line)]
    args = _build_parser().parse_args(words[1:])  # argparse exits on an unknown flag
    assert args.command == words[1]


@pytest.mark.parametrize("tool, command", tool_rows(), ids=lambda v: v if isinstance(v, str) else "")
def test_every_command_in_the_table_runs(tool, command, monkeypatch, capsys):
    from llm_inference_fundamentals.cli import main

    monkeypatch.chdir(ROOT)  # FILE stands for a result file under tests/data
    line = f" {command} "
    for placeholder, value in PLACEHOLDERS:
        line = line.replace(placeholder, value)
    words = [NUMBER_PLACEHOLDERS.get(w, w) for w in shlex.split(line)]
    assert main(words[1:] + ["--json"]) == 0, capsys.readouterr().err


@pytest.mark.anyio
async def test_recipes_name_only_tools_the_table_maps_and_their_arguments():
    recipes = SKILL.split("## Recipes", 1)[1].split("\n## ", 1)[0]
    async with Client(build_server(), raise_exceptions=True) as client:
        listed = (await client.list_tools()).tools
    arguments = {name for t in listed for name in t.input_schema.get("properties", {})}
    output_fields = {name for t in listed for name in (t.output_schema or {}).get("properties", {})}
    named = set(re.findall(r"`([a-z]+_[a-z_]+)`", recipes))
    tools = {tool for tool, _ in tool_rows()}
    assert named & tools
    unknown = named - tools - arguments - output_fields
    assert not unknown, f"SKILL.md recipes name {sorted(unknown)}: neither a tool in the table nor an argument or field"


def test_the_ttft_rule_agrees_with_the_mechanics_page():
    rules = SKILL.split("## Metric rules", 1)[1].split("\n## ", 1)[0]
    ttft = rules.split("- **TTFT**", 1)[1].split("\n- **", 1)[0]
    assert "first decode step" not in ttft
    assert "sampled from the prefill's own logits" in " ".join(ttft.split())
    mechanics = default_corpus().read(ReadRequest(page="inference-mechanics", section="prefill")).text
    assert "produce logits for the last position, from which the first output token is sampled" in mechanics


TRAP_SOURCES = {
    # trap name: words the linked section must contain for the row to be sourced there
    'GuideLLM "TPOT"': ["GuideLLM", "includes TTFT", "token-weighted"],
    'AIPerf / GenAI-Perf "ITL"': ["AIPerf's and GenAI-Perf's \"ITL\" is vLLM's TPOT", "ICL"],
    "AIPerf output tokens": ["client tokenizer", "--use-server-token-count"],
    "LLMPerf inter-token latency": ["LLMPerf", "Llama-2 tokenizer"],
    "vLLM bench serve TTFT": ["first SSE event with a non-empty `choices` array", "role-only"],
    "vLLM draft acceptance rate": ["vLLM's acceptance rate is not `alpha`", "59%"],
    'vLLM "Maximum concurrency"': ["Maximum concurrency for X tokens per request", "max_model_len"],
    "`gpu_memory_utilization` vs SGLang `mem_fraction_static`": ["**total** memory", "mem_fraction_static", "0.92"],
    '"80 GB" GPU': ["81,559 MiB (79.65 GiB"],
    "datasheet TFLOPS": ["with 2:4 sparsity", "dense"],
    "GPU utilization": ["one or more kernels was executing", "batch size 1", "close to 100%"],
    "weight quantization": ["Weight quantization does not shrink the KV cache"],
    "MLA under TP": ["Tensor parallelism does not split the latent"],
}


def trap_rows():
    table = SKILL.split("| trap | what is true | page |", 1)[1].split("\n\n", 1)[0]
    for line in table.strip().splitlines()[1:]:
        trap, truth, link = [c.strip() for c in line.strip("|").split("|")]
        yield trap, truth, link


def test_every_trap_is_one_line_with_a_page_link():
    rows = list(trap_rows())
    assert len(rows) >= 10
    assert {trap for trap, _, _ in rows} == set(TRAP_SOURCES)
    for _, _, link in rows:
        assert re.fullmatch(r"\[[^\]]+\]\(references/[a-z-]+\.md#[a-z0-9-]+\)", link), link


@pytest.mark.parametrize("trap, truth, link", list(trap_rows()), ids=[row[0] for row in trap_rows()])
def test_every_trap_is_stated_in_the_section_it_links(trap, truth, link):
    page, anchor = re.search(r"references/([a-z-]+)\.md#([a-z0-9-]+)", link).groups()
    section = default_corpus().read(ReadRequest(page=page, section=anchor, whole_page=True)).text
    flat = " ".join(section.split())
    for words in TRAP_SOURCES[trap]:
        assert words in flat, f"{page}#{anchor} does not say {words!r} ({trap})"


def test_skill_body_stays_well_under_the_spec_limit():
    body = SKILL.split("---\n", 2)[2]
    assert len(body.splitlines()) < 350
