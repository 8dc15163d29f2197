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


def test_the_audit_of_a_large_records_file_keeps_a_bounded_number_of_rows(tmp_path):
    # Before: a 209 MB CSV became millions of dicts (110 s, 10.3 GB); the audit needs the fields and a count.
    from llm_inference_fundamentals.tools.audit import AuditRequest, audit_benchmark
    from llm_inference_fundamentals.tools.audit.source import KEPT_ROWS, parse_structured

    rows = 50_000
    # (record field names only: the audit reads records through compute_metrics' reader, which refuses unknown columns)
    text = "ttft_ms,e2el_ms,output_tokens,prompt_tokens\n" + "".join(f"{i % 500},{900 + i % 7},{i % 300},64\n" for i in range(rows))
    for suffix, body in ((".csv", text), (".jsonl", "".join(
            f'{{"ttft_ms": {i % 500}, "output_tokens": {i % 300}, "prompt_tokens": 64}}\n' for i in range(rows)))):
        parsed = parse_structured(body, suffix)
        assert len(parsed) == KEPT_ROWS and parsed.total == rows
        path = tmp_path / f"records{suffix}"
        path.write_text(body)
        report = audit_benchmark(AuditRequest(path=str(path)))
        count = next(i for i in report.items if i.id == "request_count")
        assert count.status == "declared"
        assert count.why == f"{rows} requests measured ({rows} completed + 0 failed), as compute_metrics counts them"
