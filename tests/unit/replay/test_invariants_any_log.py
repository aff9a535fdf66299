"""The invariants read any log an attacker could store: events dropped, repeated, moved to
another place in the order or onto another round's subject never make the checks raise, and
a log played as the services play it never gives a finding."""

from hypothesis import given, settings
from hypothesis import strategies as st

from sicbo.replay.invariants import check_log
from sicbo_contracts.subjects import event, parse_event_subject
from tests.support.common import TABLE
from tests.support.stream import Stored
from tests.support.wagers import chips
from tests.unit.replay.forging import Forgery


def played() -> list[Stored]:
    f = Forgery("macau-2004")
    f.play(1)
    f.log.start(2)
    f.log.slip(2, "bob", chips())
    f.log.close(2)
    f.log.no_result(2, "player-choice")
    f.stored.settle(2)
    f.log.complete(2, "bob")
    f.play(3)
    return f.messages()


LOG = played()


def test_the_played_log_holds_every_invariant() -> None:
    assert check_log(LOG) == {TABLE: []}


def _moved(e: Stored, round_no: int) -> Stored:
    parsed = parse_event_subject(e.subject)
    assert parsed is not None
    return Stored(
        e.seq, event(parsed.table, parsed.aggregate, round_no, parsed.token), e.data, e.time
    )


edits = st.lists(
    st.tuples(
        st.sampled_from(["drop", "repeat", "swap", "move"]),
        st.integers(0, len(LOG) - 1),
        st.integers(0, len(LOG) - 1),
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=150, deadline=None)
@given(edits)
def test_no_edit_of_the_log_makes_the_checks_raise(changes: list[tuple[str, int, int]]) -> None:
    log = list(LOG)
    for what, i, j in changes:
        i, j = i % len(log), j % len(log)
        if what == "drop" and len(log) > 1:
            del log[i]
        elif what == "repeat":
            log.insert(j, log[i])
        elif what == "swap":
            log[i], log[j] = log[j], log[i]
        elif what == "move":
            log[i] = _moved(log[i], j % 5)
    renumbered = [Stored(n, e.subject, e.data, e.time) for n, e in enumerate(log, start=1)]
    found = check_log(renumbered).get(TABLE, [])
    assert all(f.seq in range(1, len(renumbered) + 1) and f.message for f in found)
