"""The demo floor's funded players (sicbo.demo.wallets): those of the tables that play in a
currency, but for a table this data has open from before the wallet (no currency)."""

import asyncio
from dataclasses import dataclass, field
from typing import Any

import msgspec

from sicbo.demo.tables import DEMO_TABLES
from sicbo.demo.wallets import funded_players, opened_without_currency

IN_A_CURRENCY = [t for t in DEMO_TABLES if t.config.currency]


def test_the_players_of_the_tables_in_a_currency_are_funded() -> None:
    assert IN_A_CURRENCY, "the demo has a table that plays from accounts"
    assert funded_players() == sorted({p for t in IN_A_CURRENCY for p in t.players})


def test_a_table_opened_without_a_currency_funds_none_of_its_players() -> None:
    skipped = frozenset(t.table for t in IN_A_CURRENCY)
    assert funded_players(skipped) == []


@dataclass
class State:
    config: Any


@dataclass
class Logs:
    """What the log says each table was opened with (None: never opened)."""

    configs: dict[str, Any] = field(default_factory=dict)

    async def lifecycle(self, table: str) -> State:
        return State(self.configs.get(table))


def test_only_a_table_open_without_its_currency_is_stale() -> None:
    table = IN_A_CURRENCY[0]
    older = msgspec.structs.replace(table.config, currency=None)
    assert asyncio.run(opened_without_currency(Logs({table.table: older}))) == {table.table}  # type: ignore[arg-type]
    assert asyncio.run(opened_without_currency(Logs({table.table: table.config}))) == set()  # type: ignore[arg-type]
    assert asyncio.run(opened_without_currency(Logs())) == set()  # type: ignore[arg-type]
