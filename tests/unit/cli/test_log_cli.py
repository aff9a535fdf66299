"""``sicbo log`` lists whatever the log holds: a damaged or forged entry (bytes that are no
JSON object, an actor that is no object) is a line saying so, and the listing goes on."""

import json

import pytest

from sicbo.cli.floor import json_line, log_line, table_row

SUBJECT = "sicbo.evt.T1.lc.1.round-started-v1"
STARTED = (
    b'{"type":"round.started.v1","table":"T1","actor":{"id":"ana","role":"dealer"},'
    b'"at":"2026-12-01T10:00:00Z","round":1,"tumbles":3}'
)


@pytest.mark.parametrize(
    ("data", "says"),
    [
        (b"\xff\xfe not json", "not JSON"),
        (b'{"type":"round.started.v1"', "not JSON"),
        (b"[1, 2]", "a JSON list, not an object"),
        (b'"text"', "a JSON str, not an object"),
    ],
)
def test_bytes_that_are_no_event_are_a_line_saying_so(data: bytes, says: str) -> None:
    line = log_line(7, SUBJECT, data)
    assert line[2] is None and line[3] is not None and says in line[3]
    row = table_row(line)
    assert row[0] == "7" and row[3] == SUBJECT and says in row[5]
    printed = json.loads(json_line(line))
    assert printed["seq"] == 7 and printed["event"] is None and says in printed["undecodable"]


def test_an_event_is_listed_as_before() -> None:
    line = log_line(3, SUBJECT, STARTED)
    assert json.loads(json_line(line)) == {
        "seq": 3,
        "subject": SUBJECT,
        "event": json.loads(STARTED),
    }
    assert table_row(line) == (
        "3",
        "2026-12-01T10:00:00Z",
        "1",
        "round.started.v1",
        "dealer ana",
        "tumbles=3",
    )


def test_an_actor_that_is_no_object_is_shown_as_it_is() -> None:
    line = log_line(4, SUBJECT, b'{"type":"round.started.v1","actor":"mallory","round":1}')
    assert table_row(line)[4] == "mallory"
