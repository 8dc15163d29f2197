"""The drift check: the GitHub requests it makes and how it composes the pins, the diff and the audit.

How the check works, per repository (the Modular base and the older BentoML revision):

1. resolve the ref (``GET /repos/{repo}/commits/{ref}``) to a commit and its date;
2. list both trees (``GET /repos/{repo}/git/trees/{commit}?recursive=1``) and compare blob
   SHAs of the tracked files (``docs/**/*.md[x]`` plus component files named in the map):
   equal SHA = unchanged, otherwise changed, added or removed;
3. audit (optional): fetch the changed, added and removed pages from
   ``raw.githubusercontent.com`` at both commits and compare them unit by unit
   (``paragraphs``: units, normalisation and token-set containment).

Units are compared with the changed and added pages only: a paragraph that moved to
another page makes that page change too. A paragraph whose only surviving copy already sat
verbatim on an unchanged page is reported as dropped; check such hits by hand.

Set ``GITHUB_TOKEN`` to raise the GitHub API rate limit (60 requests an hour without it;
one check makes at most six API requests, the raw page fetches are not API requests).
Without network the check raises ``NetworkUnavailableError``.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..errors import InputFormatError, NetworkUnavailableError, UnknownRefError
from .models import AuditResult, PageChange, RepoDrift, UpstreamReport, UpstreamRequest
from .paragraphs import audit_revisions
from .pins import REFERENCE_PAGE_IDS, PinnedRevision, UpstreamData, upstream_data

if TYPE_CHECKING:
    import httpx

__all__ = ["check_upstream"]

GITHUB_API = "https://api.github.com"
GITHUB_RAW = "https://raw.githubusercontent.com"

MAX_FILE_BYTES = 1_000_000
"""Pages larger than this are listed as changed but left out of the audit."""

TIMEOUT_S = 30.0
FETCH_WORKERS = 8


class _GitHub:
    """The few GitHub requests the check needs, with errors a user can act on."""

    def __init__(self, client: httpx.Client):
        self.client = client

    def _get(self, url: str, *, what: str) -> httpx.Response:
        import httpx

        try:
            response = self.client.get(url)
        except httpx.TransportError as exc:
            host = httpx.URL(url).host
            raise NetworkUnavailableError(
                f"could not reach {host} ({type(exc).__name__}: {exc or 'no detail'}); the upstream check needs "
                "network access to api.github.com and raw.githubusercontent.com"
            ) from None
        if response.status_code == 401:
            raise NetworkUnavailableError("GitHub rejected the token in GITHUB_TOKEN (401); unset it or renew it")
        if response.status_code in (403, 429) and (
            response.headers.get("x-ratelimit-remaining") == "0" or "rate limit" in response.text.lower()
        ):
            raise NetworkUnavailableError(
                f"GitHub API rate limit reached while fetching {what} ({response.status_code}); set GITHUB_TOKEN "
                "to a personal access token, or retry after the reset time"
            )
        return response

    def _json(self, response: httpx.Response, what: str) -> Any:
        if response.status_code != 200:
            raise NetworkUnavailableError(f"GitHub answered {response.status_code} for {what} ({response.url})")
        try:
            return response.json()
        except ValueError:
            raise InputFormatError(f"GitHub's answer for {what} is not JSON ({response.url})") from None

    def resolve(self, repo: str, ref: str, *, flag: str) -> tuple[str, str | None]:
        what = f"ref {ref!r} of {repo}"
        response = self._get(f"{GITHUB_API}/repos/{repo}/commits/{quote(ref, safe='/')}", what=what)
        if response.status_code in (404, 422):
            raise UnknownRefError(
                f"{flag}: ref {ref!r} not found in {repo} (GitHub answered {response.status_code}); give a branch, "
                "a tag or a commit SHA of that repository"
            )
        data = self._json(response, what)
        try:
            return str(data["sha"]), data.get("commit", {}).get("committer", {}).get("date")
        except (KeyError, AttributeError, TypeError):
            raise InputFormatError(f"GitHub's answer for {what} has no commit sha ({response.url})") from None

    def tree(self, repo: str, commit: str) -> tuple[dict[str, tuple[str, int]], bool]:
        what = f"the file tree of {repo}@{commit[:12]}"
        response = self._get(f"{GITHUB_API}/repos/{repo}/git/trees/{commit}?recursive=1", what=what)
        if response.status_code in (404, 422):
            raise UnknownRefError(f"commit {commit} not found in {repo} (tree listing answered {response.status_code})")
        data = self._json(response, what)
        try:
            entries = {
                e["path"]: (e["sha"], int(e.get("size") or 0)) for e in data["tree"] if e.get("type") == "blob"
            }
        except (KeyError, TypeError, ValueError):
            raise InputFormatError(f"GitHub's answer for {what} is not a tree listing ({response.url})") from None
        return entries, bool(data.get("truncated"))

    def raw(self, repo: str, commit: str, path: str) -> str:
        url = f"{GITHUB_RAW}/{repo}/{commit}/{quote(path)}"
        response = self._get(url, what=f"{path} at {repo}@{commit[:12]}")
        if response.status_code != 200:
            raise NetworkUnavailableError(f"could not fetch {path} at {repo}@{commit[:12]} ({response.status_code})")
        return response.text


def _client(transport: httpx.BaseTransport | None) -> httpx.Client:
    import httpx

    headers = {
        "Accept": "application/vnd.github+json",
        "X-GitHub-Api-Version": "2022-11-28",
        "User-Agent": "llm-inference-fundamentals-upstream-check",
    }
    token = os.environ.get("GITHUB_TOKEN", "").strip()
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return httpx.Client(transport=transport, headers=headers, timeout=TIMEOUT_S, follow_redirects=True)


def _fetch_all(github: _GitHub, jobs: list[tuple[str, str, str]]) -> dict[tuple[str, str], str]:
    """Fetch (repo, commit, path) jobs in a small thread pool; keyed by (commit, path)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=FETCH_WORKERS) as pool:
        texts = list(pool.map(lambda job: github.raw(*job), jobs))
    return {(commit, path): text for (_, commit, path), text in zip(jobs, texts, strict=True)}


def _drift(
    github: _GitHub, data: UpstreamData, pin: PinnedRevision, ref: str, request: UpstreamRequest
) -> RepoDrift:
    resolved, resolved_date = github.resolve(pin.repo, ref, flag=f"--{pin.key}-ref")
    base = dict(
        key=pin.key, repo=pin.repo, role=pin.role, pinned_commit=pin.commit, pinned_date=pin.date,
        ref=ref, resolved_commit=resolved, resolved_date=resolved_date,
    )
    if resolved == pin.commit:
        return RepoDrift(**base, up_to_date=True, tree_truncated=False, changes=[], audit=None)

    old_tree, old_cut = github.tree(pin.repo, pin.commit)
    new_tree, new_cut = github.tree(pin.repo, resolved)
    old = {p: v for p, v in old_tree.items() if data.is_tracked(p)}
    new = {p: v for p, v in new_tree.items() if data.is_tracked(p)}
    changes = []
    for path in sorted(set(old) | set(new)):
        if path in old and path in new:
            if old[path][0] == new[path][0]:
                continue
            change = "changed"
        else:
            change = "removed" if path in old else "added"
        entry = data.pages.get(path)
        status = "unmapped" if entry is None else ("mapped" if entry.feeds else "out_of_scope")
        changes.append(PageChange(path=path, change=change, feeds=data.feeds_of(path), status=status))

    audit = None
    if request.audit and changes:
        audit = _audit(github, data, pin, resolved, changes, old, new, request.threshold)
    return RepoDrift(
        **base, up_to_date=not changes, tree_truncated=old_cut or new_cut, changes=changes, audit=audit
    )


def _audit(
    github: _GitHub,
    data: UpstreamData,
    pin: PinnedRevision,
    resolved: str,
    changes: list[PageChange],
    old: dict[str, tuple[str, int]],
    new: dict[str, tuple[str, int]],
    threshold: float,
) -> AuditResult:
    skipped: list[str] = []
    jobs: list[tuple[str, str, str]] = []
    for change in changes:
        if not change.path.endswith((".md", ".mdx")):
            continue
        sizes = [old.get(change.path, ("", 0))[1], new.get(change.path, ("", 0))[1]]
        if max(sizes) > MAX_FILE_BYTES:
            skipped.append(f"{change.path}: larger than {MAX_FILE_BYTES:,} bytes")
            continue
        if change.path in old:
            jobs.append((pin.repo, pin.commit, change.path))
        if change.path in new:
            jobs.append((pin.repo, resolved, change.path))
    texts = _fetch_all(github, jobs)
    older = {path: text for (commit, path), text in texts.items() if commit == pin.commit}
    newer = {path: text for (commit, path), text in texts.items() if commit == resolved}
    result = audit_revisions(older, newer, threshold=threshold, feeds_of=data.feeds_of)
    return result.model_copy(update={"skipped": skipped})


def check_upstream(request: UpstreamRequest, *, transport: httpx.BaseTransport | None = None) -> UpstreamReport:
    """Compare the upstream handbook at the given refs with our pinned revisions.

    Args:
        request: the refs to compare (default ``main`` for both repositories), whether to run the
            paragraph audit, and its threshold.
        transport: an httpx transport to use instead of the network (tests pass
            ``httpx.MockTransport``).

    Raises ``NetworkUnavailableError`` when GitHub cannot be reached (or rate-limits the check)
    and ``UnknownRefError`` when a ref does not exist.

    >>> report = check_upstream(UpstreamRequest(modular_ref="main", audit=False))  # doctest: +SKIP
    >>> report.pages_to_review  # doctest: +SKIP
    ['speculative-decoding', 'deployment']
    """
    data = upstream_data()
    refs = {"modular": request.modular_ref, "bentoml": request.bentoml_ref}
    with _client(transport) as client:
        github = _GitHub(client)
        repos = [_drift(github, data, pin, refs[pin.key], request) for pin in data.revisions]

    touched = {page for drift in repos for change in drift.changes for page in change.feeds}
    unmapped = sorted(
        {c.path for drift in repos for c in drift.changes if c.status == "unmapped" and c.change != "removed"}
    )
    notes = []
    if any(d.audit and d.audit.dropped for d in repos):
        notes.append(
            "dropped units are candidates, not verdicts: check each against the newer text before deciding that "
            "a concept is gone; concepts the base dropped stay in the corpus, sourced from the older revision "
            "(see references/README.md)"
        )
    if unmapped:
        notes.append("map new pages in tools/data/upstream.json (feeds: [] with scope out_of_scope if they feed none)")
    return UpstreamReport(
        repos=repos,
        pages_to_review=[p for p in REFERENCE_PAGE_IDS if p in touched],
        unmapped=unmapped,
        notes=notes,
    )
