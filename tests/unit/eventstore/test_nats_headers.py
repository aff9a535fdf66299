"""The event store's header parser gives nats-py's own results (sicbo.eventstore.nats_headers)."""

from hypothesis import given, settings
from hypothesis import strategies as st
from nats.aio.client import Client

from sicbo.eventstore import direct_get  # noqa: F401  (installs the parser, as every reader)
from sicbo.eventstore.nats_headers import library_parser, parse_header_lines

EDGE_CASES = [
    b"",
    b"\r\n",
    b"Nats-Sequence: 12\r\nNats-Subject: sicbo.evt.t.lc.0.x\r\n\r\n",
    b"a:b",
    b"a: b \r\n",
    b":value-without-name\r\n",
    b"no-colon-here\r\n",
    b"spaced name: kept?\r\n",
    b" leading: x\r\ntrailing : y\r\n",
    b"tab\tname: x\r\n",
    b"\x1cfile-sep: x\r\nname\x1f: y\r\n\x0bvt: z\r\n",
    b"caf\xc3\xa9: non-ascii name\r\n",
    b"bad-value: \xff\xfe\r\n",
    b"nul\x00name: kept\r\n\x1c: only a separator\r\nvalue: \x1cpadded\x1f \r\n",
    b"dup: 1\r\ndup: 2\r\n",
    b"colon: a:b:c\r\n",
    b"traceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\r\n",
]

#: Pieces of header blocks: name and value characters, separators, whitespace of every kind
#: ``str.isspace`` knows (``\x1c``-``\x1f`` too), non-ASCII and invalid UTF-8.
PIECES = [b"a", b"Z", b"-", b":", b" ", b"\t", b"\r", b"\n", b"\r\n", b"\x1c", b"\x1f", b"\x0b"]
PIECES += [b"\xc3\xa9", b"\xff", b"\x00"]
header_bytes = st.lists(st.sampled_from(PIECES), max_size=40).map(b"".join)


def test_edge_cases_parse_as_the_library_does() -> None:
    for raw in EDGE_CASES:
        assert parse_header_lines(raw) == library_parser(raw), raw


@settings(max_examples=2000)
@given(header_bytes)
def test_any_block_parses_as_the_library_does(raw: bytes) -> None:
    assert parse_header_lines(raw) == library_parser(raw)


def test_installed_over_the_pinned_version() -> None:
    assert Client._parse_header_lines is parse_header_lines
    assert library_parser is not parse_header_lines
