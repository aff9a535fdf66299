"""The NATS permissions in deploy/ allow and refuse what they should, on a real server.

The accounts are written once (services/sicbo/infra/nats_accounts.py) and rendered into
deploy/nats/accounts.conf (included by floor.conf) and deploy/nats-helm/values.yaml. Both are
checked fresh, then each is run by a nats-server of its own: floor.conf as it is, and the
Helm values' accounts rendered the way the chart renders them (JSON, ``<< $VAR >>`` unquoted).
Every service user and terminal role connects, does a representative thing it needs, and is
refused a representative thing it must not do. Refusals are the server's own ("Permissions
Violation"), and the server's log names the account and user of each.

That the permissions are *enough* for the real services is shown elsewhere: the cluster test
(tests/cluster/test_cluster.py) runs the services as these users and finds no violation.
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

from sicbo.infra import nats_config
from sicbo_contracts.subjects import EVENT_STREAM, GATEWAY_INBOX, RESULTS_STREAM
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


LOG_READ = {"seq": 1, "next_by_subj": "sicbo.evt.>", "batch": 1}


# -- the services ----------------------------------------------------------------------------


async def test_lifecycle(connect: Any, admin: NATS) -> None:
    lc = await connect("lifecycle")
    await appends(lc, evt("lc", "round-started-v1"))
    assert await lc.subscribe("sicbo.cmd.*.lifecycle", f"sicbo.cmd.{TABLE}.lifecycle", admin)
    await api_ok(lc, "$JS.API.STREAM.INFO.KV_sicbo-timers")  # the countdown's bucket
    assert await lc.publish(f"$JS.API.DIRECT.GET.{EVENT_STREAM}", json.dumps(LOG_READ).encode())
    await refused(lc, evt("lc", "dice-result-confirmed-v1"))  # the dice service's event
    await refused(lc, evt("settle", "settle-round-settled-v1"))
    await refused(lc, f"$JS.API.STREAM.DELETE.{EVENT_STREAM}")
    await refused(lc, f"$JS.API.CONSUMER.CREATE.{EVENT_STREAM}.mine")
    assert not await lc.subscribe("sicbo.cmd.*.wagers", f"sicbo.cmd.{TABLE}.wagers", admin)


async def test_dice(connect: Any, admin: NATS) -> None:
    dice = await connect("dice")
    await appends(dice, evt("lc", "dice-result-confirmed-v1"))
    assert await dice.subscribe("sicbo.cmd.*.dice", f"sicbo.cmd.{TABLE}.dice", admin)
    await refused(dice, evt("lc", "round-completed-v1"))  # the lifecycle's event
    await refused(dice, f"sicbo.cmd.{TABLE}.lifecycle")  # sends no commands
    await refused(dice, "$JS.API.STREAM.PURGE.KV_sicbo-timers")


async def test_wagers(connect: Any, admin: NATS) -> None:
    wagers = await connect("wagers")
    await appends(wagers, evt("bets", "bets-slip-placed-v1"))
    probe = f"sicbo.qry.{TABLE}.bets.history"
    assert await wagers.subscribe("sicbo.qry.*.bets.history", probe, admin)
    await refused(wagers, evt("lc", "round-betting-closed-v1"))
    await refused(wagers, evt("settle", "settle-wagers-settled-v1"))
    # Cannot take (nor answer) the lifecycle's commands.
    lc_probe = f"sicbo.cmd.{TABLE}.lifecycle"
    assert not await wagers.subscribe("sicbo.cmd.*.lifecycle", lc_probe, admin)
    await refused(wagers, f"sicbo.cmd.{TABLE}.lifecycle")


async def test_settlement(connect: Any) -> None:
    settler = await connect("settlement")
    await appends(settler, evt("settle", "settle-round-settled-v1"))
    await api_ok(settler, f"$JS.API.CONSUMER.INFO.{EVENT_STREAM}.settlement")
    next_msg = await settler.publish(
        f"$JS.API.CONSUMER.MSG.NEXT.{EVENT_STREAM}.settlement", b'{"batch":1,"no_wait":true}'
    )
    assert next_msg is not None and (next_msg.headers or {}).get("Status") == "404"
    assert await settler.publish(f"sicbo.cmd.{TABLE}.lifecycle") is None  # CompleteRound
    await refused(settler, f"$JS.API.CONSUMER.INFO.{EVENT_STREAM}.illumination")
    await refused(settler, f"$JS.API.CONSUMER.DELETE.{EVENT_STREAM}.settlement")
    await refused(settler, f"$JS.API.CONSUMER.CREATE.{EVENT_STREAM}.settlement")
    await refused(settler, evt("bets", "bets-slip-placed-v1"))
    await refused(settler, f"sicbo.cmd.{TABLE}.dice")


async def test_illumination_results_board_and_the_layout_controller(
    connect: Any, admin: NATS
) -> None:
    lamp = await connect("illumination")
    await appends(lamp, evt("lamp", "lamp-illumination-fault-v1"))
    assert await lamp.publish(f"sicbo.layout.{TABLE}.light") is None  # asks the controller
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
    assert not await layout.subscribe("sicbo.cmd.>", f"sicbo.cmd.{TABLE}.dice", admin)


async def test_the_gateway_forwards_asks_reads_and_watches_but_never_writes(
    connect: Any, admin: NATS
) -> None:
    """The web gateway (sicbo.gateway): what its pages need, on its own inbox prefix."""
    gw = await connect("gateway", inbox_prefix=GATEWAY_INBOX)
    # The pages' commands (nobody serves them here), the board's and the history's queries,
    # and the demo's takeover, each a request answered on the gateway's inbox.
    for service in ("lifecycle", "dice", "wagers"):
        assert await gw.publish(f"sicbo.cmd.{TABLE}.{service}") is None
    for query in ("stats", "recall", "bets.history"):
        assert await gw.publish(f"sicbo.qry.{TABLE}.{query}") is None
    for demo in ("takeover", "release", "control"):
        assert await gw.publish(f"sicbo.demo.{TABLE}.{demo}") is None
    # Reads the log (the Direct Get batch of the EventStore) ...
    assert await gw.publish(f"$JS.API.DIRECT.GET.{EVENT_STREAM}", json.dumps(LOG_READ).encode())
    # ... and watches it live (core NATS; the probe goes to a table of its own: it is stored).
    assert await gw.subscribe("sicbo.evt.>", "sicbo.evt.PROBE.lc.0.probe-v1", admin)
    # It answers (allow_responses) its ping, and, for a table whose display page is connected
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
        await gw.nc.flush()
        reply = await asker.request(subject, b"{}", timeout=5)
        assert reply.data == b'{"ok":true}', subject
        await sub.unsubscribe()
    # Never a writer: no event (not even one of the lifecycle it watches), no result, no
    # command to a service no page sends to, no question to a layout controller.
    await refused(gw, "sicbo.evt.t.lc.1.round-started-v1")
    await refused(gw, evt("bets", "bets-slip-placed-v1"))
    await refused(gw, evt("settle", "settle-round-settled-v1"))
    await refused(gw, f"sicbo.cmd.{TABLE}.settlement")
    await refused(gw, f"sicbo.cmd.{TABLE}.illumination")
    await refused(gw, f"sicbo.results.{TABLE}")
    await refused(gw, f"sicbo.layout.{TABLE}.light")
    # No JetStream beyond the reads: no consumer, no deletion, no countdown bucket.
    await refused(gw, f"$JS.API.CONSUMER.CREATE.{EVENT_STREAM}.mine")
    await refused(gw, f"$JS.API.CONSUMER.INFO.{EVENT_STREAM}.settlement")
    await refused(gw, f"$JS.API.STREAM.DELETE.{EVENT_STREAM}")
    await refused(gw, "$KV.sicbo-timers.x")
    # Takes no service's work: neither commands nor queries.
    assert not await gw.subscribe("sicbo.cmd.*.lifecycle", f"sicbo.cmd.{TABLE}.lifecycle", admin)
    assert not await gw.subscribe("sicbo.qry.*.stats", f"sicbo.qry.{TABLE}.stats", admin)


async def test_the_operators_tooling_cannot_delete_the_audit_log(connect: Any) -> None:
    floor = await connect("floor")
    info = await api_ok(floor, f"$JS.API.STREAM.INFO.{EVENT_STREAM}")
    assert info["config"]["deny_delete"] and info["config"]["deny_purge"]
    for verb in ("DELETE", "PURGE"):
        await refused(floor, f"$JS.API.STREAM.{verb}.{EVENT_STREAM}")
        await refused(floor, f"$JS.API.STREAM.{verb}.{RESULTS_STREAM}")


# -- the terminals ---------------------------------------------------------------------------

TERMINAL_COMMANDS = {
    "dealer": ("lifecycle", "dice", "wagers"),
    "supervisor": ("lifecycle", "dice"),
    "inspector": ("lifecycle",),
    "operator": ("lifecycle", "wagers"),
}


@pytest.mark.parametrize("role", list(TERMINAL_COMMANDS))
async def test_a_terminal_sends_its_commands_and_nothing_else(
    connect: Any, admin: NATS, role: str
) -> None:
    terminal = await connect(role, inbox_prefix=f"_INBOX.{role}")
    for service in ("lifecycle", "dice", "wagers"):
        subject = f"sicbo.cmd.{TABLE}.{service}"
        if service in TERMINAL_COMMANDS[role]:
            assert await terminal.publish(subject) is None  # allowed; nobody serves it here
        else:
            await refused(terminal, subject)
    # Commands only: no event, no JetStream API (not even a read of the log), no snooping.
    await refused(terminal, evt("lc", "round-started-v1"))
    await refused(terminal, f"$JS.API.STREAM.DELETE.{EVENT_STREAM}")
    await refused(terminal, f"$JS.API.DIRECT.GET.{EVENT_STREAM}")
    assert not await terminal.subscribe("_INBOX.>", "_INBOX.elsewhere.1", admin)
    assert not await terminal.subscribe("sicbo.cmd.>", f"sicbo.cmd.{TABLE}.lifecycle", admin)


async def test_a_terminal_reads_replies_only_on_its_own_inbox_prefix(
    connect: Any, admin: NATS
) -> None:
    """A dealer that connects with the default inbox prefix gets no reply: the server refuses
    the reply subscription (``_INBOX.dealer.>`` is the dealer's, ``_INBOX.>`` is not)."""

    async def answer(msg: Msg) -> None:
        await msg.respond(b"ok")

    echo = await admin.subscribe(f"sicbo.cmd.{TABLE}.dice", cb=answer)
    try:
        right = await connect("dealer", inbox_prefix="_INBOX.dealer")
        reply = await right.publish(f"sicbo.cmd.{TABLE}.dice")
        assert reply is not None and reply.data == b"ok"
        wrong = await connect("dealer")
        with pytest.raises((NatsTimeoutError, Refused)):
            await wrong.nc.request(f"sicbo.cmd.{TABLE}.dice", b"{}", timeout=0.5)
        assert any('subscription to "_inbox.' in e for e in wrong.errors), wrong.errors
    finally:
        await echo.unsubscribe()


def test_the_server_logs_each_refusal_with_the_user(server_dir: Path) -> None:
    expected = {
        *("lifecycle", "dice", "wagers", "settlement", "gateway", "dealer", "inspector", "floor")
    }
    who: set[str] = set()
    deadline = time.monotonic() + 10  # the server writes its log as it goes: give it a moment
    while not who >= expected and time.monotonic() < deadline:
        log = (server_dir / "store" / "nats-server.log").read_text(errors="replace")
        violations = [line for line in log.splitlines() if "Violation" in line]
        who = {
            m.group(1) for line in violations if (m := re.search(r'"FLOOR/user:([\w-]+)"', line))
        }
        if not who >= expected:
            time.sleep(0.2)
    assert who >= expected, expected - who
