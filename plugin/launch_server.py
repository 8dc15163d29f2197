"""Start the plugin's MCP server (Claude Code runs this file, see .mcp.json).

The server is the Python package in ``package/`` beside this file. It starts

1. with ``uvx`` (from uv) when it is on PATH: uv builds that package in an
   isolated environment (fetching a suitable Python if needed), so the server
   is always the plugin's own version; else
2. with an installed ``llm-inference-fundamentals`` command (``pipx install``,
   ``uv tool install`` or ``pip install``, as the README shows); else
3. not at all: it prints what to install on stderr and exits with status 1.
   Claude Code then shows the server as "Failed to connect" and keeps the
   message in its MCP log (``claude --debug`` prints it).

stdout belongs to JSON-RPC, so every message here goes to stderr. Only the
standard library is used, and the syntax stays old enough for any python3 to
reach the message.
"""

import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.join(HERE, "package")
COMMAND = "llm-inference-fundamentals"
UV_INSTALL = "https://docs.astral.sh/uv/getting-started/installation/"


def server_command(argv):
    """The command line that runs the server, or None when nothing can run it."""
    uvx = shutil.which("uvx")
    if uvx:
        return [uvx, "--from", PACKAGE, COMMAND, "serve"] + argv
    installed = shutil.which(COMMAND)
    if installed:
        return [installed, "serve"] + argv
    return None


def missing_message():
    """What the user reads when neither uvx nor the command is on PATH."""
    return "\n".join([
        "llm-inference-fundamentals plugin: cannot start the MCP server: neither `uvx` (from uv) nor an",
        "installed `%s` command is on PATH (PATH=%s)." % (COMMAND, os.environ.get("PATH", "")),
        "Fix it with one of these, then restart Claude Code:",
        "  - install uv: %s (the plugin then runs its own copy of the server)" % UV_INSTALL,
        "  - install the server with Python 3.11+: pipx install '%s'" % PACKAGE,
        "    (or: uv tool install '%s', or pip install it into any environment on PATH)" % PACKAGE,
        "The skill itself works without the server.",
    ])


def main(argv):
    command = server_command(argv)
    if command is None:
        print(missing_message(), file=sys.stderr)
        return 1
    if os.name == "nt":  # Windows has no exec: run the server as a child sharing our stdio
        return subprocess.call(command)
    os.execv(command[0], command)
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
