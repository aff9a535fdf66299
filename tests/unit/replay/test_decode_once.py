"""Verify decodes each stored message once (``read_tables(..., decoded)``): the tables'
histories are the ones read from the bytes, on a log with messages misfiled, of unknown types,
or not events at all, and a settlement forged onto a bets subject."""

import msgspec

from sicbo.replay.history import read_tables
from sicbo.replay.owners import read_event
from sicbo.replay.verify import verify
from sicbo.shell.codec import encode
from sicbo_contracts.subjects import Aggregate, event
from sicbo_contracts.wagers import SlipPlaced
from tests.support.common import TABLE
from tests.support.lifecycle import betting_closed
from tests.support.media import settled
from tests.support.wagers import chips, placed
from tests.unit.replay.forging import Forgery


def forged_log() -> Forgery:
    f = Forgery()
    f.play(1)
    f.log.start(2)
    f.log.slip(2, "bob", chips())
    f.forge(placed("s-lc", [chips()], round_no=2), Aggregate.LIFECYCLE)  # a slip on lc
    f.forge(betting_closed(2), Aggregate.BETS)  # a lifecycle event on bets
    f.forge(settled(2), Aggregate.BETS)  # a settlement part on bets: no fact
    f.forge_raw(event(TABLE, Aggregate.BETS, 2, "bets-nope-v1"), b'{"type":"nope"}')
    f.forge_raw(event(TABLE, Aggregate.LIFECYCLE, 2, "lc-x-v1"), b"not json")
    f.forge_raw(event(TABLE, Aggregate.BETS, 2, "bets-slip-placed-v1"), b'{"type":"x"')
    late = betting_closed(2)  # round 2's "no more bets" misfiled under round 1, and a slip
    f.forge_raw(event(TABLE, Aggregate.LIFECYCLE, 1, late), encode(late))  # of another table
    foreign = msgspec.structs.replace(placed("s-x", [chips()], round_no=2), table="other")
    f.forge_raw(event(TABLE, Aggregate.BETS, 2, SlipPlaced), encode(foreign))
    f.log.close(2)
    f.log.confirm(2, (1, 2, 3))
    f.stored.settle(2)
    f.play(3)
    return f


def test_the_histories_read_from_decoded_events_are_those_read_from_the_bytes() -> None:
    events = forged_log().messages()
    decoded = [read_event(e.data) for e in events]
    once, again = read_tables(events, None, decoded)[TABLE], read_tables(events)[TABLE]
    assert once.log.rounds() == again.log.rounds() == [1, 2, 3]
    assert once.log.last_seq == again.log.last_seq
    # The very events kept per round, in order (what every later ``facts`` folds).
    assert once.log._rounds == again.log._rounds
    for round_no in (1, 2, 3):
        for as_of in (None, *(e.seq for e in events)):
            assert once.log.facts(round_no, as_of) == again.log.facts(round_no, as_of)
    assert once.settlements == again.settlements and once.undecodable == again.undecodable


def test_verify_of_the_forged_log_finds_what_the_checks_find() -> None:
    f = forged_log()
    result = verify(f.messages())
    assert result.rounds == 3
    assert sorted((v.seq, v.check) for v in result.violations) == sorted(f.found())
    assert {v.check for v in result.violations} >= {"subject", "contract"}
