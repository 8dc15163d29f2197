"""The stdio transport: every request line gets an answer, and a person at a terminal is told what is going on."""

import json
import os
import subprocess
import sys
import threading

import anyio
import pytest
from mcp.shared.message import SessionMessage

from llm_inference_fundamentals.server.jsonrpc import first_level_id
from llm_inference_fundamentals.server.stdio import _CheckedLines

SERVE = [sys.executable, "-m", "llm_inference_fundamentals", "serve"]
INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}


@pytest.mark.parametrize(("line", "expected"), [
    ('{"jsonrpc":"2.0","id":7,"method":"ping","params":' + "[" * 5000, 7),
    ('{"params":{"id":3},"id":"abc"}', "abc"),
    ('{"a":"x\\"id\\":5", "id": -4 }', -4),
    ('{"id":1e999}', None),
    ('{"id":null}', None),
    ("[[[[", None),
])
def test_first_level_id_reads_only_the_top_level_member(line, expected):
    assert first_level_id(line) == expected


async def _checked(lines: bytes, max_bytes: int):
    read_fd, write_fd = os.pipe()
    os.write(write_fd, lines)
    os.close(write_fd)
    checked = _CheckedLines(read_fd, max_bytes=max_bytes)
    send, receive = anyio.create_memory_object_stream[SessionMessage](100)
    checked.attach(send)
    passed = [line async for line in checked]
    os.close(read_fd)
    answers = []
    while True:
        try:
            answers.append(receive.receive_nowait().message.model_dump(by_alias=True, exclude_none=True))
        except anyio.WouldBlock:
            return passed, answers


@pytest.mark.anyio
async def test_lines_the_sdk_would_drop_get_an_error_answer_and_good_lines_pass():
    lines = [
        json.dumps({"jsonrpc": "2.0", "id": 1, "method": "ping"}),
        '{"jsonrpc":"2.0","id":2,"method":"ping","params":' + "[" * 3000 + "]" * 3000 + "}",  # too deep for the SDK
        '{"jsonrpc":"2.0","id":1e999,"method":"ping"}',  # the SDK reads this as a notification
        "not json at all",
        '{"jsonrpc":"2.0","id":5,"method":"ping","params":"' + "x" * 9000 + '"}',  # over the line cap below
        json.dumps({"jsonrpc": "2.0", "id": 6, "method": "ping"}),
    ]
    passed, answers = await _checked(("\n".join(lines) + "\n").encode(), max_bytes=8000)
    assert [json.loads(p)["id"] for p in passed] == [1, 6]
    codes = [(a["id"] if "id" in a else None, a["error"]["code"]) for a in answers]
    assert codes == [(2, -32600), (None, -32600), (None, -32700), (None, -32600)]
    assert "nested deeper" in answers[0]["error"]["message"]
    assert "over 8,000 bytes" in answers[3]["error"]["message"]


@pytest.mark.slow
def test_stdio_server_answers_a_too_deep_request_and_keeps_serving():
    deep = '{"jsonrpc":"2.0","id":2,"method":"tools/list","params":' + "[" * 5000 + "]" * 5000 + "}"
    lines = [json.dumps(INIT), json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}), deep,
             json.dumps({"jsonrpc": "2.0", "id": 3, "method": "ping"})]
    proc = subprocess.Popen(SERVE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    watchdog = threading.Timer(60, proc.kill)
    watchdog.start()
    try:
        proc.stdin.write("\n".join(lines) + "\n")
        proc.stdin.flush()
        answers = {m["id"]: m for m in (json.loads(proc.stdout.readline()) for _ in range(3))}
        proc.stdin.close()
        proc.wait(timeout=60)
    finally:
        proc.kill()
    assert set(answers) == {1, 2, 3}
    assert answers[2]["error"]["code"] == -32600
    assert answers[3]["result"] == {}


@pytest.mark.slow
def test_serve_in_a_terminal_says_what_it_is_on_stderr_only():
    import pty
    import select

    primary, secondary = pty.openpty()
    proc = subprocess.Popen(SERVE, stdin=secondary, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    os.close(secondary)
    try:
        ready, _, _ = select.select([proc.stderr], [], [], 60)
        assert ready, "no notice on stderr"
        notice = proc.stderr.readline().decode()
        os.write(primary, b"\x04")  # Ctrl-D: end of input
        proc.wait(timeout=60)
    finally:
        proc.kill()
        os.close(primary)
    assert "MCP server over stdio" in notice and "claude mcp add" in notice and "--allow-dir" in notice
    assert proc.stdout.read() == b""
