"""A faster header block for nats-py's publish, with the library's own bytes (installed by
every service at start, :func:`sicbo.shell.bootstrap.service_app`).

nats-py 2.16 builds the header block of every published message in ``Client._send_publish``:
per header a regular-expression match of the name, and ``str.translate`` of the value with a
table that turns CR and LF into spaces. Profiled in the wager service (six headers an append:
the command's id, service and digest, the msg id and the expectation), that ``translate`` alone
was about 3% of the service's CPU per slip, for values that never hold a CR or LF.
:func:`header_block` gives the same bytes for every input: a name already seen valid is not
matched again, and a value is translated only when it holds a CR or LF (``translate`` changes
nothing else). ``tests/unit/eventstore/test_nats_publish.py`` compares it with the library's
method on edge cases and random headers. Installed only over the version it was written
against: any other version keeps its own.

**A bounded wait for the flusher.** nats-py queues every command and writes them all when its
flusher task next runs, after the event loop's current turn. A service that takes a burst of
slips in one turn (16 players' slips read from one socket read) decides them all before the
first append leaves the process, then nats-server stores them all while the service idles,
then the acks come back together: the processes take turns on a burst instead of working on
it side by side, and each slip waits for the whole burst at every hop. :func:`send_publish`
writes the queued commands at once when :data:`WRITE_AT` of them are waiting, so the server
stores the first slips of a burst while the service decides the next ones. Measured
(docs/benchmarks.md, "a bounded wait for the flusher"): wager intake at 16 clients about 1.4x
what it was, the CPU per slip as it was; a write for every command (no wait at all) costs the
server twice its CPU per slip and gained nothing. Only on a connected TCP transport (TLS
included) with nothing buffered unsent in its asyncio transport (on TLS, the TLS layer's
buffer): otherwise the library's flusher writes, as before, and its drain keeps the
back-pressure.
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import version
from typing import Any

from nats import errors
from nats.aio import client as nats_client
from nats.aio.client import Client
from nats.aio.transport import TcpTransport
from nats.protocol import command as prot_command

__all__ = ["FOR_VERSION", "WRITE_AT", "header_block", "install", "library_send_publish"]

#: The nats-py version whose ``_send_publish`` this reproduces (pyproject.toml pins it).
FOR_VERSION = "2.16.0"
#: The library's own method, kept for the equivalence test.
library_send_publish = Client._send_publish

_KEY = nats_client._HEADER_KEY_RE
_NEWLINES = nats_client._HEADER_VALUE_NEWLINES
#: Names already matched valid (stripped): a process publishes a handful of names.
_VALID_NAMES: set[str] = set()
_MAX_NAMES = 256
#: Commands that wait for the flusher at most: the eighth is written at once with those before
#: it. 16 slips in flight are then two writes of appends, so the server stores the first half
#: while the service decides the second (4 measured slower: more writes, each waking the server).
WRITE_AT = 8


def header_block(headers: Mapping[str, Any]) -> bytes:
    """The ``NATS/1.0`` header block of ``headers`` as nats-py 2.16 writes it: names and values
    stripped, an empty name skipped, a name outside RFC 7230's token characters refused
    (``BadHeaderError``), CR and LF in a value turned into spaces."""
    lines = ["NATS/1.0\r\n"]
    for k, v in headers.items():
        key = k.strip()
        if not key:
            continue
        if key not in _VALID_NAMES:
            if not _KEY.fullmatch(key):
                raise errors.BadHeaderError(key)
            if len(_VALID_NAMES) < _MAX_NAMES:
                _VALID_NAMES.add(key)
        value = v.strip()
        if "\r" in value or "\n" in value:
            value = value.translate(_NEWLINES)
        lines.append(f"{key}: {value}\r\n")
    lines.append("\r\n")
    return "".join(lines).encode()


async def send_publish(
    self: Client,
    subject: str,
    reply: str,
    payload: bytes,
    payload_size: int,
    headers: dict[str, Any] | None,
) -> None:
    """``Client._send_publish`` of nats-py 2.16.0 with :func:`header_block` (the rest as the
    library's: the command queued, the flusher woken)."""
    if subject == "":
        raise errors.BadSubjectError
    if headers is None:
        pub_cmd = prot_command.pub_cmd(subject, reply, payload)
    else:
        pub_cmd = prot_command.hpub_cmd(subject, reply, header_block(headers), payload)
    self.stats["out_msgs"] += 1
    self.stats["out_bytes"] += payload_size
    await self._send_command(pub_cmd)
    if len(self._pending) >= WRITE_AT and write_pending(self):
        return
    if self._flush_queue is not None and self._flush_queue.empty():
        await self._flush_pending()


def write_pending(client: Client) -> bool:
    """Write every command ``client`` has queued, in order, now; False (and nothing written)
    unless it is connected over TCP (TLS included) with nothing left unsent in the socket's
    buffer: a reconnecting client keeps its commands for the new connection, a WebSocket one
    and a slow reader are left to the flusher (whose drain waits for the socket), and so is a
    transport that refuses the write (the flusher reports that error as the library does)."""
    transport = client._transport
    if not client.is_connected or type(transport) is not TcpTransport:
        return False
    writer = transport._io_writer
    if writer is None or writer.transport.get_write_buffer_size() > 0:
        return False
    try:
        writer.writelines(client._pending)
    except (OSError, RuntimeError):
        return False
    client._pending = []
    client._pending_data_size = 0
    return True


def install() -> bool:
    """Put :func:`send_publish` in nats-py's place; False (and nothing done) when the installed
    nats-py is not the version it reproduces."""
    if version("nats-py") != FOR_VERSION:
        return False
    Client._send_publish = send_publish  # type: ignore[method-assign]
    return True
