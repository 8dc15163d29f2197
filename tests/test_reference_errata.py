"""Corpus errata E1-E9 of issue 15 and the review notes after them, each pinned to the figure or fact it fixed.

Figures are recomputed by hand in the comments and, where a calculator exists, with size_deployment through its
public API; facts taken from engine sources are checked to be attributed, not restated as general truths.
"""

import math
import re
from pathlib import Path

import pytest

from llm_inference_fundamentals.tools.sizing import SizingRequest, size_deployment

REFERENCES = Path(__file__).resolve().parent.parent / "references"
GiB = 2**30
MiB = 2**20


def page(name):
    return (REFERENCES / f"{name}.md").read_text(encoding="utf-8")


def flat(text):
    """Page text with line wrapping undone (infrastructure.md is hard-wrapped)."""
    return re.sub(r"\s+", " ", text)


def size(**kw):
    return size_deployment(SizingRequest(**kw))


# --- E1: B200 memory and bandwidth ---------------------------------------------------------------------------


def test_e1_b200_memory_is_the_reported_mib_figure_in_gib():
    text = page("gpu-fundamentals")
    # 183,359 MiB x 1,048,576 = 192,265,846,784 B = 179.06 GiB (= 192.27e9 B)
    assert 183_359 * MiB == 192_265_846_784
    assert round(192_265_846_784 / GiB, 2) == 179.06
    assert "183,359 MiB = 192,265,846,784 B = 179.06 GiB" in text
    assert "about 179 GB in `nvidia-smi`" not in text and "which is what the runtime sees" not in text
    # the sizing catalog models the B200 with the same bytes
    assert size(model="Llama-3.1-8B", tokens=1, gpu="b200").per_gpu.memory_bytes == 192_265_846_784


def test_e1_b200_bandwidth_says_which_figure_and_why():
    text = page("gpu-fundamentals")
    assert "8.0 TB/s is NVIDIA's figure (64 TB/s across a DGX B200's eight GPUs)" in text
    assert "about 7.67 TB/s" in text and "about 4% lower" in text
    # 1 - 7.67 / 8.0 = 4.1%
    assert round((1 - 7.67 / 8.0) * 100) == 4


# --- E2: llama.cpp and Ollama concurrency -----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["deployment", "infrastructure", "batching"])
def test_e2_local_runners_are_not_said_to_serve_one_request_at_a_time(name):
    text = flat(page(name))
    assert "handle one request at a time" not in text and "essentially one request at a time" not in text
    assert "OLLAMA_NUM_PARALLEL" in text
    assert "Ollama FAQ" in text or "ollama/ollama" in text


def test_e2_llama_server_slots_and_ollama_default_are_sourced():
    infra = flat(page("infrastructure"))
    assert "`llama-server` decodes several requests at once in parallel slots (`-np`, automatic by default)" in infra
    assert "continuous batching and prompt caching on by default (llama.cpp server README)" in infra
    sources = infra.split("## Sources", 1)[1]
    assert "llama.cpp HTTP server README" in sources and "Ollama FAQ" in sources and "`OLLAMA_NUM_PARALLEL` default 1" in sources


# --- E3: vLLM max_num_seqs default, re-dated --------------------------------------------------------------------


def test_e3_large_gpu_max_num_seqs_default_is_dated_from_its_pull_requests():
    text = page("batching")
    assert "v0.33.0 raised it to 1,024" not in text
    assert "That branch is older than the v0.33.0 release read here" in text
    for pr in ("PR #16158 (April 2025)", "PR #17073 (April 2025)", "PR #17885 (May 2025)"):
        assert pr in text


# --- E4 and E5: one utilization convention; Llama-3.1-405B per-GPU figures ---------------------------------------


def test_e4_every_worked_example_uses_the_tools_default_utilization():
    assert SizingRequest(model="Llama-3.1-8B").memory_utilization == 0.92
    sizing, parallel = page("memory-sizing"), page("parallelism")
    assert "the utilization target is **0.92**" in sizing
    # 0.90 survives only inside the quoted vLLM log and its reading, labelled as that log's setting
    for line in sizing.splitlines():
        if re.search(r"\b0\.90\b", line):
            assert "gpu_memory_utilization" in line or "79.22 x 0.90" in line or "utilization 0.90)" in line, line
    assert "utilization 0.92 of the 79.65 GiB" in parallel and "92% of ~79.6 GiB" not in parallel


def test_e4_parallelism_capacity_figures_match_the_calculator():
    text = page("parallelism")
    # TP=8: room = floor(85,520,809,984 x 0.92) - 141,107,412,992/8 - 4 GiB = 56,745,751,265 B; / 40,960 = 1.39 M
    tp8 = size(model="Llama-3.1-70B", tokens=32768, concurrency=16, gpu="h100", tp=8, overhead_bytes=4 * GiB)
    assert "KV room 52.85 GiB (56,745,751,265 B), / 40,960 B = 1.39 million tokens" in text
    room8 = tp8.per_gpu.budget_bytes - tp8.weights.bytes_per_gpu - 4 * GiB
    # the tool keeps norms whole on every rank: 2,637,824 x 7/8 = 2,308,096 B less room than the page's pro rata split
    assert room8 == 56_745_751_265 - 2_308_096
    assert round(room8 / tp8.kv_cache.bytes_per_token_per_gpu / 1e6, 2) == 1.39
    # TP=16: 141,107,412,992/16 = 8,819,213,312 B; room 65,564,964,577 B; / 40,960 = 1.60 M; 65,564,964,577 /
    # 56,745,751,265 = 1.155 (the tool, which also pads each rank's vocabulary shard, gets 1.153): about 15% more
    tp16 = size(model="Llama-3.1-70B", tokens=32768, concurrency=16, gpu="h100", tp=16, overhead_bytes=4 * GiB)
    assert "KV room 61.06 GiB (65,564,964,577 B)" in text and "1.60 million tokens" in text
    room16 = tp16.per_gpu.budget_bytes - tp16.weights.bytes_per_gpu - 4 * GiB
    assert tp16.kv_cache.bytes_per_token_per_gpu == 40_960  # 8 KV heads cannot split 16 ways
    assert round(room16 / 40_960 / 1e6, 2) == 1.60
    assert "about 15% more KV capacity" in text
    assert 0.15 <= room16 / room8 - 1 < 0.16 and 0.15 <= 65_564_964_577 / 56_745_751_265 - 1 < 0.16
    # the TP=4 row agrees with memory-sizing's table: 36.42 GiB and 14 sequences of 32k
    assert "36.42 GiB KV room (~477k tokens at 81,920 B/token/GPU; 14 full 32k-token sequences)" in text
    assert size(model="Llama-3.1-70B", tokens=32768, concurrency=16, gpu="h100", tp=4,
                overhead_bytes=4 * GiB).per_gpu.max_concurrency == 14


def test_e5_llama_405b_fp8_keeps_embeddings_and_head_in_bf16():
    text = page("parallelism")
    assert "47.74 GiB weights per GPU (embeddings and head stay BF16), 21.54 GiB KV room (~358k tokens" in text
    r = size(model="Llama-3.1-405B", weights="fp8-tensor", tokens=4096, gpu="h100", tp=8, overhead_bytes=4 * GiB)
    # linear weights 1 B each + embedding and lm_head 2 x 2,101,346,304 x 2 B + norms in BF16 + per-tensor scales
    assert r.weights.bytes == 410_060_230_088
    assert round(r.weights.bytes_per_gpu / GiB, 2) == 47.74
    # pro rata (the page): room = 78,679,145,185 - 410,060,230,088/8 - 4 GiB = 23,126,649,128 B = 21.54 GiB;
    # / 64,512 B per token per GPU (126 layers x 1 KV head x 128 x 2 x 2 B) = 358,486 tokens
    assert r.kv_cache.bytes_per_token_per_gpu == 64_512
    room = 78_679_145_185 - 410_060_230_088 / 8 - 4 * GiB
    assert round(room / GiB, 2) == 21.54 and round(room / 64_512, -3) == 358_000
    tool_room = r.per_gpu.budget_bytes - r.weights.bytes_per_gpu - 4 * GiB
    assert round(tool_room / 64_512, -3) == 358_000


# --- E6: a bound on the marketed capacity is not an upper bound ---------------------------------------------------


def test_e6_llama_8b_device_ceiling_uses_the_reported_bytes():
    text = page("inference-mechanics")
    # 85,520,809,984 - 16,060,522,496 = 69,460,287,488 B; / 1 GiB per 8,192-token sequence = 64.69 -> 64
    assert 85_520_809_984 - 16_060_522_496 == 69_460_287_488
    assert 69_460_287_488 // GiB == 64
    assert "floor(69,460,287,488 / 1,073,741,824) = 64 such sequences" in text
    assert "(80 - 16.06) GB" not in text
    # the calculator agrees when nothing but the weights is charged: utilization 1.0, no overheads, eager mode
    whole = size(model="Llama-3.1-8B", tokens=8192, gpu="h100", memory_utilization=1.0, overhead_bytes=0,
                 cuda_graphs=False)
    assert whole.per_gpu.max_concurrency == 64


# --- E7: H200 as nvidia-smi reports it ------------------------------------------------------------------------------


def test_e7_h200_is_modelled_as_143771_mib():
    text = page("memory-sizing")
    # 143,771 MiB = 150,754,820,096 B = 140.40 GiB
    assert 143_771 * MiB == 150_754_820_096 and round(150_754_820_096 / GiB, 2) == 140.40
    assert "143,771 MiB = 150,754,820,096 B = 140.40 GiB" in text
    assert "Budget 0.90 x that = 126.90 GiB" not in text
    assert size(model="DeepSeek-V3", tokens=1, gpu="h200", tp=8).per_gpu.memory_bytes == 150_754_820_096


# --- E8: the static-batching schedule ---------------------------------------------------------------------------------


def _schedule(policy, requests, slots=3, window=4, steps=40):
    """Step at which each request emits its last token under the page's rules (None if it never runs).

    requests: name -> (arrival step, tokens), one token per step. static launches a batch once `slots` requests wait;
    dynamic also launches when the oldest waiting request has waited `window` steps; both keep the GPU until every
    member of the batch is done, and a batch runs from the step it launches. continuous fills any free slot with the
    oldest waiting request at the start of every step.
    """
    done, queue, running = {}, [], {}
    for t in range(steps):
        queue += [r for r in sorted(requests) if requests[r][0] == t]
        if policy == "continuous":
            while queue and len(running) < slots:
                r = queue.pop(0)
                running[r] = requests[r][1]
        elif not running:
            waited = t - min(requests[r][0] for r in queue) if queue else -1
            if len(queue) >= slots or (policy == "dynamic" and queue and waited >= window):
                running = {r: requests[r][1] for r in queue[:slots]}
                queue = queue[slots:]
        for r in [r for r in running if running[r] > 0]:
            running[r] -= 1
            if running[r] == 0:
                done[r] = t
        if policy == "continuous":
            running = {r: left for r, left in running.items() if left > 0}
        elif running and all(left == 0 for left in running.values()):
            running = {}  # the whole batch is done: the GPU is free from the next step
    return {r: done.get(r) for r in requests}


def test_e8_under_the_pages_rules_static_batching_never_runs_request_d():
    # A needs 8 tokens and arrives at step 0, B 2 (step 0), C 3 (step 1), D 5 (step 2)
    requests = {"A": (0, 8), "B": (0, 2), "C": (1, 3), "D": (2, 5)}
    static = _schedule("static", requests)
    dynamic = _schedule("dynamic", requests)
    continuous = _schedule("continuous", requests)
    assert static == {"A": 8, "B": 2, "C": 3, "D": None}
    assert dynamic == {"A": 8, "B": 2, "C": 3, "D": 13}
    assert continuous["D"] == 6 and continuous["A"] == 7
    text = page("batching")
    assert "Under static batching D never starts" in text and "its last token arrives at step 13" in text
    assert "continuous batching finishes it at step 6" in text
    assert "D's last token arrives at step 13 under static or dynamic batching" not in text


# --- E9: two prefill intensities, two sets of assumptions ----------------------------------------------------------


def test_e9_each_prefill_intensity_states_its_assumptions():
    # one MLP GEMM: 2 x 2,048 x 4,096 x 14,336 FLOPs over BF16 weights (4,096 x 14,336 x 2 B) plus BF16 input and
    # output activations (2,048 x 4,096 x 2 + 2,048 x 14,336 x 2 B) = 1,246.6 FLOP/B
    flops = 2 * 2048 * 4096 * 14336
    bytes_moved = 4096 * 14336 * 2 + 2048 * 4096 * 2 + 2048 * 14336 * 2
    assert round(flops / bytes_moved) == 1247
    # whole model: 29.7 TFLOP (weights 2 x 6.98e9 x 2,048 + causal attention 2 x 32 x 4,096 x 2,048^2) over the
    # 16,060,522,496-byte checkpoint read once = 1,849 FLOP/B
    whole = (2 * 6.98e9 * 2048 + 2 * 32 * 4096 * 2048**2) / 16_060_522_496
    assert round(whole, -1) == 1850
    mechanics, gpu = page("inference-mechanics"), page("gpu-fundamentals")
    assert "every checkpoint byte (embedding and head too) read once, activation traffic left out" in mechanics
    assert "about 1,250 FLOP/B for one 4,096 x 14,336 MLP matrix" in mechanics
    assert "117.4 MB of BF16 weights plus 75.5 MB of BF16 input and output activations" in gpu
    assert "gives about 1,850 for the same prompt" in gpu
    # 117,440,512 B and 75,497,472 B
    assert round(4096 * 14336 * 2 / 1e6, 1) == 117.4 and round((2048 * 4096 + 2048 * 14336) * 2 / 1e6, 1) == 75.5


# --- review notes --------------------------------------------------------------------------------------------------


def test_memory_sizing_has_a_host_memory_budget():
    text = page("memory-sizing")
    assert "## Host memory" in text and "- [Host memory](#host-memory)" in text
    assert "--kv-offloading-size" in text and "--cpu-offload-gb" in text and "--ipc=host" in text
    # 100 GiB of CPU KV for Llama-3.1-70B at 327,680 B/token: 107,374,182,400 / 327,680 = 327,680 tokens
    assert 100 * GiB // 327_680 == 327_680
    assert "a 100 GiB pool (107,374,182,400 B) holds exactly 327,680 tokens" in text


def test_the_cpu_gpu_tpu_table_is_on_one_page_and_linked_from_the_other():
    pages = {p.stem: p.read_text(encoding="utf-8") for p in REFERENCES.glob("*.md")}
    holders = [name for name, text in pages.items() if "| Aspect | CPU | GPU | TPU |" in text]
    assert holders == ["gpu-fundamentals"]
    assert "(gpu-fundamentals.md#cpu-gpu-and-tpu)" in pages["inference-mechanics"]


def test_the_build_and_maintenance_paragraph_is_on_one_page():
    deployment, infrastructure = flat(page("deployment")), flat(page("infrastructure"))
    for phrase in ("30-50%", "Salesforce survey", "Pinning runtimes"):
        assert phrase in infrastructure and phrase not in deployment
    assert "(infrastructure.md#build-and-maintenance-cost)" in deployment


def test_distributed_inference_gives_a_decision_rule():
    text = page("infrastructure")
    section = text.split("### Why and when to distribute", 1)[1].split("### What gets harder", 1)[0]
    steps = re.findall(r"^(\d)\. \*\*", section, re.M)
    assert steps == ["1", "2", "3", "4", "5"]
    assert "If none of these holds, stay on one cluster" in section


def test_tgi_as_a_benchmark_candidate_carries_its_maintenance_caveat():
    line = next(line for line in page("benchmarking").splitlines() if line.startswith("- choosing an engine"))
    assert "TGI" in line and "maintenance mode" in line


def test_the_fa2_to_fa3_remark_is_dated():
    text = page("gpu-fundamentals")
    assert "The handbook notes that many frameworks were still moving from FA-2 to FA-3." not in text
    assert "(November 2025, with FA-3 the newest version)" in text and "FA-4 (March 2026)" in text


def test_runtime_overheads_are_taught_from_the_start_up_log():
    text = page("memory-sizing")
    assert "### Reading the overheads from the start-up log" in text
    assert "vLLM PR #10511" in text and "`overhead_bytes`" in text
    # N = X x L for vLLM's two capacity lines
    assert "where N = X x L" in text
    assert math.isclose(1.79 + 1.26, 3.05)
