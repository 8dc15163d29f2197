"""The upstream drift check: tree diff, page map, paragraph audit, GitHub errors; no network."""

import hashlib
import json
import re
from pathlib import Path

import httpx
import pytest
from pydantic import ValidationError

from llm_inference_fundamentals.cli import main
from llm_inference_fundamentals.tools import upstream
from llm_inference_fundamentals.tools.errors import NetworkUnavailableError, UnknownRefError
from llm_inference_fundamentals.tools.upstream import (
    REFERENCE_PAGE_IDS,
    UpstreamRequest,
    audit_revisions,
    check_upstream,
    containment,
    content_words,
    split_units,
    upstream_data,
)

ROOT = Path(__file__).resolve().parent.parent
CONTENT_MAP = ROOT.parent / "shared" / "research" / "content-map.md"

MODULAR = "modular/llm-inference-handbook"
BENTOML = "bentoml/llm-inference-handbook"
PIN = "317b9816ec3080031333ed9ee44dfce919763bf7"
OLDER_PIN = "ea07b2ccd9b35db810763fc76980b26be1d2b871"
NEW = "a" * 40

ON_PREM = "docs/getting-started/on-prem-llms.md"
FLASH = "docs/kernel-optimization/flashattention.md"
OFFLINE = "docs/inference-optimization/offline-batch-inference.md"
NEW_PAGE = "docs/inference-optimization/batch-inference-jobs.md"
COMPONENT = "src/components/GPUTable/index.tsx"

KEPT = "Running models in your own datacenter gives full control over data residency and hardware choice."
OLD_WORDING = "Procurement cycles for GPUs are long, so teams must plan capacity months before demand arrives."
NEW_WORDING = (
    "Because buying GPUs takes a long procurement cycle, teams have to plan capacity months before demand shows up."
)
GONE = "Bursty traffic overflows from the steady on-prem baseline cluster onto rented cloud GPUs during spikes."
MOVED = "Offline jobs process large prompt sets without latency targets, so the engine can run very large batches."
FRESH = "Batch endpoints accept a JSONL upload and return results within a completion window of hours."

PINNED_FILES = {
    ON_PREM: f"---\ntitle: On-prem\n---\n\nimport Foo from '@site/foo';\n\n# On-prem LLMs\n\n{KEPT}\n\n"
    f"## Challenges\n\n- {OLD_WORDING}\n\n## Overflow\n\n{GONE}\n",
    FLASH: "# FlashAttention\n\nTiling keeps attention blocks in on-chip SRAM instead of reading HBM repeatedly.\n",
    OFFLINE: f"# Offline batch inference\n\n{MOVED}\n",
    COMPONENT: "export const GPUS = [];\n",
}
NEW_FILES = {
    ON_PREM: f"---\ntitle: On-prem\n---\n\n# On-prem LLMs\n\n{KEPT}\n\n## Challenges\n\n- {NEW_WORDING}\n",
    FLASH: PINNED_FILES[FLASH],
    NEW_PAGE: f"# Batch inference jobs\n\n{MOVED}\n\n{FRESH}\n",
    COMPONENT: "export const GPUS = [{name: 'H200'}];\n",
}
OLDER_FILES = {ON_PREM: PINNED_FILES[ON_PREM]}


def _blob_sha(text):
    data = text.encode()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _tree(files):
    entries = [{"path": "docs", "type": "tree", "sha": "0" * 40}]
    entries += [{"path": p, "type": "blob", "sha": _blob_sha(t), "size": len(t)} for p, t in files.items()]
    entries.append({"path": "README.md", "type": "blob", "sha": "1" * 40, "size": 10})
    return {"sha": "f" * 40, "tree": entries, "truncated": False}


class FakeGitHub:
    """Two tiny handbook repositories: modular moved from PIN to NEW, bentoml's main is still its pin."""

    def __init__(self):
        self.requests: list[httpx.Request] = []
        self.revisions = {
            (MODULAR, PIN): PINNED_FILES,
            (MODULAR, NEW): NEW_FILES,
            (BENTOML, OLDER_PIN): OLDER_FILES,
        }
        self.branches = {(MODULAR, "main"): NEW, (BENTOML, "main"): OLDER_PIN}

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        path = request.url.path
        if request.url.host == "api.github.com":
            m = re.fullmatch(r"/repos/([^/]+/[^/]+)/commits/(.+)", path)
            if m:
                repo, ref = m.groups()
                sha = self.branches.get((repo, ref), ref if (repo, ref) in self.revisions else None)
                if sha is None:
                    return httpx.Response(404, json={"message": "No commit found for SHA: " + ref})
                return httpx.Response(200, json={"sha": sha, "commit": {"committer": {"date": "2026-08-03T10:00:00Z"}}})
            m = re.fullmatch(r"/repos/([^/]+/[^/]+)/git/trees/([0-9a-f]{40})", path)
            if m and request.url.params.get("recursive") == "1" and tuple(m.groups()) in self.revisions:
                return httpx.Response(200, json=_tree(self.revisions[tuple(m.groups())]))
        if request.url.host == "raw.githubusercontent.com":
            owner, name, commit, file_path = path.lstrip("/").split("/", 3)
            files = self.revisions.get((f"{owner}/{name}", commit), {})
            if file_path in files:
                return httpx.Response(200, text=files[file_path])
        return httpx.Response(404, json={"message": "Not Found"})

    def raw_paths(self):
        return sorted(r.url.path for r in self.requests if r.url.host == "raw.githubusercontent.com")


@pytest.fixture
def github(monkeypatch):
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    return FakeGitHub()


@pytest.fixture
def report(github):
    return check_upstream(UpstreamRequest(), transport=httpx.MockTransport(github))


def _offline(request):
    raise httpx.ConnectError("[Errno -2] Name or service not known", request=request)


def _route_cli_through(monkeypatch, handler):
    """The CLI builds its own client; hand it the mock transport instead of the network."""
    real = upstream.check._client
    monkeypatch.setattr(upstream.check, "_client", lambda transport: real(httpx.MockTransport(handler)))


# --- drift --------------------------------------------------------------------------


def test_changed_added_and_removed_pages_name_the_reference_pages_they_feed(report):
    modular = report.repos[0]
    assert (modular.repo, modular.resolved_commit, modular.up_to_date) == (MODULAR, NEW, False)
    changes = {c.path: (c.change, c.feeds, c.status) for c in modular.changes}
    assert changes == {
        ON_PREM: ("changed", ["deployment"], "mapped"),
        OFFLINE: ("removed", ["batching"], "mapped"),
        NEW_PAGE: ("added", [], "unmapped"),
        COMPONENT: ("changed", ["gpu-fundamentals"], "mapped"),
    }
    # README.md is not tracked; flashattention.md kept its blob SHA, so it is not listed.
    assert report.pages_to_review == ["batching", "gpu-fundamentals", "deployment"]
    assert report.unmapped == [NEW_PAGE]


def test_repo_whose_ref_is_the_pin_is_up_to_date_without_tree_requests(report, github):
    bentoml = report.repos[1]
    assert (bentoml.repo, bentoml.up_to_date, bentoml.changes, bentoml.audit) == (BENTOML, True, [], None)
    assert not [r for r in github.requests if f"/repos/{BENTOML}/git/trees" in r.url.path]


def test_audit_fetches_only_changed_added_and_removed_markdown(report, github):
    fetched = github.raw_paths()
    assert fetched == sorted(
        [f"/{MODULAR}/{PIN}/{ON_PREM}", f"/{MODULAR}/{NEW}/{ON_PREM}", f"/{MODULAR}/{PIN}/{OFFLINE}",
         f"/{MODULAR}/{NEW}/{NEW_PAGE}"]
    )


# --- the paragraph audit ---------------------------------------------------------------


def test_audit_reports_the_paragraph_whose_concept_is_gone(report):
    audit = report.repos[0].audit
    dropped = [(u.path, u.kind, u.section, u.feeds) for u in audit.dropped]
    assert dropped == [(ON_PREM, "paragraph", "Overflow", ["deployment"])]
    assert audit.dropped[0].excerpt.startswith("Bursty traffic overflows from the steady on-prem baseline")
    assert audit.dropped[0].score < audit.threshold == 0.6


def test_audit_counts_the_reworded_item_as_retained_and_the_moved_paragraph_as_verbatim(report):
    audit = report.repos[0].audit
    # Pinned units: on-prem (KEPT, OLD_WORDING, GONE) + offline (MOVED) = 4; the import line and headings are no units.
    # KEPT and MOVED are verbatim (MOVED now lives on the new page), OLD_WORDING is reworded, GONE is dropped.
    assert (audit.units_checked, audit.retained_verbatim, audit.retained_close, len(audit.dropped)) == (4, 2, 1, 1)
    assert audit.files_compared == 3


def test_audit_lists_new_paragraphs_as_added(report):
    added = report.repos[0].audit.added
    assert [(u.path, u.feeds) for u in added] == [(NEW_PAGE, [])]
    assert added[0].excerpt.startswith("Batch endpoints accept a JSONL upload")


def test_containment_of_the_reworded_item_is_above_the_threshold():
    old, new = content_words(OLD_WORDING), content_words(NEW_WORDING)
    # old words: procurement cycle gpu long team plan capacity month demand arrive (10; "are", "so", "must",
    # "before" dropped as stop words, plurals folded). new text lacks only "arrive": 9/10 = 0.9.
    assert len(old) == 10
    assert containment(old, new) == pytest.approx(0.9)


def test_containment_of_the_gone_paragraph_is_below_the_threshold():
    old = content_words(GONE)
    new = content_words(KEPT + " " + NEW_WORDING)
    # GONE: bursty traffic overflow steady on-prem baseline cluster onto rented cloud gpu spike (12 words;
    # "from" and "during" are stop words); the new page shares only "gpu": 1/12.
    assert len(old) == 12
    assert containment(old, new) == pytest.approx(1 / 12)


def test_audit_revisions_matches_a_paragraph_split_in_two():
    older = {"a.md": "Prefill is compute bound and processes the whole prompt at once while decode is memory bound "
                     "and emits one token per step."}
    newer = {"a.md": "Prefill processes the whole prompt at once, so it is compute bound.\n\n"
                     "Decode emits one token per step and is memory bound."}
    result = audit_revisions(older, newer)
    assert result.dropped == [] and result.retained_close == 1


def test_split_units_cuts_paragraphs_list_items_table_rows_and_code_blocks():
    md = (
        "---\nslug: /x\n---\n\nimport A from './a';\n\n# Title\n\nFirst [linked](https://x.y/z) **bold** paragraph\n"
        "continues here.\n\n- item one\n  wraps on\n- item two\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        ":::note Heads up\n\nInside a note.\n\n:::\n\n```python\nprint('hi')\n```\n\n![diagram](img/d.png)\n"
    )
    units = split_units("x.md", md)
    assert [(u.kind, u.text) for u in units] == [
        ("paragraph", "First linked bold paragraph continues here."),
        ("list_item", "item one wraps on"),
        ("list_item", "item two"),
        ("table_row", "a | b"),
        ("table_row", "1 | 2"),
        ("paragraph", "Inside a note."),
        ("code_block", "print('hi')"),
        ("paragraph", "[IMG]"),
    ]
    assert {u.section for u in units} == {"Title"}


# --- errors ---------------------------------------------------------------------------------


def test_offline_raises_network_unavailable_naming_github():
    with pytest.raises(NetworkUnavailableError, match="could not reach api.github.com.*needs network access"):
        check_upstream(UpstreamRequest(), transport=httpx.MockTransport(_offline))


def test_offline_cli_exits_non_zero_with_one_clear_line(monkeypatch, capsys):
    _route_cli_through(monkeypatch, _offline)
    code = main(["upstream"])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert err.startswith("NetworkUnavailableError: could not reach api.github.com")
    assert len(err.strip().splitlines()) == 1


def test_unknown_ref_names_the_flag_and_the_repository(github):
    with pytest.raises(UnknownRefError, match=r"--modular-ref: ref 'no-such-branch' not found in modular/"):
        check_upstream(UpstreamRequest(modular_ref="no-such-branch"), transport=httpx.MockTransport(github))


def test_rate_limit_asks_for_a_token():
    def limited(request):
        return httpx.Response(403, headers={"x-ratelimit-remaining": "0"}, json={"message": "API rate limit exceeded"})

    with pytest.raises(NetworkUnavailableError, match="rate limit.*GITHUB_TOKEN"):
        check_upstream(UpstreamRequest(), transport=httpx.MockTransport(limited))


def test_github_token_is_sent_as_bearer_when_set(github, monkeypatch):
    monkeypatch.setenv("GITHUB_TOKEN", "test-token")
    check_upstream(UpstreamRequest(audit=False), transport=httpx.MockTransport(github))
    assert {r.headers.get("authorization") for r in github.requests} == {"Bearer test-token"}


def test_no_audit_compares_file_lists_without_fetching_text(github):
    result = check_upstream(UpstreamRequest(audit=False), transport=httpx.MockTransport(github))
    assert result.repos[0].audit is None and len(result.repos[0].changes) == 4
    assert github.raw_paths() == []


@pytest.mark.parametrize("ref", ["..", "-rf", "a..b", "feature/", "x y", ""])
def test_bad_ref_is_rejected_naming_the_field(ref):
    with pytest.raises(ValidationError, match="modular_ref"):
        UpstreamRequest(modular_ref=ref)


def test_cli_bad_ref_names_the_field(capsys):
    assert main(["upstream", "--bentoml-ref", "a..b"]) == 1
    assert "  --bentoml-ref: must be a branch, tag or commit SHA" in capsys.readouterr().err


def test_cli_threshold_out_of_range_names_the_field(capsys):
    assert main(["upstream", "--threshold", "1.5"]) == 1
    assert "threshold: Input should be less than or equal to 1" in capsys.readouterr().err


# --- CLI output ------------------------------------------------------------------------------


def test_cli_json_is_the_report_model(github, monkeypatch, capsys):
    _route_cli_through(monkeypatch, github)
    assert main(["upstream", "--json"]) == 0
    printed = json.loads(capsys.readouterr().out)
    expected = check_upstream(UpstreamRequest(), transport=httpx.MockTransport(FakeGitHub()))
    assert printed == expected.model_dump(mode="json", by_alias=True)


def test_cli_text_shows_changes_feeds_and_dropped_units(github, monkeypatch, capsys):
    _route_cli_through(monkeypatch, github)
    assert main(["upstream", "--modular-ref", "main"]) == 0
    out = capsys.readouterr().out
    assert f"{MODULAR} [base]: pin 317b981 (2026-07-24), main -> aaaaaaa (2026-08-03)" in out
    assert re.search(rf"changed\s+{re.escape(ON_PREM)}\s+-> deployment", out)
    assert re.search(rf"added\s+{re.escape(NEW_PAGE)}\s+-> unmapped", out)
    assert "dropped docs/getting-started/on-prem-llms.md #2 paragraph" in out
    assert "no tracked file changed since the pin" in out
    assert "Reference pages to review: batching, gpu-fundamentals, deployment" in out


# --- the data file ------------------------------------------------------------------------------


def test_pins_are_the_documented_commits():
    data = upstream_data()
    pins = {(r.repo, r.commit, r.date, r.role) for r in data.revisions}
    assert pins == {(MODULAR, PIN, "2026-07-24", "base"), (BENTOML, OLDER_PIN, "2026-07-01", "older")}
    assert data.handbook.attribution == "LLM Inference Handbook (BentoML / Modular contributors), CC BY 4.0"


def test_page_map_names_only_real_reference_pages():
    from test_docs import PAGES

    assert list(REFERENCE_PAGE_IDS) == PAGES
    written = {p.stem for p in (ROOT / "references").glob("*.md") if p.name != "README.md"}
    assert written <= set(REFERENCE_PAGE_IDS)
    fed = {page for entry in upstream_data().pages.values() for page in entry.feeds}
    assert fed == set(REFERENCE_PAGE_IDS)  # every page has at least one upstream source, none is made up


def test_page_map_covers_both_pinned_trees():
    # The pinned base has 52 docs files; the older revision has the same 51 plus introduction.md (renamed index.md).
    docs = [p for p in upstream_data().pages if p.startswith("docs/")]
    assert len(docs) == 53 and "docs/index.md" in docs and "docs/introduction.md" in docs
    out_of_scope = sorted(p for p, e in upstream_data().pages.items() if not e.feeds)
    assert "docs/model-interaction/function-calling.md" in out_of_scope
    assert "docs/model-interaction/model-context-protocol.md" in out_of_scope


@pytest.mark.skipif(not CONTENT_MAP.is_file(), reason="the research content map lives beside the checkout")
def test_page_map_covers_every_upstream_page_the_content_map_lists():
    text = CONTENT_MAP.read_text(encoding="utf-8")
    pages = upstream_data().pages
    feeding: dict[str, set[str]] = {}
    current, in_feeding = None, False
    for line in text.splitlines():
        if line.startswith("## "):
            current, in_feeding = line[3:].strip(), False
        elif line.startswith("### "):
            in_feeding = "feeding" in line
        elif in_feeding and line.startswith("- `"):
            path = re.match(r"- `[\w-]+/[\w-]+@\w+:([^`]+)`", line).group(1)
            feeding.setdefault(path, set()).add(current)
    assert feeding, "content map format changed"
    for path, ids in feeding.items():
        assert path in pages, f"{path} is in the content map but not in tools/data/upstream.json"
        assert ids <= set(pages[path].feeds), f"{path}: content map says {sorted(ids)}"
    scope = text.split("## Upstream pages judged out of scope", 1)[1].split("\n## ", 1)[0]
    for path in re.findall(r"`[\w-]+/[\w-]+@\w+:(docs/[^`]+)`", scope):
        assert path in pages, f"out-of-scope page {path} missing from the map"


# --- the provenance documents ------------------------------------------------------------------


def test_upstream_md_example_is_the_real_output_for_the_fixtures():
    text = (ROOT / "UPSTREAM.md").read_text(encoding="utf-8")
    example = text.split("$ llm-inference-fundamentals upstream --modular-ref main\n", 1)[1].split("\n```", 1)[0]
    expected = check_upstream(UpstreamRequest(modular_ref="main"), transport=httpx.MockTransport(FakeGitHub()))
    assert example == expected.to_text()


@pytest.mark.parametrize("doc", ["UPSTREAM.md", "references/README.md"])
def test_provenance_documents_name_the_pinned_commits_in_full(doc):
    text = (ROOT / doc).read_text(encoding="utf-8")
    for pin in upstream_data().revisions:
        assert f"{pin.repo}@{pin.commit}" in text or f"`{pin.commit}`" in text
        assert pin.date in text
    assert "LLM Inference Handbook (BentoML / Modular contributors), CC BY 4.0" in text
