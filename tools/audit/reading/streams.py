"""How many streams a write-up runs at once: the words that settle whether a token rate is one user's or a sum.

Several rules need it: throughput_basis (aggregate or per session), tpot_definition and observation_point (a
single-stream decode rate is a per-token latency figure) and latency_distributions (one value per stream). Each
vocabulary below answers a narrower question; they differ on purpose, and every rule names the one it asks.
"""

from __future__ import annotations

from .lexicon import icase

__all__ = ["ANY_CONCURRENCY", "ONE_STREAM", "ONE_STREAM_WORDS", "ONE_USER", "PER_STREAM", "SEVERAL_STREAMS"]

_LIST = r"[.,]\d|\s*(?:,|/|and\b|or\b|to\b|-|–)\s*\d"
"""A value that starts a list or range ("concurrency 1, 8 and 32", "batch size 1-64") is not one stream."""

ONE_STREAM = icase(rf"\bbatch[\s_-]*size\s*(?:of\s+|=\s*|:\s*)?1\b(?!{_LIST})|\bbs\s*=\s*1\b(?!{_LIST})|\bconcurrency\s*(?:of\s+|=\s*|:\s*)?1\b(?!{_LIST})|"
                   r"\bsingle[- ](?:stream|request)\s+(?:decod|generat|throughput|speed|rate|run|benchmark|latency)|\bone\s+(?:request|prompt|sequence)\s+at\s+a\s+time|"
                   r"\btok(?:en)?s?\s*/\s*s(?:ec)?\s*/\s*user\b")
"""One stream stated for a run: batch size 1, concurrency 1, one request at a time, tok/s/user (not the first of a list)."""

ONE_STREAM_WORDS = icase(r"single[- ](?:stream|user|request|session|batch)|batch(?:[- ]size)?\s*(?:of\s*|=\s*)?1\b|bs\s*=?\s*1\b|"
                         r"concurrency\s*(?:of\s*|=\s*)?1\b|one\s+(?:request|user|prompt)\s+at\s+a\s+time")
"""One stream named in a figure's own sentence or table header ("single-user tok/s", "bs=1")."""

PER_STREAM = icase(r"per[- ](?:user|request|stream|session|sequence)|/\s*(?:user|req|request|stream)\b|single[- ](?:stream|user|request|sequence|batch)|"
                   r"batch(?:[- ]size)?\s*(?:of\s*|=\s*)?1\b|\bbs\s*=\s*1\b|concurrency\s*(?:of\s*|=\s*)?1\b|one\s+(?:request|prompt|sequence)\s+at\s+a\s+time|"
                   r"\btg\d{2,}\b")
"""A figure's line saying it is one stream's: per user/request/stream, batch 1, one at a time, a llama-bench tgN column."""

ONE_USER = icase(r"\bsingle\s+(?:chat\s+)?(?:user|session|stream)\b|\bone\s+(?:user|chat\s+session)\b|"
                 r"\bbatch[\s_-]*size\s*(?:of\s+|=\s*|:\s*)?1\b|\bbs\s*=\s*1\b")
"""One user or session stated anywhere in a write-up ("That's single user", "for a single chat session"), or batch 1."""

SEVERAL_STREAMS = icase(r"\bbatch[\s_-]*size[s]?\s*(?:of\s+|=\s*|:\s*)?(?:[2-9]|\d{2,})\b|\bbs\s*=\s*(?:[2-9]|\d{2,})\b|"
                        r"\bconcurrency\s*(?:of\s+|=\s*|:\s*|levels?\s+)?(?:[2-9]|\d{2,})\b|\b(?:[2-9]|\d{2,})\s+(?:concurrent\s+)?(?:users|streams|clients)\b|"
                        r"\bbatch\s+sizes\b|\bconcurrenc(?:y|ies)\s+(?:sweep|levels)")
"""A batch, concurrency or user count above one, or a sweep of them."""

ANY_CONCURRENCY = icase(r"concurren|\bbatch|\bparallel\s+(?:requests|sequences|users|streams|decod)|\busers\b|\bclients\b|\bcustomers\b|\btraffic\b|\bQPS\b|\bRPS\b|"
                        r"req(?:uest)?s?\s*/\s*s|requests?\s+per\s+second|request[-_ ]rate|in[- ]flight|--num-prompts|num_prompts|"
                        # 同时 / 同時 alone is "at the same time" in any sentence ("同时修改模型路径"): only with a verb of serving
                        r"并发|批|同时(?:处理|服务|请求|运行|发送|推理|在线|访问|执行)|多用户|同時(?:処理|実行|リクエスト|接続)|バッチ|並列")
"""Anything that may put more than one stream in flight (batches, concurrency, users, clients, request rates): a
write-up with none of it runs one stream at a time."""
