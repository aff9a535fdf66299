"""The command listener's span: a recording tracer spans every command; the pass-through one
(a process that exports nothing) carries a caller's trace context into the command, and with no
context to carry, starts none (sicbo.shell.listener)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from sicbo.infra.telemetry import PassThroughTracerProvider
from sicbo.shell.listener import CommandListener

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
CALLER_SPAN = "00f067aa0ba902b7"
CALLER = f"00-{TRACE_ID}-{CALLER_SPAN}-01"


@dataclass
class FakeMsg:
    subject: str
    data: bytes
    headers: dict[str, str] | None
    reply: str = ""  # no reply wanted: nothing to respond on


class SeesTheSpan:
    """A handler that notes the span context its command ran in."""

    def __init__(self) -> None:
        self.seen: list[trace.SpanContext] = []

    async def handle_raw(self, raw: bytes, subject_table: str, sender: str) -> bytes:
        self.seen.append(trace.get_current_span().get_span_context())
        return b"{}"


async def serve(tracer: trace.Tracer, headers: dict[str, str] | None) -> trace.SpanContext:
    handler = SeesTheSpan()
    listener = CommandListener(
        cast(NATS, None), cast(Any, handler), "wagers", tracer, max_in_flight=1
    )
    msg = FakeMsg("sicbo.cmd.t1.wagers.player", b"{}", headers)
    await listener._serve(cast(Msg, msg))
    (seen,) = handler.seen
    return seen


async def test_pass_through_carries_the_callers_context_unchanged() -> None:
    tracer = PassThroughTracerProvider().get_tracer("test")
    seen = await serve(tracer, {"traceparent": CALLER})
    assert format(seen.trace_id, "032x") == TRACE_ID
    assert format(seen.span_id, "016x") == CALLER_SPAN and seen.trace_flags.sampled


async def test_pass_through_without_a_context_runs_the_command_in_none() -> None:
    tracer = PassThroughTracerProvider().get_tracer("test")
    assert not (await serve(tracer, None)).is_valid


async def test_a_recording_tracer_spans_every_command_in_its_callers_trace() -> None:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("test")
    continued = await serve(tracer, {"traceparent": CALLER})
    fresh = await serve(tracer, None)
    assert format(continued.trace_id, "032x") == TRACE_ID and fresh.is_valid
    spans = exporter.get_finished_spans()
    assert [s.name for s in spans] == ["sicbo.cmd.*.wagers.* process"] * 2
    assert spans[0].parent is not None and format(spans[0].parent.span_id, "016x") == CALLER_SPAN
    assert spans[1].parent is None  # no caller's context: a trace of its own
