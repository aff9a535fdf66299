"""The simulated players of a demo table: each round a few of them place a slip."""

import random

from sicbo.demo.client import FloorClient, new_id
from sicbo.demo.tables import OPERATOR, DemoTable
from sicbo.game.profiles import parse_paytable_ref
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.replies import Rejected
from sicbo_contracts.wagers import IssuePromoToken, Medium, PlaceSlip, Wager


class SimulatedPlayers:
    def __init__(self, client: FloorClient, demo: DemoTable, rng: random.Random) -> None:
        self.client = client
        self.demo = demo
        self.table = demo.table
        self.rng = rng  # the dealer's too: one seed replays the same rounds

    async def place_slips(self, number: int, paytable_ref: str) -> None:
        bets = [b.id for b in parse_paytable_ref(paytable_ref).offered_bets()]
        limits = self.demo.config.limits
        players = self.demo.players
        for player in self.rng.sample(players, self.rng.randint(2, len(players))):
            wagers = []
            for _ in range(self.rng.randint(1, 4)):
                stake = limits.minimum + limits.unit * self.rng.randint(0, 20)
                if player == players[0] and self.demo.config.profile == "cca-1992":
                    wagers.append(
                        Wager(
                            bet=self.rng.choice(bets), stake=400, medium=Medium.COLOR, color="red"
                        )
                    )
                elif self.rng.random() < 0.05:
                    token = await self._token(player, limits.minimum)
                    wagers.append(
                        Wager(
                            bet=self.rng.choice(bets),
                            stake=limits.minimum,
                            medium=Medium.PROMO,
                            token=token,
                        )
                    )
                else:
                    wagers.append(Wager(bet=self.rng.choice(bets), stake=stake))
            reply = await self.client.send(
                PlaceSlip(
                    command_id=new_id("slip"),
                    table=self.table,
                    actor=Actor(id=player, role=Role.PLAYER),
                    round=number,
                    player=player,
                    wagers=wagers,
                )
            )
            if isinstance(reply, Rejected):
                return  # the countdown closed betting: the rest of the players were too late

    async def _token(self, player: str, amount: int) -> str | None:
        """A promotional token the casino operator issues the player for one free wager
        (000 §1.1); None if refused (the slip then is, naming the token)."""
        token = new_id("token")
        reply = await self.client.send(
            IssuePromoToken(
                command_id=new_id("issue"),
                table=self.table,
                actor=OPERATOR,
                token=token,
                player=player,
                amount=amount,
            )
        )
        return None if isinstance(reply, Rejected) else token
