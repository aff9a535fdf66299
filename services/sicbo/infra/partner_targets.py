"""Where ``sicbo partners`` registers a partner, and what it then regenerates and reloads.

- :class:`Deployment`: a checkout of the floor's repository. The registry is
  ``deploy/nats/partners.toml``; a change regenerates ``deploy/nats/accounts.conf`` and the
  Helm values (``make nats-config``), to be committed and rolled out by the operator.
- :class:`LocalFloor`: the floor of ``sicbo run --data DIR`` (`make run`: ``var/floor``). The
  registry is ``DIR/partners.toml``, the seeds it made are kept in ``DIR/partners/`` (0700),
  and a change re-renders the running server's configuration and reloads it (SIGHUP, what
  ``nats-server --signal reload`` sends, twice: :data:`RELOADS`), so the partner may connect
  and read the history at once.
"""

from __future__ import annotations

import os
import signal
import time
from dataclasses import dataclass
from pathlib import Path

from sicbo.infra import nats_config
from sicbo.infra.local_accounts import CONFIG, PARTNER_SEEDS, PARTNERS, PID_FILE, LocalAccounts
from sicbo.infra.local_accounts import SECRETS as LOCAL_SECRETS


class TargetError(Exception):
    """Not a place partners can be registered (nothing was changed)."""


@dataclass(frozen=True, slots=True)
class Deployment:
    root: Path

    def __post_init__(self) -> None:
        if not all((self.root / p).parent.is_dir() for p in (nats_config.CONF, nats_config.VALUES)):
            raise TargetError(
                f"{self.root} is not a checkout of the floor (no deploy/nats/ and"
                " deploy/nats-helm/): run from the repository's root, or give --floor DIR for"
                " the local floor of `sicbo run`"
            )

    @property
    def registry(self) -> Path:
        return self.root / nats_config.PARTNERS

    def default_seed_file(self, name: str) -> Path:
        return Path(f"{name}.nk")  # the current directory; *.nk is ignored by git

    def apply(self) -> list[str]:
        """Regenerate the deployment's accounts; what the operator does next."""
        written = nats_config.write(self.root)
        return [
            "regenerated " + ", ".join(str(p.relative_to(self.root)) for p in written),
            "commit them, then reload the servers: `nats-server --signal reload` on a server"
            " started with deploy/nats/floor.conf, or `helm upgrade` with"
            " deploy/nats-helm/values.yaml; the change takes effect at the reload. A partner"
            " ADDED needs a second reload (or a restart) before its history reads (Direct Get)"
            " are answered: nats-server 2.15.1 wires a new account's service imports only then"
            ' (docs/runbook.md, "A partner\'s")',
        ]


@dataclass(frozen=True, slots=True)
class LocalFloor:
    data_dir: Path

    def __post_init__(self) -> None:
        if not (self.data_dir / CONFIG).is_file():
            raise TargetError(
                f"{self.data_dir} holds no floor (no {CONFIG}): start it once with"
                f" `sicbo run --data {self.data_dir}` (`make run`: var/floor)"
            )

    @property
    def registry(self) -> Path:
        return self.data_dir / PARTNERS

    def default_seed_file(self, name: str) -> Path:
        return self.data_dir / PARTNER_SEEDS / f"{name}.nk"

    def apply(self) -> list[str]:
        accounts = LocalAccounts(self.data_dir / CONFIG, self.data_dir / LOCAL_SECRETS)
        accounts.write_config()
        pid = running_server(self.data_dir)
        if pid is None:
            return [
                f"regenerated {accounts.config}; no server of this floor is running: the change"
                " takes effect at the next `sicbo run` (`make run`)"
            ]
        log = self.data_dir / SERVER_LOG
        for _ in range(RELOADS):
            reload_server(pid, log)
        return [f"regenerated {accounts.config} and reloaded the floor's nats-server (pid {pid})"]


#: Where ``sicbo run``'s nats-server writes its log (LocalNatsServer's store directory).
SERVER_LOG = Path("nats") / "nats-server.log"
#: How many reloads a change takes: nats-server 2.15.1 creates an account that a reload adds,
#: but wires that account's service imports (a partner's Direct Get of the copy) only at the
#: next reload; until then its history reads get "no responders" (live results flow). The
#: family of nats-server#8560 (an account introduced by a reload); a second reload is harmless.
RELOADS = 2
RELOADED = "Reloaded server configuration"


def reload_server(pid: int, log: Path, timeout: float = 30.0) -> None:
    """SIGHUP (``nats-server --signal reload``) to ``pid``; returns once its log says it has
    reloaded, so that a second reload is not folded into the first. A log that cannot be
    read: returns at once (the reload still happens)."""
    try:
        before = log.read_text(errors="replace").count(RELOADED)
    except OSError:
        before = None
    os.kill(pid, signal.SIGHUP)
    deadline = time.monotonic() + timeout  # a bound for a loaded machine, not a measured time
    while before is not None and time.monotonic() < deadline:
        if log.read_text(errors="replace").count(RELOADED) > before:
            return
        time.sleep(0.05)
    if before is not None:
        raise TargetError(f"nats-server (pid {pid}) did not reload within {timeout:.0f} s")


def running_server(data_dir: Path) -> int | None:
    """The PID of the nats-server serving ``data_dir``'s configuration, if one runs: the PID
    file's process must be a nats-server started with that very file (a stale PID file may
    name some other process by now, which must not be signalled)."""
    try:
        pid = int((data_dir / PID_FILE).read_text().strip())
        proc = Path(f"/proc/{pid}")
        args = (proc / "cmdline").read_bytes().split(b"\0")
        cwd = (proc / "cwd").resolve()
    except (OSError, ValueError):
        return None
    if not args or not os.path.basename(args[0]).startswith(b"nats-server"):
        return None
    config = (data_dir / CONFIG).resolve()
    configs = [args[n + 1] for n, a in enumerate(args[:-1]) if a in (b"-c", b"--config")]
    return pid if any((cwd / os.fsdecode(c)).resolve() == config for c in configs) else None
