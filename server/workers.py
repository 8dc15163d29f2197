"""Where a tool call runs, and for how long: worker processes with a time budget.

The SDK runs a synchronous tool on a thread, and a thread cannot be stopped: a
call that parses a pathological input keeps a core and its memory however
long it takes. So the calculators run in a small pool of worker processes:

- each call has a wall-clock budget (queueing included); past it, the worker
  is killed and replaced, and the caller gets an error saying so;
- each worker has an address-space limit, so a runaway allocation ends that
  call with an error instead of the machine swapping;
- a worker whose memory grew is replaced after the call, so memory returns
  to its baseline;
- calls that may reach the network (a Hub look-up) may hold at most half the
  workers, so a slow network cannot starve the other calls.

``ThreadRunner`` is the light variant for in-process use and tests: the caller
gets its answer (or the budget error) on time, but the thread runs on.
"""

from __future__ import annotations

import logging
import math
import os
import resource
import signal
import socket
import subprocess
import sys
import traceback
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any, Literal

import anyio
from pydantic import BaseModel, ValidationError

from ..tools.errors import FundamentalsError, describe_validation_error
from ..tools.files import GRANT_HINT, readable_folders

__all__ = ["Job", "Outcome", "ProcessRunner", "ThreadRunner", "run_job"]

logger = logging.getLogger(__name__)

Outcome = tuple[Literal["ok", "error", "crash"], Any]
"""("ok", report model) | ("error", message for the caller) | ("crash", traceback kept on the server)."""

RECYCLE_RSS_BYTES = 400 * 2**20
"""A worker whose resident memory exceeds this after a call is replaced (memory back to baseline)."""

RECYCLE_AFTER_CALLS = 500

WORKER_NICENESS = 10
"""Workers run at a lower CPU priority than the server process, whose event loop serves every session."""


@dataclass(frozen=True)
class Job:
    """One tool call, as sent to a worker: the tools function, its request model and the raw arguments."""

    tool: str
    fn: Callable[[Any], BaseModel]
    request_model: type[BaseModel]
    arguments: dict[str, Any]
    readable: tuple[str, ...] | None = None
    text_fields: frozenset[str] = field(default_factory=frozenset)
    grant_hint: str = GRANT_HINT


def _pre_parse(arguments: dict[str, Any], text_fields: frozenset[str]) -> dict[str, Any]:
    """JSON text given for a list or object field is decoded, as the SDK would (clients send both forms).

    A text-only field given an object gets its JSON text back (clients decode JSON-looking strings too).
    """
    import json

    out = dict(arguments)
    for key, value in arguments.items():
        if key in text_fields and isinstance(value, (dict, list)):
            out[key] = json.dumps(value)
            continue
        if key in text_fields or not isinstance(value, str) or value[:1] not in ("[", "{"):
            continue
        try:
            decoded = json.loads(value)
        except (ValueError, RecursionError):
            continue  # left as text: validation names the field
        if isinstance(decoded, (list, dict)):
            out[key] = decoded
    return out


def run_job(job: Job) -> BaseModel:
    """Validate the arguments into the request model and call the tools function (in a worker or thread)."""
    request = job.request_model.model_validate(_pre_parse(job.arguments, job.text_fields))
    with readable_folders(job.readable, grant_hint=job.grant_hint) if job.readable is not None else nullcontext():
        return job.fn(request)


def outcome_of(job: Job) -> Outcome:
    """``run_job``'s result or failure, in a form that crosses a process boundary."""
    try:
        return "ok", run_job(job)
    except ValidationError as exc:
        return "error", "invalid arguments: " + "; ".join(describe_validation_error(exc))
    except FundamentalsError as exc:
        return "error", str(exc)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # a crash, kept on the server; the caller sees a generic failure
        if _out_of_memory(exc):
            return "error", _memory_message(job.tool)
        return "crash", traceback.format_exc(limit=30)


def _out_of_memory(exc: BaseException | None) -> bool:
    """True when ``exc`` is, or was raised while handling, a MemoryError (pydantic-core panics on one)."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, MemoryError):
            return True
        exc, seen = exc.__context__, seen + 1
    return False


def _memory_message(tool: str) -> str:
    return (f"{tool}: the input needs more memory than this server allows per call (--worker-memory-mb); "
            "pass a smaller input")


_TRIM = {"libc": None, "last": 0.0}


def release_memory(min_interval_s: float = 1.0) -> None:
    """Give freed heap memory back to the OS (glibc ``malloc_trim``), at most once per ``min_interval_s``.

    A large request's arguments are parsed in the server process and freed after the call; glibc keeps the
    freed pages unless asked, so without this the server's memory would ratchet up with each large input.
    """
    import time

    now = time.monotonic()
    if now - _TRIM["last"] < min_interval_s or not sys.platform.startswith("linux"):
        return
    _TRIM["last"] = now
    if _TRIM["libc"] is None:
        import ctypes
        import ctypes.util

        try:
            _TRIM["libc"] = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
            _TRIM["libc"].malloc_trim  # noqa: B018 - musl has none: then nothing to do
        except (OSError, AttributeError):
            _TRIM["libc"] = False
    if _TRIM["libc"]:
        _TRIM["libc"].malloc_trim(0)


def _rss_bytes(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/statm", "rb") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


def _worker_main(conn: Any, memory_bytes: int) -> None:
    """A worker's life: take a job, answer its outcome, until the connection closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops its workers
    try:  # below the server process: its event loop (every session's I/O) comes before any one calculation
        os.nice(WORKER_NICENESS)
    except OSError:
        pass
    # Load the calculators (and numpy) before the memory limit: a lazy import under pressure would fail oddly.
    import numpy  # noqa: F401

    import llm_inference_fundamentals.tools  # noqa: F401

    if memory_bytes and hasattr(resource, "RLIMIT_AS"):
        try:
            resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        except (ValueError, OSError):
            pass
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        result = outcome_of(job)
        try:
            conn.send(result)
        except Exception:  # an unpicklable report is a bug; say so instead of hanging the caller
            conn.send(("crash", traceback.format_exc(limit=10)))


class BudgetExceeded(Exception):
    """A call ran past its time budget (or waited past it for a free worker)."""


@dataclass
class _Worker:
    process: subprocess.Popen[bytes]
    conn: Connection
    calls: int = 0

    @property
    def alive(self) -> bool:
        return self.process.poll() is None


class ProcessRunner:
    """A pool of worker processes, grown on demand up to ``workers``; every call bounded in time and memory.

    A worker is a fresh interpreter (``python -m ...server.workers``) that talks
    over a socket pair, so nothing of the server (its threads, its open
    connections, its stdout) is inherited.
    """

    def __init__(self, *, workers: int, budget_s: float, memory_mb: int) -> None:
        self.size, self.budget_s, self.memory_mb = workers, budget_s, memory_mb
        self._idle: list[_Worker] = []
        self._slots = anyio.Semaphore(workers)
        self._network_slots = anyio.Semaphore(max(1, workers // 2))
        self.started = 0

    def _start_worker(self) -> _Worker:
        parent, child = socket.socketpair()
        try:
            process = subprocess.Popen(
                [sys.executable, "-m", __name__, str(child.fileno()), str(self.memory_mb)],
                pass_fds=[child.fileno()], stdin=subprocess.DEVNULL, stdout=sys.stderr.fileno(),
                env={**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"},
            )
        finally:
            child.close()
        self.started += 1
        return _Worker(process, Connection(parent.detach()))

    def warm_up(self, count: int = 1) -> None:
        """Start ``count`` workers now (from a thread at server start), so the first call does not wait."""
        for _ in range(min(count, self.size)):
            self._idle.append(self._start_worker())

    @staticmethod
    def _stop(worker: _Worker) -> None:
        try:
            worker.process.kill()
            worker.process.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            pass
        try:
            worker.conn.close()
        except OSError:
            pass

    def _give_back(self, worker: _Worker) -> None:
        worker.calls += 1
        if not worker.alive or worker.calls >= RECYCLE_AFTER_CALLS or _rss_bytes(worker.process.pid) > RECYCLE_RSS_BYTES:
            self._stop(worker)  # replaced lazily by the next call that needs one
        else:
            self._idle.append(worker)

    async def run(self, job: Job, *, network: bool = False) -> Outcome:
        try:
            with anyio.fail_after(self.budget_s):
                async with self._network_slots if network else _NoLimit(), self._slots:
                    worker = self._idle.pop() if self._idle else await anyio.to_thread.run_sync(self._start_worker)
                    try:
                        await anyio.to_thread.run_sync(worker.conn.send, job)
                        await anyio.wait_readable(worker.conn.fileno())
                        result: Outcome = await anyio.to_thread.run_sync(worker.conn.recv)
                    except BaseException:
                        # over budget, cancelled by the client, or the worker died: that worker is done
                        with anyio.CancelScope(shield=True):
                            await anyio.to_thread.run_sync(self._stop, worker)
                        raise
                    self._give_back(worker)
                    release_memory()
                    return result
        except TimeoutError:
            raise BudgetExceeded(f"{job.tool}: the call did not finish within this server's time budget of "
                                 f"{self.budget_s:g} s and was stopped; pass a smaller input, or ask the operator "
                                 "to raise --call-budget-s") from None
        except (EOFError, OSError):
            return "error", _memory_message(job.tool) + " (the worker running it stopped)"

    def close(self) -> None:
        while self._idle:
            self._stop(self._idle.pop())


class _NoLimit:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *exc: object) -> None:
        return None


class ThreadRunner:
    """Runs the call on a thread; answers within the budget, but cannot stop the thread (tests, in-process use)."""

    def __init__(self, *, budget_s: float = math.inf) -> None:
        self.budget_s = budget_s

    async def run(self, job: Job, *, network: bool = False) -> Outcome:
        try:
            with anyio.fail_after(None if math.isinf(self.budget_s) else self.budget_s):
                return await anyio.to_thread.run_sync(outcome_of, job, abandon_on_cancel=True)
        except TimeoutError:
            raise BudgetExceeded(f"{job.tool}: the call did not finish within the time budget of "
                                 f"{self.budget_s:g} s") from None


if __name__ == "__main__":  # a worker: python -m llm_inference_fundamentals.server.workers FD MEMORY_MB
    _worker_main(Connection(int(sys.argv[1])), int(sys.argv[2]) * 2**20)
