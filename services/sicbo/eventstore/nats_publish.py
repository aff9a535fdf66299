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
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib.metadata import version
from typing import Any

from nats import errors
from nats.aio import client as nats_client
from nats.aio.client import Client
from nats.protocol import command as prot_command

__all__ = ["FOR_VERSION", "header_block", "install", "library_send_publish"]

#: The nats-py version whose ``_send_publish`` this reproduces (pyproject.toml pins it).
FOR_VERSION = "2.16.0"
#: The library's own method, kept for the equivalence test.
library_send_publish = Client._send_publish

_KEY = nats_client._HEADER_KEY_RE
_NEWLINES = nats_client._HEADER_VALUE_NEWLINES
#: Names already matched valid (stripped): a process publishes a handful of names.
_VALID_NAMES: set[str] = set()
_MAX_NAMES = 256


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
    if self._flush_queue is not None and self._flush_queue.empty():
        await self._flush_pending()


def install() -> bool:
    """Put :func:`send_publish` in nats-py's place; False (and nothing done) when the installed
    nats-py is not the version it reproduces."""
    if version("nats-py") != FOR_VERSION:
        return False
    Client._send_publish = send_publish  # type: ignore[method-assign]
    return True
