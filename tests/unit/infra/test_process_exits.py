"""A service that exits while the floor runs is said once, with how it ended and its log
(``sicbo run`` went on without a killed settlement in silence: rounds stopped being paid)."""

import signal
import sys
from pathlib import Path

from sicbo.infra.processes import ServiceProcess, exit_notices


class Scripted(ServiceProcess):
    def __init__(self, service: str, code: str, log_path: Path | None = None) -> None:
        super().__init__(service, "nats://127.0.0.1:1", log_path=log_path)
        self.code = code

    def argv(self) -> list[str]:
        return [sys.executable, "-c", self.code]


def test_each_exit_is_told_once_with_its_code_and_log(tmp_path: Path) -> None:
    crashed = Scripted("settlement", "raise SystemExit(3)", tmp_path / "settlement-1.log").start()
    killed = Scripted("wagers", "import time; time.sleep(60)").start()
    running = Scripted("lifecycle", "import time; time.sleep(60)").start()
    try:
        assert crashed.proc is not None and killed.proc is not None
        crashed.proc.wait()
        killed.proc.send_signal(signal.SIGKILL)
        killed.proc.wait()
        told: set[int] = set()
        lines = exit_notices([crashed, killed, running], told)
        assert lines == [
            f"settlement (pid {crashed.pid}) exited with code 3: the floor runs without it;"
            f" its log: {tmp_path / 'settlement-1.log'}",
            f"wagers (pid {killed.pid}) killed by signal 9: the floor runs without it",
        ]
        assert exit_notices([crashed, killed, running], told) == []  # told once
    finally:
        running.kill()
        killed.kill()


def test_a_service_log_is_its_owners_only(tmp_path: Path) -> None:
    """Issue 25 item 7: a service's log names players, so it is 0600 like the secrets, from
    its creation; one an older version left readable is narrowed at the next start."""
    made = tmp_path / "wagers-0.log"
    old = tmp_path / "lifecycle-0.log"
    old.write_text("before\n")
    old.chmod(0o644)
    for path in (made, old):
        proc = Scripted(path.stem, "print('a player named')", path).start()
        assert proc.proc is not None
        proc.proc.wait()
        assert path.stat().st_mode & 0o777 == 0o600, path
    assert "a player named" in made.read_text() and old.read_text().startswith("before")
