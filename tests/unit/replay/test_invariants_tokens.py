"""Log invariant 7, ``token`` (000 §1.1): a promotional token is staked only as wager intake
takes it - issued at the table to the slip's player, at its face amount, once, not used -
asked of intake's own check on its state as of that event (settlement's results included)."""

from sicbo.replay.findings import TOKEN
from sicbo.replay.verify import verify
from tests.support.media import token_issued
from tests.support.wagers import promo
from tests.unit.replay.forging import Forgery

TOKEN_100 = promo("big", 100, "tk-1")


def _void_then_valid(f: Forgery) -> None:
    """tk-1 staked in a refunded round (000 §7.5: it comes back), then in a settled one."""
    f.log.add(token_issued("tk-1", "ann", 100))
    for n, void in ((1, True), (2, False)):
        f.log.start(n)
        f.log.slip(n, "ann", TOKEN_100)
        f.log.close(n)
        if void:
            f.log.no_result(n, "refund")
        else:
            f.log.confirm(n, (2, 3, 5))
        f.stored.settle(n)
        f.log.complete(n, "ann")


def test_a_token_staked_again_after_a_void_round_holds_000_1_1() -> None:
    f = Forgery()
    _void_then_valid(f)
    assert f.findings() == []
    assert verify(f.messages()).ok


def test_a_token_staked_after_its_valid_result_is_found_000_1_1() -> None:
    f = Forgery()
    _void_then_valid(f)
    f.log.start(3)
    again = f.log.slip(3, "ann", TOKEN_100)
    seq = f.log.events[-1][0]
    (finding,) = f.findings()
    assert (finding.seq, finding.check, finding.round) == (seq, TOKEN, 3)
    assert f"slip {again} of ann placed in round 3" in finding.message
    assert "wagers[0].token:" in finding.message and "is used" in finding.message
    assert not verify(f.messages()).ok


def test_an_unknown_foreign_or_misvalued_token_is_found_000_1_1() -> None:
    f = Forgery()
    f.log.add(token_issued("tk-1", "ann", 100))
    f.log.add(token_issued("tk-2", "ann", 100))
    f.log.start(1)
    f.log.slip(1, "mallory", TOKEN_100)
    f.log.slip(1, "ann", promo("big", 500, "tk-2"))
    f.log.slip(1, "ann", promo("big", 100, "tk-forged"))
    messages = [x.message for x in f.findings()]
    assert [x.check for x in f.findings()] == [TOKEN] * 3
    assert "issued to 'ann', not to 'mallory'" in messages[0]
    assert "wagers[0].stake:" in messages[1] and "face amount 100" in messages[1]
    assert "no promotional token 'tk-forged'" in messages[2]


def test_a_token_on_two_standing_slips_is_found_000_1_1() -> None:
    f = Forgery()
    f.log.add(token_issued("tk-1", "ann", 100))
    f.log.start(1)
    first = f.log.slip(1, "ann", TOKEN_100)
    f.log.slip(1, "ann", TOKEN_100)
    (finding,) = f.findings()
    assert f"already stands on slip {first!r}" in finding.message


def test_a_promo_wager_of_a_log_older_than_tokens_is_not_checked() -> None:
    f = Forgery()
    f.log.start(1)
    f.log.slip(1, "ann", promo("big", 100))
    assert f.findings() == []
