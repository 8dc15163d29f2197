"""Patterns for the figures and settings a write-up states: units, metric names, rates, lengths.

Shared by every contract group and rule; the names of engines, models and accelerators are in
``vocabulary``. All patterns are case-insensitive unless they say otherwise.
"""

from __future__ import annotations

import re

__all__ = [
    "COLUMN_GAP",
    "DIGIT",
    "EOS_IGNORED",
    "GOODPUT",
    "IN_OUT_LABEL",
    "IN_OUT_SHORT",
    "IN_OUT_TOKENS",
    "IS",
    "LAT_KW",
    "NUM",
    "RATE_FIG",
    "RATE_UNIT",
    "REQ_RATE_FIG",
    "SPEEDUP",
    "TPOT_KW",
    "TP_RX",
    "TTFT_KW",
    "icase",
]


def icase(pattern: str) -> re.Pattern[str]:
    """``pattern`` compiled case-insensitively."""
    return re.compile(pattern, re.IGNORECASE)


NUM = r"\d[\d,]*(?:\.\d+)?"
IN_OUT_SHORT = r"\b\d[\d,.]*\s*k?[\s-]*(?:in|input|ISL)\s*/\s*\d[\d,.]*\s*k?[\s-]*(?:out|output|OSL)\b"  # "1k in / 1k out", "1024-in/128-out"
IS = r"\s*(?:[=:]|\s(?:is|was|of|set\s+to|=))?\s*"
IN_OUT_LABEL = r"\b(?:input|prompt|ISL)\s*/\s*(?:output|OSL)(?:\s+(?:tokens|lengths?))?\s*[:=]\s*\d[\d,.]*\s*k?\s*/\s*\d"  # "Input / output: 1,000 / 1,000"  # between a setting and its value: "max_tokens=20", "max_tokens is 20"
# The requested output length, as commands and prose set it: a length the benchmark fixes ("--random-output-len 128")
# or a cap the request sets ("max_tokens=64", "Max Tokens: 200", "Set max_tokens to 10", "max_out_len = 4000",
# "max_new_tokens是1024"), then the words between the setting and its value. Read by output_length_requested and
# steady_decode alike.
OUTPUT_LEN_FIXED = r"(?:--random-output-len|--output-len|--output-tokens|--sharegpt-output-len|--osl|random_output_len|output_len|generated_tokens)"
OUTPUT_LEN_CAP = (r"(?:max_tokens|max_new_tokens|max-tokens|max-new-tokens|--max-tokens|num_predict|max_out(?:put)?_len|"
                  r"max\s+(?:new\s+|output\s+)?tokens)")
OUTPUT_LEN_IS = r"(?:" + IS + r"|\s+to\s+|\s*(?:是|为|设为|设置为)\s*)"
DIGIT = re.compile(r"\d")
TP_RX = re.compile(r"(?:--tensor-parallel-size|--tp(?:-size)?|(?<![\w-])-tp|tensor[- ]parallel(?:ism)?(?:\s+size)?(?:\s+of)?)[\s=]*(\d+)|"
                   r"\bTP\s*=?\s*(\d+)\b", re.IGNORECASE)
COLUMN_GAP = re.compile(r"\S {2,}(?=\S)")
LAT_KW = icase(r"\bTTFT\b|time[- ]to[- ]first[- ]token|\bTPOT\b|time[- ]per[- ]output[- ]token|\bITL\b|inter[- ]token|"
               r"\bE2EL?\b|end[- ]to[- ]end|\blatency\b|ms\s*/\s*tok|ms\s+per\s+(?:output\s+)?token|"
               # a request's whole time under another name (cLLM reports, Distributed Llama: "response time", "Average
               # Token Generation Time")
               r"\bresponse\s+times?\b|\btoken\s+generation\s+time\b|"
               # the same in Chinese and Japanese: 延迟 / 时延 (latency), 响应时间 / 応答時間 (response time), レイテンシ
               r"延迟|时延|响应时间|応答時間|レイテンシ")
TTFT_KW = icase(r"\bTTFT\b|time[- ]to[- ]first[- ]token|first[- ]token\s+latency|prefill\s+(?:throughput|speed|latency|time|rate)|"
                r"prompt\s+processing|prompt\s+eval\w*|\bpp\s?\d{2,}\b")
# "Time per Ouput Token" (sic), "per-token-latency", "seconds per token", "time_per_token", "单token耗时": the same figure
TPOT_KW = icase(r"\bTPOT\b|time[- ]per[- ]ou?t?p?ut[- ]token|time[_ ]per[_ ]token|(?<![A-Za-z])(?:ms|s|sec|seconds?)\s*/\s*tok(?:en)?\b|"
                r"(?<![A-Za-z])(?:ms|sec|seconds?)\s+per\s+(?:output\s+|generated\s+)?token|"
                r"\bITL\b|inter[- ]token\s+latency|per[- ]token[- ](?:generation\s+|decod(?:e|ing)\s+)?latency|"
                r"latency\s+per\s+(?:output\s+|generated\s+)?token|"
                r"normali[sz]ed\s+latency|\btoken\s+latency|[单每]\s*(?:个\s*)?token\s*(?:耗时|延迟|时延)")
RATE_UNIT = r"(?:tok(?:en)?s?\s*/\s*s(?:ec)?\b|tokens?[\s-]+per[\s-]+second|\bt/s\b|\btps\b|(?:tok(?:en)?s?|トークン)\s*/\s*秒)"
RATE_FIG = icase(NUM + r"\s*(?:k\s*)?(?:(?:output|input|total|generated|prompt|completion|decode|prefill)\s+)?" + RATE_UNIT + r"|" + RATE_UNIT)
REQ_RATE_FIG = icase(r"req(?:uest)?s?\s*/\s*s\b|requests?\s+per\s+second|\bQPS\b|\bRPS\b")
GOODPUT = icase(r"goodput|SLO\s+attainment|requests?\s+(?:meeting|within)\s+(?:the\s+|our\s+)?SLOs?")
SPEEDUP = icase(r"\b\d+(?:\.\d+)?\s*[x×]\s+(?:faster|speed-?up|higher\s+throughput|lower\s+latency)|"
                r"speed-?ups?\b[^.\n|]{0,30}?\b\d+(?:\.\d+)?\s*[x×](?![\w])")
# Outputs forced to their full length: ignore_eos set (not set to false), or EOS said to be ignored.
EOS_IGNORED = icase(r"ignore[_-]eos(?!\s*[:=]\s*(?:false|0|no)\b)|\bEOS\s+(?:(?:is|was|are|were)\s+)?ignored|ignor(?:e|es|ed|ing)\s+(?:the\s+)?EOS|"
                    # the EOS token switched off ("所有 benchmark 都禁用 EOS token", DynaTree README; "disable EOS")
                    r"(?:禁用|关闭|忽略)\s*EOS|disabl(?:e|es|ed|ing)\s+(?:the\s+)?EOS\b")

# "1,024 input tokens and 512 output tokens"
IN_OUT_TOKENS = r"\d[\d,]*\s*k?\s*(?:input|prompt)\s+(?:tokens\s+)?(?:and|/|,|with)\s+\d[\d,]*\s*k?\s*output\s+tokens"

TRAINING = re.compile(r"(?i)\btrain(?:ed|ing)?\b|训练|精调|微调|学習")
"""Words of training or fine-tuning: a format or kernel named for training is not the served run's."""
INFERENCE = re.compile(r"(?i)inferenc|serv(?:e|ed|ing)\b|decod|generat|deploy|推理|部署|解码|推論")
"""Words of inference or serving, which keep a sentence that also speaks of training about the run."""

