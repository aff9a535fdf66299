"""Sign-in throttling: guessing is slowed per (id, client) and per client, nobody is locked out."""

import pytest

from sicbo.gateway.throttle import (
    CLIENT_BURST,
    CLIENT_REFILL_SECONDS,
    FORGET_SECONDS,
    FREE_FAILURES,
    MAX_DELAY_SECONDS,
    SignInThrottle,
    client_key,
    delay_after,
    guesses_in,
)


def failed(throttle: SignInThrottle, operator: str, client: str, now: float) -> None:
    assert throttle.attempt(operator, client, now) == 0
    # no succeeded(): the PIN was wrong, the attempt stays counted


def test_the_first_failures_are_free_then_each_attempt_waits_twice_as_long() -> None:
    assert [delay_after(n) for n in range(FREE_FAILURES)] == [0.0] * FREE_FAILURES
    assert [delay_after(FREE_FAILURES + n) for n in range(4)] == [2.0, 4.0, 8.0, 16.0]
    assert delay_after(100) == MAX_DELAY_SECONDS == 300


def test_a_pair_waits_from_its_last_failure_and_a_refused_attempt_counts_nothing() -> None:
    throttle = SignInThrottle()
    for n in range(FREE_FAILURES):
        failed(throttle, "ana", "10.0.0.9", now=100.0 + n)
    last = 100.0 + FREE_FAILURES - 1
    assert throttle.attempt("ana", "10.0.0.9", now=last + 0.5) == pytest.approx(1.5)
    assert throttle.attempt("ana", "10.0.0.9", now=last + 1.0) == pytest.approx(1.0)
    failed(throttle, "ana", "10.0.0.9", now=last + 2.0)  # the wait is over: one more try
    assert throttle.wait("ana", "10.0.0.9", now=last + 2.0) == pytest.approx(4.0)


def test_a_strangers_failures_do_not_slow_the_operator_from_another_client() -> None:
    throttle = SignInThrottle()
    for n in range(FREE_FAILURES + 5):
        failed(throttle, "ana", "203.0.113.7", now=float(n * 1000))
    assert throttle.wait("ana", "203.0.113.7", now=7000.0) > 0
    assert throttle.attempt("ana", "10.0.0.9", now=7000.0) == 0  # the real ana, her terminal
    throttle.succeeded("ana", "10.0.0.9", now=7000.0)
    assert throttle.wait("ana", "203.0.113.7", now=7000.0) > 0  # the stranger still waits


def test_unknown_ids_are_slowed_like_listed_ones() -> None:
    throttle = SignInThrottle()
    for n in range(FREE_FAILURES):
        failed(throttle, "nobody-at-all", "10.0.0.9", now=float(n))
    assert throttle.wait("nobody-at-all", "10.0.0.9", now=float(FREE_FAILURES)) > 0


def test_a_right_pin_forgets_the_pairs_failures() -> None:
    throttle = SignInThrottle()
    for n in range(FREE_FAILURES):
        failed(throttle, "ana", "10.0.0.9", now=float(n))
    assert throttle.wait("ana", "10.0.0.9", now=3.0) > 0
    throttle.succeeded("ana", "10.0.0.9", now=3.0)
    assert throttle.wait("ana", "10.0.0.9", now=3.0) == 0


def test_a_quiet_pair_is_forgotten() -> None:
    throttle = SignInThrottle()
    for n in range(FREE_FAILURES + 10):
        throttle.attempt("ana", "10.0.0.9", now=float(n * 400))
    last = float((FREE_FAILURES + 9) * 400)
    assert throttle.wait("ana", "10.0.0.9", now=last) == MAX_DELAY_SECONDS
    failed(throttle, "ana", "10.0.0.9", now=last + FORGET_SECONDS)
    assert throttle.wait("ana", "10.0.0.9", now=last + FORGET_SECONDS) == 0  # counted afresh


def test_one_client_sweeping_many_ids_is_slowed_by_its_bucket() -> None:
    throttle = SignInThrottle()
    for n in range(CLIENT_BURST):
        failed(throttle, f"id-{n}", "203.0.113.7", now=0.0)
    # A second guess at any of them waits for the bucket, however free the pair's tries.
    assert throttle.attempt("id-0", "203.0.113.7", now=0.0) == CLIENT_REFILL_SECONDS
    failed(throttle, "id-new", "203.0.113.7", now=0.0)  # a fresh id: its one first guess
    assert throttle.attempt("id-new", "203.0.113.7", now=0.0) == CLIENT_REFILL_SECONDS
    failed(throttle, "id-0", "203.0.113.7", now=CLIENT_REFILL_SECONDS)  # one token back


def test_a_sweep_from_an_address_never_holds_an_operator_who_typed_no_wrong_pin() -> None:
    """Issue 25: sue, who never typed a wrong PIN, got 429 after a 32-id sweep from her
    floor's address."""
    throttle = SignInThrottle()
    for n in range(32):
        failed(throttle, f"id-{n}", "10.0.0.1", now=float(n))
    assert throttle.attempt("sue", "10.0.0.1", now=32.0) == 0
    throttle.succeeded("sue", "10.0.0.1", now=32.0)


def test_one_wrong_pin_every_10_s_behind_a_nat_locks_no_terminal_out() -> None:
    throttle = SignInThrottle()
    for n in range(360):  # an hour of it
        throttle.attempt(f"guess-{n % 7}", "10.0.0.1", now=n * 10.0)
        assert throttle.attempt(f"op-{n}", "10.0.0.1", now=n * 10.0 + 5) == 0
        throttle.succeeded(f"op-{n}", "10.0.0.1", now=n * 10.0 + 5)


def test_a_guesser_gets_21_tries_an_hour_at_one_pin_from_one_address() -> None:
    assert guesses_in(3600) == 21  # the figure sicbo.gateway.throttle's docstring states
    assert guesses_in(24 * 3600) < 24 * 12 + 21  # then one every 300 s at most


def test_a_right_pin_gives_the_clients_token_back() -> None:
    throttle = SignInThrottle()
    for n in range(CLIENT_BURST * 3):  # a floor behind one address, signing in all day
        assert throttle.attempt(f"op-{n}", "10.0.0.1", now=0.0) == 0
        throttle.succeeded(f"op-{n}", "10.0.0.1", now=0.0)


def test_ipv6_clients_count_per_64() -> None:
    assert client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::2")
    assert client_key("2001:db8:1:3::1") != client_key("2001:db8:1:2::1")
    assert client_key("10.0.0.9") == "10.0.0.9"
    assert client_key("unknown") == "unknown"
    throttle = SignInThrottle()
    for n in range(CLIENT_BURST):
        failed(throttle, f"id-{n}", f"2001:db8:1:2::{n + 1:x}", now=0.0)
    assert throttle.wait("id-0", "2001:db8:1:2::1", now=0.0) > 0  # the /64 emptied its bucket


def test_the_tables_are_bounded() -> None:
    throttle = SignInThrottle(capacity=10)
    for n in range(50):
        throttle.attempt(f"id-{n}", f"10.0.{n}.1", now=float(n))
    assert len(throttle._pairs) == 10 and len(throttle._clients) == 10
