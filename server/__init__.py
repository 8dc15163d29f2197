"""The MCP server over ``llm_inference_fundamentals.tools``.

The names below load on first use, so a worker process
(``python -m llm_inference_fundamentals.server.workers``) starts without the MCP SDK.
"""

from typing import Any

__all__ = ["SERVER_NAME", "build_server", "run_server"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from . import server

        return getattr(server, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
