"""The MCP server over ``llm_inference_fundamentals.tools``."""

from .server import SERVER_NAME, build_server, run_server

__all__ = ["SERVER_NAME", "build_server", "run_server"]
