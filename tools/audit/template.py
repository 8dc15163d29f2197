"""The fill-in report template: a markdown write-up whose every line asks for one contract item."""

from __future__ import annotations

import functools

from pydantic import BaseModel, Field

__all__ = ["audit_template"]


def audit_template() -> str:
    """A fill-in markdown report that declares every contract item (replace the example values)."""
    return _template()


@functools.cache
def _template() -> str:
    from importlib.resources import files

    data = _Template.model_validate_json((files(__package__).parent / "data" / "audit-template.json").read_text(encoding="utf-8"))
    return "\n".join(data.lines) + "\n"


class _Template(BaseModel):
    source: str
    lines: list[str] = Field(min_length=1)
