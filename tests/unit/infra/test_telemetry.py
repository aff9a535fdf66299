"""OTLP export when OTEL_EXPORTER_OTLP_ENDPOINT is set: traces and metrics reach a collector.

The service side runs in a child process (the tracer and meter providers are process-wide and
set once); the "collector" is a stdlib HTTP server on 127.0.0.1 that records what is posted.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

CHILD = """
from opentelemetry import metrics
from sicbo.infra.telemetry import setup_tracing

provider = setup_tracing("sicbo-test")
with provider.get_tracer("test").start_as_current_span("a span"):
    metrics.get_meter("test").create_counter("sicbo.test.count").add(1)
provider.force_flush()
meters = metrics.get_meter_provider()
if hasattr(meters, "force_flush"):
    meters.force_flush()
"""


class Collector(BaseHTTPRequestHandler):
    posted: ClassVar[list[tuple[str, str, int]]] = []

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", 0))
        body = self.rfile.read(length)
        self.posted.append((self.path, self.headers.get("Content-Type", ""), len(body)))
        self.send_response(200)
        self.send_header("Content-Type", "application/x-protobuf")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def collector() -> Iterator[tuple[str, list[tuple[str, str, int]]]]:
    posted: ClassVar[list[tuple[str, str, int]]] = []
    handler = type("Handler", (Collector,), {"posted": posted})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", posted
    finally:
        server.shutdown()
        server.server_close()


def run_child(**env: str) -> None:
    base = {k: v for k, v in os.environ.items() if not k.startswith("OTEL_")}
    base.pop("SICBO_TRACE_FILE", None)
    subprocess.run([sys.executable, "-c", CHILD], env={**base, **env}, timeout=60, check=True)


def test_an_endpoint_gets_traces_and_metrics_over_otlp_http(
    collector: tuple[str, list[tuple[str, str, int]]],
) -> None:
    endpoint, posted = collector
    run_child(OTEL_EXPORTER_OTLP_ENDPOINT=endpoint, OTEL_EXPORTER_OTLP_PROTOCOL="http/protobuf")
    paths = {path for path, kind, size in posted if kind == "application/x-protobuf" and size}
    assert paths == {"/v1/traces", "/v1/metrics"}


def test_no_endpoint_sends_nothing(collector: tuple[str, list[tuple[str, str, int]]]) -> None:
    _, posted = collector
    run_child()
    assert posted == []
