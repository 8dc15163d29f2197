"""Goodput under service-level objectives: which requests are good, vLLM's ``--goodput`` syntax.

A request is good when every given SLO holds, the test inclusive (``value <= slo``), as
vLLM's ``calculate_metrics``. Only successful requests can be good. A request with one
output token has no TPOT; it counts as TPOT 0 (it passes a TPOT SLO), as in vLLM.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import InputFormatError

if TYPE_CHECKING:
    import numpy as np

__all__ = ["GOODPUT_KEYS", "good_mask", "parse_goodput"]

GOODPUT_KEYS = ("ttft", "tpot", "e2el")
MAX_SLO_MS = 1e9
ROUNDING = 1 + 1e-9
"""A value equal to the SLO up to float rounding (1e-9 relative) meets it: 0.16 - 0.12 is not exactly 0.04."""


def parse_goodput(items: list[str] | tuple[str, ...]) -> dict[str, float]:
    """Parse vLLM's ``--goodput ttft:500 tpot:50 e2el:10000`` into ``{"ttft": 500.0, ...}`` (ms).

    Raises ``InputFormatError`` naming the bad item and the accepted keys.
    """
    slos: dict[str, float] = {}
    for item in items:
        key, sep, value = item.partition(":")
        key = key.strip().lower()
        if not sep or key not in GOODPUT_KEYS:
            raise InputFormatError(f"goodput: {item!r} is not KEY:MS; keys are {', '.join(GOODPUT_KEYS)} (ms)")
        try:
            ms = float(value)
        except ValueError:
            raise InputFormatError(f"goodput: {item!r}: {value!r} is not a number of milliseconds") from None
        if not 0 <= ms <= MAX_SLO_MS:
            raise InputFormatError(f"goodput: {key} must be between 0 and {MAX_SLO_MS:g} ms, got {value}")
        if key in slos:
            raise InputFormatError(f"goodput: {key} is given twice")
        slos[key] = ms
    return slos


def good_mask(
    *,
    ttft_s: np.ndarray,
    tpot_s: np.ndarray,
    e2el_s: np.ndarray,
    output_tokens: np.ndarray,
    slo_ms: dict[str, float],
) -> np.ndarray:
    """Boolean per successful request: every given SLO met (``value <= slo``, up to float rounding).

    ``tpot_s`` is NaN for requests with fewer than two output tokens; those count as
    TPOT 0 when their count is known (vLLM's rule). A metric that was not recorded (NaN)
    fails its SLO.
    """
    import numpy as np

    good = np.ones(ttft_s.shape, dtype=bool)
    if "ttft" in slo_ms:
        good &= ttft_s <= slo_ms["ttft"] / 1000 * ROUNDING
    if "tpot" in slo_ms:
        tpot = np.where(output_tokens <= 1, 0.0, tpot_s)  # one-token requests: TPOT := 0, as vLLM
        good &= tpot <= slo_ms["tpot"] / 1000 * ROUNDING
    if "e2el" in slo_ms:
        good &= e2el_s <= slo_ms["e2el"] / 1000 * ROUNDING
    return good
