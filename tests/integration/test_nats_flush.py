"""flush_sent (sicbo.infra.nats_flush): what the server has seen, in the order it was sent.

A relay between the client and the real nats-server records the bytes the client writes, so
the order of SUB and PING on the wire is read, not guessed.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from urllib.parse import urlsplit

import nats
import pytest
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg

from sicbo.infra.nats_flush import flush_sent


class Relay:
    """127.0.0.1 relay to the server, keeping what clients wrote (client to server only)."""

    def __init__(self, host: str, port: int) -> None:
        self.upstream = (host, port)
        self.sent = bytearray()
        self.server: asyncio.Server | None = None
        self.pipes: set[asyncio.Task[None]] = set()

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        return f"nats://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        for pipe in (self._pipe(reader, up_writer, True), self._pipe(up_reader, writer, False)):
            task = asyncio.ensure_future(pipe)
            self.pipes.add(task)

    async def _pipe(
        self, src: asyncio.StreamReader, dst: asyncio.StreamWriter, record: bool
    ) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await src.read(65536):
                if record:
                    self.sent += data
                dst.write(data)
                await dst.drain()
        dst.close()

    async def stop(self) -> None:
        assert self.server is not None
        self.server.close()
        for task in self.pipes:
            task.cancel()
        await asyncio.gather(*self.pipes, return_exceptions=True)


@pytest.fixture
async def relayed(nats_url: str) -> AsyncIterator[tuple[Relay, str]]:
    address = urlsplit(nats_url)
    relay = Relay(address.hostname or "127.0.0.1", address.port or 4222)
    url = await relay.start()
    try:
        yield relay, url
    finally:
        await relay.stop()


Flush = Callable[[NATS], Awaitable[None]]


async def ignore(msg: Msg) -> None:
    pass


def wire_order(sent: bytes, subject: str) -> list[str]:
    """The SUB of ``subject`` and the PINGs, in the order the client wrote them."""
    return [
        "SUB" if line.startswith(f"SUB {subject} ".encode()) else "PING"
        for line in sent.split(b"\r\n")
        if line == b"PING" or line.startswith(f"SUB {subject} ".encode())
    ]


async def orders_on_the_wire(url: str, relay: Relay, flush: Flush) -> list[list[str]]:
    """Subscribe and flush twenty times on one connection: the order of each SUB and PING."""
    nc = await nats.connect(url)
    orders = []
    try:
        for n in range(20):
            mark = len(relay.sent)
            await nc.subscribe(f"flush.{n}", cb=ignore)
            await flush(nc)
            await asyncio.sleep(0.01)  # a SUB left behind goes out after all
            orders.append(wire_order(bytes(relay.sent[mark:]), f"flush.{n}"))
    finally:
        await nc.close()
    return orders


async def plain_flush(nc: NATS) -> None:
    await nc.flush()


async def test_nats_py_flush_alone_can_send_its_ping_ahead_of_a_queued_sub(
    relayed: tuple[Relay, str],
) -> None:
    """Why flush_sent exists: nats-py's flush() writes PING past its own pending buffer. If
    this fails after an upgrade of nats-py, flush() keeps order and flush_sent can go."""
    relay, url = relayed
    orders = await orders_on_the_wire(url, relay, plain_flush)
    assert ["PING", "SUB"] in orders, orders


async def test_flush_sent_puts_each_sub_on_the_wire_before_its_ping(
    relayed: tuple[Relay, str],
) -> None:
    relay, url = relayed
    assert await orders_on_the_wire(url, relay, flush_sent) == [["SUB", "PING"]] * 20


async def test_after_flush_sent_another_connection_s_request_finds_the_responder(
    nats_url: str,
) -> None:
    answering, asking = await nats.connect(nats_url), await nats.connect(nats_url)

    async def answer(msg: Msg) -> None:
        await msg.respond(b"ok")

    try:
        for n in range(50):  # each a fresh subscription, asked at once from elsewhere
            sub = await answering.subscribe(f"flush.ask.{n}", cb=answer)
            await flush_sent(answering)
            assert (await asking.request(f"flush.ask.{n}", b"", timeout=5)).data == b"ok"
            await sub.unsubscribe()
    finally:
        await answering.close()
        await asking.close()
