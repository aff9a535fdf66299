"""NATS over TLS in the manifests: production's floor (the ``tls`` component) connects to
``tls://nats:4222`` and trusts the CA of the NATS servers' certificate, mounted from the
Secret the chart serves TLS with (``values-tls.yaml``), its ``ca.crt`` only; dev stays plain.
That the floor's processes really connect that way: tests/integration/test_tls.py."""

from __future__ import annotations

from pathlib import Path

import yaml

from sicbo.infra import nats_server_tls
from sicbo.infra.nats_tls import CA_FILE_ENV
from tests.deploy.test_manifests import (  # noqa: F401 - `rendered` is the rendered fixture
    ROOT,
    Doc,
    floor_env,
    pod_specs,
    rendered,
)

VALUES_TLS = ROOT / nats_server_tls.HELM_VALUES


def ca_mounts(docs: list[Doc]) -> dict[str, tuple[Doc, Doc]]:
    """kind/name -> (mount, volume) of the CA's directory, for each floor workload."""
    ca_dir = str(Path(floor_env(docs)[CA_FILE_ENV]).parent)
    found = {}
    for name, spec in pod_specs(docs, floor_only=True):
        (container,) = spec["containers"]
        mounts = {m["mountPath"]: m for m in container["volumeMounts"]}
        assert ca_dir in mounts, f"{name} does not mount the CA"
        volumes = {v["name"]: v for v in spec["volumes"]}
        found[name] = (mounts[ca_dir], volumes[mounts[ca_dir]["name"]])
    return found


def test_production_reaches_nats_over_tls_trusting_the_servers_ca(
    rendered: dict[str, list[Doc]],  # noqa: F811 - the fixture imported above
) -> None:
    docs = rendered["production"]
    env = floor_env(docs)
    assert env["NATS_URL"] == "tls://nats:4222"
    ca_file = Path(env[CA_FILE_ENV])
    mounts = ca_mounts(docs)
    assert len(mounts) == len(list(pod_specs(docs, floor_only=True)))
    for name, (mount, volume) in mounts.items():
        assert mount["readOnly"] is True and "subPath" not in mount, name
        secret = volume["secret"]
        # The Secret the chart serves TLS with, and of it the CA's certificate only.
        assert secret["secretName"] == nats_server_tls.SERVER_SECRET, name
        assert secret["items"] == [{"key": "ca.crt", "path": ca_file.name}], name


def test_dev_stays_without_tls(rendered: dict[str, list[Doc]]) -> None:  # noqa: F811
    env = floor_env(rendered["dev"])
    assert env["NATS_URL"].startswith("nats://") and CA_FILE_ENV not in env


def test_the_charts_tls_values_are_the_floors() -> None:
    values = yaml.safe_load(VALUES_TLS.read_text())
    client = values["config"]["nats"]["tls"]
    assert client["enabled"] is True and client["secretName"] == nats_server_tls.SERVER_SECRET
    assert client["merge"] == nats_server_tls.common()  # handshake first, with the fallback
    routes = values["config"]["cluster"]["tls"]
    assert routes["enabled"] is True and routes["secretName"] == nats_server_tls.CLUSTER_SECRET
    ca = values["tlsCA"]
    assert ca == {"enabled": True, "secretName": nats_server_tls.SERVER_SECRET, "key": "ca.crt"}
