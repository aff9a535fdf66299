"""OpenTelemetry for a service process.

Traces go to an OTLP collector when ``OTEL_EXPORTER_OTLP_ENDPOINT`` is set (and the exporter
package is installed), and to a JSON-lines file when ``SICBO_TRACE_FILE`` is set: the tests use
the file to follow one trace through processes. With the collector, metrics go there too (a
global meter provider, read every ``OTEL_METRIC_EXPORT_INTERVAL`` ms): FastStream's telemetry
middleware records its messaging durations and counts on it. The standard ``OTEL_*`` variables
(endpoint, protocol, headers, resource attributes, ``OTEL_TRACES_SAMPLER``) configure the
exporters.

With neither (and so no span exported from the process), the process gets no SDK provider but
a pass-through one: its spans record nothing, and a span started in a caller's trace *is* the
caller's span context, so the events a command appends carry the caller's ``traceparent``
unchanged (its trace id, span id and sampled flag) and a downstream service that exports
continues that trace. Measured on the wager service, an SDK span nobody exports was about 7% of
its CPU per slip (docs/benchmarks.md). ``OTEL_SDK_DISABLED=true`` gives the same pass-through.
"""

import importlib
import os
from collections.abc import Mapping
from contextlib import AbstractContextManager
from typing import IO

from opentelemetry import metrics, propagate, trace
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


def consumer_span(
    tracer: trace.Tracer, name: str, subject: str, headers: Mapping[str, str] | None
) -> AbstractContextManager[trace.Span]:
    """The span of one NATS message a service processes (a command or a log event), in the
    trace its headers carry (``traceparent``), named as OpenTelemetry's messaging
    conventions ask."""
    return tracer.start_as_current_span(
        name,
        context=propagate.extract(headers or {}),
        kind=trace.SpanKind.CONSUMER,
        attributes={
            "messaging.system": "nats",
            "messaging.operation.type": "process",
            "messaging.destination.name": subject,
        },
    )


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


class PassThroughTracerProvider(trace.NoOpTracerProvider):
    """The provider of a process that exports no span: the API's no-op tracers, which start a
    span as the current span of the context given (the caller's, extracted from its headers),
    so trace context propagates through the process untouched, and record nothing."""

    def force_flush(self, timeout_millis: int = 30_000) -> bool:
        return True  # nothing is held to flush

    def shutdown(self) -> None:
        pass


def _exports() -> bool:
    """Whether a span of this process would go anywhere (the file, or an OTLP collector)."""
    if os.environ.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return False
    return bool(os.environ.get("SICBO_TRACE_FILE")) or bool(
        os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT")
    )


def setup_tracing(service_name: str) -> trace.TracerProvider:
    """Install (once) and return the process's tracer provider: the SDK's where spans are
    exported, a :class:`PassThroughTracerProvider` where none would be."""
    current = trace.get_tracer_provider()
    if isinstance(current, TracerProvider | PassThroughTracerProvider):
        return current
    if not _exports():
        passing = PassThroughTracerProvider()
        trace.set_tracer_provider(passing)
        return passing
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
