"""The Kubernetes manifests, checked without a cluster.

Every overlay is rendered with ``kubectl kustomize`` (skipped, with the reason, where kubectl
is absent) and each object is validated offline and strictly against the Kubernetes OpenAPI
schemas bundled with kubernetes-validate: the checks of ``kubernetes-validate --strict``, with
an object of an unknown kind or version failing instead of warning. yamllint runs over
deploy/ with the repository's .yamllint. Then what the floor needs of them: every service is
deployed, probed on the health endpoint, bounded, locked down, stopped gracefully; wager
intake autoscales; the floor talks to NATS (and the collector) only; the tables document opens
its tables. The web gateway is deployed alike, probed on /healthz, behind a Service, reached
in production only from the Ingress controller over HTTPS, with the operator list and the
cookie secret from Secrets (dev generates the former from the demo list).

By hand: ``kubectl kustomize deploy/kustomize/overlays/production | .venv/bin/kubernetes-validate
--strict -`` and ``.venv/bin/yamllint -s deploy``.
"""

from __future__ import annotations

import base64
import importlib
import shutil
import subprocess
import sys
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import kubernetes_validate
import msgspec
import pytest
import yaml
from kubernetes_validate.utils import SchemaNotFoundError, ValidationError

from sicbo.cli.services import ServiceName
from sicbo.gateway.operators import parse_operators
from sicbo.lifecycle import decider
from sicbo.shell.bootstrap import GRACEFUL_TIMEOUT
from sicbo_contracts.lifecycle import LifecycleCommand, OpenTable, TableOpened

ROOT = Path(__file__).resolve().parents[2]
KUSTOMIZE = ROOT / "deploy" / "kustomize"
OVERLAYS = ("dev", "production")
#: The oldest Kubernetes the manifests are for (Job podFailurePolicy and the PDBs'
#: unhealthyPodEvictionPolicy are GA in 1.31), and the newest the validator knows.
KUBERNETES_VERSIONS = ("1.31.0", "1.37.0")
SERVICES = tuple(s.value for s in ServiceName)
HEALTH_PATHS = {"livenessProbe": "/livez", "readinessProbe": "/readyz", "startupProbe": "/livez"}
#: The NATS users' passwords, a key per user, shared with the NATS release (deploy/nats-helm).
SECRET = "nats-floor-users"
#: The operator's tooling user (provisioning, the toolbox).
TOOLING_USER = "floor"
TOOLBOX = "sicbo-toolbox"
GATEWAY = "sicbo-gateway"
GATEWAY_USER = "gateway"
#: The gateway's port inside the pod (`--port`), the Service's, and its probe's path.
GATEWAY_PORT, GATEWAY_SERVICE_PORT, GATEWAY_HEALTH = 8080, 80, "/healthz"
#: The gateway's operator list (a key of its Secret) and cookie secret: created out of band,
#: except the dev floor's demo list.
OPERATORS_SECRET = "sicbo-operators"
OPERATORS_KEY = "operators.toml"
GATEWAY_SECRET = "sicbo-gateway"
#: uvicorn's timeout_graceful_shutdown in `sicbo gateway serve` (sicbo.cli.gateway).
GATEWAY_GRACEFUL_STOP = 2
DEMO_OPERATORS = ROOT / "services" / "sicbo" / "gateway" / "operators.toml"

Doc = dict[str, Any]


def _kubectl() -> str:
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        pytest.skip("kubectl is not on PATH: cannot render the kustomizations (CI has it)")
    return kubectl


@pytest.fixture(scope="module")
def rendered() -> dict[str, list[Doc]]:
    kubectl = _kubectl()
    out: dict[str, list[Doc]] = {}
    for overlay in OVERLAYS:
        result = subprocess.run(
            [kubectl, "kustomize", str(KUSTOMIZE / "overlays" / overlay)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert result.returncode == 0, f"kubectl kustomize {overlay}: {result.stderr}"
        out[overlay] = [d for d in yaml.safe_load_all(result.stdout) if d]
    return out


def of_kind(docs: list[Doc], kind: str) -> dict[str, Doc]:
    return {d["metadata"]["name"]: d for d in docs if d["kind"] == kind}


def floor_deployments(docs: list[Doc]) -> dict[str, Doc]:
    """The services' Deployments, by name (not the toolbox, which runs none, nor the gateway)."""
    names = {f"sicbo-{s}" for s in SERVICES}
    return {n: d for n, d in of_kind(docs, "Deployment").items() if n in names}


def gateway_container(docs: list[Doc]) -> Doc:
    (container,) = of_kind(docs, "Deployment")[GATEWAY]["spec"]["template"]["spec"]["containers"]
    return container


def pod_templates(docs: list[Doc], *, floor_only: bool = False) -> Iterator[tuple[str, Doc]]:
    """``(kind/name, pod template)`` of every workload; the floor's run the image as `sicbo`."""
    for doc in docs:
        if doc["kind"] in ("Deployment", "Job"):
            template = doc["spec"]["template"]
            if floor_only and all(c["name"] != "sicbo" for c in template["spec"]["containers"]):
                continue
            yield f"{doc['kind']}/{doc['metadata']['name']}", template


def pod_specs(docs: list[Doc], *, floor_only: bool = False) -> Iterator[tuple[str, Doc]]:
    for name, template in pod_templates(docs, floor_only=floor_only):
        yield name, template["spec"]


def floor_env(docs: list[Doc]) -> dict[str, str]:
    (config,) = (
        d
        for d in docs
        if d["kind"] == "ConfigMap" and d["metadata"]["name"].startswith("sicbo-floor")
    )
    data: dict[str, str] = config["data"]
    return data


def graceful_stop_seconds(service: str) -> float:
    """How long the service may take to stop after SIGTERM: its broker's graceful timeout."""
    importlib.import_module(f"sicbo.{service}.service")  # a service of that name exists
    return GRACEFUL_TIMEOUT  # every service is built by the one bootstrap


# ---- rendering, schemas, lint -------------------------------------------------------------


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_object_validates_strictly_offline(
    rendered: dict[str, list[Doc]], overlay: str
) -> None:
    problems = []
    for doc in rendered[overlay]:
        name = f"{doc['kind']}/{doc['metadata']['name']}"
        for version in KUBERNETES_VERSIONS:
            try:
                kubernetes_validate.validate(doc, version, strict=True)
            except ValidationError as exc:
                path = ".".join(str(p) for p in exc.path)
                problems.append(f"{name} (Kubernetes {version}): {path}: {exc.message}")
            except SchemaNotFoundError as exc:  # the CLI only warns: here it is a failure
                problems.append(f"{name}: {exc.message}")
    assert not problems, "\n".join(problems)


def test_yamllint_passes_over_deploy() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "yamllint", "--strict", "-c", ".yamllint", "deploy"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


# ---- what the floor needs -----------------------------------------------------------------


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_one_deployment_per_service_running_it(
    rendered: dict[str, list[Doc]], overlay: str
) -> None:
    deployments = floor_deployments(rendered[overlay])
    assert set(deployments) == {f"sicbo-{s}" for s in SERVICES}
    assert {n for n in of_kind(rendered[overlay], "Deployment") if n.startswith("sicbo-")} == {
        *deployments,
        GATEWAY,
        TOOLBOX,
    }
    for service in SERVICES:
        spec = deployments[f"sicbo-{service}"]["spec"]["template"]["spec"]
        (container,) = spec["containers"]
        assert container["args"] == ["serve", service]
        assert container["image"].rsplit("/", 1)[-1].startswith("sicbo-floor:")


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_deployment_is_probed_on_the_health_endpoint(
    rendered: dict[str, list[Doc]], overlay: str
) -> None:
    port = int(floor_env(rendered[overlay])["SICBO_HEALTH_PORT"])
    for name, deployment in floor_deployments(rendered[overlay]).items():
        (container,) = deployment["spec"]["template"]["spec"]["containers"]
        ports = {p["name"]: p["containerPort"] for p in container["ports"]}
        assert ports.get("health") == port, name
        for probe, path in HEALTH_PATHS.items():
            assert container[probe]["httpGet"] == {"path": path, "port": "health"}, (name, probe)
        assert container["livenessProbe"]["timeoutSeconds"] >= 2, name


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_serving_deployment_has_readiness_and_liveness_probes(
    rendered: dict[str, list[Doc]], overlay: str
) -> None:
    """Every Deployment but the toolbox (which serves nothing) is probed over HTTP on a port
    its container declares; the gateway on its own /healthz."""
    for name, deployment in of_kind(rendered[overlay], "Deployment").items():
        if name == TOOLBOX:
            continue
        for container in deployment["spec"]["template"]["spec"]["containers"]:
            ports = {p["name"]: p["containerPort"] for p in container["ports"]}
            for probe in ("readinessProbe", "livenessProbe"):
                assert container[probe]["httpGet"]["port"] in ports, (name, probe)
                assert container[probe]["timeoutSeconds"] >= 2, (name, probe)
    gateway = gateway_container(rendered[overlay])
    assert {p["name"]: p["containerPort"] for p in gateway["ports"]} == {"http": GATEWAY_PORT}
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert gateway[probe]["httpGet"] == {"path": GATEWAY_HEALTH, "port": "http"}, probe
    # /healthz fails on a NATS outage: unready at once, restarted only after a while.
    liveness = gateway["livenessProbe"]
    assert liveness["periodSeconds"] * liveness["failureThreshold"] >= 60


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_pod_has_requests_and_limits(rendered: dict[str, list[Doc]], overlay: str) -> None:
    for name, spec in pod_specs(rendered[overlay]):
        for container in spec["containers"]:
            resources = container["resources"]
            for bound in ("requests", "limits"):
                assert set(resources[bound]) >= {"cpu", "memory"}, (name, bound)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_every_pod_is_locked_down(rendered: dict[str, list[Doc]], overlay: str) -> None:
    accounts = of_kind(rendered[overlay], "ServiceAccount")
    for name, spec in pod_specs(rendered[overlay]):
        pod = spec["securityContext"]
        assert pod["runAsNonRoot"] is True, name
        assert pod["runAsUser"] > 0, name
        assert pod["seccompProfile"] == {"type": "RuntimeDefault"}, name
        assert spec["automountServiceAccountToken"] is False, name
        assert accounts[spec["serviceAccountName"]]["automountServiceAccountToken"] is False
        writable = {v["name"] for v in spec.get("volumes", []) if "emptyDir" in v}
        for container in spec["containers"]:
            ctx = container["securityContext"]
            assert ctx["runAsNonRoot"] is True, name
            assert ctx["allowPrivilegeEscalation"] is False, name
            assert ctx["readOnlyRootFilesystem"] is True, name
            assert ctx["capabilities"] == {"drop": ["ALL"]}, name
            if container["name"] == "sicbo":  # a read-only root: Python's temp files go here
                mounts = {m["mountPath"]: m["name"] for m in container["volumeMounts"]}
                assert mounts.get("/tmp") in writable, name


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_termination_grace_outlasts_the_graceful_stop(
    rendered: dict[str, list[Doc]], overlay: str
) -> None:
    for service in SERVICES:
        deployment = floor_deployments(rendered[overlay])[f"sicbo-{service}"]
        grace = deployment["spec"]["template"]["spec"]["terminationGracePeriodSeconds"]
        # Some seconds on top for the connections' drain after the broker has stopped.
        assert grace >= graceful_stop_seconds(service) + 10, service
    # The gateway: its preStop pause, uvicorn's graceful stop, the NATS drain.
    gateway = of_kind(rendered[overlay], "Deployment")[GATEWAY]["spec"]["template"]["spec"]
    (container,) = gateway["containers"]
    pause = int(container["lifecycle"]["preStop"]["exec"]["command"][-1])
    assert gateway["terminationGracePeriodSeconds"] >= pause + GATEWAY_GRACEFUL_STOP + 10


def nats_users(docs: list[Doc]) -> dict[str, str]:
    """kind/name -> the NATS user each floor workload connects as."""
    users = {}
    for name, spec in pod_specs(docs, floor_only=True):
        (container,) = spec["containers"]
        (user,) = (e["value"] for e in container.get("env", []) if e["name"] == "NATS_USER")
        users[name] = user
    return users


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_each_workload_is_its_own_nats_user_with_only_its_password(
    rendered: dict[str, list[Doc]], overlay: str
) -> None:
    docs = rendered[overlay]
    users = nats_users(docs)
    expected = {f"Deployment/sicbo-{s}": s for s in SERVICES}
    expected |= {f"Deployment/{TOOLBOX}": TOOLING_USER, "Job/sicbo-provision": TOOLING_USER}
    expected |= {f"Deployment/{GATEWAY}": GATEWAY_USER}
    assert users == expected
    password_file = Path(floor_env(docs)["NATS_PASSWORD_FILE"])
    for name, spec in pod_specs(docs, floor_only=True):
        (container,) = spec["containers"]
        refs = [r["configMapRef"]["name"] for r in container["envFrom"]]
        assert any(r.startswith("sicbo-floor") for r in refs), name
        volumes = {v["name"]: v for v in spec["volumes"]}
        mounts = {m["mountPath"]: m for m in container["volumeMounts"]}
        # The directory, never a subPath: the kubelet refreshes it when the Secret rotates.
        mount = mounts[str(password_file.parent)]
        assert "subPath" not in mount and mount["readOnly"] is True, name
        secret = volumes[mount["name"]]["secret"]
        assert secret["secretName"] == SECRET, name
        # Only its own key: a pod never holds another user's password.
        assert secret["items"] == [{"key": users[name], "path": password_file.name}], name
    # Created out of band (docs/runbook.md), never from the repository; only the dev floor
    # generates one, the gateway's demo operator list (public PINs).
    secrets = {n.rsplit("-", 1)[0] if overlay == "dev" else n for n in of_kind(docs, "Secret")}
    assert secrets == ({OPERATORS_SECRET} if overlay == "dev" else set())


def test_the_nats_users_exist_in_the_floor_account(rendered: dict[str, list[Doc]]) -> None:
    accounts = pytest.importorskip("sicbo.infra.nats_accounts")
    (floor,) = (a for a in accounts.ACCOUNTS if a.name == "FLOOR")
    known = {u.name for u in floor.users}
    for overlay in OVERLAYS:
        assert set(nats_users(rendered[overlay]).values()) <= known


def test_the_toolbox_waits_at_zero_replicas(rendered: dict[str, list[Doc]]) -> None:
    for overlay in OVERLAYS:
        toolbox = of_kind(rendered[overlay], "Deployment")[TOOLBOX]
        assert toolbox["spec"]["replicas"] == 0, overlay
        (container,) = toolbox["spec"]["template"]["spec"]["containers"]
        assert container["command"] == ["sleep", "infinity"]


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_disruption_budgets_cover_every_service(
    rendered: dict[str, list[Doc]], overlay: str
) -> None:
    budgets = of_kind(rendered[overlay], "PodDisruptionBudget")
    for name in (*(f"sicbo-{s}" for s in SERVICES), GATEWAY):
        budget = budgets[name]["spec"]
        assert budget["selector"]["matchLabels"] == {"app.kubernetes.io/name": name}
        assert budget["maxUnavailable"] == 1  # never blocks draining a one-replica dev node


def test_production_autoscales_wager_intake(rendered: dict[str, list[Doc]]) -> None:
    docs = rendered["production"]
    (hpa,) = of_kind(docs, "HorizontalPodAutoscaler").values()
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", "sicbo-wagers")
    assert 2 <= hpa["spec"]["minReplicas"] < hpa["spec"]["maxReplicas"]
    # The HPA owns the count: a replicas field would be reset on every apply.
    assert "replicas" not in floor_deployments(docs)["sicbo-wagers"]["spec"]
    for name, deployment in floor_deployments(docs).items():
        if name != "sicbo-wagers":
            assert deployment["spec"]["replicas"] >= 2, name
    assert of_kind(docs, "Deployment")[GATEWAY]["spec"]["replicas"] == 2


def test_production_has_three_replica_streams_and_the_collector(
    rendered: dict[str, list[Doc]],
) -> None:
    docs = rendered["production"]
    job = of_kind(docs, "Job")["sicbo-provision"]
    assert job["spec"]["template"]["spec"]["containers"][0]["args"] == [
        "provision",
        "--replicas",
        "3",
    ]
    assert "otel-collector" in of_kind(docs, "Deployment")
    assert "otel-collector" in of_kind(docs, "Service")
    assert floor_env(docs)["OTEL_EXPORTER_OTLP_ENDPOINT"] == "http://otel-collector:4318"


def test_dev_is_a_single_node_floor(rendered: dict[str, list[Doc]]) -> None:
    docs = rendered["dev"]
    assert not of_kind(docs, "HorizontalPodAutoscaler")
    for name, deployment in floor_deployments(docs).items():
        assert deployment["spec"]["replicas"] == 1, name
    assert of_kind(docs, "Deployment")[GATEWAY]["spec"]["replicas"] == 1
    job = of_kind(docs, "Job")["sicbo-provision"]
    assert job["spec"]["template"]["spec"]["containers"][0]["args"] == [
        "provision",
        "--replicas",
        "1",
    ]
    # No collector: nothing to export to, so nothing is exported.
    assert "OTEL_EXPORTER_OTLP_ENDPOINT" not in floor_env(docs)


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_floor_talks_only_to_nats_and_the_collector(
    rendered: dict[str, list[Doc]], overlay: str
) -> None:
    docs = rendered[overlay]
    floor_label = {"app.kubernetes.io/part-of": "sicbo-floor"}
    policies = [
        p["spec"]
        for p in of_kind(docs, "NetworkPolicy").values()
        if p["spec"]["podSelector"].get("matchLabels") == floor_label
    ]
    # Every floor pod is selected (they all carry the label), in both directions.
    for name, template in pod_templates(docs, floor_only=True):
        assert template["metadata"]["labels"].items() >= floor_label.items(), name
    types = {t for p in policies for t in p["policyTypes"]}
    assert types == {"Ingress", "Egress"}
    assert not [rule for p in policies for rule in p.get("ingress") or []]
    # The one way in: production's Ingress controller to the gateway's HTTP port.
    ways_in = [
        (p["spec"]["podSelector"], rule)
        for p in of_kind(docs, "NetworkPolicy").values()
        for rule in p["spec"].get("ingress") or []
        if p["metadata"]["name"] != "otel-collector"
    ]
    if overlay == "production":
        ((selector, rule),) = ways_in
        assert selector == {"matchLabels": {"app.kubernetes.io/name": GATEWAY}}
        assert rule["ports"] == [{"protocol": "TCP", "port": GATEWAY_PORT}]
        (peer,) = rule["from"]
        assert peer.keys() == {"namespaceSelector", "podSelector"}  # the controller's pods only
    else:
        assert not ways_in
    allowed = {("nats", 4222), ("kube-dns", 53)}
    if overlay == "production":
        allowed.add(("otel-collector", 4318))
    reached = set()
    for policy in policies:
        for rule in policy.get("egress") or []:
            assert rule.get("to"), "an egress rule without `to` opens every address"
            for peer in rule["to"]:
                labels = peer["podSelector"]["matchLabels"]
                target = labels.get("app.kubernetes.io/name") or labels.get("k8s-app")
                reached |= {(target, p["port"]) for p in rule["ports"]}
    assert reached == allowed


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_tables_document_opens_each_table(rendered: dict[str, list[Doc]], overlay: str) -> None:
    (config,) = (
        d
        for d in rendered[overlay]
        if d["kind"] == "ConfigMap" and d["metadata"]["name"] == "sicbo-tables"
    )
    lines = config["data"]["tables.jsonl"].splitlines()
    assert lines
    decode = msgspec.json.Decoder(LifecycleCommand)
    tables = []
    for line in lines:
        command = decode.decode(line)
        assert isinstance(command, OpenTable)
        assert command.command_id == f"open-{command.table}"
        # The lifecycle decider itself accepts it on a new table (profile, limits, countdown).
        events = decider.decide(decider.initial_state(command.table), command, datetime.now(UTC))
        assert [type(e) for e in events] == [TableOpened]
        tables.append(command.table)
    assert len(set(tables)) == len(tables)


# ---- the web gateway ------------------------------------------------------------------------


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_gateway_serves_on_all_interfaces_behind_its_service(
    rendered: dict[str, list[Doc]], overlay: str
) -> None:
    docs = rendered[overlay]
    container = gateway_container(docs)
    args = container["args"]
    assert args[:2] == ["gateway", "serve"]
    assert args[args.index("--host") + 1] == "0.0.0.0"
    assert int(args[args.index("--port") + 1]) == GATEWAY_PORT
    # TLS ends at production's Ingress: the session cookie is then Secure.
    assert ("--https-only" in args) is (overlay == "production")
    assert container["image"].rsplit("/", 1)[-1].startswith("sicbo-floor:")
    service = of_kind(docs, "Service")[GATEWAY]["spec"]
    assert service.get("type", "ClusterIP") == "ClusterIP"
    assert service["selector"] == {"app.kubernetes.io/name": GATEWAY}
    assert service["ports"] == [
        {"name": "http", "port": GATEWAY_SERVICE_PORT, "targetPort": "http", "protocol": "TCP"}
    ]
    assert "sessionAffinity" not in service  # stateless: any replica serves any page


@pytest.mark.parametrize("overlay", OVERLAYS)
def test_the_gateway_takes_its_secret_and_operator_list_from_secrets(
    rendered: dict[str, list[Doc]], overlay: str
) -> None:
    docs = rendered[overlay]
    spec = of_kind(docs, "Deployment")[GATEWAY]["spec"]["template"]["spec"]
    (container,) = spec["containers"]
    env = {e["name"]: e for e in container["env"]}
    # Sessions are the replica's own (server-side): no cookie-signing secret is shared.
    assert "SICBO_GATEWAY_SECRET" not in env
    if overlay == "production":  # the floor's own origin, the ingress's forwarded address
        args = container["args"]
        assert "--https-only" in args
        assert any(a.startswith("--origin=https://") for a in args)
        assert any(a.startswith("--forwarded-allow-ips=") for a in args)
    # The operator list: a file of the mounted Secret (not subPath: it may be replaced).
    operators = Path(env["SICBO_OPERATORS"]["value"])
    mounts = {m["mountPath"]: m for m in container["volumeMounts"]}
    mount = mounts[str(operators.parent)]
    assert mount["readOnly"] is True and "subPath" not in mount
    (volume,) = (v for v in spec["volumes"] if v["name"] == mount["name"])
    secret = volume["secret"]
    assert secret["items"] == [{"key": OPERATORS_KEY, "path": operators.name}]
    generated = of_kind(docs, "Secret")
    if overlay == "production":
        assert secret["secretName"] == OPERATORS_SECRET and not generated
    else:  # the demo list, generated under a hashed name that the volume follows
        (name,) = generated
        assert secret["secretName"] == name and name.startswith(f"{OPERATORS_SECRET}-")
        text = base64.b64decode(generated[name]["data"][OPERATORS_KEY]).decode()
        demo = parse_operators(DEMO_OPERATORS.read_text())
        assert parse_operators(text, "dev operators.toml") == demo


def test_production_reaches_the_gateway_over_https_only(rendered: dict[str, list[Doc]]) -> None:
    docs = rendered["production"]
    (ingress,) = of_kind(docs, "Ingress").values()
    spec = ingress["spec"]
    hosts = {h for tls in spec["tls"] for h in tls["hosts"]}
    assert all(tls["secretName"] for tls in spec["tls"])
    for rule in spec["rules"]:
        assert rule["host"] in hosts, "a host served without TLS"
        for path in rule["http"]["paths"]:
            assert path["backend"]["service"] == {"name": GATEWAY, "port": {"name": "http"}}
    # Sessions are the replica's own: the Ingress keeps a browser on one replica, by a cookie
    # as guarded as the session's own.
    notes = ingress["metadata"]["annotations"]
    assert notes["nginx.ingress.kubernetes.io/affinity"] == "cookie"
    assert notes["nginx.ingress.kubernetes.io/session-cookie-secure"] == "true"
    assert notes["nginx.ingress.kubernetes.io/session-cookie-samesite"] == "Strict"
    assert not of_kind(rendered["dev"], "Ingress")
