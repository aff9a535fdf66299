"""The table view carries what the pages write money and times with (issue 15 item 4): the
table's currency (None for a chips table) and its time zone (the configuration's, else the
profile's: Asia/Macau for 002's tables, UTC otherwise)."""

from __future__ import annotations

import msgspec

from sicbo_contracts.lifecycle import TableConfig, TableOpened
from tests.support.common import at, default_paytable, event
from tests.support.lifecycle import config
from tests.unit.gateway.test_views import view


def opened_with(table_config: TableConfig) -> list[object]:
    return [
        event(
            TableOpened,
            "supervisor",
            at=at(-120),
            config=table_config,
            paytable=default_paytable(table_config.profile),
        )
    ]


def test_the_view_has_the_tables_currency_or_none_for_chips() -> None:
    euros = msgspec.structs.replace(config("online-live"), currency="EUR")
    assert view(opened_with(euros)).currency == "EUR"
    assert view(opened_with(config("cca-1992"))).currency is None


def test_the_view_has_the_tables_time_zone_else_the_profiles() -> None:
    assert view(opened_with(config("macau-2004"))).time_zone == "Asia/Macau"
    assert view(opened_with(config("cca-1992"))).time_zone == "UTC"
    told = config("cca-1992", time_zone="Australia/Sydney")
    assert view(opened_with(told)).time_zone == "Australia/Sydney"
    assert view([]).time_zone == "UTC"  # a table never opened
