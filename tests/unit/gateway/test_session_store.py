"""The gateway's session store: a token stands for a session until sign-out, its lifetime, or
a revocation; bounded per kind; tokens never kept."""

from sicbo.gateway.session_store import LIFETIME_SECONDS, Kind, SessionStore, digest
from sicbo_contracts.base import Role


def test_a_token_stands_for_its_session_until_it_is_closed() -> None:
    store = SessionStore()
    opened = store.open("tok-ana", Kind.OPERATOR, "ana", Role.DEALER, now=100.0)
    assert store.get("tok-ana", Kind.OPERATOR, now=101.0) == opened
    assert opened.who == "ana" and opened.created == opened.seen == 100.0
    assert store.get("tok-ana", Kind.DISPLAY, now=101.0) is None  # a kind of its own
    assert store.get("tok-other", Kind.OPERATOR, now=101.0) is None
    assert store.close("tok-ana", Kind.OPERATOR)
    assert store.get("tok-ana", Kind.OPERATOR, now=102.0) is None
    assert not store.close("tok-ana", Kind.OPERATOR)


def test_a_session_ends_at_its_lifetime_however_much_it_is_used() -> None:
    store = SessionStore()
    store.open("tok", Kind.OPERATOR, "ana", Role.DEALER, now=0.0)
    store.touch("tok", Kind.OPERATOR, now=LIFETIME_SECONDS - 1)
    session = store.get("tok", Kind.OPERATOR, now=LIFETIME_SECONDS - 1)
    assert session is not None and session.idle_for(LIFETIME_SECONDS - 1) == 0
    assert store.get("tok", Kind.OPERATOR, now=LIFETIME_SECONDS) is None
    assert store.count(Kind.OPERATOR) == 0  # and it is gone


def test_activity_moves_the_last_seen_time_only() -> None:
    store = SessionStore()
    store.open("tok", Kind.OPERATOR, "ana", Role.DEALER, now=10.0)
    store.touch("tok", Kind.OPERATOR, now=250.0)
    session = store.get("tok", Kind.OPERATOR, now=400.0)
    assert session is not None and session.created == 10.0 and session.idle_for(400.0) == 150.0
    store.touch("unknown", Kind.OPERATOR, now=400.0)  # nothing to touch: no session made
    assert store.count(Kind.OPERATOR) == 1


def test_revoking_an_operator_ends_their_terminals_and_display_grants_only() -> None:
    store = SessionStore()
    store.open("a1", Kind.OPERATOR, "ana", Role.DEALER, now=0.0)
    store.open("a2", Kind.OPERATOR, "ana", Role.DEALER, now=1.0)
    store.open("a3", Kind.DISPLAY, "ana", Role.DEALER, now=2.0)
    store.open("b1", Kind.OPERATOR, "ben", Role.DEALER, now=3.0)
    store.open("p1", Kind.PLAYER, "ana", Role.PLAYER, now=4.0)  # a player who shares the name
    assert store.revoke("ana") == 3
    assert [store.get(t, Kind.OPERATOR, now=5.0) for t in ("a1", "a2")] == [None, None]
    assert store.get("a3", Kind.DISPLAY, now=5.0) is None
    assert store.get("b1", Kind.OPERATOR, now=5.0) is not None
    assert store.get("p1", Kind.PLAYER, now=5.0) is not None
    assert store.revoke("ana") == 0


def test_clear_ends_every_session() -> None:
    store = SessionStore()
    store.open("a1", Kind.OPERATOR, "ana", Role.DEALER, now=0.0)
    store.open("p1", Kind.PLAYER, "pat", Role.PLAYER, now=0.0)
    assert store.clear() == 2
    assert store.get("a1", Kind.OPERATOR, now=1.0) is None


def test_the_store_is_bounded_per_kind_least_recently_used_first() -> None:
    store = SessionStore(capacity=3)
    for n in range(3):
        store.open(f"op-{n}", Kind.OPERATOR, f"op{n}", Role.DEALER, now=float(n))
    store.touch("op-0", Kind.OPERATOR, now=5.0)  # used again: kept
    for n in range(100):  # a flood of players pushes out players only
        store.open(f"pl-{n}", Kind.PLAYER, f"p{n}", Role.PLAYER, now=6.0)
    assert store.count(Kind.PLAYER) == 3 and store.count(Kind.OPERATOR) == 3
    store.open("op-3", Kind.OPERATOR, "op3", Role.DEALER, now=7.0)
    assert store.get("op-1", Kind.OPERATOR, now=8.0) is None  # the least recently used
    assert store.get("op-0", Kind.OPERATOR, now=8.0) is not None
    assert store.get("pl-99", Kind.PLAYER, now=8.0) is not None


def test_when_full_expired_sessions_go_before_live_ones() -> None:
    store = SessionStore(lifetime=100.0, capacity=2)
    store.open("old", Kind.OPERATOR, "ana", Role.DEALER, now=0.0)
    store.open("live", Kind.OPERATOR, "ben", Role.DEALER, now=90.0)
    store.touch("old", Kind.OPERATOR, now=95.0)  # recently used, but past its lifetime soon
    store.open("new", Kind.OPERATOR, "omar", Role.OPERATOR, now=150.0)
    assert store.get("live", Kind.OPERATOR, now=150.0) is not None
    assert store.get("new", Kind.OPERATOR, now=150.0) is not None


def test_only_the_tokens_digest_is_kept() -> None:
    store = SessionStore()
    store.open("secret-token", Kind.OPERATOR, "ana", Role.DEALER, now=0.0)
    kept = store._kinds[Kind.OPERATOR]
    assert list(kept) == [digest("secret-token")] and "secret-token" not in repr(kept)


def test_a_launched_players_session_keeps_their_currency_through_activity() -> None:
    store = SessionStore()
    opened = store.open("tok-p", Kind.PLAYER, "acme:p-1", Role.PLAYER, now=5.0, currency="EUR")
    store.touch("tok-p", Kind.PLAYER, now=9.0)
    session = store.get("tok-p", Kind.PLAYER, now=10.0)
    assert session is not None and session.currency == opened.currency == "EUR"
    assert store.open("tok-a", Kind.OPERATOR, "ana", Role.DEALER, now=5.0).currency is None
