"""The simulated players of a demo table: each round a few of them place a slip.

At a land table they are bare ids whose slips go straight to wager intake over NATS (a dealer
keys them in). At the online table, given ``launched``, they are players the demo operator
launched (:mod:`sicbo.demo.launched`): their slips go through the web gateway in each one's
session, from their accounts, value chips only as any online player's.
"""

import random

from sicbo.demo.client import FloorClient, new_id
from sicbo.demo.launched import LaunchedPlayers
from sicbo.demo.tables import OPERATOR, DemoTable
from sicbo.game.profiles import parse_paytable_ref
from sicbo_contracts.base import Actor, Role
from sicbo_contracts.replies import Rejected
from sicbo_contracts.wagers import IssuePromoToken, Medium, PlaceSlip, Wager


class SimulatedPlayers:
    def __init__(
        self,
        client: FloorClient,
        demo: DemoTable,
        rng: random.Random,
        launched: LaunchedPlayers | None = None,
    ) -> None:
        self.client = client
        self.demo = demo
        self.table = demo.table
        self.rng = rng  # the dealer's too: one seed replays the same rounds
        self.launched = launched

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
                # A promotional token is the dealer's, at the table: a launched player's
                # slip holds value chips only (the draw is kept: one seed, the same rounds).
                elif self.rng.random() < 0.05 and self.launched is None:
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
            slip = PlaceSlip(
                command_id=new_id("slip"),
                table=self.table,
                actor=Actor(id=player, role=Role.PLAYER),
                round=number,
                player=player,
                wagers=wagers,
            )
            if self.launched is not None:
                accepted, _ = await self.launched.place(slip)
            else:
                accepted = not isinstance(await self.client.send(slip), Rejected)
            if not accepted:
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
