"""The demo floor's players' accounts: the online table's simulated players get an account
opened by the demo operator's cashier, with demo funds, and bet from it (issue 14 item 5).

Command ids are fixed per player, so a floor started again on the same data answers them
"duplicate" and the funds are not deposited twice.
"""

from sicbo.demo.client import FloorClient
from sicbo.demo.tables import DEMO_CURRENCY, DEMO_FUNDS, DEMO_TABLES, OPERATOR
from sicbo_contracts.accounts import DepositFunds, OpenAccount
from sicbo_contracts.replies import Rejected


def funded_players(without_currency: frozenset[str] = frozenset()) -> list[str]:
    """The players of the demo tables that play in a currency (from an account), but for the
    tables named in ``without_currency``."""
    return sorted(
        {
            p
            for t in DEMO_TABLES
            if t.config.currency and t.table not in without_currency
            for p in t.players
        }
    )


async def opened_without_currency(client: FloorClient) -> frozenset[str]:
    """The demo tables this data's log has open without the currency the demo now gives them
    (opened by a floor before the wallet): their slips from an account would be refused, so
    their players bet with chips at the table, as then."""
    stale = set()
    for t in DEMO_TABLES:
        if t.config.currency:
            config = (await client.lifecycle(t.table)).config
            if config is not None and config.currency is None:
                stale.add(t.table)
    return frozenset(stale)


async def open_demo_accounts(client: FloorClient, skip: frozenset[str] = frozenset()) -> list[str]:
    """Open and fund each; the reasons of any refusal (none on a fresh or a restarted floor)."""
    problems: list[str] = []
    for player in funded_players(skip):
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
