"""The container image's recipe, checked without a Docker engine (what it installs, the lock,
is tests/deploy/test_lock.py's)."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROJECT = "sicbo-floor"


def test_dockerfile_builds_one_non_root_image_of_the_cli() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^ARG PYTHON_IMAGE=python:3\.11-slim$", text, re.M)
    (user,) = re.findall(r"^USER (\d+):(\d+)$", text, re.M)
    assert int(user[0]) > 0 and int(user[1]) > 0  # numeric: runAsNonRoot can check it
    (entrypoint,) = re.findall(r"^ENTRYPOINT (.+)$", text, re.M)
    assert json.loads(entrypoint) == ["sicbo"]
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert "sicbo" in scripts
    # Everything the build copies is let through .dockerignore.
    ignore = (ROOT / ".dockerignore").read_text().splitlines()
    for copied in re.findall(r"^COPY (?!--from)(.+) \S+$", text, re.M):
        for path in copied.split():
            assert f"!{path}" in ignore or f"!{path}/" in ignore, path


def test_the_manifests_run_as_the_image_user() -> None:
    text = (ROOT / "Dockerfile").read_text()
    (uid,) = re.findall(r"^USER (\d+):", text, re.M)
    for manifest in (ROOT / "deploy" / "kustomize" / "base").glob("*.yaml"):
        for found in re.findall(r"runAsUser: (\d+)", manifest.read_text()):
            assert found == uid, manifest.name


def test_the_gateway_pages_and_operator_list_are_package_data() -> None:
    """The image holds what ``pip install .`` installs: every file of the gateway's static
    directory (a sub-directory would need a pattern of its own) and the demo operator list
    must match a package-data pattern, and the gateway's port is exposed."""
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    package = ROOT / "services" / "sicbo"
    shipped = {
        p for pattern in package_data["package-data"]["sicbo"] for p in package.glob(pattern)
    }
    static = package / "gateway" / "static"
    needed = {p for p in static.rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert needed, "no pages under sicbo/gateway/static"
    needed.add(package / "gateway" / "operators.toml")
    missing = sorted(str(p.relative_to(package)) for p in needed - shipped)
    assert not missing, f"not package data (pyproject.toml), so not in the image: {missing}"
    text = (ROOT / "Dockerfile").read_text()
    assert "8080" in re.findall(r"^EXPOSE (.+)$", text, re.M)[0].split()
