"""``sicbo launch-token``: the demo operator's side of a launch (a token for one player)."""

import secrets
import time
import urllib.parse
from pathlib import Path
from typing import Annotated

import typer

from sicbo.cli.common import fail
from sicbo.demo.launch_keys import (
    DEMO_CURRENCY,
    DEMO_OPERATOR,
    OPERATORS_FILE,
    key_file,
    load_private_key,
)
from sicbo.gateway.launch_mint import DEFAULT_LIFETIME_SECONDS, mint_launch_token
from sicbo.gateway.launch_operators import LaunchOperatorsError, parse_launch_operators
from sicbo.gateway.launch_tokens import MAX_LIFETIME_SECONDS, PLAYER_REF


def launch_token(
    player: Annotated[str, typer.Argument(help="the operator's player id (the token's sub)")],
    operator: Annotated[str, typer.Option(help="the operator (iss)")] = DEMO_OPERATOR,
    data_dir: Annotated[
        Path, typer.Option("--data", help="the floor's data (make run's: var/floor)")
    ] = Path("var/floor"),
    currency: Annotated[str, typer.Option(help="the player's currency")] = DEMO_CURRENCY,
    lifetime: Annotated[
        int, typer.Option(min=1, max=MAX_LIFETIME_SECONDS, help="seconds the token lives")
    ] = DEFAULT_LIFETIME_SECONDS,
    gateway: Annotated[
        str | None, typer.Option(help="the gateway's address: print the launch URL")
    ] = None,
    table: Annotated[str | None, typer.Option(help="with --gateway: the table to play")] = None,
) -> None:
    """Mint a launch token with the operator's private key (``<data>/secrets/launch-<operator>
    .key``, made by `make run`) for the floor's audience (``<data>/launch-operators.toml``);
    print it, or with --gateway the URL that launches the player (usable once, in a browser)."""
    if not PLAYER_REF.fullmatch(player):
        raise fail("PLAYER: 1-47 of A-Z a-z 0-9 _ . @ -")
    listing = data_dir / OPERATORS_FILE
    try:
        config = parse_launch_operators(listing.read_text(encoding="utf-8"), data_dir, str(listing))
        key = load_private_key(key_file(data_dir, operator))
    except (OSError, ValueError, LaunchOperatorsError) as err:
        raise fail(f"{err} (is `make run` running with this --data?)") from None
    if operator not in config.operators:
        raise fail(f"--operator: {operator} is not in {listing}")
    token = mint_launch_token(
        key,
        operator=operator,
        player=player,
        currency=currency,
        audience=config.audience,
        now=time.time(),
        jti=secrets.token_urlsafe(16),
        lifetime=lifetime,
    )
    if gateway is None:
        typer.echo(token)
        return
    fragment = {"token": token, **({"table": table} if table else {})}
    typer.echo(f"{gateway.rstrip('/')}/launch#{urllib.parse.urlencode(fragment)}")
