"""The state: msg ids by slip version, the listing for settlement, replay, and the map."""

from datetime import timedelta

from hypothesis import given as hgiven
from hypothesis import strategies as st

from sicbo.wagers.decider import evolve, initial_state, msg_id_of
from sicbo.wagers.pmap import PMap
from sicbo.wagers.state import wagers_of_round
from tests.support.common import BOB, DEALER, NOW, TABLE
from tests.support.dice import entered
from tests.support.lifecycle import betting_closed, round_started
from tests.support.media import issue_token, token_issued
from tests.support.wagers import (
    betting,
    change,
    changed,
    chips,
    color,
    given,
    issue,
    issued,
    place,
    placed,
    promo,
    when,
    withdraw,
    withdrawn,
)


def test_a_new_slip_is_keyed_on_its_id_so_a_retry_is_a_duplicate() -> None:
    assert msg_id_of(given(betting()), place("slip-42")) == f"{TABLE}/wagers/slip-42"


def test_two_commands_on_the_same_slip_version_share_one_msg_id() -> None:
    history = [*betting(), placed("s-1")]
    withdrawal, changing = withdraw(), change([chips("small")], by=DEALER)
    state = given(history)
    assert msg_id_of(state, withdrawal) == msg_id_of(state, changing) == f"{TABLE}/s-1#v2"
    # Once the change is stored the withdrawal is decided again, on version 3.
    after = given(history, when(history, changing))
    assert msg_id_of(after, withdrawal) == f"{TABLE}/s-1#v3"


def test_colour_checks_are_keyed_on_the_tables_media_version() -> None:
    command = issue("bob", "red", 100, 1)
    assert msg_id_of(given(betting()), command) == f"{TABLE}/media#v1"
    assert msg_id_of(given(betting(), issued("a", "b", 100)), command) == f"{TABLE}/media#v2"


def test_slips_staking_a_token_or_checks_share_the_media_version_000_1_1() -> None:
    """Two slips staking the same token name one msg id: the server stores one of them, the
    other is decided again and refused (a token makes one wager, 000 §1.1)."""
    history = [*betting(), issued("alice", "red", 100), token_issued("tk-1")]
    state = given(history)
    first = place("s-1", [promo("big", 100, "tk-1")])
    second = place("s-2", [promo("small", 100, "tk-1")], by=DEALER)
    checks = place("s-3", [color("big", 100, "red")])
    assert msg_id_of(state, first) == msg_id_of(state, second) == f"{TABLE}/media#v2"
    assert msg_id_of(state, checks) == f"{TABLE}/media#v2"
    after = given(history, when(history, first))
    assert msg_id_of(after, second) == f"{TABLE}/media#v3"
    # Withdrawing or changing the slip releases the token: the same version again.
    assert msg_id_of(after, withdraw("s-1")) == f"{TABLE}/media#v3"
    assert msg_id_of(after, change([chips("small")], slip="s-1")) == f"{TABLE}/media#v3"
    # A chips slip keeps its own id, and a token's issue its token's.
    assert msg_id_of(after, place("s-9")) == f"{TABLE}/wagers/s-9"
    assert msg_id_of(after, issue_token("tk-2")) == f"{TABLE}/promo-token/tk-2"


def test_wagers_of_round_in_placement_order_with_wager_indexes() -> None:
    slips = [
        placed(f"s-{n:03}", [chips("big", 100 + 10 * n), chips("small")], by=BOB, player="bob")
        for n in range(300)
    ]
    state = given(betting(), *slips)
    rows = wagers_of_round(state, 1)
    assert len(rows) == 600
    assert [r.slip_id for r in rows[:4]] == ["s-000", "s-000", "s-001", "s-001"]
    assert [r.index for r in rows[:4]] == [0, 1, 0, 1]
    slip_id, player, index, wager, carried = rows[3]
    assert (slip_id, player, index, wager, carried) == ("s-001", "bob", 1, chips("small"), False)


def test_evolve_leaves_the_previous_state_as_it_was() -> None:
    before = given(betting(), placed("s-1"))
    after = evolve(before, placed("s-2"))
    assert [r.slip_id for r in wagers_of_round(before, 1)] == ["s-1"]
    assert [r.slip_id for r in wagers_of_round(after, 1)] == ["s-1", "s-2"]


def test_events_it_does_not_use_change_nothing() -> None:
    state = given(betting())
    dice = entered((1, 2, 3), at=NOW + timedelta(1))
    assert evolve(state, dice) is state
    assert initial_state(TABLE).round is None


@hgiven(st.lists(st.tuples(st.sampled_from("abcdefghij"), st.booleans()), max_size=60))
def test_pmap_behaves_like_a_dict(ops: list[tuple[str, bool]]) -> None:
    pm: PMap[str, int] = PMap()
    model: dict[str, int] = {}
    seen = []
    for n, (key, put) in enumerate(ops):
        old = pm
        pm = pm.set(key, n) if put else pm.delete(key)
        if put:
            model[key] = n
        else:
            model.pop(key, None)
        seen.append((old, dict(zip(old, old.values(), strict=True))))
        assert len(pm) == len(model)
        assert dict(zip(pm, pm.values(), strict=True)) == model
        assert all(pm.get(k) == v and k in pm for k, v in model.items())
    for old, snapshot in seen:  # every earlier version is unchanged
        assert dict(zip(old, old.values(), strict=True)) == snapshot


def test_a_round_started_again_leaves_betting_open_in_the_current_round() -> None:
    """A start of a round already started (forged into the log) does not take betting away
    from the round in progress: its slips are still decided."""
    history = [*betting(round_no=3)]
    open_round = given(history)
    for again in (1, 2, 3):
        assert given([*history, round_started(again)]) == open_round
    assert open_round.round is not None and open_round.round.number == 3


def test_slip_events_stored_outside_betting_are_no_wagers_000_3_9() -> None:
    """Intake appends a slip event only while its round takes wagers (the append expects the
    lifecycle it decided on), so one stored after "no more bets", or of another round, is
    forged: the fold leaves the round's wagers as they were, and nobody is paid for it."""
    history = [*betting(), placed("s-1"), betting_closed(1)]
    closed = given(history)
    late = [
        placed("s-late", [chips("big", 5_000)], player="mallory"),
        placed("s-other-round", round_no=2),
        changed("s-1", [chips()], [chips("big", 9_000)]),
        withdrawn("s-1", [chips()]),
    ]
    for event in late:
        assert given([*history, event]) == closed
    assert [(w.slip_id, w.wager.stake) for w in wagers_of_round(closed, 1)] == [("s-1", 100)]
