"""Run the assistant question set's call sequences through the MCP tools and check their key figures.

The question set (tests/data/assistant/questions.json) gives, for each realistic question, the minimal call
sequence an assistant needs with today's tools (`calls`) and the one it needed with the tools as they were at
commit fd9a238 (`calls_before`). tests/test_assistant_questions.py runs `calls`; this file is also a script that
counts both and can run the `calls_before` sequences against an old checkout:

    python tests/assistant_calls.py                       # counts, and runs `calls` against this checkout
    python tests/assistant_calls.py --root /tmp/old --sequence calls_before
        # /tmp/old/llm_inference_fundamentals is `git archive fd9a238` of this repository

Each call goes to the MCP server through the SDK's in-process client, so an answer is exactly the structured
output an assistant receives. File paths in arguments are relative to the repository root.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import operator
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
QUESTIONS = ROOT / "tests" / "data" / "assistant" / "questions.json"
PATH_ARGUMENTS = ("path", "config_path")


def load_questions(path: Path = QUESTIONS) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["questions"]


class CallError(RuntimeError):
    """A tool refused a call of the sequence (the message is the tool error)."""


async def run_sequence(client, question: dict, sequence: str = "calls", root: Path = ROOT) -> dict[str, dict]:
    """Every call of one sequence through an MCP client, by call id: the tools' structured outputs."""
    results = {}
    for call in question.get(sequence, []):
        answer = await client.call_tool(call["tool"], _rooted(call.get("args", {}), root))
        if answer.is_error:
            text = " ".join(getattr(block, "text", "") for block in answer.content)
            raise CallError(f"{question['id']} {call['id']} ({call['tool']}): {text}")
        results[call["id"]] = answer.structured_content
    return results


def _rooted(value, root: Path):
    """The arguments with every file path (at any depth, e.g. compare_runs' runs[].path) made absolute under root."""
    if isinstance(value, list):
        return [_rooted(v, root) for v in value]
    if isinstance(value, dict):
        return {k: str(root / v) if k in PATH_ARGUMENTS and isinstance(v, str) else _rooted(v, root)
                for k, v in value.items()}
    return value


def _normal(text: str) -> str:
    return " ".join(str(text).split())


def _at(data, path: str):
    for part in path.split("."):
        data = data[int(part)] if isinstance(data, list) else data[part]
    return data


_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
        ast.FloorDiv: operator.floordiv, ast.Pow: operator.pow, ast.Mod: operator.mod}


def arithmetic(expression: str) -> float:
    """Evaluate a hand derivation written as plain arithmetic (numbers, + - * / // ** %, parentheses)."""

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            return node.value
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -ev(node.operand)
        raise ValueError(f"not plain arithmetic: {expression!r}")

    return ev(ast.parse(expression.replace(",", "_"), mode="eval"))


def check(question: dict, results: dict[str, dict], skill: str, sequence: str = "calls") -> list[str]:
    """The expectations of one question that its results do not meet (empty when all hold)."""
    failures = []
    for n, expect in enumerate(question["expect"]):
        if not expect.get("before" if sequence == "calls_before" else "after", True):
            continue  # a figure only one of the two sequences can show
        label = f"{question['id']} expect[{n}] {expect.get('figure', '')}"
        try:
            if "skill" in expect:
                value, ok = None, _normal(expect["skill"]) in _normal(skill)
            elif "arithmetic" in expect:
                value = arithmetic(expect["arithmetic"])
                ok = _compare(value, expect)
            else:
                if expect["call"] not in results:
                    failures.append(f"{label}: no call {expect['call']!r} in {sequence}")
                    continue
                result = results[expect["call"]]
                if "contains" in expect:
                    value, ok = None, _normal(expect["contains"]) in _normal(json.dumps(result, ensure_ascii=False)
                                                                            .replace("\\n", " "))
                else:
                    value = _at(result, expect["path"])
                    ok = _compare(value, expect)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            failures.append(f"{label}: {type(exc).__name__}: {exc}")
            continue
        if not ok:
            failures.append(f"{label}: got {value!r}, expected {_wanted(expect)}")
    return failures


def _compare(value, expect) -> bool:
    if "equals" in expect:
        return value == expect["equals"]
    if "approx" in expect:
        return abs(value - expect["approx"]) <= expect.get("rel", 0.005) * abs(expect["approx"])
    if "between" in expect:
        low, high = expect["between"]
        return low <= value <= high
    if "in" in expect:
        return value in expect["in"]
    raise ValueError("an expectation needs equals, approx, between or in")


def _wanted(expect) -> str:
    for key in ("equals", "approx", "between", "in", "contains", "skill"):
        if key in expect:
            return f"{key} {expect[key]!r}"
    return "?"


def main(argv=None) -> int:
    import anyio
    from mcp import Client

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=None,
                        help="folder holding an llm_inference_fundamentals package to import (default: installed)")
    parser.add_argument("--sequence", default="calls", choices=["calls", "calls_before"])
    args = parser.parse_args(argv)
    if args.root:
        sys.path.insert(0, str(args.root))
    server_module = importlib.import_module("llm_inference_fundamentals.server")
    corpus = importlib.import_module("llm_inference_fundamentals.tools.corpus")
    skill = corpus.skill_text()
    questions = load_questions()

    async def run() -> tuple[int, int, int]:
        errors = misses = total = 0
        server = server_module.build_server(allow_dirs=[ROOT])
        async with Client(server) as client:
            for q in questions:
                total += len(q.get(args.sequence, []))
                try:
                    results = await run_sequence(client, q, args.sequence)
                except CallError as exc:
                    errors += 1
                    print(f"ERROR {str(exc)[:300]}")
                    continue
                for failure in check(q, results, skill, args.sequence):
                    misses += 1
                    print(f"MISS  {failure}")
        return errors, misses, total

    errors, misses, total = anyio.run(run)
    before = sum(len(q["calls_before"]) for q in questions)
    after = sum(len(q["calls"]) for q in questions)
    print(f"package: {Path(server_module.__file__).resolve().parent.parent}")
    print(f"{len(questions)} questions; ran {args.sequence}: {total} calls, {errors} sequences refused, "
          f"{misses} figures missed. Calls needed: before (fd9a238) {before}, now {after}")
    return 1 if errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
