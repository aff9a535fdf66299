"""A player acts as the player their session names, never as one a request names: a slip that
names another player is refused (403), one that names the player signed in is theirs."""

from __future__ import annotations

import json

import msgspec
import pytest

from sicbo.gateway.commands import stamped_slip
from sicbo.gateway.http import ApiError
from sicbo.shell.codec import invalid_input
from sicbo_contracts.base import DECODE_ERRORS
from sicbo_contracts.wagers import WagerCommand

SLIP = {"command_id": "slip-1", "round": 3, "wagers": [{"bet": "big", "stake": 100}]}


def test_a_slip_naming_another_player_is_refused() -> None:
    with pytest.raises(ApiError) as caught:
        stamped_slip({**SLIP, "player": "acme:other"}, "T1", "acme:p-1")
    err = caught.value
    assert (err.status, err.code, err.field) == (403, "forbidden", "$.player")


def test_a_slip_is_stamped_with_the_signed_in_player() -> None:
    for body in (dict(SLIP), {**SLIP, "player": "acme:p-1"}):
        stamped = stamped_slip(body, "T1", "acme:p-1")
        assert stamped["player"] == stamped["actor"]["id"] == "acme:p-1"
        assert stamped["actor"]["role"] == "player" and stamped["table"] == "T1"


@pytest.mark.parametrize("wagers", [5, 1.5, True, "big", {"bet": "big"}, None])
def test_a_slip_whose_wagers_are_no_list_is_left_to_the_contract_to_refuse(wagers: object) -> None:
    stamped = stamped_slip({**SLIP, "wagers": wagers}, "T1", "acme:p-1")
    with pytest.raises(DECODE_ERRORS) as caught:
        msgspec.json.decode(json.dumps(stamped).encode(), type=WagerCommand)
    assert invalid_input(caught.value).field == "$.wagers"  # the 400 names the field
