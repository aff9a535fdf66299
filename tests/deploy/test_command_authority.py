"""A command's authority is its sender's NATS credential, never its payload (DESIGN.md Roles;
000 §5.6: no one but the dealer or a supervisor operates the game's equipment),
on a server with the floor's accounts (each generated configuration) and the lifecycle, dice
capture, wager intake and the players' accounts running as their own users (``NATS_USER`` /
``NATS_PASSWORD_FILE``).

What outside testers did with the ``dealer`` user (13 commands claiming supervisor, inspector
or service, all accepted) is refused both ways: on the claimed role's subject by the server
(a permission violation: the dealer may publish on ``sicbo.cmd.*.<service>.dealer`` only), on
the dealer's own subject by the service ("forbidden" at ``$.actor.role``), and nothing is
appended. So a fake reader cannot hold a result, nor a fake settlement complete a round before
it is paid (002 art. 4).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from nats.aio.client import Client as NATS
from nats.errors import NoRespondersError
from nats.errors import TimeoutError as NatsTimeoutError

from sicbo.eventstore.store import EventStore
from sicbo.infra.nats_accounts import users
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.infra.processes import ServiceProcess
from sicbo_contracts.accounts import DepositFunds, OpenAccount, PlayerAccountCommand
from sicbo_contracts.base import Actor, Command, Limits, Role, tag_of
from sicbo_contracts.dice import ConfirmResult, EnterDice, ReadDice, ResolveHeldResult
from sicbo_contracts.lifecycle import (
    ClearFault,
    CloseBetting,
    CompleteRound,
    InvalidateRound,
    InvalidationReason,
    OpenBetting,
    OpenTable,
    ReportMalfunction,
    StartRound,
    TableConfig,
    TakeSeat,
    Uncover,
)
from sicbo_contracts.replies import Accepted, Rejected, Reply
from sicbo_contracts.routing import SERVICE_OF_TAG
from sicbo_contracts.subjects import (
    ACCOUNT_STREAM,
    EVENT_STREAM,
    GATEWAY_INBOX,
    account_filter,
    command,
    layout_ping,
    parse_event_subject,
    table_filter,
)
from tests.deploy.nats_users import PASSWORDS, As, Refused

SERVICES = ("lifecycle", "dice", "wagers", "accounts")
#: 000 §2.3: lamps required; no illumination service runs here, so nothing asks them.
CONFIG = TableConfig(
    profile="cca-1992", limits=Limits(minimum=100, maximum=10_000, unit=10), layout_controller=True
)
FIRE = InvalidationReason.FIRE
_reply = msgspec.json.Decoder(Reply)
_n = iter(range(1_000_000))


def new_id() -> str:
    return f"auth-{next(_n)}-{time.monotonic_ns()}"


def tokens(subject: str) -> str:
    parsed = parse_event_subject(subject)
    assert parsed is not None
    return parsed.token


def by(role: Role, name: str = "") -> Actor:
    return Actor(id=name or f"{role.value}-1", role=role)


def password_file(directory: Path, user: str) -> Path:
    path = directory / f"{user}.password"
    path.write_text(PASSWORDS[users()[user].password_env] + "\n")
    return path


def as_user(directory: Path, user: str) -> dict[str, str]:
    """The environment a workload has in production: its user, its password in a file."""
    return {"NATS_USER": user, "NATS_PASSWORD_FILE": str(password_file(directory, user))}


@pytest.fixture(scope="module")
async def floor(
    server: LocalNatsServer, admin: NATS, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Path]:
    """The command services as processes, each as its own NATS user; a directory for files."""
    logs = tmp_path_factory.mktemp("authority")
    url = f"nats://127.0.0.1:{server.port}"
    procs = [
        ServiceProcess(s, url, log_path=logs / f"{s}.log", env=as_user(logs, s)).start()
        for s in SERVICES
    ]
    try:
        for proc in procs:
            await answering(admin, command("PROBE", proc.service, "dealer"), proc)
        yield logs
    finally:
        for proc in procs:
            proc.stop()


async def answering(nc: NATS, subject: str, proc: ServiceProcess, seconds: float = 60) -> None:
    """Until the process answers on ``subject`` (its commands are subscribed)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert proc.proc is not None and proc.proc.poll() is None, f"{proc.service} exited"
        try:
            await nc.request(subject, b"{}", timeout=1)
            return
        except (NoRespondersError, NatsTimeoutError):
            await asyncio.sleep(0.2)
    pytest.fail(f"{proc.service} does not answer on {subject}")


async def send(who: As, cmd: Command | PlayerAccountCommand, sender: str) -> Reply:
    """``cmd`` on ``sender``'s subject of its service; raises Refused if the server refuses."""
    subject = command(cmd.key, SERVICE_OF_TAG[tag_of(cmd)], sender)
    msg = await who.publish(subject, msgspec.json.encode(cmd))
    assert msg is not None, f"no service answers on {subject}"
    return _reply.decode(msg.data)


async def accepted(who: As, cmd: Command | PlayerAccountCommand, sender: str) -> None:
    reply = await send(who, cmd, sender)
    assert isinstance(reply, Accepted), (cmd, reply)


async def forbidden(who: As, cmd: Command, sender: str, store: EventStore) -> Rejected:
    """Refused by the service, at ``$.actor.role``, and nothing appended to the table's log."""
    before = await store.last_sequence(table_filter(cmd.table))
    reply = await send(who, cmd, sender)
    assert isinstance(reply, Rejected), (cmd, reply)
    assert (reply.code, reply.field) == ("forbidden", "$.actor.role"), reply
    assert await store.last_sequence(table_filter(cmd.table)) == before
    return reply


async def open_table(operator: As, table: str) -> None:
    open_it = OpenTable(command_id=new_id(), table=table, actor=by(Role.OPERATOR), config=CONFIG)
    await accepted(operator, open_it, "operator")


def claims(table: str) -> list[tuple[str, Command]]:
    """What the testers sent as ``dealer``: (the sender claimed, a command of that sender's)."""
    service = by(Role.SERVICE, "svc")
    supervisor, inspector = by(Role.SUPERVISOR), by(Role.INSPECTOR)

    def c(cls: Callable[..., Command], actor: Actor, **fields: Any) -> Command:
        return cls(command_id=new_id(), table=table, actor=actor, **fields)

    return [
        ("reader", c(ReadDice, service, round=1, dice=(6, 6, 6))),  # a fake automatic reader
        ("settlement", c(CompleteRound, service, round=1)),  # 002 art. 4: before settlement
        ("illumination", c(ReportMalfunction, service, equipment="lamp", detail="fake")),
        ("countdown", c(CloseBetting, service, round=1)),
        ("supervisor", c(ResolveHeldResult, supervisor, round=1, dice=(6, 6, 6), reason="x")),
        ("supervisor", c(InvalidateRound, supervisor, round=1, reason=FIRE, detail="fake")),
        ("inspector", c(ClearFault, inspector, detail="fake")),
        ("operator", c(OpenTable, by(Role.OPERATOR), config=CONFIG)),
    ]


async def test_a_dealer_claiming_another_role_is_refused_both_ways_and_its_own_commands_pass(
    floor: Path, connect: Any, admin: NATS
) -> None:
    table = f"A{time.monotonic_ns() % 10**9}"
    store = EventStore(admin, EVENT_STREAM)
    dealer = await connect("dealer", inbox_prefix="_INBOX.dealer")
    await open_table(await connect("operator", inbox_prefix="_INBOX.operator"), table)
    me = by(Role.DEALER)
    for step in (
        StartRound(command_id=new_id(), table=table, actor=me, round=1, tumbles=3),
        OpenBetting(command_id=new_id(), table=table, actor=me, round=1),
        CloseBetting(command_id=new_id(), table=table, actor=me, round=1),
        Uncover(command_id=new_id(), table=table, actor=me, round=1),
        EnterDice(command_id=new_id(), table=table, actor=me, round=1, dice=(1, 2, 3)),
    ):
        await accepted(dealer, step, "dealer")
    for claimed, cmd in claims(table):
        with pytest.raises(Refused):  # the server: the dealer may not publish there
            await send(dealer, cmd, claimed)
        reply = await forbidden(dealer, cmd, "dealer", store)  # the service: not the sender's
        assert f"actor.role {cmd.actor.role.value!r} is not the sender's" in reply.reason
    # Its own role, on its own subject, but another role's command (000 §8.4: a supervisor's).
    invalidate = InvalidateRound(
        command_id=new_id(), table=table, actor=me, round=1, reason=FIRE, detail="x"
    )
    reply = await forbidden(dealer, invalidate, "dealer", store)
    assert "a dealer may not send round.invalidate.v1" in reply.reason
    # The dealer's entry stands: no fake reading held it. The round is not completed (nobody
    # settled it), so the next round may not start (002 art. 4).
    confirm = ConfirmResult(command_id=new_id(), table=table, actor=me, round=1)
    await accepted(dealer, confirm, "dealer")
    types = {tokens(e.subject) for e in await store.read(table_filter(table))}
    assert "dice-result-held-v1" not in types and "dice-read-v1" not in types
    assert "round-completed-v1" not in types
    second = StartRound(command_id=new_id(), table=table, actor=me, round=2, tumbles=3)
    reply = await send(dealer, second, "dealer")
    assert isinstance(reply, Rejected) and "002 art. 4" in reply.reason, reply


async def test_a_supervisor_sends_no_service_command(
    floor: Path, connect: Any, admin: NATS
) -> None:
    table = f"S{time.monotonic_ns() % 10**9}"
    store = EventStore(admin, EVENT_STREAM)
    supervisor = await connect("supervisor", inbox_prefix="_INBOX.supervisor")
    await open_table(await connect("operator", inbox_prefix="_INBOX.operator"), table)
    for claimed, cmd in claims(table)[:4]:  # the service accounts' commands
        with pytest.raises(Refused):
            await send(supervisor, cmd, claimed)
        await forbidden(supervisor, cmd, "supervisor", store)  # claiming the service role
        as_itself = msgspec.structs.replace(cmd, actor=by(Role.SUPERVISOR))
        if tag_of(cmd) != "table.report-malfunction.v1":  # a supervisor may report one itself
            reply = await forbidden(supervisor, as_itself, "supervisor", store)
            assert f"a supervisor may not send {tag_of(cmd)}" in reply.reason


async def test_the_gateway_sends_as_the_human_roles_only(
    floor: Path, connect: Any, admin: NATS
) -> None:
    table = f"G{time.monotonic_ns() % 10**9}"
    store = EventStore(admin, EVENT_STREAM)
    gateway = await connect("gateway", inbox_prefix=GATEWAY_INBOX)
    await open_table(gateway, table)  # as the operator signed in
    seat = TakeSeat(command_id=new_id(), table=table, actor=by(Role.DEALER), player="p1", seat=1)
    await accepted(gateway, seat, "dealer")
    for claimed, cmd in claims(table)[:4]:  # never as a service ...
        with pytest.raises(Refused):
            await send(gateway, cmd, claimed)
        await forbidden(gateway, cmd, "dealer", store)  # ... nor a service's payload as a person


async def test_only_the_operators_cashier_moves_a_players_money(
    floor: Path, connect: Any, admin: NATS
) -> None:
    """The accounts service as its own user: the operator's commands are taken; a dealer may
    not even publish on the cashier's subject; the operator claiming another role is refused
    by the service; nothing of theirs is appended."""
    player = f"P{time.monotonic_ns() % 10**9}"
    accounts = EventStore(admin, ACCOUNT_STREAM)
    operator = await connect("operator", inbox_prefix="_INBOX.operator")
    cashier = by(Role.OPERATOR, "cashier-1")
    opened = OpenAccount(command_id=new_id(), player=player, actor=cashier, currency="EUR")
    await accepted(operator, opened, "operator")
    deposit = DepositFunds(
        command_id=new_id(), player=player, actor=cashier, amount=500, currency="EUR"
    )
    await accepted(operator, deposit, "operator")
    before = await accounts.last_sequence(account_filter(player))
    dealer = await connect("dealer", inbox_prefix="_INBOX.dealer")
    as_dealer = msgspec.structs.replace(deposit, command_id=new_id(), actor=by(Role.DEALER))
    for sender in ("operator", "dealer"):
        with pytest.raises(Refused):  # the server: the dealer may send no account's command
            await send(dealer, as_dealer, sender)
    reply = await send(operator, as_dealer, "operator")  # the service: not the sender's role
    assert isinstance(reply, Rejected) and (reply.code, reply.field) == (
        "forbidden",
        "$.actor.role",
    )
    assert await accounts.last_sequence(account_filter(player)) == before
    assert len(await accounts.read(account_filter(player))) == 2  # opened, deposited


async def test_sicbo_send_and_the_layout_controller_connect_as_the_environments_user(
    floor: Path, server: LocalNatsServer, admin: NATS
) -> None:
    """``sicbo send`` sends as its command's actor.role, and says so; a user that may not send
    as that role gets no answer (the server refuses). ``sicbo layout-controller`` takes
    ``NATS_USER`` / ``NATS_PASSWORD_FILE`` too."""
    url, table = f"nats://127.0.0.1:{server.port}", f"C{time.monotonic_ns() % 10**9}"
    open_it = OpenTable(command_id=new_id(), table=table, actor=by(Role.OPERATOR), config=CONFIG)
    body, operator = msgspec.json.encode(open_it).decode(), as_user(floor, "operator")
    ok = cli(["send", table, body, "--nats", url], operator)
    assert ok.returncode == 0, ok.stderr
    assert f"sending as operator (the command's actor.role) on sicbo.cmd.{table}" in ok.stderr
    claim = body.replace('"role":"operator"', '"role":"supervisor"')
    refused = cli(["send", table, claim, "--nats", url, "--timeout", "1"], operator)
    assert refused.returncode == 2 and "may not send as supervisor" in refused.stderr
    assert all(p not in ok.stderr + refused.stderr for p in PASSWORDS.values())

    with layout_controller(table, url, as_user(floor, "layout")):
        deadline = time.monotonic() + 30
        while True:
            try:
                assert (await admin.request(layout_ping(table), b"", timeout=1)).data
                break
            except (NoRespondersError, NatsTimeoutError):
                assert time.monotonic() < deadline, "the layout controller never answered"
                await asyncio.sleep(0.2)


def cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "sicbo.cli.main", *args],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **env},
    )


class _Controller(ServiceProcess):
    """``sicbo layout-controller TABLE`` as a process, stopped by its PID."""

    def __init__(self, table: str, url: str, env: dict[str, str]) -> None:
        super().__init__("layout", url, env=env)
        self.table = table

    def argv(self) -> list[str]:
        return [*super().argv()[:3], "layout-controller", self.table, "--nats", self.nats_url]


@contextlib.contextmanager
def layout_controller(table: str, url: str, env: dict[str, str]) -> Iterator[None]:
    proc = _Controller(table, url, env).start()
    try:
        yield
    finally:
        proc.stop()
