"""Log invariants 2 and 3: each event of a known type, on its owner's aggregate subject naming
its own table, round and type; and recorded by a role that writes it (``WRITTEN_BY``)."""

from typing import get_args

import msgspec

from sicbo.dice import service as dice
from sicbo.infra import nats_accounts
from sicbo.lifecycle import service as lifecycle
from sicbo.replay.findings import CONTRACT, ROLE, SUBJECT
from sicbo.replay.invariants import check_log
from sicbo.replay.owners import OWNER
from sicbo.replay.verify import verify
from sicbo.shell.codec import encode
from sicbo.wagers import service as wagers
from sicbo_contracts.base import Actor, Role, tag_of
from sicbo_contracts.dice import DiceEvent
from sicbo_contracts.lifecycle import LifecycleEvent, LimitsChanged, RoundCompleted
from sicbo_contracts.settlement import WagersSettled
from sicbo_contracts.subjects import (
    EVENTS_ALL,
    Aggregate,
    event,
    events_of_type,
    subject_matches,
    subject_of,
)
from sicbo_contracts.wagers import WagerEvent
from tests.support.common import DEALER, PLAYER, SUPERVISOR, TABLE, at
from tests.support.common import event as stamped
from tests.support.lifecycle import betting_closed
from tests.support.log import sign
from tests.support.wagers import chips, placed
from tests.unit.replay.forging import Forgery


def test_a_played_log_has_every_event_on_its_owner_s_subject_by_its_role() -> None:
    f = Forgery()
    for n in (1, 2, 3):
        f.play(n)
    assert f.findings() == []


def test_the_owners_are_the_aggregates_of_the_design() -> None:
    assert OWNER["round.started.v1"] is Aggregate.LIFECYCLE
    assert OWNER["dice.result-confirmed.v1"] is Aggregate.LIFECYCLE  # DESIGN.md: "lc"
    assert OWNER["bets.slip-placed.v1"] is Aggregate.BETS
    assert OWNER["settle.round-settled.v1"] is Aggregate.SETTLE
    assert OWNER["lamp.layout-illuminated.v1"] is Aggregate.LAMP


def test_the_owners_are_where_the_nats_accounts_let_each_writer_append() -> None:
    """Each writer's NATS user may append exactly its decider's event types on its aggregate
    (sicbo.infra.nats_accounts ``appends``); replay's owners are the same pairs, and the
    deciding services' specs append on the owners' aggregates."""
    appended = {
        pattern
        for user in nats_accounts.SERVICES
        if user.permissions is not None
        for pattern in user.permissions.publish
        if subject_matches(pattern, EVENTS_ALL)
    }
    assert appended == {events_of_type(tag, aggregate) for tag, aggregate in OWNER.items()}
    for spec, union in ((lifecycle.SPEC, LifecycleEvent), (dice.SPEC, DiceEvent)):
        assert {OWNER[tag_of(cls)] for cls in get_args(union)} == {spec.aggregate}
    assert {OWNER[tag_of(cls)] for cls in get_args(WagerEvent)} == {wagers.SPEC.aggregate}


def test_an_event_on_a_foreign_aggregate_is_found() -> None:
    """A lifecycle event on the bets aggregate escapes the lifecycle filter that guards the
    slips (000 §3.9); a slip on the lifecycle one is folded into the facts all the same."""
    f = Forgery()
    f.log.start(1)
    slip = f.forge(placed("s-lc", [chips()], by=PLAYER, round_no=1), Aggregate.LIFECYCLE)
    close = f.forge(betting_closed(1, at=at(5)), Aggregate.BETS)
    assert f.found() == [(slip, SUBJECT), (close, SUBJECT)]
    first, second = f.findings()
    assert (first.round, first.event) == (1, "bets.slip-placed.v1")
    assert "bets.slip-placed.v1 is an event of the bets aggregate, stored on lc" in first.message
    assert "round.betting-closed.v1 is an event of the lc aggregate, stored on bets" in (
        second.message
    )


def test_a_subject_naming_another_table_round_or_type_is_found() -> None:
    f = Forgery()
    f.log.start(1)
    slip = placed("s-1", [chips()], by=PLAYER, round_no=1)
    data = encode(slip)
    other_round = f.forge_raw(event(TABLE, Aggregate.BETS, 2, slip), data)
    other_type = f.forge_raw(event(TABLE, Aggregate.BETS, 1, "bets.slip-withdrawn.v1"), data)
    table_level = f.forge_raw(event(TABLE, Aggregate.BETS, 0, slip), data)
    other_table = f.forge_raw(event("T9", Aggregate.BETS, 1, slip), data)
    assert f.found() == [(other_round, SUBJECT), (other_type, SUBJECT), (table_level, SUBJECT)]
    messages = [x.message for x in f.findings()]
    assert "the subject names round 2, the event round 1" in messages[0]
    assert "type token 'bets-slip-withdrawn-v1'" in messages[1]
    # The subject's table is the table whose log holds it: T9's log has it, naming T1.
    (elsewhere,) = [x for x in check_log(f.messages())["T9"] if x.check == SUBJECT]
    assert (elsewhere.seq, elsewhere.check) == (other_table, SUBJECT)
    assert "the subject names table T9, the event T1" in elsewhere.message


def test_a_table_level_event_is_on_round_0() -> None:
    f = Forgery()
    change = LimitsChanged(
        table=TABLE, actor=SUPERVISOR, at=at(1), before=sign(1), after=sign(5), reason="sign"
    )
    f.forge(change)
    wrong = f.forge_raw(event(TABLE, Aggregate.LIFECYCLE, 1, change), encode(change))
    assert f.found() == [(wrong, SUBJECT)]


def test_a_message_of_no_known_type_or_not_on_a_floor_subject_is_found() -> None:
    f = Forgery()
    f.log.start(1)
    unknown = f.forge_raw(
        event(TABLE, Aggregate.LIFECYCLE, 1, "round.started.v9"), b'{"type":"round.started.v9"}'
    )
    broken = f.forge_raw(
        event(TABLE, Aggregate.LIFECYCLE, 1, "round.started.v1"), b'{"type":"round.started.v1"}'
    )
    garbage = f.forge_raw(event(TABLE, Aggregate.LIFECYCLE, 1, "x"), b"not json")
    slip = placed("s-1", [chips()], by=PLAYER, round_no=1)
    odd = f.forge_raw(f"sicbo.evt.{TABLE}.bets.one.bets-slip-placed-v1", encode(slip))
    assert f.found() == [
        (unknown, CONTRACT),
        (broken, CONTRACT),
        (garbage, CONTRACT),
        (odd, SUBJECT),
    ]
    messages = [x.message for x in f.findings()]
    assert "'round.started.v9' is none of the floor's event types" in messages[0]
    assert "does not decode as round.started.v1" in messages[1]
    assert "not an event subject of the floor" in messages[3]
    assert not verify(f.messages()).ok


def test_an_actor_of_a_role_that_does_not_write_the_event_is_found() -> None:
    f = Forgery()
    f.play(1, complete=False)
    by_dealer = f.forge(stamped(RoundCompleted, DEALER, at=at(20), round=1, players=["ann"]))
    f.log.start(2)
    by_service = f.forge(
        placed("s-svc", [chips()], by=Actor(id="settlement", role=Role.SERVICE), round_no=2)
    )
    settled = next(e for _, _, e in f.stored.settle_events if isinstance(e, WagersSettled))
    by_player = f.forge(msgspec.structs.replace(settled, round=2, actor=PLAYER))
    found = [(x.seq, x.check) for x in f.findings() if x.check == ROLE]
    assert found == [(by_dealer, ROLE), (by_service, ROLE), (by_player, ROLE)]
    messages = [x.message for x in f.findings() if x.check == ROLE]
    assert (
        "round.completed.v1 records 'dealer-1' acting as a dealer: only a service" in (messages[0])
    )
    assert "only a dealer or a player writes it" in messages[1]
    assert subject_of(settled, Aggregate.SETTLE).startswith(f"sicbo.evt.{TABLE}.settle.1.")
