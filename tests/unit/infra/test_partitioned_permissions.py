"""The NATS permissions of a partitioned log (issue 16 item 5): each user may reach exactly
the partition streams' APIs and subjects its K = 1 permissions give it on ``SICBO``."""

from pathlib import Path

import pytest

from sicbo.infra import nats_config
from sicbo.infra.nats_accounts import SERVICES, accounts, services
from sicbo_contracts.subjects import EVENT_STREAM, partition_stream

K = 3


def publish_of(users: tuple, name: str) -> tuple[str, ...]:  # type: ignore[type-arg]
    return next(u for u in users if u.name == name).permissions.publish


def test_k1_permissions_are_those_of_sicbo() -> None:
    assert services(1) == SERVICES
    settlement = publish_of(SERVICES, "settlement")
    assert "$JS.API.CONSUMER.MSG.NEXT.SICBO.settlement" in settlement
    assert "$JS.API.STREAM.NAMES" in settlement  # K is looked up at start-up


def test_each_partition_stream_and_no_other() -> None:
    users = services(K)
    streams = [partition_stream(p, K) for p in range(K)]
    for name in ("lifecycle", "dice", "wagers", "settlement", "illumination", "results", "board"):
        granted = publish_of(users, name)
        assert not any(s.endswith(f".{EVENT_STREAM}") or f".{EVENT_STREAM}." in s for s in granted)
        for stream in streams:
            assert f"$JS.API.DIRECT.GET.{stream}" in granted, (name, stream)
    settlement = publish_of(users, "settlement")
    for stream in streams:
        assert f"$JS.API.CONSUMER.MSG.NEXT.{stream}.settlement" in settlement
        assert f"$JS.ACK.{stream}.settlement.>" in settlement
        assert f"$JS.API.CONSUMER.MSG.NEXT.{stream}.illumination" not in settlement
    # Appends: each event type on its aggregate, with each partition's token, nothing wider.
    wagers = publish_of(users, "wagers")
    assert {f"sicbo.evt.*.bets.*.bets-slip-placed-v1.p{p}of3" for p in range(K)} <= set(wagers)
    assert "sicbo.evt.*.bets.*.bets-slip-placed-v1" not in wagers
    assert not any(s.startswith("sicbo.evt.*.lc.") for s in wagers)


def test_the_operator_may_delete_no_partition_stream() -> None:
    floor = accounts(partitions=K)[1]
    admin = next(u for u in floor.users if u.name == "floor")
    for p in range(K):
        assert f"$JS.API.STREAM.DELETE.{partition_stream(p, K)}" in admin.permissions.deny_publish


def test_the_deployed_k_comes_from_floor_log_toml(tmp_path: Path) -> None:
    assert nats_config.deployed_partitions(tmp_path) == 1  # no file: the one stream
    (tmp_path / "deploy" / "nats").mkdir(parents=True)
    (tmp_path / nats_config.FLOOR_LOG).write_text("partitions = 3\n")
    assert nats_config.deployed_partitions(tmp_path) == 3
    (tmp_path / nats_config.FLOOR_LOG).write_text("partitions = 0\n")
    with pytest.raises(ValueError, match="from 1 to 64"):
        nats_config.deployed_partitions(tmp_path)


def test_the_deployment_pins_the_k_its_permissions_allow() -> None:
    """One K: the floor's environment (provisioning and services) and the NATS permissions."""
    root = Path(__file__).resolve().parents[3]
    env = dict(
        line.split("=", 1)
        for line in (root / "deploy/kustomize/base/floor.env").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert int(env["SICBO_PARTITIONS"]) == nats_config.deployed_partitions(root)
