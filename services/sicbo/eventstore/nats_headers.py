"""A faster header parser for nats-py, with the library's own results (installed on import of
the event store's readers, :mod:`.direct_get`).

nats-py 2.16 parses every received message's header block in
``Client._parse_header_lines``, which tests each header name for whitespace with a generator
over its characters: profiled while reading the floor's log through Direct Get (about 12
headers a message: the publisher's and Direct Get's own), that generator alone was a third of
the read's CPU and the parser two thirds. :func:`parse_header_lines` gives the same dict for
every input (``str.split()`` with no argument splits on exactly the characters
``str.isspace`` accepts, so a name is kept if and only if it splits into itself); the unit test
``tests/unit/eventstore/test_nats_headers.py`` compares the two on edge cases and random
blocks. Installed only over the version it was written against: any other version keeps its
own parser.
"""

from __future__ import annotations

from importlib.metadata import version

from nats.aio.client import Client

__all__ = ["install", "library_parser", "parse_header_lines"]

#: The nats-py version whose ``_parse_header_lines`` this reproduces (pyproject.toml pins it).
FOR_VERSION = "2.16.0"
_CRLF = b"\r\n"
#: The library's own parser, kept for the equivalence test.
library_parser = Client._parse_header_lines


def parse_header_lines(raw: bytes) -> dict[str, str]:
    """``Name: Value`` lines of a NATS header block into a dict, as nats-py 2.16 parses them:
    lines without a colon, names that are not ASCII or hold whitespace are skipped; a value is
    stripped and decoded as UTF-8 with replacement characters."""
    if not raw.isascii():
        return _parse_bytes(raw)
    # All ASCII (every header the floor writes): the block decoded once, the same rules on
    # its text. ``bytes.strip`` strips ASCII whitespace only, so ``_ASCII_SPACE`` here.
    out: dict[str, str] = {}
    for line in raw.decode("ascii").split("\r\n"):
        name, sep, value = line.partition(":")
        if not sep:
            continue
        key = name.strip(_ASCII_SPACE)
        if not (key.isprintable() and " " not in key) and key.split() != [key]:
            continue  # whitespace inside the name (RFC 5322 §3.6.8), as the library skips it
        out[key] = value.strip(_ASCII_SPACE)
    return out


#: What ``bytes.strip()`` strips.
_ASCII_SPACE = " \t\n\r\x0b\x0c"


def _parse_bytes(raw: bytes) -> dict[str, str]:
    out: dict[str, str] = {}
    for line in raw.split(_CRLF):
        name, sep, value = line.partition(b":")
        if not sep:
            continue  # also the empty line
        try:
            key = name.strip().decode("ascii")
        except UnicodeDecodeError:
            continue
        if key and key.split() != [key]:
            continue  # whitespace inside the name, as the library skips it
        out[key] = value.strip().decode("utf-8", "replace")
    return out


def install() -> bool:
    """Put :func:`parse_header_lines` in nats-py's place; False (and nothing done) when the
    installed nats-py is not the version it reproduces."""
    if version("nats-py") != FOR_VERSION:
        return False
    Client._parse_header_lines = staticmethod(parse_header_lines)  # type: ignore[method-assign]
    return True
