"""OpenTelemetry for a service process.

Traces go to an OTLP collector when ``OTEL_EXPORTER_OTLP_ENDPOINT`` is set (and the exporter
package is installed), and to a JSON-lines file when ``SICBO_TRACE_FILE`` is set: the tests use
the file to follow one trace through processes. With the collector, metrics go there too (a
global meter provider, read every ``OTEL_METRIC_EXPORT_INTERVAL`` ms): FastStream's telemetry
middleware records its messaging durations and counts on it. The standard ``OTEL_*`` variables
(endpoint, protocol, headers, resource attributes) configure the exporters.
"""

import importlib
import os
from typing import IO

from opentelemetry import metrics, trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import MetricExporter, PeriodicExportingMetricReader
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


def _otlp_metric_exporter() -> MetricExporter | None:
    try:
        module = importlib.import_module("opentelemetry.exporter.otlp.proto.http.metric_exporter")
    except ImportError:
        return None
    exporter: MetricExporter = module.OTLPMetricExporter()
    return exporter


def setup_tracing(service_name: str) -> TracerProvider:
    """Install (once) and return the process's tracer provider."""
    current = trace.get_tracer_provider()
    if isinstance(current, TracerProvider):
        return current
    resource = Resource.create({"service.name": service_name})
    provider = TracerProvider(resource=resource)
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
        metric_exporter = _otlp_metric_exporter()
        if metric_exporter is not None:
            reader = PeriodicExportingMetricReader(metric_exporter)
            metrics.set_meter_provider(MeterProvider(resource=resource, metric_readers=[reader]))
    trace.set_tracer_provider(provider)
    return provider
