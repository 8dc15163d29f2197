"""The README's Cursor and VS Code snippets: valid for each editor's schema, and they start a working server.

Neither editor has a CLI to load a config headlessly, so each snippet is checked against the editor's
documented schema (tests/data/client-schemas/, with their sources) and then run the way the editor
runs a stdio entry: `command` with `args`, found on PATH.
"""

import json
import os
import re
import sys
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = Path(__file__).parent / "data" / "client-schemas"


def _readme_snippet(label):
    """The first ```json block after the paragraph that starts with `label`."""
    readme = (ROOT / "README.md").read_text()
    start = re.search(rf"^{re.escape(label)}", readme, re.M)
    assert start, f"README has no paragraph starting with {label!r}"
    block = re.compile(r"```json\n(.*?)```", re.S).search(readme, start.end())
    return json.loads(block.group(1))


SNIPPETS = {
    "cursor": (_readme_snippet("Cursor ("), "mcpServers"),
    "vscode": (_readme_snippet("VS Code ("), "servers"),
}


def _validator(client):
    return jsonschema.Draft7Validator(json.loads((SCHEMAS / f"{client}-mcp.schema.json").read_text()))


@pytest.mark.parametrize("client", sorted(SNIPPETS))
def test_readme_snippet_matches_the_clients_schema(client):
    config, _ = SNIPPETS[client]
    errors = [e.message for e in _validator(client).iter_errors(config)]
    assert errors == []


def test_each_schema_refuses_the_other_clients_snippet():
    # The two formats differ (mcpServers vs servers + type); a schema that accepted both would check nothing.
    assert list(_validator("cursor").iter_errors(SNIPPETS["vscode"][0]))
    assert list(_validator("vscode").iter_errors(SNIPPETS["cursor"][0]))


@pytest.mark.slow
@pytest.mark.anyio
@pytest.mark.parametrize("client", sorted(SNIPPETS))
async def test_readme_snippet_starts_a_server_that_lists_the_tools(client, tmp_path):
    from mcp import Client, StdioServerParameters

    config, key = SNIPPETS[client]
    (entry,) = config[key].values()
    # The command as installed by the README's install step: on PATH, here the test environment's bin folder.
    env = {"PATH": str(Path(sys.executable).parent), "HOME": os.environ["HOME"]}
    params = StdioServerParameters(command=entry["command"], args=entry["args"], env=env, cwd=str(tmp_path))
    async with Client(params) as client_session:
        names = {t.name for t in (await client_session.list_tools()).tools}
    assert {"search_references", "read_reference", "size_deployment", "compute_metrics", "audit_benchmark"} <= names
