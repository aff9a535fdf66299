"""Replay verify reads the accounts with the cashier's entries' headers only
(sicbo.replay.accounts.headers_checked): on any log, forged or not, check_accounts finds what it
finds with every header read. It holds because an entry reaches the command check only on its
own type's subject; were that guard moved, the property below would fail."""

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from sicbo.replay.accounts import check_accounts, headers_checked
from tests.support.accounts import PLAYER
from tests.unit.replay.test_accounts import HEADER, Entry, played, stored

AS_STORED = stored(*played())
TOKENS = sorted({e.subject.split(".")[3] for e in AS_STORED})
#: The entries' own subjects and forged ones: every type's token with and without a table's
#: round (a game entry's type on a cashier's subject and back), on another round, on another
#: player's account, and subjects of no account.
SUBJECTS = sorted(
    {e.subject for e in AS_STORED}
    | {
        f"sicbo.acct.{who}.{t}{at}"
        for t in TOKENS
        for who in (PLAYER, "bob")
        for at in ("", ".T1.1", ".T1.2")
    }
    | {f"sicbo.acct.{PLAYER}", "sicbo.acct.x.y.z.w", f"sicbo.acct.{PLAYER}.{TOKENS[0]}.T1.x"}
)

entries = st.builds(
    lambda stored_as, subject, own_subject, command: (stored_as, subject, own_subject, command),
    st.sampled_from(AS_STORED),
    st.sampled_from(SUBJECTS),
    st.booleans(),
    st.sampled_from([None, "c-1", "c-2", "c-3"]),
)


def test_the_cashiers_entries_are_the_ones_whose_headers_are_read() -> None:
    read = {e.subject.split(".")[3]: headers_checked(e.subject) for e in AS_STORED}
    assert read == {
        "account-opened-v1": True,
        "account-funds-deposited-v1": True,
        "account-stake-debited-v1": False,
        "account-stake-refunded-v1": False,
        "account-return-credited-v1": False,
    }
    assert headers_checked("sicbo.acct.x.y.z.w") and headers_checked(f"sicbo.acct.{PLAYER}")


@settings(max_examples=1500, deadline=None)
@given(st.lists(entries, min_size=1, max_size=8))
def test_a_log_checked_with_the_cashiers_headers_only_finds_what_it_finds_with_all(
    log: list[tuple[Entry, str, bool, str | None]],
) -> None:
    whole = [
        Entry(n, e.subject if own else subject, e.data, e.time, {HEADER: c} if c else {})
        for n, (e, subject, own, c) in enumerate(log, 1)
    ]
    cut = [e if headers_checked(e.subject) else dataclasses.replace(e, headers={}) for e in whole]
    assert check_accounts(cut, command_header=HEADER) == check_accounts(
        whole, command_header=HEADER
    )
