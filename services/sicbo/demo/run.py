"""``make run``: a local nats-server, the services as processes, and the demo floor.

The server runs the floor's accounts, as production does (:mod:`sicbo.infra.local_accounts`):
each process connects as its own user, the demo's dealer, supervisor, inspector and operator
as theirs. Everything started here is stopped here, by PID, when the floor is stopped (Ctrl-C).
"""

import asyncio
import contextlib
import logging
import random
import signal
import socket
from collections.abc import Awaitable, Callable
from pathlib import Path

import msgspec
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from rich.console import Console

from sicbo.demo.client import FloorClient
from sicbo.demo.control import TableControl
from sicbo.demo.dealer import RoundLine, SimulatedDealer
from sicbo.demo.launch_keys import DEMO_OPERATOR, create_demo_launch, key_file
from sicbo.demo.launched import LaunchedPlayers
from sicbo.demo.local_floor import ROLE_USERS, connect, start_processes
from sicbo.demo.players import SimulatedPlayers
from sicbo.demo.tables import DEMO_CURRENCY, DEMO_TABLES, DemoTable
from sicbo.demo.wallets import open_demo_accounts, opened_without_currency
from sicbo.gateway.server_process import GatewayProcess
from sicbo.infra.local_accounts import create as create_accounts
from sicbo.infra.nats_server import LocalNatsServer, free_port
from sicbo.infra.processes import ServiceProcess, watch_exits
from sicbo.infra.replies import answer, misdirected
from sicbo.provisioning import provision
from sicbo.results.partners import partner_copy
from sicbo_contracts.base import DECODE_ERRORS, Role
from sicbo_contracts.demo import TakeoverRequest
from sicbo_contracts.subjects import DemoAsk, demo

_takeover = msgspec.json.Decoder(TakeoverRequest)

log = logging.getLogger(__name__)


def print_line(console: Console, line: RoundLine) -> None:
    if line.dice is None:
        outcome = f"[yellow]{line.basis:<14}[/]"
    else:
        a, b, c = line.dice
        outcome = f"[bold]{a} {b} {c}[/] total {a + b + c:>2}"
    house = line.staked - line.returned
    console.print(
        f"[cyan]{line.table:<12}[/] #{line.round:<4} {outcome} "
        f"wagers {line.wagers:>2}  staked {line.staked:>7,}  returned {line.returned:>7,}  "
        f"house {house:>+7,}",
        soft_wrap=True,
    )


def stop_on_signals(*also: Callable[[], None]) -> None:
    """SIGINT (Ctrl-C) and SIGTERM cancel the floor, so the ``finally`` below stops every
    process it started, even where SIGINT was inherited as ignored (a background job); ``also``
    runs first (the simulated dealers' stop: a lone cancellation can be lost)."""
    loop = asyncio.get_running_loop()
    task = asyncio.current_task()
    assert task is not None

    def stop() -> None:
        for callback in also:
            callback()
        task.cancel()

    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop)


#: The demo operator list's sign-ins (services/sicbo/gateway/operators.toml holds them hashed).
DEMO_SIGN_INS = (
    ("ana", "1111", "dealer"),
    ("ben", "2222", "dealer"),
    ("sofia", "3333", "supervisor"),
    ("sam", "6666", "supervisor"),  # a second supervisor: dual control
    ("ivan", "4444", "inspector"),
    ("omar", "5555", "operator"),
)


def console_notice(console: Console) -> Callable[[str], None]:
    return lambda text: console.print(text, style="bold red", soft_wrap=True, markup=False)


async def stop_task(task: asyncio.Future[None]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


def port_or_free(preferred: int) -> int:
    """``preferred`` if nothing listens there on 127.0.0.1, else a free port."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        try:
            s.bind(("127.0.0.1", preferred))
        except OSError:
            return free_port()
    return preferred


def simulated_table(
    client: FloorClient,
    demo: DemoTable,
    report: Callable[[RoundLine], None],
    *,
    seed: int | None = None,
    betting_seconds: float = 1.5,
    no_result_every: int = 12,
    notice: Callable[[str], None] | None = None,
    inspector_seconds: float = 4.0,
    dealer: type[SimulatedDealer] = SimulatedDealer,
    launched: LaunchedPlayers | None = None,
) -> SimulatedDealer:
    """A demo table's simulated dealer, with its players and its control (who plays it), one
    random source for both dealer and players (a seed replays the same rounds). ``dealer``: a
    subclass may stand in (one that reads again, say). ``launched``: the players bet as
    launched players, through the web gateway (the online table's)."""
    rng = random.Random(seed)
    return dealer(
        client,
        demo,
        report,
        control=TableControl(client, demo.table, notice),
        players=SimulatedPlayers(client, demo, rng, launched),
        rng=rng,
        betting_seconds=betting_seconds,
        no_result_every=no_result_every,
        notice=notice,
        inspector_seconds=inspector_seconds,
    )


async def answer_takeovers(nc: NATS, tables: list[TableControl]) -> None:
    """The web terminal's "take over", "hand back" and "who plays" (sicbo_contracts.demo)."""
    for control in tables:

        async def on_takeover(msg: Msg, control: TableControl = control) -> None:
            if misdirected(msg):
                return
            try:
                request = _takeover.decode(msg.data)
            except DECODE_ERRORS:
                return
            await answer(msg, msgspec.json.encode(control.take_over(request.by)))

        async def on_release(msg: Msg, control: TableControl = control) -> None:
            if not misdirected(msg):
                await answer(msg, msgspec.json.encode(control.hand_back()))

        async def on_control(msg: Msg, control: TableControl = control) -> None:
            await answer(msg, msgspec.json.encode(control.who_plays()))

        await nc.subscribe(demo(control.table, DemoAsk.TAKEOVER), cb=on_takeover)
        await nc.subscribe(demo(control.table, DemoAsk.RELEASE), cb=on_release)
        await nc.subscribe(demo(control.table, DemoAsk.CONTROL), cb=on_control)


async def run_floor(
    data_dir: Path,
    port: int,
    console: Console,
    *,
    demo: bool = True,
    web_port: int = 8080,
    operators: Path | None = None,
    demo_operators: bool = False,
) -> None:
    """The floor on its accounts (:mod:`sicbo.infra.local_accounts`). The web gateway signs in
    the operators of ``operators``, else the demo ones when ``demo`` or ``demo_operators``
    (their PINs are public; players then sign in by a bare id); neither: no gateway."""
    stop_on_signals()
    accounts = create_accounts(data_dir)
    server = LocalNatsServer(
        data_dir / "nats", port=port, config_file=accounts.config, env=accounts.server_env()
    )
    with server:
        console.print(f"nats-server pid {server.pid} on [bold]{server.url}[/] (data in {data_dir})")
        nc = await connect(server.url, accounts, "floor")
        opened: list[NATS] = [nc]
        processes: list[ServiceProcess] = []
        closing: list[Callable[[], Awaitable[None]]] = []
        try:
            # As the operator's tooling (user floor); the demo's own data from an older
            # floor gets the settings a newer one turns on (heartbeats' TTL).
            report = await provision(nc, upgrade=True)
            report.raise_for_conflicts()
            # The partners' copy of the feed, as in production (`sicbo results copy`).
            opened.append(admin := await connect(server.url, accounts, "partners-admin"))
            copy = await provision(admin, resources=[partner_copy()], upgrade=True)
            copy.raise_for_conflicts()
            logs = data_dir / "logs"
            logs.mkdir(parents=True, exist_ok=True)
            demo_sign_ins = operators is None and (demo or demo_operators)
            port = port_or_free(web_port)
            gateway = (
                GatewayProcess(
                    server.url,
                    port,
                    operators=operators,
                    demo_players=demo_sign_ins,  # the demo floor: a player is whoever they say
                    # ... or whom the demo operator launches (a key pair new at each start)
                    launch_operators=create_demo_launch(data_dir) if demo_sign_ins else None,
                    # ... from the demo operator's page, the cashier's (sicbo.gateway.demo_launch)
                    demo_launch_key=key_file(data_dir) if demo_sign_ins else None,
                    # The address it prints, and the same port by name: no other Host or
                    # Origin is served (a DNS-rebound name reads and changes nothing).
                    origins=(f"http://127.0.0.1:{port}", f"http://localhost:{port}"),
                    log_path=logs / "gateway.log",
                )
                if operators is not None or demo_sign_ins
                else None
            )
            processes = start_processes(server.url, accounts, logs, gateway)
            for proc in processes:
                await proc.wait_ready(**accounts.connect_options("floor"))
                console.print(f"{proc.service} pid {proc.pid} ready")
            watching = asyncio.ensure_future(watch_exits(processes, console_notice(console)))
            closing.append(lambda: stop_task(watching))
            if gateway is None:
                console.print(
                    "no web gateway: it needs an operator list (--operators FILE, or"
                    " --demo-operators for the demo's, whose PINs are public)",
                    soft_wrap=True,
                )
            else:
                sign_ins = ", ".join(f"{who} {pin} ({role})" for who, pin, role in DEMO_SIGN_INS)
                console.print(
                    f"[bold green]The floor in a browser: {gateway.url}/[/]"
                    + (f"  (terminal sign-ins: {sign_ins})" if demo_sign_ins else ""),
                    soft_wrap=True,
                )
                if demo_sign_ins:
                    console.print(
                        f"Launch a player as the demo operator ({DEMO_OPERATOR}), as an"
                        f" operator's site would: on the cashier page ({gateway.url}/cashier,"
                        " signed in as omar) open and fund demo:PLAYER, then 'Launch as"
                        " player'; or open the URL that `sicbo launch-token PLAYER"
                        f" --data {data_dir} --gateway {gateway.url} --table demo-online` prints"
                        " (once, within 2 minutes).",
                        soft_wrap=True,
                        markup=False,
                    )
            floor_password = accounts.password_file("floor").resolve()
            console.print(
                "In another terminal, as the operator's tooling (NATS user floor; its password"
                f" is in the file, never printed): export NATS_URL={server.url} NATS_USER=floor"
                f" NATS_PASSWORD_FILE={floor_password}; then e.g. `sicbo log demo-cca`,"
                " `sicbo replay round demo-cca 1`, `sicbo replay verify`, `sicbo results tail`."
                " Ctrl-C stops everything.",
                soft_wrap=True,
                markup=False,
            )
            console.print(
                "A results-feed partner, with credentials of its own: `.venv/bin/sicbo partners"
                f" add NAME --floor {data_dir}`, then NATS_URL={server.url} NATS_NKEY=<the seed"
                " file it names> .venv/bin/python examples/results_client.py, or in"
                " examples/node: npm ci, then node results-client.js (docs/partners.md).",
                soft_wrap=True,
                markup=False,
            )
            if not demo:
                console.print("no demo tables: drive your own with `sicbo send`")
                await asyncio.Event().wait()  # until Ctrl-C / SIGTERM cancels the floor
            by_user = {u: await connect(server.url, accounts, u) for u in set(ROLE_USERS.values())}
            opened.extend(by_user.values())
            client = FloorClient(
                by_user[ROLE_USERS[Role.PLAYER]],  # reads the log too (the gateway user may)
                senders={role: by_user[user] for role, user in ROLE_USERS.items()},
            )
            # The online table's players bet from accounts with demo funds (issue 14), unless
            # this data has the table open from before the wallet, without a currency.
            stale = await opened_without_currency(client)
            for table in sorted(stale):
                console.print(
                    f"{table} was opened on this data without a currency (by an older floor):"
                    " its players bet chips at the table; for accounts, start on fresh data"
                    " (remove var/floor, or sicbo run --data DIR)",
                    markup=False,
                )
            for problem in await open_demo_accounts(client, stale):
                console.print(f"demo account: {problem}", markup=False)
            # The online table's players are launched by the demo operator, as a person is,
            # and bet through the gateway in their sessions (no gateway: bare ids over NATS).
            launched = (
                LaunchedPlayers.of_demo(gateway.url, data_dir, DEMO_CURRENCY)
                if gateway is not None and demo_sign_ins
                else None
            )
            if launched is not None:
                closing.append(launched.close)
            dealers = [
                simulated_table(
                    client,
                    table,
                    lambda line: print_line(console, line),
                    notice=lambda text: console.print(f"[bold red]{text}[/]", soft_wrap=True),
                    launched=launched if table.config.currency is not None else None,
                )
                for table in DEMO_TABLES
            ]
            stop_on_signals(*(d.stop for d in dealers))
            await answer_takeovers(nc, [d.control for d in dealers])  # asked by the gateway
            where = f" at {gateway.url}/tables/<table>/terminal" if gateway else ""
            console.print(
                f"playing on {len(DEMO_TABLES)} demo tables, one per rule profile; take one over"
                + where,
                soft_wrap=True,
            )
            await asyncio.gather(*(d.run() for d in dealers))
        finally:
            for close in closing:
                with contextlib.suppress(Exception):
                    await close()
            for proc in processes:
                proc.stop()
            for conn in opened:
                with contextlib.suppress(Exception):
                    await conn.close()
