"""Input caps outside the server: standard input of the command line is read only up to a cap."""

import io
import sys

from llm_inference_fundamentals.cli import main


def _stdin(monkeypatch, data: bytes):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_metrics_from_standard_input_stops_at_the_cap(monkeypatch, capsys):
    # Before: `lif metrics -` read standard input without any limit.
    _stdin(monkeypatch, b'{"ttft_ms": 1, "e2el_ms": 2, "output_tokens": 2}\n' * 40_000)  # ~2 MB
    assert main(["metrics", "-", "--max-file-mb", "1"]) == 1
    assert "standard input: more than 1,048,576 bytes" in capsys.readouterr().err


def test_audit_from_standard_input_stops_at_the_cap(monkeypatch, capsys):
    _stdin(monkeypatch, b"# A write-up\n" + b"x" * 5_000_000)
    assert main(["audit", "-"]) == 1
    assert "standard input: more than 4,000,000 bytes" in capsys.readouterr().err


def test_standard_input_under_the_cap_still_works(monkeypatch, capsys):
    _stdin(monkeypatch, b'{"ttft_ms": 100, "itl_ms": [10, 10], "output_tokens": 3}\n')
    assert main(["metrics", "-", "--json"]) == 0
    assert '"completed": 1' in capsys.readouterr().out
