"""Flag values that are comma-separated lists: ``--kv bf16,fp8``, ``--percentiles 50,99.9``, ``--gpu h100,h200``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

__all__ = ["comma_separated"]

T = TypeVar("T")


def comma_separated(text: str, kind: Callable[[str], T] = str) -> list[T]:  # type: ignore[assignment]
    """The items of ``text``, stripped, blanks dropped, each converted by ``kind``.

    A ``ValueError`` from ``kind`` reaches the caller, which words the error for its own flag.
    """
    return [kind(item) for item in (part.strip() for part in text.split(",")) if item]
