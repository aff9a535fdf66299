"""The sign's lines for bet kinds (000 §4.1) and the maximum payout per round are new fields:
logs written before them still decode, and commands still refuse what they do not know."""

import msgspec
import pytest

from sicbo_contracts.base import KindLimits, Limits
from sicbo_contracts.lifecycle import ChangeLimits, LifecycleEvent, TableOpened

OLD_TABLE_OPENED = b"""{"type": "table.opened.v1", "table": "T1",
 "actor": {"id": "op-1", "role": "operator"}, "at": "2024-06-03T16:00:00Z",
 "config": {"profile": "cca-1992", "limits": {"minimum": 10, "maximum": 1000, "unit": 1}},
 "paytable": "cca-1992@v1"}"""


def test_an_old_table_opened_decodes_with_no_lines_and_no_maximum_payout() -> None:
    opened = msgspec.json.decode(OLD_TABLE_OPENED, type=LifecycleEvent)
    assert isinstance(opened, TableOpened)
    assert opened.config.limits == Limits(minimum=10, maximum=1_000)
    assert opened.config.limits.by_kind == {}
    assert opened.config.max_payout_per_round is None


def test_a_sign_with_lines_round_trips() -> None:
    sign = Limits(minimum=10, maximum=1_000, by_kind={"triple": KindLimits(maximum=100)})
    assert msgspec.json.decode(msgspec.json.encode(sign), type=Limits) == sign


@pytest.mark.parametrize(
    "by_kind",
    [
        {"Triple": {"maximum": 100}},  # not a kind's spelling
        {"triple": {"maximum": 0}},  # a bound is a stake of at least 1
        {"triple": {"maximum": 100, "cap": 5}},  # unknown field in a line
    ],
)
def test_a_command_with_a_bad_line_is_refused_on_decoding(by_kind: dict[str, object]) -> None:
    body = {
        "type": "table.change-limits.v1",
        "command_id": "c-1",
        "table": "T1",
        "actor": {"id": "sup-1", "role": "supervisor"},
        "limits": {"minimum": 10, "maximum": 1_000, "by_kind": by_kind},
        "reason": "new sign",
    }
    with pytest.raises(msgspec.ValidationError, match=r"by_kind"):
        msgspec.json.decode(msgspec.json.encode(body), type=ChangeLimits)
