"""Hypothesis strategies for tool arguments: values that fit a tool's JSON schema, and hostile ones that do not.

``arguments_for(schema, paths)`` draws a tool's arguments from its input
schema: mostly values of the declared types (at, inside and past their
limits), mixed with hostile values (deep JSON text, NUL bytes, over-long names,
huge numbers, wrong types, unknown keys). Any field whose name says it is a
path draws from ``paths`` (granted files, special files, symlink tricks and
files outside the granted folders).
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

HUGE_NUMBERS = [10**30, -(10**30), 2**63, -(2**63), 2**64 + 1, 1e308, -1e308, 5e-324, -0.0, 0, -1, 10**400]

DEEP_TEXT = ["[" * 5000, "{" * 3000, '{"a":' * 4000, "[{" * 2500, '{"runs":' + "[" * 4000]
"""JSON-looking text nested past any parser's recursion limit."""

HOSTILE_TEXT = [
    *DEEP_TEXT,
    "[" * 50 + "]" * 50,
    "- " * 2000 + "x",
    "> " * 2000 + "x",
    "|" * 3000,
    "`" * 3000,
    "#" * 3000,
    "\x00",
    "a\x00b",
    "x" * 300,
    "1e999",
    "-1e999",
    "NaN",
    "null",
    "[]",
    "{}",
    '{"records": []}',
    "\ufeff\u202e\u2028\u2029",
    "ttft_ms,e2el_ms\n1e308,1e309\n",
    "ttft_ms\n" + "1\n" * 2000,
    '{"ttft_ms": 1, "e2el_ms": 2}\n' * 500,
    "# Title\n\n| a | b |\n|" + "---|" * 500 + "\n",
    "vllm serve " + "--x " * 2000,
    "\n" * 5000,
    "é" * 1000,
]


def hostile_text() -> st.SearchStrategy[str]:
    """Hostile strings, the deeply nested ones drawn as often as all the others together."""
    return st.one_of(st.sampled_from(DEEP_TEXT), st.sampled_from(HOSTILE_TEXT))


def _json_leaf() -> st.SearchStrategy[Any]:
    return st.one_of(st.none(), st.booleans(), st.integers(-(10**6), 10**6),
                     st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=20))


def json_values(max_leaves: int = 10) -> st.SearchStrategy[Any]:
    """Any JSON value (small)."""
    return st.recursive(_json_leaf(), lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=max_leaves)


def hostile_values() -> st.SearchStrategy[Any]:
    """Values no schema asks for: deep JSON-looking text, NUL bytes, huge numbers, wrong types, deep nesting."""
    deep = st.integers(1, 120).map(lambda n: _nest(n))
    big_list = st.sampled_from([[{}] * 2000, [0] * 20000, [[]] * 1000, ["x" * 100] * 1000])
    return st.one_of(
        hostile_text(),
        st.sampled_from(HUGE_NUMBERS),
        deep,
        big_list,
        json_values(),
        st.text(min_size=0, max_size=200),
        st.binary(max_size=50).map(lambda b: b.decode("latin-1")),
    )


def _nest(depth: int) -> Any:
    value: Any = 1
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


def _strings(schema: dict[str, Any], name: str, paths: list[str]) -> st.SearchStrategy[Any]:
    if name in ("path", "paths") or name.endswith(("_path", "_paths")):
        return st.sampled_from(paths)
    low, high = schema.get("minLength", 0), schema.get("maxLength")
    top = min(high, 300) if high is not None else 300
    fitting = st.text(min_size=min(low, top), max_size=top)
    options = [fitting, hostile_text()]
    examples = schema.get("examples")
    if examples:
        options.append(st.sampled_from([e for e in examples if isinstance(e, str)] or [""]))
    if high is not None and high <= 100_000:
        options.append(st.just("x" * (high + 1)))  # one past the limit
    return st.one_of(*options)


def _numbers(schema: dict[str, Any], integer: bool) -> st.SearchStrategy[Any]:
    low = schema.get("minimum", schema.get("exclusiveMinimum"))
    high = schema.get("maximum", schema.get("exclusiveMaximum"))
    if integer:
        fitting: st.SearchStrategy[Any] = st.integers(
            min_value=int(low) if low is not None else None, max_value=int(high) if high is not None else None)
    else:
        fitting = st.floats(min_value=low, max_value=high, allow_nan=False, allow_infinity=False)
    edges = [v for v in (low, high) if v is not None]
    edges += [v + d for v in edges for d in (-1, 1)]
    return st.one_of(fitting, st.sampled_from(edges or [0]), st.sampled_from(HUGE_NUMBERS))


def from_schema(schema: dict[str, Any], defs: dict[str, Any], name: str, paths: list[str],
                depth: int = 0) -> st.SearchStrategy[Any]:
    """Values for one property: of its declared type(s), edges included."""
    if "$ref" in schema:
        target = defs.get(schema["$ref"].rsplit("/", 1)[-1], {})
        return from_schema(target, defs, name, paths, depth)
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return st.one_of(*(from_schema(s, defs, name, paths, depth) for s in schema[key]))
    if "enum" in schema:
        return st.one_of(st.sampled_from(schema["enum"]), st.text(max_size=12))
    if "const" in schema:
        return st.just(schema["const"])
    kind = schema.get("type")
    if isinstance(kind, list):
        return st.one_of(*(from_schema({**schema, "type": k}, defs, name, paths, depth) for k in kind))
    if kind == "string":
        return _strings(schema, name, paths)
    if kind in ("integer", "number"):
        return _numbers(schema, kind == "integer")
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    if kind == "array":
        items = schema.get("items", {})
        inner = from_schema(items, defs, name, paths, depth + 1) if depth < 4 else json_values()
        top = min(schema.get("maxItems", 6), 6)
        return st.lists(inner, min_size=min(schema.get("minItems", 0), top), max_size=top)
    if kind == "object" or "properties" in schema:
        if depth >= 4:
            return json_values()
        return objects(schema, defs, paths, depth + 1)
    return json_values()


def objects(schema: dict[str, Any], defs: dict[str, Any], paths: list[str], depth: int = 0) -> st.SearchStrategy:
    """An object of the schema's properties: required ones always, optional ones sometimes."""
    props = schema.get("properties", {})
    required = set(schema.get("required", []))
    fields = {k: from_schema(v, defs, k, paths, depth) for k, v in props.items()}
    return st.fixed_dictionaries({k: s for k, s in fields.items() if k in required},
                                 optional={k: s for k, s in fields.items() if k not in required})


def arguments_for(schema: dict[str, Any], paths: list[str], *,
                  seeds: list[dict[str, Any]] = ()) -> st.SearchStrategy[dict[str, Any]]:
    """A tool call's arguments: a valid seed call with fields redrawn, or schema-shaped arguments; at times with
    hostile values swapped in and unknown keys added."""
    defs = schema.get("$defs", {})
    props = schema.get("properties", {})
    base = objects(schema, defs, paths)
    names = sorted(props) or ["x"]

    @st.composite
    def from_seed(draw: st.DrawFn) -> dict[str, Any]:
        args = dict(draw(st.sampled_from(list(seeds))))
        for _ in range(draw(st.integers(0, 2))):  # redraw a field or two from the schema (a path, a limit...)
            name = draw(st.sampled_from(names))
            args[name] = draw(from_schema(props.get(name, {}), defs, name, paths))
        return args

    def hostile_for(name: str) -> st.SearchStrategy[Any]:
        """A hostile value that keeps the field's kind (text stays text, numbers stay numbers), or any value."""
        kinds = _kinds(props.get(name, {}), defs)
        fitting_kind = []
        if "string" in kinds:
            fitting_kind.append(hostile_text())
        if kinds & {"integer", "number"}:
            fitting_kind.append(st.sampled_from(HUGE_NUMBERS))
        return st.one_of(*fitting_kind, hostile_values()) if fitting_kind else hostile_values()

    @st.composite
    def mutate(draw: st.DrawFn) -> dict[str, Any]:
        args = dict(draw(st.one_of(base, from_seed()) if seeds else base))
        for _ in range(draw(st.integers(1, 2))):
            name = draw(st.sampled_from(sorted(args) if args and draw(st.booleans()) else names))
            args[name] = draw(hostile_for(name))
        if draw(st.integers(0, 9)) == 0:
            args[draw(st.sampled_from(["concurency", "request", "__proto__", "x" * 300]))] = 1
        return args

    choices = [base, mutate(), mutate()] + ([from_seed(), st.sampled_from(list(seeds))] if seeds else [])
    return st.one_of(*choices)


def _kinds(schema: dict[str, Any], defs: dict[str, Any], depth: int = 0) -> set[str]:
    """The JSON types a property accepts (through $ref and anyOf)."""
    if depth > 5:
        return set()
    if "$ref" in schema:
        return _kinds(defs.get(schema["$ref"].rsplit("/", 1)[-1], {}), defs, depth + 1)
    found: set[str] = set()
    for key in ("anyOf", "oneOf"):
        for option in schema.get(key, []):
            found |= _kinds(option, defs, depth + 1)
    kind = schema.get("type")
    found |= set(kind) if isinstance(kind, list) else ({kind} if kind else set())
    return found
