"""Any bytes, any decoder of the floor: a value or one of DECODE_ERRORS, and a clear Rejected.

The services answer every message because decoding can only end in these two ways (the shell
catches DECODE_ERRORS and answers ``invalid_input``); this holds the decoders to it for
arbitrary bytes, near-JSON and deep nesting (hypothesis)."""

from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from sicbo.shell.codec import invalid_input, peek_command_id
from sicbo_contracts.base import DECODE_ERRORS
from sicbo_contracts.board import RecallQuery, StatsQuery
from sicbo_contracts.dice import DiceCommand
from sicbo_contracts.lifecycle import LifecycleCommand
from sicbo_contracts.wagers import BetHistoryQuery, WagerCommand

DECODERS: list[msgspec.json.Decoder[Any]] = [
    msgspec.json.Decoder(t)
    for t in (LifecycleCommand, DiceCommand, WagerCommand, BetHistoryQuery, StatsQuery, RecallQuery)
]

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=20,
)


def answered(raw: bytes) -> None:
    """Every decoder either decodes ``raw`` or raises what the shell turns into a Rejected."""
    for decoder in DECODERS:
        try:
            decoder.decode(raw)
        except DECODE_ERRORS as err:
            rejected = invalid_input(err, peek_command_id(raw))
            assert rejected.code == "invalid" and rejected.reason


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=512))
def test_any_bytes_decode_or_are_refused_clearly(raw: bytes) -> None:
    answered(raw)


@settings(max_examples=300, deadline=None)
@given(JSONISH, st.integers(0, 64), st.binary(max_size=8))
def test_near_json_decodes_or_is_refused_clearly(value: Any, cut: int, junk: bytes) -> None:
    encoded = msgspec.json.encode(value)
    answered(encoded)
    answered(encoded[:cut] + junk + encoded[cut:])  # bytes spliced into valid JSON


@settings(max_examples=30, deadline=None)
@given(st.integers(1_000, 200_000), st.sampled_from([b"[", b'{"a":', b'{"type":']))
def test_nesting_of_any_depth_is_refused_clearly(depth: int, opener: bytes) -> None:
    answered(opener * depth)
