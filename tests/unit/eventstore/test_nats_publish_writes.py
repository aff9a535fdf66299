"""The services' publish writes a burst of commands at once past WRITE_AT of them
(sicbo.eventstore.nats_publish.send_publish), and leaves every other case to nats-py's flusher.

A real nats-py ``Client`` that never connected, given a TCP transport over a recording writer:
what reaches the socket, and when, is read off the writer.
"""

from __future__ import annotations

import asyncio
from typing import Any

from nats.aio.client import Client
from nats.aio.transport import TcpTransport

from sicbo.eventstore.nats_publish import WRITE_AT, send_publish


class SocketSide:
    """The asyncio transport under the writer: how many bytes it holds unsent."""

    def __init__(self, unsent: int) -> None:
        self.unsent = unsent

    def get_write_buffer_size(self) -> int:
        return self.unsent


class RecordingWriter:
    """A stream writer that keeps each ``writelines`` call (or refuses it)."""

    def __init__(self, unsent: int = 0, refuse: bool = False) -> None:
        self.transport = SocketSide(unsent)
        self.refuse = refuse
        self.writes: list[list[bytes]] = []

    def writelines(self, lines: list[bytes]) -> None:
        if self.refuse:  # as uvloop's transport does once its handle is closed
            raise RuntimeError("unable to perform operation: the handler is closed")
        self.writes.append([bytes(line) for line in lines])


def client_over(
    writer: RecordingWriter, status: int = Client.CONNECTED, transport: Any = None
) -> tuple[Client, list[int]]:
    """A client in ``status`` over ``writer``; the second value counts the flusher's kicks."""
    client = Client()
    client._status = status
    tcp = TcpTransport()  # type: ignore[no-untyped-call]
    tcp._io_writer = writer  # type: ignore[assignment]
    client._transport = transport if transport is not None else tcp
    queue: asyncio.Queue[asyncio.Future[Any]] = asyncio.Queue()
    client._flush_queue = queue
    kicks: list[int] = []

    async def kick(force_flush: bool = False) -> None:
        kicks.append(len(client._pending))
        # As the library's: queued for the flusher, which would take it on the next turn.
        await queue.put(asyncio.get_running_loop().create_future())

    client._flush_pending = kick  # type: ignore[method-assign]
    return client, kicks


def publish(client: Client, count: int) -> None:
    async def burst() -> None:
        for n in range(count):
            payload = f'{{"n":{n}}}'.encode()
            await send_publish(client, f"sicbo.evt.t1.bets.{n}", "", payload, len(payload), None)

    asyncio.run(burst())


def subjects(commands: list[bytes]) -> list[str]:
    return [command.split(b" ")[1].decode() for command in commands]


def test_fewer_than_write_at_commands_wait_for_the_flusher() -> None:
    writer = RecordingWriter()
    client, kicks = client_over(writer)
    publish(client, WRITE_AT - 1)
    assert writer.writes == []
    assert subjects(client._pending) == [f"sicbo.evt.t1.bets.{n}" for n in range(WRITE_AT - 1)]
    assert kicks == [1]  # woken once, on the first command of the turn, as the library does


def test_the_write_at_th_command_writes_every_queued_one_at_once_in_order() -> None:
    writer = RecordingWriter()
    client, _ = client_over(writer)
    publish(client, WRITE_AT + 3)
    assert len(writer.writes) == 1
    assert subjects(writer.writes[0]) == [f"sicbo.evt.t1.bets.{n}" for n in range(WRITE_AT)]
    # The ones after it wait for the flusher again, in order.
    assert subjects(client._pending) == [f"sicbo.evt.t1.bets.{n}" for n in range(WRITE_AT, 11)]
    assert client._pending_data_size == sum(len(c) for c in client._pending)
    assert client.stats["out_msgs"] == WRITE_AT + 3


def test_a_reconnecting_client_keeps_its_commands_for_the_new_connection() -> None:
    writer = RecordingWriter()
    client, _ = client_over(writer, status=Client.RECONNECTING)
    publish(client, WRITE_AT * 2)
    assert writer.writes == []
    assert len(client._pending) == WRITE_AT * 2


def test_bytes_left_unsent_in_the_socket_leave_the_write_to_the_flushers_drain() -> None:
    writer = RecordingWriter(unsent=1)
    client, _ = client_over(writer)
    publish(client, WRITE_AT * 2)
    assert writer.writes == []
    assert len(client._pending) == WRITE_AT * 2


def test_a_write_the_transport_refuses_leaves_the_commands_to_the_flusher() -> None:
    writer = RecordingWriter(refuse=True)
    client, kicks = client_over(writer)
    publish(client, WRITE_AT)
    assert len(client._pending) == WRITE_AT
    assert kicks == [1]  # the flusher was woken: it meets the error and reports it


class WebSocketLike(TcpTransport):
    """Any transport but nats-py's TCP one (its WebSocket transport needs aiohttp)."""


def test_a_transport_other_than_tcp_is_left_to_the_flusher() -> None:
    writer = RecordingWriter()
    other = WebSocketLike()  # type: ignore[no-untyped-call]
    other._io_writer = writer  # type: ignore[assignment]
    client, _ = client_over(writer, transport=other)
    publish(client, WRITE_AT * 2)
    assert writer.writes == []
    assert len(client._pending) == WRITE_AT * 2
