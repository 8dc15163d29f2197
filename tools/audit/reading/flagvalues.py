"""What a parsed flag value states: a number, an artifact id, a definite format, key:value extras.

Small predicates shared by the contract groups when they read command flags (``Document.flag_hits``).
"""

from __future__ import annotations

import json
import re

__all__ = ["definite", "extra_value", "is_artifact", "numeric", "sampling_keys"]

_NUMBER = re.compile(r"^\s*(?:\d[\d,]*(?:\.\d+)?|inf)(?:\s+\d[\d,]*(?:\.\d+)?)*\s*$", re.I)


def numeric(value: str) -> bool:
    """A number (or several, for flags that take a list), or 'inf' for a request rate."""
    return bool(_NUMBER.match(value))


def is_artifact(value: str) -> bool:
    """An exact weights artifact: a Hub id ``org/name``, a path, or a ``.gguf``/``.safetensors`` file."""
    return bool(re.search(r"^[\w.-]+/[\w.-]+|^[./~]|\.gguf$|\.safetensors$", value.strip()))


def definite(value: str) -> bool:
    """A definite dtype or scheme ('fp8', 'bfloat16', 'awq'), not 'auto' or a default."""
    return value.strip().lower() not in ("", "auto", "default", "none", "true")


def extra_value(value: str, key: str) -> str | None:
    """The value of ``key`` in a ``key:value`` extra input (genai-perf/aiperf ``--extra-inputs``) or a
    ``k=v,k=v`` data spec (guidellm ``--data``), or a JSON object."""
    text = value.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, RecursionError):
            return None
        found = data.get(key) if isinstance(data, dict) else None
        return None if found is None else str(found)
    for part in re.split(r"[,\s]+", text):
        m = re.match(r"([\w.-]+)\s*[:=]\s*(\S+)$", part)
        if m and m.group(1).lower() == key:
            return m.group(2)
    return None


def sampling_keys(value: str) -> bool:
    """Whether an extra-inputs or JSON value sets a sampling parameter."""
    return any(extra_value(value, k) is not None for k in ("temperature", "top_p", "top_k", "seed", "min_p"))
