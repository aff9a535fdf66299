"""The demo floor's players' accounts: the online table's simulated players get an account
opened by the demo operator's cashier, with demo funds, and bet from it (issue 14 item 5).

Command ids are fixed per player, so a floor started again on the same data answers them
"duplicate" and the funds are not deposited twice.
"""

from sicbo.demo.client import FloorClient
from sicbo.demo.tables import DEMO_CURRENCY, DEMO_FUNDS, DEMO_TABLES, OPERATOR
from sicbo_contracts.accounts import DepositFunds, OpenAccount
from sicbo_contracts.replies import Rejected


def funded_players() -> list[str]:
    """The players of the demo tables that play in a currency (from an account)."""
    return sorted({p for t in DEMO_TABLES if t.config.currency for p in t.players})


async def open_demo_accounts(client: FloorClient) -> list[str]:
    """Open and fund each; the reasons of any refusal (none on a fresh or a restarted floor)."""
    problems: list[str] = []
    for player in funded_players():
        for cmd in (
            OpenAccount(
                command_id=f"demo-open-{player.replace(':', '-')}",
                player=player,
                actor=OPERATOR,
                currency=DEMO_CURRENCY,
            ),
            DepositFunds(
                command_id=f"demo-funds-{player.replace(':', '-')}",
                player=player,
                actor=OPERATOR,
                amount=DEMO_FUNDS,
                currency=DEMO_CURRENCY,
                reference="demo funds",
            ),
        ):
            reply = await client.send(cmd)
            if isinstance(reply, Rejected):
                problems.append(f"{player}: {reply.reason}")
    return problems
