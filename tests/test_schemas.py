"""Every field a client model reads has a description: each tool's input and output JSON schema, as the server lists them.

The tools are discovered from the server, so a tool added later is covered without touching this file.
"""

import pytest
from mcp import Client

from llm_inference_fundamentals.server import build_server


def _resolve(schema, root):
    """The schema a local ``$ref`` points at (``#/$defs/Name``), or the schema itself."""
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if not ref:
        return schema
    node = root
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


def _described(prop, root):
    """A property is described by its own description, or (a bare reference to a model) by the model's."""
    if prop.get("description"):
        return True
    branches = prop.get("anyOf") or prop.get("oneOf") or [prop]
    refs = [b for b in branches if isinstance(b, dict) and "$ref" in b]
    others = [b for b in branches if isinstance(b, dict) and "$ref" not in b and b != {"type": "null"}]
    return bool(refs) and not others and all(_resolve(r, root).get("description") for r in refs)


def undescribed_fields(schema):
    """Dotted paths of every property, at any depth, that carries no description."""
    found, seen = [], set()

    def walk(node, path):
        if isinstance(node, list):
            for i, item in enumerate(node):
                walk(item, f"{path}[{i}]")
            return
        if not isinstance(node, dict):
            return
        if "$ref" in node:
            ref = node["$ref"]
            if ref not in seen:
                seen.add(ref)
                walk(_resolve(node, schema), ref.removeprefix("#/$defs/"))
        for name, prop in (node.get("properties") or {}).items():
            if isinstance(prop, dict) and not _described(prop, schema):
                found.append(f"{path}.{name}")
            walk(prop, f"{path}.{name}")
        for key in ("items", "additionalProperties", "anyOf", "oneOf", "allOf", "prefixItems"):
            if key in node:
                walk(node[key], f"{path}.{key}")

    walk(schema, "")
    return sorted(set(found))


def test_the_walker_finds_a_bare_field_at_any_depth():
    schema = {
        "type": "object",
        "properties": {"ok": {"type": "integer", "description": "fine"}, "inner": {"$ref": "#/$defs/Inner"}},
        "$defs": {"Inner": {"description": "an inner model", "properties": {
            "bare": {"type": "number"},
            "rows": {"type": "array", "description": "rows", "items": {"$ref": "#/$defs/Row"}}}},
                  "Row": {"properties": {"cell": {"anyOf": [{"type": "string"}, {"type": "null"}]}}}},
    }
    assert undescribed_fields(schema) == ["Inner.bare", "Row.cell"]


@pytest.fixture(scope="module")
def listed_tools():
    import anyio

    async def tools():
        async with Client(build_server(), raise_exceptions=True) as client:
            return (await client.list_tools()).tools

    return anyio.run(tools)


def test_the_server_lists_the_tools_this_test_walks(listed_tools):
    names = {t.name for t in listed_tools}
    assert {"search_references", "read_reference", "size_deployment", "compute_metrics", "audit_benchmark"} <= names
    assert all(t.output_schema for t in listed_tools), "every tool returns a pydantic model"


@pytest.mark.parametrize("side", ["input", "output"])
def test_every_field_of_every_tool_has_a_description(listed_tools, side):
    bare = {}
    for tool in listed_tools:
        schema = tool.input_schema if side == "input" else tool.output_schema
        missing = undescribed_fields(schema)
        if missing:
            bare[tool.name] = missing
    assert not bare, "fields without a description:\n" + "\n".join(
        f"  {name}: {len(fields)}: {', '.join(fields)}" for name, fields in bare.items())
