"""A process that exports no span traces nothing, yet passes the caller's trace context on:
the events a command appends carry the caller's ``traceparent`` (sicbo.infra.telemetry).

Each case runs in a child process: the tracer provider is process-wide and set once."""

from __future__ import annotations

import json
import os
import subprocess
import sys

CALLER = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

CHILD = f"""
import json
from opentelemetry import propagate
from opentelemetry.trace import SpanKind
from sicbo.infra.telemetry import setup_tracing

provider = setup_tracing("sicbo-test")
tracer = provider.get_tracer("test")
carried = {{}}
context = propagate.extract({{"traceparent": "{CALLER}"}})
with tracer.start_as_current_span("cmd process", context=context, kind=SpanKind.CONSUMER) as span:
    propagate.inject(carried)
    recording = span.is_recording()
fresh = {{}}
with tracer.start_as_current_span("no caller"):
    propagate.inject(fresh)
print(json.dumps({{"provider": type(provider).__name__, "carried": carried, "fresh": fresh,
                  "recording": recording, "flushed": provider.force_flush()}}))
"""


def run_child(**env: str) -> dict[str, object]:
    base = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    base.pop("SICBO_TRACE_FILE", None)
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_with_no_exporter_the_callers_context_passes_through_unchanged() -> None:
    result = run_child()
    assert result["provider"] == "PassThroughTracerProvider"
    assert result["carried"] == {"traceparent": CALLER}  # trace, span id and sampled flag
    assert result["recording"] is False and result["flushed"] is True
    assert result["fresh"] == {}  # no caller: no trace made up


def test_sdk_disabled_is_the_same_pass_through() -> None:
    result = run_child(OTEL_SDK_DISABLED="true", SICBO_TRACE_FILE=os.devnull)
    assert result["provider"] == "PassThroughTracerProvider"
    assert result["carried"] == {"traceparent": CALLER}


def test_with_the_trace_file_the_span_is_recorded_in_the_callers_trace() -> None:
    result = run_child(SICBO_TRACE_FILE=os.devnull)
    assert result["provider"] == "TracerProvider" and result["recording"] is True
    carried = result["carried"]
    assert isinstance(carried, dict)
    version, trace_id, span_id, flags = carried["traceparent"].split("-")
    assert (version, trace_id, flags) == ("00", CALLER.split("-")[1], "01")
    assert span_id != CALLER.split("-")[2]  # the service's own span, child of the caller's
