"""The demo's online players are launched players (issue 14 item 5; sicbo.demo.launched): each
opens a session at the web gateway with a launch token its operator minted (verified and used
once by the gateway, as anyone's), and bets through the gateway's players' API in that
session, from its funded account. Against the session's floor and gateway (processes)."""

from __future__ import annotations

import dataclasses
import random
import uuid
from collections import Counter

import msgspec
import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from nats.aio.client import Client as NATS

from sicbo.demo.client import FloorClient
from sicbo.demo.launched import LaunchedPlayers, LaunchFailed
from sicbo.demo.players import SimulatedPlayers
from sicbo.demo.tables import DEMO_TABLES
from sicbo.eventstore.store import EventStore
from sicbo_contracts.accounts import DepositFunds, OpenAccount
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.subjects import ACCOUNT_STREAM, Aggregate, round_filter
from sicbo_contracts.wagers import PlaceSlip, SlipPlaced, Wager
from tests.integration.conftest import Floor, new_id
from tests.integration.test_settlement import ok, open_round, open_table
from tests.integration.test_wallet import CASHIER, balance
from tests.support.launch import AUDIENCE, OPERATOR, Issuers

FUNDS = 100_000
_placed = msgspec.json.Decoder(SlipPlaced)
ONLINE = next(t for t in DEMO_TABLES if t.config.currency is not None)


async def fund(floor: Floor, nc: NATS, player: str, amount: int = FUNDS) -> None:
    """An account opened by the operator's cashier, with funds (an online table requires it)."""
    await ok(
        floor, nc, OpenAccount(command_id=new_id(), player=player, actor=CASHIER, currency="EUR")
    )
    await ok(
        floor,
        nc,
        DepositFunds(
            command_id=new_id(), player=player, actor=CASHIER, amount=amount, currency="EUR"
        ),
    )


async def test_the_online_players_bet_as_launched_players_from_their_accounts(
    floor: Floor, nc: NATS, store: EventStore, gateway: str, launch_issuers: Issuers, table_id: str
) -> None:
    players = tuple(f"{OPERATOR}:p-{uuid.uuid4().hex[:8]}" for _ in range(3))
    for player in players:
        await fund(floor, nc, player)
    await open_table(floor, nc, table_id, "online-live", currency="EUR")
    await open_round(floor, nc, table_id, 1)
    demo = dataclasses.replace(ONLINE, table=table_id, players=players)
    launched = LaunchedPlayers(
        gateway, launch_issuers.key, "EUR", operator=OPERATOR, audience=AUDIENCE
    )
    try:
        for seed in range(3):  # a few rounds' worth of slips (some players each time)
            simulated = SimulatedPlayers(FloorClient(nc), demo, random.Random(seed), launched)
            await simulated.place_slips(1, "online-live@v1")
        staked: Counter[str] = Counter()
        placed: Counter[str] = Counter()
        for s in await store.read(round_filter(table_id, Aggregate.BETS, 1)):
            slip = _placed.decode(s.data)
            # Placed by the player the token named, as the gateway stamps it.
            assert slip.actor.id == slip.player and slip.actor.role == "player"
            assert all(w.medium == "chips" for w in slip.wagers)  # value chips only, online
            staked[slip.player] += sum(w.stake for w in slip.wagers)
            placed[slip.player] += 1
        assert staked and set(staked) <= set(players)
        accounts = EventStore(nc, ACCOUNT_STREAM)
        for player in players:
            assert await balance(accounts, player) == FUNDS - staked[player]
        # Each one is signed in at the gateway as itself, in the token's currency.
        for player in staked:
            browser = launched.browser_of(player)
            assert browser is not None
            me = (await browser.get("/api/player")).json()
            assert me == {"player": player, "currency": "EUR"}
            history = (await browser.get(f"/api/tables/{table_id}/history")).json()
            assert history["player"] == player and len(history["slips"]) == placed[player]
    finally:
        await launched.close()


async def test_a_lost_session_is_launched_again_and_a_foreign_player_never(
    floor: Floor, nc: NATS, gateway: str, launch_issuers: Issuers, table_id: str
) -> None:
    player = f"{OPERATOR}:p-{uuid.uuid4().hex[:8]}"
    await fund(floor, nc, player)
    await open_table(floor, nc, table_id, "online-live", currency="EUR")
    await open_round(floor, nc, table_id, 1)
    launched = LaunchedPlayers(
        gateway, launch_issuers.key, "EUR", operator=OPERATOR, audience=AUDIENCE
    )
    forger = LaunchedPlayers(
        gateway, Ed25519PrivateKey.generate(), "EUR", operator=OPERATOR, audience=AUDIENCE
    )
    try:
        browser = await launched.launch(player)
        await browser.delete("/api/player")  # signed out: the gateway forgets the session
        slip = PlaceSlip(
            command_id=new_id("slip"),
            table=table_id,
            round=1,
            player=player,
            actor=Actor(id=player, role=Role.PLAYER),
            wagers=[Wager(bet="big", stake=100)],
        )
        assert await launched.place(slip) == (True, "")  # launched again, then placed
        assert (await browser.get("/api/player")).json()["player"] == player
        with pytest.raises(ValueError, match="not a player of operator"):
            await launched.launch("other:p-1")  # another operator's player: nothing minted
        with pytest.raises(LaunchFailed, match=r"401.*bad-signature"):
            await forger.launch(player)  # a key the gateway does not hold for the operator
    finally:
        await launched.close()
        await forger.close()
