"""A partner of the demo floor (`make run`) with one command: ``sicbo partners add demo
--floor DATA`` registers it, writes its seed (0600) and reloads the running server, and the
example client then prints the last results (Direct Get) and live ones with that seed;
``remove`` takes the access away.

One ``sicbo run`` as a process (tests/integration/test_secure_run.py's fixture), stopped by
SIGINT to its PID.
"""

from __future__ import annotations

import asyncio
import os
import re
import stat
import subprocess
import sys

import nats
import pytest

from tests.integration.test_secure_run import RunningFloor, floor  # noqa: F401 - the fixture
from tests.support.partners import ROOT

#: The last 2 results first (Direct Get), then 2 live ones.
HISTORY_THEN_LIVE = ("--history", "2", "--count", "4")


def sicbo(*args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "sicbo.cli.main", *args]
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)


async def refused(nats_url: str, seed: str) -> None:
    with pytest.raises(nats.errors.Error, match="Authorization Violation"):
        await nats.connect(nats_url, nkeys_seed_str=seed, allow_reconnect=False)


def test_a_partner_gets_credentials_and_live_results_from_make_run(floor: RunningFloor) -> None:  # noqa: F811
    floor.wait_until_serving()
    assert f"sicbo partners add NAME --floor {floor.data}" in floor.output()

    added = sicbo("partners", "add", "demo", "--floor", str(floor.data))
    assert added.returncode == 0, added.stderr
    seed = floor.data / "partners" / "demo.nk"
    assert stat.S_IMODE(seed.stat().st_mode) == 0o600 and str(seed) in added.stdout
    assert f"reloaded the floor's nats-server (pid {floor.pids['nats-server']})" in added.stdout

    env = {k: v for k, v in os.environ.items() if not k.startswith("NATS_")}
    env |= {"NATS_URL": floor.nats_url, "NATS_NKEY": str(seed)}
    client = subprocess.run(
        # Direct Get is answered for an account a reload added (partner_targets.RELOADS).
        [sys.executable, str(ROOT / "examples" / "results_client.py"), *HISTORY_THEN_LIVE],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert client.returncode == 0, client.stderr
    lines = client.stdout.splitlines()
    assert len(lines) == 4 and all(re.search(r"\] demo-\S+ #\d+ ", line) for line in lines), lines

    kept = seed.read_text()  # as the partner keeps it
    removed = sicbo("partners", "remove", "demo", "--floor", str(floor.data))
    assert removed.returncode == 0, removed.stderr
    assert "reloaded" in removed.stdout and not seed.exists()
    asyncio.run(refused(floor.nats_url, kept))
    # The example client, given the removed key, says so in one line and stops (exit 1).
    kept_file = floor.data / "removed-demo.nk"
    kept_file.write_text(kept)
    stopped = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "results_client.py")],
        env=env | {"NATS_NKEY": str(kept_file)},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert stopped.returncode == 1, stopped.stderr
    assert f"refused by {floor.nats_url}" in stopped.stderr and "Traceback" not in stopped.stderr
    listed = sicbo("partners", "list", "--floor", str(floor.data))
    assert "no partners registered" in listed.stdout
