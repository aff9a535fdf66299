"""``python -m sicbo.bench.intake_cpu``: its figures per item and its command line."""

import argparse

import pytest

from sicbo.bench.intake_cpu import _per, client_counts


def test_cpu_per_item_in_microseconds_idle_processes_left_out() -> None:
    before = {"wagers0": 1.0, "nats-server": 2.0, "dice": 3.0}
    after = {"wagers0": 2.5, "nats-server": 2.4, "dice": 3.0}
    assert _per(before, after, 4_000) == "wagers0 375, nats-server 100"


def test_client_counts_are_positive_numbers_up_to_the_slips() -> None:
    assert client_counts("4,16,64") == [4, 16, 64]
    with pytest.raises(argparse.ArgumentTypeError, match="not numbers"):
        client_counts("4,x")
    with pytest.raises(
        argparse.ArgumentTypeError, match=r"\[0, 4001\]: a number of clients is 1 to 4,000"
    ):
        client_counts("0,16,4001")
