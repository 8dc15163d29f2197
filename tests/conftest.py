import pytest


@pytest.fixture
def anyio_backend():
    return "asyncio"


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path, monkeypatch):
    """Keep every test away from the real home directory and caches."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / ".cache"))


def _same_apart_from_spelling(cli, mcp, where="$"):
    """CLI ``--json`` against the MCP structured output: every key, number, flag and list entry equal; a
    string may differ only where it names an argument or tool, the CLI spelling a flag or command where
    MCP spells the argument or tool name (cli/__init__.py's docstring states the rule)."""
    from llm_inference_fundamentals.cli import _build_parser, _spelling

    parser = _build_parser()
    pairs = set()
    for command in ("search", "read", "size", "metrics", "audit"):
        names, tools = _spelling(parser, command)
        pairs |= {(mcp_name, spelled) for mcp_name, spelled in {**names, **tools}.items() if mcp_name != spelled}

    def walk(a, b, at):
        if isinstance(b, dict):
            assert isinstance(a, dict) and a.keys() == b.keys(), f"{at}: keys differ"
            for key in b:
                walk(a[key], b[key], f"{at}.{key}")
        elif isinstance(b, list):
            assert isinstance(a, list) and len(a) == len(b), f"{at}: lengths differ"
            for i, (x, y) in enumerate(zip(a, b)):
                walk(x, y, f"{at}[{i}]")
        elif isinstance(b, str) and a != b:
            assert isinstance(a, str), f"{at}: {a!r} != {b!r}"
            assert any(name in b and spelled in a and spelled not in b for name, spelled in pairs), (
                f"{at} differs beyond spelling:\n  cli: {a}\n  mcp: {b}")
        else:
            assert a == b, f"{at}: {a!r} != {b!r}"

    walk(cli, mcp, where)


@pytest.fixture
def same_apart_from_spelling():
    """Assert that CLI --json output equals an MCP tool's structured output up to caller spelling."""
    return _same_apart_from_spelling
