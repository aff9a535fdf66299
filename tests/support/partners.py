"""A checkout of the floor's deploy/ of a test's own, its partners registered by the real
``sicbo partners`` command, and what a nats-server of the test runs from it.

``deploy/nats/floor.conf`` (with the ``accounts.conf`` the command regenerated) or the Helm
values' accounts as the chart renders them (tests/deploy/nats_users.helm_conf's way), behind
the passwords of :data:`PASSWORDS`; a partner connects with the seed file the command wrote.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from sicbo.infra.nats_accounts import password_envs
from sicbo.infra.nats_server import LocalNatsServer
from sicbo.infra.partner_targets import reload_server

ROOT = Path(__file__).resolve().parents[2]
PASSWORDS = {env: f"{env.lower()}-test" for env in password_envs()}


@dataclass(frozen=True)
class Checkout:
    """``root/deploy`` copied from the repository; partners are changed with the CLI."""

    root: Path

    @classmethod
    def copy(cls, root: Path) -> Checkout:
        for part in ("deploy/nats", "deploy/nats-helm"):
            shutil.copytree(ROOT / part, root / part)
        (root / "deploy/nats/partners.toml").unlink()  # none but the test's own
        return cls(root)

    def seed_file(self, name: str) -> Path:
        return self.root / "seeds" / f"{name}.nk"

    def partners(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``sicbo partners ARGS --repo ROOT`` as the operator runs it (exit code not checked)."""
        argv = [sys.executable, "-m", "sicbo.cli.main", "partners", *args, "--repo", str(self.root)]
        return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)

    def add(self, name: str) -> Path:
        done = self.partners("add", name, "--seed-file", str(self.seed_file(name)))
        assert done.returncode == 0, done.stderr
        return self.seed_file(name)

    def rotate(self, name: str) -> Path:
        done = self.partners("rotate", name, "--seed-file", str(self.seed_file(name)))
        assert done.returncode == 0, done.stderr
        return self.seed_file(name)

    def remove(self, name: str) -> None:
        done = self.partners("remove", name)
        assert done.returncode == 0, done.stderr

    # -- what a server runs ------------------------------------------------------------------

    def floor_conf(self) -> Path:
        return self.root / "deploy/nats/floor.conf"

    def helm_conf(self) -> Path:
        """The chart's rendering of values.yaml's ``config.merge`` (JSON, ``<< $VAR >>``
        unquoted), rewritten from the values as they are now."""
        merge = yaml.safe_load((self.root / "deploy/nats-helm/values.yaml").read_text())
        config = {"jetstream": "enabled", **merge["config"]["merge"]}
        text = re.sub(r'"<<\s+(.*?)\s+>>"', r"\1", json.dumps(config, indent=2))
        path = self.root / "helm.conf"
        path.write_text(text)
        return path

    def config(self, rendering: str) -> Path:
        return self.floor_conf() if rendering == "floor.conf" else self.helm_conf()


def start_server(store: Path, config: Path) -> LocalNatsServer:
    """A server of ``config``, the passwords in its environment only."""
    return LocalNatsServer(store, config_file=config, env=PASSWORDS).start()


def reload(server: LocalNatsServer, store: Path) -> None:
    """What ``nats-server --signal reload`` does, to this test's own server by PID, as
    ``sicbo partners`` does it on a local floor; returns once the server's log says so."""
    assert server.pid is not None
    reload_server(server.pid, store / "nats-server.log")


def url(server: LocalNatsServer, user: str) -> str:
    """A password user's URL (the floor's, the partners' admin)."""
    env = f"{user.upper().replace('-', '_')}_PASSWORD"
    return f"nats://{user}:{PASSWORDS[env]}@127.0.0.1:{server.port}"
