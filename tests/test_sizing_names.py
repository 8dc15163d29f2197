"""GPU and model names as people type them: one normalisation, many spellings (tools/sizing/names.py)."""

import pytest

from llm_inference_fundamentals.tools.errors import UnknownGPUError
from llm_inference_fundamentals.tools.sizing.catalog import find_model, lookup_gpu
from llm_inference_fundamentals.tools.sizing.names import gpu_tokens, match_gpu

SPELLINGS = {
    "nvidia-rtx-4090": ["rtx4090", "RTX 4090", "4090", "NVIDIA GeForce RTX 4090", "rtx 4090 24gb", "RTX-4090", "rtx_4090"],
    "nvidia-rtx-5090": ["rtx5090", "RTX 5090 32GB", "GeForce RTX 5090"],
    "nvidia-h100-sxm": ["H100", "h100-80gb", "h100sxm", "H100 SXM5 80GB", "NVIDIA H100 80GB HBM3", "h100 sxm", "H100_SXM"],
    "nvidia-h100-pcie": ["h100 pcie", "H100-PCIe-80GB", "NVIDIA H100 PCIe", "h100 80gb pcie"],
    "nvidia-h100-nvl": ["h100 nvl", "H100_NVL", "H100 NVL 94GB"],
    "nvidia-h200-sxm": ["h200", "H200 141GB", "H200 SXM", "nvidia h200"],
    "nvidia-h200-nvl": ["h200 nvl", "H200-NVL"],
    "nvidia-h20": ["h20", "H20 96GB"],
    "nvidia-a100-80gb-sxm": ["a100", "A100 80GB", "A100-SXM4-80GB", "a100 sxm"],
    "nvidia-a100-40gb-sxm": ["a100 40gb", "A100-SXM4-40GB", "A100 40G"],
    "nvidia-a100-80gb-pcie": ["a100 pcie", "a100 80g pcie", "A100 80GB PCIe"],
    "nvidia-a10g": ["a10g", "Tesla A10G", "NVIDIA A10G"],
    "nvidia-l4": ["L4", "nvidia l4"],
    "nvidia-l40s": ["l40s", "L40S 48GB", "NVIDIA L40S"],
    "nvidia-b200": ["b200", "B200"],
    "nvidia-gb200": ["GB200", "gb200"],
    "amd-mi300x": ["mi300x", "MI-300X", "AMD Instinct MI300X", "mi300x 192gb", "Instinct MI300X"],
    "amd-mi325x": ["MI325X", "Instinct MI325X"],
    "google-tpu-v5e": ["tpu v5e", "v5e", "TPU-v5e"],
}


@pytest.mark.parametrize("gpu, typed", [(g, t) for g, names in SPELLINGS.items() for t in names])
def test_gpu_spellings_resolve(gpu, typed):
    assert lookup_gpu(typed).id == gpu


@pytest.mark.parametrize("typed", ["a10", "h10", "mi300", "radeon 7900", "h100 94gb", "v100", "tpu v4"])
def test_near_misses_are_refused_not_guessed(typed):
    # 'a10' must not become the A10G (its core a, 10, g is not all typed), 'h100 94gb' names no single H100
    with pytest.raises(UnknownGPUError):
        lookup_gpu(typed)


def test_tokens_keep_memory_sizes_whole_and_drop_brand_words():
    assert gpu_tokens("NVIDIA H100 80GB HBM3") == {"h", "100", "80gb"}
    assert gpu_tokens("A100-SXM4-40G") == {"a", "100", "sxm", "4", "40gb"}
    assert gpu_tokens("a10g") == {"a", "10", "g"}  # a letter before the digits: not a memory size


def test_a_tie_is_reported_as_ambiguous():
    candidates = [("x-1", ("acme z9 pro",), ("z9",)), ("x-2", ("acme z9 max",), ("z9",))]
    # two GPUs whose cores are equally specific cannot be told apart from 'z9': both are returned, and lookup_gpu
    # turns that into "could be x-1, x-2" (no such pair in the catalog today)
    assert match_gpu("z9", candidates) == ["x-1", "x-2"]
    assert match_gpu("z9 pro", candidates) == ["x-1"]


@pytest.mark.parametrize("typed, name", [
    ("llama 3.1 70b", "Llama-3.1-70B"), ("Llama3.1-70B", "Llama-3.1-70B"),
    ("meta-llama/Meta-Llama-3.1-8B-Instruct", "Llama-3.1-8B"), ("deepseek v3", "DeepSeek-V3"),
    ("qwen3 30b a3b", "Qwen3-30B-A3B"), ("gpt oss 120b", "gpt-oss-120b"), ("GPT-OSS-20B", "gpt-oss-20b"),
    ("mistral 7b v0.3", "Mistral-7B-v0.3"), ("Llama 3.3 70B Instruct", "Llama-3.3-70B"), ("kimi k2", "Kimi-K2"),
])
def test_model_spellings_resolve(typed, name):
    assert find_model(typed).name == name


def test_other_orgs_and_quantized_repos_are_not_folded_in():
    assert find_model("someone/llama-3.1-70b") is None
    assert find_model("Llama-3.1-70B-FP8") is None
