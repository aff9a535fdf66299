"""A refusal of bad input names the field at fault, at the top level as deep down: a client
in any language reads ``field`` to show which of its inputs to fix."""

import msgspec
import pytest

from sicbo.shell.codec import invalid_input
from sicbo_contracts.base import DECODE_ERRORS
from sicbo_contracts.wagers import WagerCommand

SLIP = (
    b'"type":"bets.place-slip.v1","command_id":"c-1","table":"T1",'
    b'"actor":{"id":"p","role":"player"},"round":1,"player":"p"'
)


@pytest.mark.parametrize(
    ("raw", "field"),
    [
        (b'{"type":"bets.place-slip.v1"}', "$.command_id"),  # missing at the top level
        (
            b"{" + SLIP + b',"wagers":[{"bet":"big","stake":100}],"zz":1}',
            "$.zz",
        ),  # unknown at the top level
        (b"{" + SLIP + b"}", "$.wagers"),
        (b"{" + SLIP + b',"wagers":[{"stake":100}]}', "$.wagers[0].bet"),
        (b"{" + SLIP + b',"wagers":[{"bet":"big","stake":1,"q":2}]}', "$.wagers[0].q"),
        (b"{" + SLIP + b',"wagers":[{"bet":"big","stake":-1}]}', "$.wagers[0].stake"),
        (b"[]", "$"),  # not an object at all: the whole value
        (b"{}", "$.type"),
    ],
)
def test_the_refusal_names_the_field(raw: bytes, field: str) -> None:
    with pytest.raises(DECODE_ERRORS) as caught:
        msgspec.json.decode(raw, type=WagerCommand)
    rejected = invalid_input(caught.value)
    assert rejected.field == field, rejected.reason
    assert rejected.code == "invalid"


def test_bytes_that_are_no_json_name_no_field() -> None:
    with pytest.raises(DECODE_ERRORS) as caught:
        msgspec.json.decode(b'{"type":', type=WagerCommand)
    assert invalid_input(caught.value).field is None
