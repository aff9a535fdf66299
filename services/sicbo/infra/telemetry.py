"""OpenTelemetry for a service process.

Traces go to an OTLP collector when ``OTEL_EXPORTER_OTLP_ENDPOINT`` is set (and the exporter
package is installed), and to a JSON-lines file when ``SICBO_TRACE_FILE`` is set: the tests use
the file to follow one trace through processes.
"""

import importlib
import os
from typing import IO

from opentelemetry import trace
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import (
    BatchSpanProcessor,
    ConsoleSpanExporter,
    SimpleSpanProcessor,
    SpanExporter,
)

_files: list[IO[str]] = []


def _one_line(span: ReadableSpan) -> str:
    return str(span.to_json(indent=None)) + "\n"


def _otlp_exporter() -> SpanExporter | None:
    try:
        module = importlib.import_module("opentelemetry.exporter.otlp.proto.http.trace_exporter")
    except ImportError:
        return None
    exporter: SpanExporter = module.OTLPSpanExporter()
    return exporter


def setup_tracing(service_name: str) -> TracerProvider:
    """Install (once) and return the process's tracer provider."""
    current = trace.get_tracer_provider()
    if isinstance(current, TracerProvider):
        return current
    provider = TracerProvider(resource=Resource.create({"service.name": service_name}))
    trace_file = os.environ.get("SICBO_TRACE_FILE")
    if trace_file:
        out = open(trace_file, "a", encoding="utf-8")  # noqa: SIM115 - kept open for the process
        _files.append(out)
        provider.add_span_processor(
            SimpleSpanProcessor(ConsoleSpanExporter(out=out, formatter=_one_line))
        )
    if os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT"):
        exporter = _otlp_exporter()
        if exporter is not None:
            provider.add_span_processor(BatchSpanProcessor(exporter))
    trace.set_tracer_provider(provider)
    return provider
