"""``sicbo run`` is secure by default: the floor's accounts, a user per process, the passwords
in files only the user may read and nowhere else.

One ``sicbo run`` as a process (its own data folder, free ports on 127.0.0.1), until its demo
tables play; then: the password files (0600, in a 0700 folder), no password in its console,
its logs or any command line it started, an anonymous connection refused, the ``dealer`` user
refused a lifecycle event, no permission refused to the floor's own processes, the demo tables
still playing; stopped by SIGINT to its PID, and every process it started gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import nats
import pytest
from nats.aio.msg import Msg
from nats.js.errors import NotFoundError

from sicbo.infra.nats_accounts import users
from sicbo.infra.nats_flush import flush_sent
from sicbo.infra.nats_server import free_port
from sicbo_contracts.lifecycle import RoundCompleted
from sicbo_contracts.subjects import EVENT_STREAM, Aggregate, events_of_type, inbox

BOUND = 180.0  # seconds: a shared machine starts a dozen processes
LAND_TABLES = ("demo-cca", "demo-macau03", "demo-macau04")
COMPLETED = events_of_type(RoundCompleted, Aggregate.LIFECYCLE)
FORGED = events_of_type(RoundCompleted, Aggregate.LIFECYCLE, table="demo-cca", round_no=9999)


@dataclass
class RunningFloor:
    proc: subprocess.Popen[bytes]
    data: Path
    console: Path
    pids: dict[str, int] = field(default_factory=dict)
    nats_url: str = ""
    web_url: str = ""

    def output(self) -> str:
        return self.console.read_text(errors="replace")

    def password_file(self, user: str) -> Path:
        return self.data / "secrets" / f"{user}.password"

    def password(self, user: str) -> str:
        return self.password_file(user).read_text().strip()

    def wait_until_serving(self) -> None:
        deadline = time.monotonic() + BOUND
        while time.monotonic() < deadline:
            text = self.output()
            if self.proc.poll() is not None:
                pytest.fail(f"sicbo run exited with {self.proc.returncode}: {text[-3000:]}")
            if "playing on" in text:
                self.pids = {m[1]: int(m[2]) for m in re.finditer(r"^(.+?) pid (\d+)", text, re.M)}
                self.nats_url = re.search(r"on (nats://127\.0\.0\.1:\d+)", text)[1]  # type: ignore[index]
                self.web_url = re.search(r"in a browser: (http://\S+?)/", text)[1]  # type: ignore[index]
                return
            time.sleep(0.2)
        pytest.fail(f"sicbo run did not serve in {BOUND} s: {self.output()[-3000:]}")


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ")[-1][0] != "Z"  # a zombie has ended
    except FileNotFoundError:
        return False


@pytest.fixture
def floor(tmp_path: Path) -> Iterator[RunningFloor]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("NATS_")}
    console = tmp_path / "console.txt"
    argv = [
        *(sys.executable, "-m", "sicbo.cli.main", "run", "--data", str(tmp_path / "floor")),
        *("--port", str(free_port()), "--web-port", str(free_port())),
    ]
    with console.open("wb") as out:
        proc = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=env)
    running = RunningFloor(proc, tmp_path / "floor", console)
    try:
        yield running
    finally:
        if proc.poll() is None:  # the test failed before stopping it
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        for pid in running.pids.values():  # what it started, should it have left any
            if alive(pid):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)


async def completions(nc: nats.NATS, tables: tuple[str, ...], seconds: float) -> None:
    """Until a round completes on each of ``tables`` (live: they are still playing)."""
    done: set[str] = set()
    seen = asyncio.Event()

    async def on_completed(msg: Msg) -> None:
        done.add(msg.subject.split(".")[2])
        if done >= set(tables):
            seen.set()

    sub = await nc.subscribe(COMPLETED, cb=on_completed)
    try:
        await asyncio.wait_for(seen.wait(), seconds)
    except TimeoutError:
        pytest.fail(f"rounds completed only on {sorted(done)} in {seconds} s")
    finally:
        await sub.unsubscribe()


async def refusals_and_play(nats_url: str, passwords: dict[str, str]) -> None:
    # No credentials: refused.
    with pytest.raises(nats.errors.Error, match="Authorization Violation"):
        await nats.connect(nats_url, allow_reconnect=False, max_reconnect_attempts=0)

    # The floor's operator reads the log; the dealer may not forge the lifecycle's event.
    admin = await nats.connect(nats_url, user="floor", password=passwords["floor"])
    errors: list[str] = []

    async def on_error(exc: Exception) -> None:
        errors.append(str(exc))

    dealer = await nats.connect(
        nats_url,
        user="dealer",
        password=passwords["dealer"],
        inbox_prefix=inbox("dealer"),
        error_cb=on_error,
    )
    try:
        await completions(admin, LAND_TABLES, 60)
        await dealer.publish(FORGED, b"{}")
        await flush_sent(dealer)
        for _ in range(100):
            if any(FORGED in e for e in errors):
                break
            await asyncio.sleep(0.05)
        assert any("permissions violation" in e.lower() and FORGED in e for e in errors), errors
        assert dealer.is_connected  # refused, not disconnected
        with pytest.raises(NotFoundError):
            await admin.jetstream().get_last_msg(EVENT_STREAM, FORGED)
        await completions(admin, LAND_TABLES, 60)  # the simulated dealers play on
    finally:
        await dealer.close()
        await admin.close()


def test_sicbo_run_enforces_the_floors_accounts(floor: RunningFloor) -> None:
    floor.wait_until_serving()
    assert httpx.get(f"{floor.web_url}/healthz", timeout=10).status_code == 200

    # The password files: every user's, readable by the user only.
    assert stat.S_IMODE(floor.password_file("floor").parent.stat().st_mode) == 0o700
    for user in users():
        assert stat.S_IMODE(floor.password_file(user).stat().st_mode) == 0o600, user
    passwords = {user: floor.password(user) for user in users()}
    assert all(len(p) >= 32 for p in passwords.values())
    output = floor.output()
    assert f"NATS_PASSWORD_FILE={floor.password_file('floor')}" in output  # the path only

    # Nowhere else: neither in a command line it started, nor its console, nor a log.
    for name, pid in floor.pids.items():
        cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().decode()
        assert not any(p in cmdline for p in passwords.values()), name
    logs = [floor.console, *floor.data.rglob("*.log")]
    assert len(logs) > 10
    for log in logs:
        text = log.read_text(errors="replace")
        for user, password in passwords.items():
            assert password not in text, f"{user}'s password in {log}"

    asyncio.run(refusals_and_play(floor.nats_url, passwords))

    # The floor's own processes were refused nothing (the permissions are enough for them).
    server_log = (floor.data / "nats" / "nats-server.log").read_text(errors="replace")
    refused = [line for line in server_log.splitlines() if re.search(r"\w+ Violation -", line)]
    assert len(refused) == 1, refused
    assert '"FLOOR/user:dealer" - Publish Violation' in refused[0] and FORGED in refused[0]

    # SIGINT to its PID: it stops everything it started.
    floor.proc.send_signal(signal.SIGINT)
    assert floor.proc.wait(60) == 0
    assert "floor stopped" in floor.output()
    deadline = time.monotonic() + 15
    while any(alive(pid) for pid in floor.pids.values()) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert [name for name, pid in floor.pids.items() if alive(pid)] == []
