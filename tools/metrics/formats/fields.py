"""Typed reads from parsed result files: each failure is an ``InputFormatError`` naming the field.

Result files are other tools' JSON; a missing key, a string where a number belongs, a
negative latency or mismatched array lengths must produce a message that names the key,
never a traceback and never a wrong number.
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

from ...errors import InputFormatError
from ..records import LoadSetting

if TYPE_CHECKING:
    import numpy as np

__all__ = ["array_field", "load_setting", "mapping", "number", "optional_number", "summary_figures"]

_SUMMARY_KEY = re.compile(r"^(mean|median|std|p\d+(?:\.\d+)?)_[a-z0-9_]+_ms$")


def mapping(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise InputFormatError(f"{where}: expected a JSON object, got {type(value).__name__}")
    return value


def optional_number(obj: dict[str, Any], key: str, where: str, *, minimum: float | None = 0.0) -> float | None:
    """``obj[key]`` as a finite float (``None`` when absent or null). Numeric strings are accepted (llmperf-style)."""
    value = obj.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise InputFormatError(f"{where}: field {key!r} must be a number, got {type(value).__name__}")
    try:
        number_value = float(value)
    except ValueError:
        raise InputFormatError(f"{where}: field {key!r} must be a number, got a non-numeric string") from None
    if not math.isfinite(number_value):
        raise InputFormatError(f"{where}: field {key!r} must be finite, got {number_value}")
    if minimum is not None and number_value < minimum:
        raise InputFormatError(f"{where}: field {key!r} must be >= {minimum:g}, got {number_value:g}")
    return number_value


def number(obj: dict[str, Any], key: str, where: str, *, minimum: float | None = 0.0) -> float:
    value = optional_number(obj, key, where, minimum=minimum)
    if value is None:
        raise InputFormatError(f"{where}: required field {key!r} is missing")
    return value


def array_field(obj: dict[str, Any], key: str, where: str, *, length: int | None = None, minimum: float | None = 0.0) -> np.ndarray:
    """``obj[key]`` as a 1-D float array (finite, >= minimum), optionally of a given length."""
    import numpy as np

    value = obj.get(key)
    if not isinstance(value, list):
        raise InputFormatError(f"{where}: field {key!r} must be a list of numbers")
    try:
        arr = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputFormatError(f"{where}: field {key!r} must be a list of numbers (found a non-number)") from None
    if arr.ndim != 1:
        raise InputFormatError(f"{where}: field {key!r} must be a flat list of numbers")
    if length is not None and arr.size != length:
        raise InputFormatError(f"{where}: field {key!r} has {arr.size} entries, expected {length} (one per request)")
    if arr.size and not np.all(np.isfinite(arr)):
        raise InputFormatError(f"{where}: field {key!r} holds a non-finite value at index {int(np.argmin(np.isfinite(arr)))}")
    if minimum is not None and arr.size and arr.min() < minimum:
        raise InputFormatError(f"{where}: field {key!r} holds a value below {minimum:g} at index {int(np.argmin(arr))}")
    return arr


def summary_figures(obj: dict[str, Any], scalar_keys: tuple[str, ...]) -> dict[str, float | None]:
    """The numeric summary fields of a run object: the named scalars plus every ``mean_/median_/std_/pNN_*_ms`` key."""
    figures: dict[str, float | None] = {}
    for key, value in obj.items():
        if key in scalar_keys or _SUMMARY_KEY.match(key):
            if value is None:
                figures[key] = None
            elif isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value):
                figures[key] = float(value)
    return figures


def load_setting(obj: dict[str, Any]) -> LoadSetting | None:
    """vLLM / SGLang run keys ``request_rate`` (a number, ``"inf"`` or ``"trace"``) and ``max_concurrency`` as a load setting."""
    rate_raw = obj.get("request_rate")
    cap_raw = obj.get("max_concurrency")
    if rate_raw is None and cap_raw is None:
        return None
    rate = None
    if isinstance(rate_raw, (int, float)) and not isinstance(rate_raw, bool) and math.isfinite(rate_raw) and rate_raw > 0:
        rate = float(rate_raw)
    elif isinstance(rate_raw, str):
        try:
            value = float(rate_raw)
        except ValueError:
            value = math.nan
        if math.isfinite(value) and value > 0:
            rate = value
    cap = int(cap_raw) if isinstance(cap_raw, (int, float)) and not isinstance(cap_raw, bool) and cap_raw >= 1 else None
    # a finite rate schedules arrivals (open loop, capped by max_concurrency); "inf" with a cap keeps the cap full
    loop = "open" if rate is not None else ("closed" if cap is not None else None)
    stated = ", ".join(k for k in ("request_rate", "max_concurrency") if obj.get(k) is not None)
    return LoadSetting(request_rate=rate, max_concurrency=cap, loop=loop, stated_by=stated)
