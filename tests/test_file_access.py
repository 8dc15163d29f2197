"""Which files the tools read, through the server: by consent only, never the working directory, never quoted."""

import json
import os
import threading

import mcp_types as types
import pytest
from mcp import Client

from llm_inference_fundamentals.server import build_server
from llm_inference_fundamentals.server.workers import Job, outcome_of
from llm_inference_fundamentals.tools.audit import AuditRequest, audit_benchmark
from llm_inference_fundamentals.tools.metrics import MetricsRequest, compute_metrics
from llm_inference_fundamentals.tools.sizing import SizingRequest, find_model, size_deployment

pytestmark = pytest.mark.anyio

SECRETS = {
    ".env": "DATABASE_URL=postgres://app:hunter2@db.internal/prod\n",
    ".git-credentials": "https://alice:ghp_SECRETTOKEN4242@github.com\n",
    ".netrc": "machine api.example.com login alice password s3cr3t-4242\n",
    "passwd": "root:x:0:0:root:/root:/bin/bash\n",
}
DOCKER = {"auths": {"registry.example.com": {"auth": "YWxpY2U6c2VjcmV0LTQyNDI="}}}


@pytest.fixture
def home(tmp_path):
    """A folder like a home directory: credentials, a docker config, and a project with a write-up."""
    for name, text in SECRETS.items():
        (tmp_path / name).write_text(text)
    (tmp_path / ".docker").mkdir()
    (tmp_path / ".docker" / "config.json").write_text(json.dumps(DOCKER))
    project = tmp_path / "project"
    project.mkdir()
    (project / "run.jsonl").write_text('{"start_s": 0, "first_token_s": 0.2, "end_s": 1.2, "output_tokens": 6}\n')
    return tmp_path


def _leaks(text):
    return [s for s in ("hunter2", "SECRETTOKEN", "s3cr3t", "root:x", "YWxpY2U") if s in text]


async def test_the_working_directory_is_not_a_read_root(home, monkeypatch):
    # Before: started in / or the home folder, audit_benchmark(path=...) returned credentials as the title.
    monkeypatch.chdir(home)
    async with Client(build_server()) as client:
        for name in [*SECRETS, ".docker/config.json", str(home / ".env"), "/etc/passwd"]:
            for tool, field in (("compute_metrics", "path"), ("size_deployment", "config_path")):
                result = await client.call_tool(tool, {field: name})
                text = result.content[0].text
                assert result.is_error and "no folder has been granted" in text and "--allow-dir" in text, name
                assert not _leaks(text), name
            audit = await client.call_tool("audit_benchmark", {"path": name})
            assert audit.is_error and not _leaks(audit.content[0].text), name


async def test_files_in_a_granted_folder_that_are_not_benchmark_inputs_are_refused_unquoted(home):
    # Even with consent, a credentials file is no write-up: an error, never a report quoting it.
    async with Client(build_server(allow_dirs=[home])) as client:
        for name in [*SECRETS, ".docker/config.json"]:
            result = await client.call_tool("audit_benchmark", {"path": str(home / name)})
            assert result.is_error, name
            assert not _leaks(result.content[0].text), name
            sized = await client.call_tool("size_deployment", {"config_path": str(home / name), "tokens": 1})
            assert sized.is_error and not _leaks(sized.content[0].text), name
            metrics = await client.call_tool("compute_metrics", {"path": str(home / name)})
            assert metrics.is_error and not _leaks(metrics.content[0].text), name


async def test_client_roots_grant_their_folders_over_stdio(home):
    project = home / "project"

    async def roots(context):
        return types.ListRootsResult(roots=[types.Root(uri=project.as_uri(), name="project")])

    async with Client(build_server(), mode="legacy", list_roots_callback=roots) as client:
        inside = await client.call_tool("compute_metrics", {"path": str(project / "run.jsonl")})
        outside = await client.call_tool("compute_metrics", {"path": str(home / ".env")})
    assert not inside.is_error
    # TTFT = 0.2 s = 200 ms; TPOT = (1200 - 200) ms / (6 - 1) = 200 ms
    assert inside.structured_content["tpot_ms"]["mean"] == pytest.approx(200.0)
    assert outside.is_error and "outside the folders" in outside.content[0].text
    assert not _leaks(outside.content[0].text)


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_a_client_without_roots_reads_only_the_allowed_folders(home, mode):
    project = home / "project"
    async with Client(build_server(allow_dirs=[project]), mode=mode) as client:
        inside = await client.call_tool("compute_metrics", {"path": str(project / "run.jsonl")})
        outside = await client.call_tool("compute_metrics", {"path": str(home / ".env")})
    assert not inside.is_error
    assert outside.is_error and "outside the folders" in outside.content[0].text


def _race(tool, fn, model, field, inside_file, outside_file, marker, calls=600):
    """Calls through the server's own path (run_job under the policy) while a symlink flips in and out."""
    unchecked = outcome_of(Job(tool, fn, model, {field: str(outside_file)}))  # no policy: the command line
    assert unchecked[0] == "ok" and marker in unchecked[1].model_dump_json()  # so the count below can catch a leak
    folder = inside_file.parent
    link = folder / ("flip" + inside_file.suffix)
    link.symlink_to(inside_file)
    stop = threading.Event()

    def flip():
        i = 0
        while not stop.is_set():
            tmp = folder / f".tmp{i % 2}"
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(outside_file if i % 2 == 0 else inside_file)
            os.replace(tmp, link)
            i += 1

    flipper = threading.Thread(target=flip)
    flipper.start()
    leaked = answered = 0
    try:
        for _ in range(calls):
            kind, value = outcome_of(Job(tool, fn, model, {field: str(link)}, readable=(str(folder),)))
            text = value.model_dump_json() if kind == "ok" else value
            answered += kind == "ok"
            leaked += marker in text
    finally:
        stop.set()
        flipper.join()
    return leaked, answered


@pytest.mark.slow
def test_a_symlink_flipping_between_inside_and_outside_never_reads_the_outside_file(tmp_path):
    # Before: 342-368 of 3,000 calls per tool read the outside file (resolve, check, then open again).
    inside, outside = tmp_path / "inside", tmp_path / "outside"
    inside.mkdir()
    outside.mkdir()
    (inside / "w.md").write_text("# Inside\n\nvLLM 0.8.5 on 1x H100, 100 requests, TTFT p99 120 ms.\n")
    (outside / "w.md").write_text("# OUTSIDE-4242\n\nvLLM 0.8.5 on 1x H100, 100 requests, TTFT p99 120 ms.\n")
    (inside / "r.jsonl").write_text('{"ttft_ms": 100, "e2el_ms": 300, "output_tokens": 3}\n')
    (outside / "r.jsonl").write_text('{"ttft_ms": 4242, "e2el_ms": 9000, "output_tokens": 3}\n')
    config = find_model("Llama-3.1-8B").config
    (inside / "c.json").write_text(json.dumps(config))
    (outside / "c.json").write_text(json.dumps({**config, "num_hidden_layers": 77}))
    audit = _race("audit_benchmark", audit_benchmark, AuditRequest, "path", inside / "w.md", outside / "w.md",
                  "OUTSIDE-4242")
    metrics = _race("compute_metrics", compute_metrics, MetricsRequest, "path", inside / "r.jsonl",
                    outside / "r.jsonl", "4242.0")
    sizing = _race("size_deployment", size_deployment, SizingRequest, "config_path", inside / "c.json",
                   outside / "c.json", '"layers":77')
    assert (audit[0], metrics[0], sizing[0]) == (0, 0, 0)
    assert audit[1] and metrics[1] and sizing[1]  # calls that got the inside file were answered


async def test_a_client_that_offers_roots_but_never_answers_costs_one_short_wait(home):
    # Some clients declare the roots capability and never answer roots/list: ask once per session, not per call.
    import anyio

    asked = []

    async def silent(context):
        asked.append(1)
        await anyio.sleep(3600)

    project = home / "project"
    async with Client(build_server(allow_dirs=[project]), mode="legacy", list_roots_callback=silent) as client:
        first = await client.call_tool("compute_metrics", {"path": str(project / "run.jsonl")})
        second = await client.call_tool("compute_metrics", {"path": str(project / "run.jsonl")})
    assert not first.is_error and not second.is_error  # the --allow-dir folder still works
    assert len(asked) == 1
