"""The NATS permissions in deploy/ allow and refuse what they should, on a real server.

The accounts are written once (services/sicbo/infra/nats_accounts.py) and rendered into
deploy/nats/accounts.conf (included by floor.conf) and deploy/nats-helm/values.yaml. Both are
checked fresh, then each is run by a nats-server of its own: floor.conf as it is, and the
Helm values' accounts rendered the way the chart renders them (JSON, ``<< $VAR >>`` unquoted).
Every service user and terminal role connects, does a representative thing it needs, and is
refused a representative thing it must not do. Refusals are the server's own ("Permissions
Violation"), and the server's log names the account and user of each. Commands go to
``sicbo.cmd.<table>.<service>.<sender>``: each user may publish as its own sender only (a
terminal as its role, a service as itself, the gateway as the human roles).

What the services then refuse on a sender's own subject (a payload that claims another role) is
tested with the services running as these users: tests/deploy/test_command_authority.py. That
the permissions are *enough* for the real services is shown by the cluster test
(tests/cluster/test_cluster.py): it runs the services as these users and finds no violation.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.errors import TimeoutError as NatsTimeoutError

from sicbo.gateway.launch_once import LaunchesUsed
from sicbo.gateway.launch_tokens import Launch, LaunchRefused
from sicbo.infra import nats_config
from sicbo.infra.nats_flush import flush_sent
from sicbo_contracts.access import HUMAN_SENDERS, SENDERS
from sicbo_contracts.routing import SERVICE_OF_TAG
from sicbo_contracts.subjects import (
    ACCOUNT_STREAM,
    EVENT_STREAM,
    GATEWAY_INBOX,
    LAUNCHES_BUCKET,
    RESULTS_STREAM,
    command,
)
from tests.deploy.nats_users import ROOT, VALUES, As, Refused, refused

TABLE = "PERM1"
WRONG_LAST = {  # an append that reaches the stream and is refused by it: nothing is stored
    "Nats-Expected-Last-Subject-Sequence": "999",
    "Nats-Expected-Last-Subject-Sequence-Subject": f"sicbo.evt.{TABLE}.>",
}
WRONG_LAST_RESULT = {
    "Nats-Expected-Last-Subject-Sequence": "999",
    "Nats-Expected-Last-Subject-Sequence-Subject": f"sicbo.results.{TABLE}",
}


def test_the_generated_configuration_is_fresh() -> None:
    assert nats_config.stale(ROOT) == [], "run `make nats-config` and commit deploy/"
    values = yaml.safe_load(VALUES.read_text())
    assert values["config"]["merge"] == nats_config.helm_merge()
    assert {k: v for k, v in values["container"]["env"].items() if k != "GOMEMLIMIT"} == (
        nats_config.helm_env()
    )


async def appends(who: As, subject: str, headers: dict[str, str] = WRONG_LAST) -> None:
    """Allowed to append: the stream itself answers (here: wrong last sequence, 10071)."""
    reply = await who.publish(subject, headers=headers)
    assert reply is not None, f"{who.user}: no stream answered {subject}"
    assert json.loads(reply.data)["error"]["err_code"] == 10071, reply.data


async def api_ok(who: As, subject: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    reply = await who.publish(subject, json.dumps(body or {}).encode())
    assert reply is not None, f"{who.user}: no answer on {subject}"
    answer: dict[str, Any] = json.loads(reply.data) if reply.data else {}
    assert "error" not in answer, answer
    return answer


def evt(aggregate: str, event_type: str, round_no: int = 1) -> str:
    return f"sicbo.evt.{TABLE}.{aggregate}.{round_no}.{event_type}"


def cmd(service: str, sender: str) -> str:
    return command(TABLE, service, sender)


def services_of(actions: frozenset[str]) -> set[str]:
    return {SERVICE_OF_TAG[tag] for tag in actions}


#: Every sender's subject to each service that takes one of its commands.
SENT = [(s, svc) for s, sender in SENDERS.items() for svc in sorted(services_of(sender.actions))]
HUMAN_COMMANDS = [cmd(svc, s) for s, svc in SENT if s in HUMAN_SENDERS]
SERVICE_COMMANDS = [cmd(svc, s) for s, svc in SENT if s not in HUMAN_SENDERS]


LOG_READ = {"seq": 1, "next_by_subj": "sicbo.evt.>", "batch": 1}


# -- the services ----------------------------------------------------------------------------


async def test_lifecycle(connect: Any, admin: NATS) -> None:
    lc = await connect("lifecycle")
    await appends(lc, evt("lc", "round-started-v1"))
    assert await lc.subscribe("sicbo.cmd.*.lifecycle.*", cmd("lifecycle", "dealer"), admin)
    await api_ok(lc, "$JS.API.STREAM.INFO.KV_sicbo-timers")  # the countdown's bucket
    assert await lc.publish(f"$JS.API.DIRECT.GET.{EVENT_STREAM}", json.dumps(LOG_READ).encode())
    await refused(lc, evt("lc", "dice-result-confirmed-v1"))  # the dice service's event
    await refused(lc, evt("settle", "settle-round-settled-v1"))
    await refused(lc, f"$JS.API.STREAM.DELETE.{EVENT_STREAM}")
    await refused(lc, f"$JS.API.CONSUMER.CREATE.{EVENT_STREAM}.mine")
    assert not await lc.subscribe("sicbo.cmd.*.wagers.*", cmd("wagers", "dealer"), admin)
    await refused(lc, cmd("lifecycle", "countdown"))  # the countdown is in its own process


async def test_dice(connect: Any, admin: NATS) -> None:
    dice = await connect("dice")
    await appends(dice, evt("lc", "dice-result-confirmed-v1"))
    assert await dice.subscribe("sicbo.cmd.*.dice.*", cmd("dice", "reader"), admin)
    await refused(dice, evt("lc", "round-completed-v1"))  # the lifecycle's event
    await refused(dice, cmd("lifecycle", "dealer"))  # sends no commands
    await refused(dice, cmd("dice", "reader"))
    await refused(dice, "$JS.API.STREAM.PURGE.KV_sicbo-timers")


async def test_wagers(connect: Any, admin: NATS) -> None:
    wagers = await connect("wagers")
    await appends(wagers, evt("bets", "bets-slip-placed-v1"))
    probe = f"sicbo.qry.{TABLE}.bets.history"
    assert await wagers.subscribe("sicbo.qry.*.bets.history", probe, admin)
    await refused(wagers, evt("lc", "round-betting-closed-v1"))
    await refused(wagers, evt("settle", "settle-wagers-settled-v1"))
    # A slip's debit, under its table's round (contracts 1.2.0); never the cashier's entries.
    await appends(wagers, f"sicbo.acct.alice.account-stake-debited-v1.{TABLE}.1")
    await refused(wagers, "sicbo.acct.alice.account-stake-debited-v1")
    await refused(wagers, "sicbo.acct.alice.account-funds-deposited-v1")
    # Cannot take (nor answer) the lifecycle's commands.
    lc_probe = cmd("lifecycle", "dealer")
    assert not await wagers.subscribe("sicbo.cmd.*.lifecycle.*", lc_probe, admin)
    await refused(wagers, lc_probe)


async def test_settlement(connect: Any) -> None:
    settler = await connect("settlement")
    await appends(settler, evt("settle", "settle-round-settled-v1"))
    await api_ok(settler, f"$JS.API.CONSUMER.INFO.{EVENT_STREAM}.settlement")
    next_msg = await settler.publish(
        f"$JS.API.CONSUMER.MSG.NEXT.{EVENT_STREAM}.settlement", b'{"batch":1,"no_wait":true}'
    )
    assert next_msg is not None and (next_msg.headers or {}).get("Status") == "404"
    assert await settler.publish(cmd("lifecycle", "settlement")) is None  # CompleteRound
    for other in ("illumination", "countdown", "supervisor", "dealer"):  # as anyone else
        await refused(settler, cmd("lifecycle", other))
    await refused(settler, f"$JS.API.CONSUMER.INFO.{EVENT_STREAM}.illumination")
    await refused(settler, f"$JS.API.CONSUMER.DELETE.{EVENT_STREAM}.settlement")
    await refused(settler, f"$JS.API.CONSUMER.CREATE.{EVENT_STREAM}.settlement")
    await refused(settler, evt("bets", "bets-slip-placed-v1"))
    await refused(settler, cmd("dice", "reader"))
    await appends(settler, f"sicbo.acct.alice.account-return-credited-v1.{TABLE}.1")
    await refused(settler, f"sicbo.acct.alice.account-stake-debited-v1.{TABLE}.1")  # intake's


async def test_illumination_results_board_and_the_layout_controller(
    connect: Any, admin: NATS
) -> None:
    lamp = await connect("illumination")
    await appends(lamp, evt("lamp", "lamp-illumination-fault-v1"))
    assert await lamp.publish(f"sicbo.layout.{TABLE}.light") is None  # asks the controller
    assert await lamp.publish(cmd("lifecycle", "illumination")) is None  # ReportMalfunction
    for other in ("settlement", "countdown", "inspector"):
        await refused(lamp, cmd("lifecycle", other))
    await refused(lamp, evt("settle", "settle-round-settled-v1"))

    feed = await connect("results")
    await appends(feed, f"sicbo.results.{TABLE}", WRONG_LAST_RESULT)
    await api_ok(feed, f"$JS.API.STREAM.INFO.{RESULTS_STREAM}")
    await refused(feed, evt("lc", "round-started-v1"))
    await refused(feed, f"$JS.API.STREAM.PURGE.{RESULTS_STREAM}")

    board = await connect("board")
    assert await board.subscribe("sicbo.qry.*.stats", f"sicbo.qry.{TABLE}.stats", admin)
    assert await board.publish(f"$JS.API.DIRECT.GET.{EVENT_STREAM}", json.dumps(LOG_READ).encode())
    await refused(board, evt("lc", "round-started-v1"))  # reads, never writes

    layout = await connect("layout")
    probe = f"sicbo.layout.{TABLE}.light"
    assert await layout.subscribe("sicbo.layout.*.light", probe, admin)
    await refused(layout, evt("lamp", "lamp-layout-illuminated-v1"))
    assert not await layout.subscribe("sicbo.cmd.>", cmd("dice", "dealer"), admin)


async def test_the_gateway_forwards_asks_reads_and_watches_but_never_writes(
    connect: Any, admin: NATS
) -> None:
    """The web gateway (sicbo.gateway): what its pages need, on its own inbox prefix."""
    gw = await connect("gateway", inbox_prefix=GATEWAY_INBOX)
    # The pages' commands as the person signed in (nobody serves them here), the board's and
    # the history's queries, and the demo's takeover, each answered on the gateway's inbox.
    for subject in HUMAN_COMMANDS:
        assert await gw.publish(subject) is None, subject
    for query in ("stats", "recall", "bets.history"):
        assert await gw.publish(f"sicbo.qry.{TABLE}.{query}") is None
    for demo in ("takeover", "release", "control"):
        assert await gw.publish(f"sicbo.demo.{TABLE}.{demo}") is None
    # Reads the log (the Direct Get batch of the EventStore) ...
    assert await gw.publish(f"$JS.API.DIRECT.GET.{EVENT_STREAM}", json.dumps(LOG_READ).encode())
    # ... and watches it live (core NATS; the probe goes to a table of its own: it is stored).
    assert await gw.subscribe("sicbo.evt.>", "sicbo.evt.PROBE.lc.0.probe-v1", admin)
    # The players' accounts too: a player's own balance and statement, the cashier's look-ups
    # (each page is told of its own player's entries only: sicbo.gateway.accounts_routes).
    read = {"seq": 1, "next_by_subj": "sicbo.acct.>", "batch": 1}
    assert await gw.publish(f"$JS.API.DIRECT.GET.{ACCOUNT_STREAM}", json.dumps(read).encode())
    assert await gw.subscribe("sicbo.acct.>", "sicbo.acct.probe.probe-v1", admin)
    await refused(gw, "sicbo.acct.alice.account-funds-deposited-v1")  # never an entry
    # It answers (on inboxes only) its ping, and, for a table whose display page is connected
    # in controller mode, the illumination service's light request and the layout ping.
    lamp = await connect("illumination")
    for subject, asker in (
        (f"sicbo.layout.{TABLE}.light", lamp.nc),
        (f"sicbo.layout.{TABLE}.ping", admin),
        ("sicbo.svc.gateway.ping", admin),
    ):

        async def answer(msg: Msg) -> None:
            await msg.respond(b'{"ok":true}')

        sub = await gw.nc.subscribe(subject, cb=answer)
        await flush_sent(gw.nc)
        reply = await asker.request(subject, b"{}", timeout=5)
        assert reply.data == b'{"ok":true}', subject
        await sub.unsubscribe()
    # Its one write: a used launch token's id, create-only (sicbo.gateway.launch_once), read
    # back when a create is refused; the bucket's stream stays out of its reach.
    await api_ok(gw, f"$JS.API.STREAM.INFO.KV_{LAUNCHES_BUCKET}")
    create = {"Nats-Expected-Last-Subject-Sequence": "0"}
    key = f"$KV.{LAUNCHES_BUCKET}.acme.probe-{time.monotonic_ns()}"
    first = await gw.publish(key, headers=create)
    assert first is not None and "error" not in json.loads(first.data), first
    again = await gw.publish(key, headers=create)
    assert again is not None and json.loads(again.data)["error"]["err_code"] == 10071
    # ... as the gateway's own code does it, a second use refused by the server:
    used, launch = LaunchesUsed(), Launch("acme", "p-1", "EUR", f"jti-{key}", time.time() + 60)
    await used.start(gw.nc)
    await used.use(launch, time.time())
    with pytest.raises(LaunchRefused, match="used already"):
        await used.use(launch, time.time())
    await refused(gw, f"$JS.API.STREAM.PURGE.KV_{LAUNCHES_BUCKET}")
    await refused(gw, f"$JS.API.CONSUMER.CREATE.KV_{LAUNCHES_BUCKET}")
    # Never a writer: no event (not even one of the lifecycle it watches), no result, no
    # command to a service no page sends to, no question to a layout controller.
    await refused(gw, "sicbo.evt.t.lc.1.round-started-v1")
    await refused(gw, evt("bets", "bets-slip-placed-v1"))
    await refused(gw, evt("settle", "settle-round-settled-v1"))
    for subject in SERVICE_COMMANDS:  # never as a service: CompleteRound, ReadDice, ...
        await refused(gw, subject)
    await refused(gw, cmd("dice", "inspector"))  # nor to a service a role has nothing for
    await refused(gw, f"sicbo.results.{TABLE}")
    await refused(gw, f"sicbo.layout.{TABLE}.light")
    # No JetStream beyond the reads: no consumer, no deletion, no countdown bucket.
    await refused(gw, f"$JS.API.CONSUMER.CREATE.{EVENT_STREAM}.mine")
    await refused(gw, f"$JS.API.CONSUMER.INFO.{EVENT_STREAM}.settlement")
    await refused(gw, f"$JS.API.STREAM.DELETE.{EVENT_STREAM}")
    await refused(gw, "$KV.sicbo-timers.x")
    # Takes no service's work: neither commands nor queries.
    probe = cmd("lifecycle", "dealer")
    assert not await gw.subscribe("sicbo.cmd.*.lifecycle.*", probe, admin)
    assert not await gw.subscribe("sicbo.qry.*.stats", f"sicbo.qry.{TABLE}.stats", admin)


async def test_accounts(connect: Any, admin: NATS) -> None:
    """The cashier's entries on the accounts' own stream; never a game entry, never a table's
    log; and only the operator sends it commands."""
    accounts = await connect("accounts")
    await appends(accounts, "sicbo.acct.alice.account-funds-deposited-v1")
    assert await accounts.subscribe("sicbo.cmd.*.accounts.*", cmd("accounts", "operator"), admin)
    read = {"seq": 1, "next_by_subj": "sicbo.acct.>", "batch": 1}
    assert await accounts.publish(f"$JS.API.DIRECT.GET.{ACCOUNT_STREAM}", json.dumps(read).encode())
    await refused(accounts, "sicbo.acct.alice.account-stake-debited-v1")  # wager intake's
    await refused(accounts, "sicbo.acct.alice.account-return-credited-v1")  # settlement's
    await refused(accounts, evt("bets", "bets-slip-placed-v1"))
    await refused(accounts, f"$JS.API.DIRECT.GET.{EVENT_STREAM}")  # not a table's log
    await refused(accounts, f"$JS.API.STREAM.PURGE.{ACCOUNT_STREAM}")
    await refused(accounts, cmd("wagers", "operator"))  # sends no commands


async def test_the_operators_tooling_cannot_delete_the_audit_log(connect: Any) -> None:
    floor = await connect("floor")
    info = await api_ok(floor, f"$JS.API.STREAM.INFO.{EVENT_STREAM}")
    assert info["config"]["deny_delete"] and info["config"]["deny_purge"]
    for verb in ("DELETE", "PURGE"):
        await refused(floor, f"$JS.API.STREAM.{verb}.{EVENT_STREAM}")
        await refused(floor, f"$JS.API.STREAM.{verb}.{RESULTS_STREAM}")
        await refused(floor, f"$JS.API.STREAM.{verb}.{ACCOUNT_STREAM}")


# -- the terminals ---------------------------------------------------------------------------

TERMINAL_COMMANDS = {
    "dealer": ("lifecycle", "dice", "wagers"),
    "supervisor": ("lifecycle", "dice", "wagers"),  # wagers: a second colour (000 §3.8)
    "inspector": ("lifecycle",),
    "operator": ("lifecycle", "wagers", "accounts"),  # accounts: the cashier
    "reader": ("dice",),  # an automatic dice reader: its readings
}


@pytest.mark.parametrize("role", list(TERMINAL_COMMANDS))
async def test_a_terminal_sends_as_its_own_role_only(connect: Any, admin: NATS, role: str) -> None:
    """Its own role's subjects; another role's, a service's, or its own to a service that
    takes nothing from it are refused by the server (DESIGN.md Roles)."""
    terminal = await connect(role, inbox_prefix=f"_INBOX.{role}")
    for sender in (*TERMINAL_COMMANDS, "player", "settlement", "illumination", "countdown"):
        for service in ("lifecycle", "dice", "wagers", "accounts"):
            subject = cmd(service, sender)
            if sender == role and service in TERMINAL_COMMANDS[role]:
                assert await terminal.publish(subject) is None  # allowed; nobody serves it here
            else:
                await refused(terminal, subject)
    # Commands only: no event, no JetStream API (not even a read of the log), no snooping.
    await refused(terminal, evt("lc", "round-started-v1"))
    await refused(terminal, f"$JS.API.STREAM.DELETE.{EVENT_STREAM}")
    await refused(terminal, f"$JS.API.DIRECT.GET.{EVENT_STREAM}")
    assert not await terminal.subscribe("_INBOX.>", "_INBOX.elsewhere.1", admin)
    assert not await terminal.subscribe("sicbo.cmd.>", cmd("lifecycle", role), admin)


async def test_a_terminal_reads_replies_only_on_its_own_inbox_prefix(
    connect: Any, admin: NATS
) -> None:
    """A dealer that connects with the default inbox prefix gets no reply: the server refuses
    the reply subscription (``_INBOX.dealer.>`` is the dealer's, ``_INBOX.>`` is not)."""

    async def answer(msg: Msg) -> None:
        await msg.respond(b"ok")

    subject = cmd("dice", "dealer")
    echo = await admin.subscribe(subject, cb=answer)
    try:
        right = await connect("dealer", inbox_prefix="_INBOX.dealer")
        reply = await right.publish(subject)
        assert reply is not None and reply.data == b"ok"
        wrong = await connect("dealer")
        with pytest.raises((NatsTimeoutError, Refused)):
            await wrong.nc.request(subject, b"{}", timeout=0.5)
        assert any('subscription to "_inbox.' in e for e in wrong.errors), wrong.errors
    finally:
        await echo.unsubscribe()


def test_the_server_logs_each_refusal_with_the_user(server_dir: Path) -> None:
    expected = {
        *("lifecycle", "dice", "wagers", "settlement", "illumination", "gateway", "floor"),
        *("dealer", "supervisor", "inspector", "operator", "reader"),
    }
    who: set[str] = set()
    deadline = time.monotonic() + 30  # the server writes its log as it goes (slowly under load)
    while not who >= expected and time.monotonic() < deadline:
        log = (server_dir / "store" / "nats-server.log").read_text(errors="replace")
        violations = [line for line in log.splitlines() if "Violation" in line]
        who = {
            m.group(1) for line in violations if (m := re.search(r'"FLOOR/user:([\w-]+)"', line))
        }
        if not who >= expected:
            time.sleep(0.2)
    assert who >= expected, expected - who
