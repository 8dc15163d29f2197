"""The audit pauses the cyclic collector while it runs and leaves it as the caller had it."""

import gc

import pytest

from llm_inference_fundamentals.tools.audit import AuditRequest, audit_benchmark
from llm_inference_fundamentals.tools.audit.collector import paused_collection
from llm_inference_fundamentals.tools.errors import InputFormatError


@pytest.fixture
def collector_on():
    was_on = gc.isenabled()
    gc.enable()
    yield
    (gc.enable if was_on else gc.disable)()


def test_the_collector_is_off_inside_and_back_on_after(collector_on):
    with paused_collection():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_is_back_on_after_an_error(collector_on):
    with pytest.raises(ValueError):
        with paused_collection():
            raise ValueError("boom")
    assert gc.isenabled()


def test_a_caller_that_turned_the_collector_off_keeps_it_off(collector_on):
    gc.disable()
    with paused_collection():
        pass
    assert not gc.isenabled()


def test_a_nested_pause_leaves_the_collector_off_until_the_outer_one_ends(collector_on):
    with paused_collection():
        with paused_collection():
            pass
        assert not gc.isenabled()
    assert gc.isenabled()


def test_an_audit_leaves_the_collector_on(collector_on):
    audit_benchmark(AuditRequest(text="# Llama 70B on 8x H100\n\nvLLM, 1,000 requests."))
    assert gc.isenabled()
    not_a_manifest = AuditRequest(text='{"stack": 5}', format="manifest")
    with pytest.raises(InputFormatError):  # the collector comes back on after an audit that ends in an error too
        audit_benchmark(not_a_manifest)
    assert gc.isenabled()
