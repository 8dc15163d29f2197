"""How to read on, spelled the way the caller calls us: a ``lif read`` command or a ``read_reference`` call.

``argument()`` from tools/errors.py tells which front end is asking: under the CLI
it returns flags (``--offset``), over MCP the argument names (``offset``).
"""

from __future__ import annotations

import json

from ..errors import argument

__all__ = ["on_cli", "read_call"]


def on_cli() -> bool:
    """True while the command line runs us (it renders arguments as flags)."""
    return argument("offset").startswith("-")


def read_call(page: str, sections: list[str], *, offset: int = 0, whole_page: bool = False,
              max_tokens: int | None = None) -> str:
    """The exact call that reads ``sections`` of ``page`` from ``offset``: a command on the CLI, a tool call over MCP."""
    if on_cli():
        words = ["lif", "read", page, *sections]
        if whole_page:
            words.append(argument("whole_page"))
        if offset:
            words += [argument("offset"), str(offset)]
        if max_tokens is not None:
            words += [argument("max_tokens"), str(max_tokens)]
        return " ".join(words)
    args = [f"{argument('page')}={json.dumps(page)}"]
    if sections:
        value = sections[0] if len(sections) == 1 else sections
        args.append(f"{argument('section')}={json.dumps(value)}")
    if whole_page:
        args.append(f"{argument('whole_page')}=true")
    if offset:
        args.append(f"{argument('offset')}={offset}")
    if max_tokens is not None:
        args.append(f"{argument('max_tokens')}={max_tokens}")
    return f"read_reference({', '.join(args)})"
