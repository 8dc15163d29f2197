"""Performance claims: a figure with its metric, unit and statistic, taken from where the text puts them.

``table_claims`` reads every numeric cell of every table (``reading.tables``): the metric comes from
the column header (with its glossary definition), else from the row label (a transposed table),
else from the caption and heading above the table; the unit from the header ("(ms)", "tok/s") or
the cell itself; the statistic ("p99", "median", "mean", "50%") from the header or the row label.
``metric_of`` classifies any label, in English, Chinese or Japanese.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from .tables import Table, cell_meaning

__all__ = ["Claim", "LATENCY_METRICS", "metric_of", "stat_of", "table_claims"]

LATENCY_METRICS = frozenset({"ttft", "tpot", "itl", "e2e", "prefill_latency", "decode_latency"})

_METRICS: list[tuple[str, re.Pattern[str]]] = [(name, re.compile(rx, re.I)) for name, rx in [
    ("goodput", r"goodput|SLO\s+attainment"),
    ("ttft", r"\bTTFT\b|time[- ]to[- ]first[- ]token|first[- ]token\s+latency|\bFTL\b|首字|首\s*token|最初のトークン"),
    ("tpot", r"\bTPOT\b|time[- ]per[- ]output[- ]token|ms\s*/\s*tok|per[- ]token\s+(?:generation\s+)?latency|token\s+latency|\bTBT\b|"
             r"time\s+between\s+tokens"),
    ("itl", r"\bITL\b|inter[- ]token"),
    ("speedup", r"speed-?up|\d\s*[x×]\s+faster|倍|加速比"),
    ("request_rate", r"\bRPS\b|\bQPS\b|req(?:uest)?s?\s*/\s*s|requests?\s+(?:per\s+second|throughput)|请求吞吐"),
    ("prefill_rate", r"(?:prefill|prompt(?:\s+processing|\s+eval)?|input)\s+(?:\w+\s+)?(?:throughput|speed|rate|tok(?:en)?s?\s*/\s*s)|\bpp\d+\b|输入吞吐|프리필\s*(?:토큰|속도|처리량)"),
    ("decode_rate", r"(?:decode|decoding|generation|output|gen)\s+(?:\w+\s+)?(?:throughput|speed|rate|tok(?:en)?s?\s*/\s*s)|\btg\d+\b|输出吞吐|디코드\s*(?:토큰|속도|처리량)|"
                    r"tok(?:en)?s?\s*/\s*s(?:ec)?\s*/\s*(?:user|request|stream)|per[- ](?:user|request|stream)"),
    ("throughput", r"throughput|tok(?:en)?s?\s*/\s*s|tokens?\s+per\s+sec|\btps\b|吞吐|スループット|토큰\s*/\s*초|처리량"),
    ("prefill_latency", r"\bprefill\b|prompt\s+processing"),
    ("decode_latency", r"\bdecode\b|\bdecoding\b|解码"),
    ("e2e", r"\bE2EL?\b|end[- ]to[- ]end|request\s+latency|\blatency\b|延迟|遅延|レイテンシ"),
]]
_STAT = re.compile(r"\b[pP](\d{2}(?:\.\d+)?)\b|\b(\d{2}(?:\.\d+)?)\s*%|\b(median|mean|avg|average|ave|max|min|std|stddev)\b|(平均|中位数|最大|最小)", re.I)
# token rates also spaced or spelled out ("(unit: Tokens / second)", premAI-io/benchmarks)
_UNIT = re.compile(r"\(\s*(ms|s|sec|seconds|tok(?:en)?s?\s*/\s*s(?:ec(?:ond)?)?|req/s|x|%)\s*\)|"
                   r"\b(ms|tok(?:en)?s?\s*/\s*s(?:ec(?:ond)?)?|tokens?\s+per\s+second|req/s)\b|(?<=\d)\s*(s|x|×|%)\b", re.I)
# a value, with its spread when given ("36.78 ± 2.17", premAI-io/benchmarks)
_NUMBER = re.compile(r"^[~≈<>≤≥]?\s*(\d[\d,]*(?:\.\d+)?)\s*(k)?\s*(ms|s|x|×|%|tok/s|GB/s)?\s*(?:(?:±|\+/-)\s*\d[\d,]*(?:\.\d+)?\s*)?$", re.I)


@dataclass
class Claim:
    """One reported figure: where it is, what it measures, its unit and statistic."""

    block: int
    start: int
    end: int
    value: float
    metric: str | None
    unit: str | None
    stat: str | None
    label: str  # the header, row label or caption that named the metric
    source: str = "table"


# Labels of a run's settings: a number under them is configuration, not a measurement.
_SETTING = re.compile(r"^\W*(?:batch(?:[\s_-]?size)?|bs|tp|pp|dp|ep|concurrency|conc|users|clients|num[\s_]?\w*|#\s*\w+|"
                      r"(?:input|output|prompt|prefix|context|generation|decode|gen|seq(?:uence)?)[\s_-]*(?:len(?:gth)?s?|tokens?|size|toks?)|"
                      r"isl|osl|requests?|prompts?|rate|request[\s_]rate|qps\s*target|max[\s_]\w+|gpus?|nodes?|replicas?|"
                      r"model|hardware|gpu|software|engine|version|dtype|precision|quantization|method|config\w*|setup)\b(?!.*(?:/s|per\s+s|latency|ttft|tpot|itl|throughput))", re.I)
# a bare "latency" column takes the specific latency its caption or heading names
_SPECIFIC_LATENCY = frozenset({"ttft", "tpot", "itl", "prefill_latency", "decode_latency"})
_AS_LATENCY = {"prefill_rate": "prefill_latency", "decode_rate": "decode_latency", "throughput": "e2e"}


@functools.lru_cache(maxsize=4096)
def _setting(label: str) -> bool:
    return _SETTING.search(label) is not None


def _generic(label: str) -> bool:
    """A label that says nothing about the metric (a setup name, 'value', 'result', empty)."""
    return metric_of(label) is None


@functools.lru_cache(maxsize=4096)  # a column header or row label is asked about once per cell
def metric_of(text: str) -> str | None:
    """The metric a label names (first match in a fixed order: specific before generic)."""
    for name, rx in _METRICS:
        if rx.search(text):
            return name
    return None


@functools.lru_cache(maxsize=4096)  # a column header or row label is asked about once per cell
def stat_of(text: str) -> str | None:
    """The statistic a label names ('p99', 'median', 'mean', ...), or None."""
    m = _STAT.search(text)
    if not m:
        return None
    if m.group(1) or m.group(2):
        p = m.group(1) or m.group(2)
        return "median" if p in ("50", "50.0") else "p" + p
    word = (m.group(3) or m.group(4)).lower()
    return {"avg": "mean", "average": "mean", "ave": "mean", "平均": "mean", "中位数": "median", "stddev": "std",
            "最大": "max", "最小": "min"}.get(word, word)


@functools.lru_cache(maxsize=4096)  # a column header or row label is asked about once per cell
def _unit(text: str) -> str | None:
    m = _UNIT.search(text)
    if not m:
        return None
    unit = (m.group(1) or m.group(2) or m.group(3) or "").lower()
    return {"sec": "s", "seconds": "s", "×": "x"}.get(unit, "tok/s" if unit.startswith("tok") else unit)


def table_claims(table: Table) -> list[Claim]:
    """The numeric cells of ``table``, one claim per cell, each with the metric its labels give it."""
    out = []
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row):
            m = _NUMBER.match(cell.text)
            if c == 0 or not m:
                continue
            column, row_text, context = cell_meaning(table, r, c)
            if _setting(column) or _setting(row_text):
                continue  # a setting of the run (batch, lengths, requests), not a measured figure
            metric, label = None, ""
            for source in (column, row_text) + ((context,) if _generic(column) and _generic(row_text) else ()):
                metric = metric_of(source)
                if metric:
                    label = source
                    break
            if metric == "e2e" and not re.search(r"E2E|end[- ]to[- ]end|request\s+latency", label, re.I):
                # "latency (ms)" in a table under "Decoding Speed" / "per-token generation latency" is that latency
                specific = metric_of(table.caption) or next(filter(None, map(metric_of, reversed(table.headings))), None)
                specific = {"decode_rate": "decode_latency", "prefill_rate": "prefill_latency"}.get(specific, specific)
                if specific in _SPECIFIC_LATENCY:
                    metric = specific
            unit = (m.group(3) or "").lower() or _unit(column) or _unit(row_text) or (_unit(context) if label == context else None)
            if metric is None and _generic(column) and _generic(row_text) and _unit(context) == "tok/s":
                metric, unit, label = "throughput", "tok/s", context  # "(unit: Tokens / second)" above a bare table: token rates
            if unit in ("ms", "s") and metric in _AS_LATENCY:
                metric = _AS_LATENCY[metric]  # "prefill 100 tokens (ms)" is a time, not a rate
            stat = stat_of(column) or stat_of(row_text)
            value = float(m.group(1).replace(",", "")) * (1000 if m.group(2) else 1)
            out.append(Claim(block=table.block, start=cell.start, end=cell.start + len(cell.text), value=value,
                             metric=metric, unit=unit, stat=stat, label=label))
    return out
