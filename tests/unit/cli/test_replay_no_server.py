"""``sicbo replay verify`` and ``sicbo replay account`` with no server at the address: exit 2
with one line saying so, no traceback (nats-py's own handler logged one before the CLI's
line: replay's connections now leave the telling to the caller)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sicbo.infra.nats_server import free_port


@pytest.mark.parametrize("command", [["verify"], ["account", "p1"]])
def test_no_server_is_one_line_and_exit_2(command: list[str]) -> None:
    url = f"nats://127.0.0.1:{free_port()}"  # nothing listens there
    done = subprocess.run(
        [sys.executable, "-m", "sicbo.cli.main", "replay", *command, "--nats", url],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done
    assert done.stderr.strip() == f"error: cannot reach NATS at {url}", done.stderr
    assert "Traceback" not in done.stdout + done.stderr
