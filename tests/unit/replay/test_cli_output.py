"""``sicbo replay verify`` and ``sicbo replay round`` print the log's invariants (a section
"log invariants", each finding with its sequence) and exit 1 on any, ``--json`` too; the log is
read from a fake instead of NATS (the integration tests run them against a server)."""

import json
from typing import Any

import pytest
from typer.testing import CliRunner

from sicbo.cli import replay as cli
from sicbo.eventstore.store import StoredEvent
from sicbo.replay import floor
from sicbo.shell.codec import encode
from sicbo.shell.headers import COMMAND_ID
from sicbo_contracts.subjects import account_subject_of
from tests.support.accounts import account_opened, deposited
from tests.support.common import PLAYER, TABLE, at
from tests.support.wagers import chips, placed
from tests.unit.replay.forging import Forgery

runner = CliRunner()


def serve(
    monkeypatch: pytest.MonkeyPatch, f: Forgery, accounts: list[StoredEvent] | None = None
) -> None:
    events = [
        StoredEvent(seq=e.seq, subject=e.subject, data=e.data, headers={}, time=e.time)
        for e in f.messages()
    ]
    monkeypatch.setattr(cli, "_read_or_exit", lambda url, subject_filter: events)
    monkeypatch.setattr(floor, "read_log", lambda url, subject_filter="": events)
    # No server: the workers' own reads (sicbo.replay.spread) are the integration tests'.
    monkeypatch.setattr(floor, "verify_log_spread", lambda url, **_: None)
    monkeypatch.setattr(floor, "read_accounts", lambda url, **_: accounts or [])


def late_slip() -> tuple[Forgery, int]:
    f = Forgery()
    f.log.start(1)
    f.log.close(1)
    late = f.log.add(placed("s-late", [chips()], by=PLAYER, round_no=1, at=at(30)))
    f.log.confirm(1, (2, 3, 5))
    f.stored.settle(1)
    f.log.complete(1)
    return f, late


def run(*args: str) -> Any:
    return runner.invoke(cli.app, list(args))


def test_verify_prints_each_violation_and_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    f, late = late_slip()
    serve(monkeypatch, f)
    out = run("verify", "--jobs", "1")
    assert out.exit_code == 1, out.output
    assert "log invariants: 1 broken" in out.output
    assert f"VIOLATION seq {late} {TABLE} round 1 (betting, bets.slip-placed.v1)" in out.output
    assert "0 mismatched rounds, 1 log invariant violations" in out.output


def test_verify_json_includes_the_violations(monkeypatch: pytest.MonkeyPatch) -> None:
    f, late = late_slip()
    serve(monkeypatch, f)
    out = run("verify", "--jobs", "1", "--json")
    assert out.exit_code == 1
    document = json.loads(out.output)
    assert document["ok"] is False and document["mismatches"] == []
    (violation,) = document["violations"]
    assert (violation["seq"], violation["check"], violation["round"]) == (late, "betting", 1)


def test_a_clean_log_verifies_with_no_invariant_broken(monkeypatch: pytest.MonkeyPatch) -> None:
    f = Forgery()
    f.play(1)
    f.play(2)
    serve(monkeypatch, f)
    out = run("verify", "--jobs", "1")
    assert out.exit_code == 0, out.output
    assert "log invariants: none broken" in out.output
    assert json.loads(run("verify", "--json").output)["violations"] == []


def test_round_prints_the_round_s_violations_and_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    f, late = late_slip()
    serve(monkeypatch, f)
    out = run("round", TABLE, "1")
    assert out.exit_code == 1, out.output
    assert "MATCH" in out.output and "log invariants: 1 broken" in out.output
    assert f"seq {late}" in out.output
    as_json = run("round", TABLE, "1", "--json")
    assert as_json.exit_code == 1
    report = json.loads(as_json.output)
    assert report["status"] == "MATCH" and [x["seq"] for x in report["invariants"]] == [late]


def test_verify_names_a_broken_account_and_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every player's account is re-folded too: a deposit recording a balance its entries do
    not sum to is a violation of the accounts' stream, named with its account."""
    f = Forgery()
    f.play(1)
    wrong = deposited(100, 250)
    serve(
        monkeypatch,
        f,
        [
            StoredEvent(
                seq=n,
                subject=account_subject_of(e),
                data=encode(e),
                headers={COMMAND_ID: f"c-{n}"},
                time=at(),
            )
            for n, e in enumerate([account_opened(), wrong], 1)
        ],
    )
    out = run("verify", "--jobs", "1")
    assert out.exit_code == 1, out.output
    assert "log invariants: 1 broken" in out.output
    assert "VIOLATION SICBO_ACCOUNTS seq 2 account alice (account," in out.output
    assert "it records a balance of 250; the entries sum to 100" in out.output
    only_a_table = run("verify", "--jobs", "1", "--table", TABLE)
    assert only_a_table.exit_code == 0, only_a_table.output  # accounts belong to no table
