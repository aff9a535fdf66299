"""Replay's fold of wager intake's state (:class:`sicbo.replay.tokens.Purses`, which keeps new
slips of chips waiting and puts them in at once) gives the state the service's own ``evolve``
gives, event by event, over generated logs: slips placed again under a used id, changed,
withdrawn, carried over a void round and chosen for, colour checks and tokens staked, tables
with and without a maximum payout (an exposure kept), rounds started, closed and completed."""

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from sicbo.replay.owners import OWNER, TAG_OF
from sicbo.replay.tokens import Purses
from sicbo.wagers.evolve import evolve
from sicbo.wagers.pmap import PMap
from sicbo.wagers.state import WagerState, initial_state, wagers_of_round
from sicbo_contracts.wagers import CarriedChoice, Wager
from tests.support.common import TABLE
from tests.support.lifecycle import (
    betting_closed,
    betting_opened,
    completed,
    excluded,
    no_result,
    round_started,
    table_opened,
)
from tests.support.media import token_issued
from tests.support.wagers import changed, chips, chosen, color, issued, placed, promo, withdrawn

SLIP_IDS = [f"s-{n}" for n in range(6)]
PLAYERS = ["alice", "bob"]

wagers = st.lists(
    st.one_of(
        st.builds(chips, st.sampled_from(["big", "small"]), st.sampled_from([100, 200])),
        st.builds(promo, st.just("big"), st.just(100), st.sampled_from(["tk-1", "tk-2"])),
        st.builds(color, st.just("small"), st.just(100), st.just("red")),
    ),
    min_size=1,
    max_size=3,
)
rounds = st.integers(1, 3)
slip_ids = st.sampled_from(SLIP_IDS)
players = st.sampled_from(PLAYERS)


def _slip(kind: str, slip: str, ws: list[Wager], player: str, round_no: int) -> Any:
    who = {"player": player, "round_no": round_no}
    if kind == "placed":
        return placed(slip, ws, **who)  # type: ignore[arg-type]
    if kind == "changed":
        return changed(slip, ws, ws[:1], **who)  # type: ignore[arg-type]
    if kind == "withdrawn":
        return withdrawn(slip, ws, **who)  # type: ignore[arg-type]
    choice = CarriedChoice.CANCEL if len(ws) == 1 else CarriedChoice.CHANGE
    return chosen(slip, choice, ws, ws[1:], **who)  # type: ignore[arg-type]


def _slip_events(round_no: int) -> st.SearchStrategy[list[Any]]:
    """Slip events, most in ``round_no`` (the round taking wagers), some in the rounds either
    side of it."""
    return st.lists(
        st.builds(
            _slip,
            st.sampled_from(["placed"] * 6 + ["changed", "withdrawn", "chosen"]),
            slip_ids,
            wagers,
            players,
            st.sampled_from([round_no] * 4 + [max(1, round_no - 1), round_no + 1]),
        ),
        max_size=12,
    )


table_events = st.one_of(
    st.builds(betting_closed, rounds),
    st.builds(no_result, rounds, st.sampled_from(["refund", "carry-over-locked", "player-choice"])),
    st.builds(completed, rounds),
    st.builds(excluded, players),
    st.builds(issued, players, st.just("red"), st.just(100), st.just(5)),
    st.builds(token_issued, st.sampled_from(["tk-1", "tk-2"]), players, st.just(100)),
)


@st.composite
def _round(draw: st.DrawFn, round_no: int) -> list[Any]:
    """Round ``round_no`` started (its betting opened, or not), slips, then other events."""
    events: list[Any] = [round_started(round_no)]
    if draw(st.integers(0, 5)):  # mostly
        events.append(betting_opened(round_no))
    events += draw(_slip_events(round_no))
    events += draw(st.lists(table_events, max_size=3))
    return events


@st.composite
def _log(draw: st.DrawFn) -> tuple[int | None, list[tuple[Any, bool]]]:
    max_payout = draw(st.sampled_from([None, 1_000_000]))  # then the fold keeps an exposure
    events: list[Any] = [issued("alice", "red", 100, 5), token_issued("tk-1", "bob", 100)]
    for round_no in range(1, draw(st.integers(1, 3)) + 1):
        events += draw(_round(round_no))
    looks = draw(st.lists(st.booleans(), min_size=len(events), max_size=len(events)))
    return max_payout, list(zip(events, looks, strict=True))


logs = _log()


def _as_dicts(state: WagerState) -> tuple[Any, ...]:
    books = {
        n: dict(zip(b, b.values(), strict=True))
        for n, b in zip(state.books, state.books.values(), strict=True)
    }
    return dict(zip(state.slips, state.slips.values(), strict=True)), books, state.placed


@settings(max_examples=300, deadline=None)
@given(logs)
def test_replays_fold_gives_the_state_evolve_gives(log: tuple[int | None, list[Any]]) -> None:
    max_payout, events = log
    opened = table_opened("macau-2004", max_payout_per_round=max_payout)
    purses = Purses(TABLE)
    expected = initial_state(TABLE)
    for event, look in [(opened, False), *events]:
        expected = evolve(expected, event)
        purses.fold(OWNER[TAG_OF[type(event)]], event, b"")
        # Every field but the slips is current without the waiting slips put in.
        assert purses.lifecycle_view.round == expected.round
        assert purses.lifecycle_view.media == expected.media
        assert purses.lifecycle_view.excluded == expected.excluded
        if look:  # reading the state puts the waiting slips in: as often or seldom as it may
            assert purses.state == expected
            assert _as_dicts(purses.state) == _as_dicts(expected)
    assert purses.state == expected
    assert _as_dicts(purses.state) == _as_dicts(expected)
    for round_no in (1, 2, 3, 4):
        assert wagers_of_round(purses.state, round_no) == wagers_of_round(expected, round_no)


def test_new_slips_of_chips_wait_and_are_put_in_at_once() -> None:
    """The case the fold is for: a round's slips of chips folded without a state copy each."""
    purses = Purses(TABLE)
    history: list[Any] = [table_opened("macau-2004"), round_started(1), betting_opened(1)]
    for event in history:
        purses.fold(OWNER[TAG_OF[type(event)]], event, b"")
    before = purses.lifecycle_view
    slips = [placed(f"s-{n}", [chips()], player="bob") for n in range(300)]
    for slip in slips:
        purses.fold(OWNER[TAG_OF[type(slip)]], slip, b"")
    assert purses.lifecycle_view is before  # nothing copied yet
    expected = initial_state(TABLE)
    for event in [*history, *slips]:
        expected = evolve(expected, event)
    assert purses.state == expected
    assert len(wagers_of_round(purses.state, 1)) == 300


@given(
    st.lists(st.tuples(st.sampled_from("abcdefghij"), st.integers()), max_size=30),
    st.lists(st.tuples(st.sampled_from("abcdefghijklmnop"), st.integers()), max_size=30),
)
def test_set_many_is_set_after_set(
    before: list[tuple[str, int]], items: list[tuple[str, int]]
) -> None:
    """``PMap.set_many`` (the waiting slips put in at once) gives what one ``set`` after
    another gives, and leaves the map it started from as it was."""
    start: PMap[str, int] = PMap()
    for key, value in before:
        start = start.set(key, value)
    snapshot = dict(zip(start, start.values(), strict=True))
    one_by_one = start
    for key, value in items:
        one_by_one = one_by_one.set(key, value)
    at_once = start.set_many(items)
    assert at_once == one_by_one and len(at_once) == len(one_by_one)
    assert dict(zip(at_once, at_once.values(), strict=True)) == dict(
        zip(one_by_one, one_by_one.values(), strict=True)
    )
    assert dict(zip(start, start.values(), strict=True)) == snapshot
