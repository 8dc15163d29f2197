"""llm-inference-fundamentals: an agent skill and MCP server for LLM inference performance.

The domain logic lives in ``llm_inference_fundamentals.tools`` (no MCP needed);
``llm_inference_fundamentals.server`` adapts it to MCP and ``llm_inference_fundamentals.cli``
to the command line.
"""

__version__ = "0.1.0"
