"""``sicbo gateway``: the web gateway (the floor's pages), and PIN hashes for its operator list."""

import logging
import secrets
from importlib import resources
from pathlib import Path
from typing import Annotated

import typer
import uvicorn

from sicbo.cli.common import (
    DEFAULT_NATS_URL,
    NatsOption,
    OperatorsOption,
    check_nats_settings,
    event_loop_setting,
    fail,
)
from sicbo.demo.launch_keys import DEMO_OPERATOR, load_private_key
from sicbo.gateway.app import Settings, create_gateway
from sicbo.gateway.demo_launch import DemoLauncher
from sicbo.gateway.launch_operators import (
    LaunchConfig,
    LaunchOperatorsError,
    parse_launch_operators,
)
from sicbo.gateway.operators import OperatorListError, operator_entry, parse_operators
from sicbo.gateway.origin import allowed_origins
from sicbo.gateway.sessions import IDLE_LOCK_SECONDS
from sicbo_contracts.base import Role

app = typer.Typer(help="The web gateway: the floor's pages in a browser.", no_args_is_help=True)

DEMO_OPERATORS = "demo operators (services/sicbo/gateway/operators.toml)"


@app.command("serve")
def serve(
    nats_url: NatsOption = DEFAULT_NATS_URL,
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on", min=1, max=65535)] = 8080,
    operators: OperatorsOption = None,
    demo_operators: Annotated[
        bool,
        typer.Option(help="the demo list, whose PINs are public (make run, tests): never a floor"),
    ] = False,
    demo_players: Annotated[
        bool,
        typer.Option(
            help="players sign in by a bare player id, so anyone may claim any player"
            " (make run, tests): never a floor, where players are launched by their operator"
        ),
    ] = False,
    launch_operators: Annotated[
        Path | None,
        typer.Option(
            envvar="SICBO_LAUNCH_OPERATORS",
            help="the operators that launch players by signed token, with their keys (TOML:"
            " docs/launch.md); none given: no player is launched",
        ),
    ] = None,
    demo_launch_key: Annotated[
        Path | None,
        typer.Option(
            help="with --demo-players: the demo operator's private key (make run's"
            " <data>/secrets/launch-demo.key), so its cashier page launches players by token"
        ),
    ] = None,
    demo_launch_operator: Annotated[
        str, typer.Option(help="the launch operator whose key --demo-launch-key is")
    ] = DEMO_OPERATOR,
    idle_lock_seconds: Annotated[
        int, typer.Option(min=5, help="lock a terminal after this long unused (GLI-19 §C.6.5)")
    ] = IDLE_LOCK_SECONDS,
    https_only: Annotated[bool, typer.Option(help="session cookies only over https")] = False,
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            envvar="SICBO_FORWARDED_ALLOW_IPS",
            help="the proxies (comma-separated addresses or networks) whose X-Forwarded-For and"
            " -Proto are believed: the ingress, so sign-ins are throttled per real client."
            " None by default: the peer's address is the client's",
        ),
    ] = "",
    origin: Annotated[
        list[str] | None,
        typer.Option(
            envvar="SICBO_GATEWAY_ORIGINS",
            help="an origin (https://floor.example.com) whose pages may sign in and send"
            " commands; repeatable (the variable: separated by spaces). None given: the"
            " gateway's own, as each request addresses it",
        ),
    ] = None,
) -> None:
    """Serve the pages and the API until SIGINT/SIGTERM. Sessions live in this process: behind
    several replicas the ingress keeps a browser on one (docs/gateway.md)."""
    check_nats_settings(nats_url)
    loop = event_loop_setting()
    if (operators is None) == (not demo_operators):
        raise fail(
            "name the operator list: --operators FILE (or SICBO_OPERATORS), or --demo-operators"
        )
    try:
        if operators is None:
            text = resources.files("sicbo.gateway").joinpath("operators.toml").read_text()
            listed = parse_operators(text, DEMO_OPERATORS)
        else:
            listed = parse_operators(operators.read_text(), str(operators))
    except (OSError, OperatorListError) as err:
        raise fail(str(err)) from None
    launch = _launch_config(launch_operators)
    demo_launch = _demo_launcher(demo_launch_key, demo_launch_operator, launch, demo_players)
    try:
        origins = allowed_origins(origin or ())
    except ValueError as err:
        raise fail(f"--origin: {err}") from None
    settings = Settings(
        nats_url=nats_url,
        operators=listed,
        idle_lock_seconds=idle_lock_seconds,
        https_only=https_only,
        allowed_origins=origins,
        demo_players=demo_players,
        launch=launch,
        demo_launch=demo_launch,
    )
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    uvicorn.run(
        create_gateway(settings),
        host=host,
        port=port,
        log_level="warning",
        loop=loop,  # uvicorn's own choice ("auto") would take uvloop without the setting
        proxy_headers=bool(forwarded_allow_ips),
        forwarded_allow_ips=forwarded_allow_ips or None,
        timeout_graceful_shutdown=2,  # open event streams end with the process
    )


def _launch_config(path: Path | None) -> LaunchConfig | None:
    if path is None:
        return None
    try:
        return parse_launch_operators(path.read_text(encoding="utf-8"), path.parent, str(path))
    except (OSError, LaunchOperatorsError) as err:
        raise fail(str(err)) from None


def _demo_launcher(
    key: Path | None, operator: str, launch: LaunchConfig | None, demo_players: bool
) -> DemoLauncher | None:
    if key is None:
        return None
    if not demo_players:
        raise fail("--demo-launch-key: the demo floor's only (with --demo-players)")
    if launch is None or operator not in launch.operators:
        raise fail(f"--demo-launch-key: {operator} is not among the --launch-operators")
    try:
        private = load_private_key(key)
    except (OSError, ValueError) as err:
        raise fail(f"--demo-launch-key: {err}") from None
    return DemoLauncher(operator=operator, key=private, audience=launch.audience)


@app.command("hash-pin")
def hash_pin(
    operator_id: Annotated[str, typer.Argument(metavar="ID", help="the operator's id")],
    role: Annotated[Role, typer.Argument(help="dealer | supervisor | inspector | operator")],
    pin: Annotated[
        str | None, typer.Option(help="4-12 digits; asked for (twice, hidden) when left out")
    ] = None,
) -> None:
    """Print the operator list entry of one operator (the PIN is salted and hashed).

    Only the entry goes to standard output (the questions go to standard error), so
    `sicbo gateway hash-pin ana dealer >> operators.toml` appends it."""
    if pin is None:
        pin = typer.prompt("PIN", hide_input=True, confirmation_prompt=True, err=True)
    try:
        entry = operator_entry(operator_id, role, str(pin), secrets.token_hex(16))
        parse_operators(entry)  # the same checks as at start-up
    except OperatorListError as err:
        raise fail(str(err)) from None
    typer.echo(entry)
