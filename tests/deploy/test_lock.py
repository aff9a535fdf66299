"""The install is the lock: lock/dev.txt is the whole closure, runtime and dev, with every
file's hash; lock/runtime.txt, the image's, is its run-time part (Makefile `lock`).

These tests read the lock, pyproject.toml and the installed distributions' metadata only: no
registry is asked, so they prove offline that the lock is closed (nothing outside it is needed)
for every Python version the README promises, and that the venv `make setup` made is the lock.
"""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PROJECT = canonicalize_name("sicbo-floor")
INSTALLERS = {"pip", "setuptools"}  # lock/installers.in: they install the rest
PROMISED_PYTHONS = ("3.11", "3.12", "3.13")  # README: "Python 3.11 to 3.13"


@dataclass(frozen=True)
class Locked:
    name: str
    version: str
    requirement: Requirement
    text: str  # the whole entry, hashes included

    def wanted_on(self, environment: dict[str, str]) -> bool:
        marker = self.requirement.marker
        return marker is None or marker.evaluate(environment)


def read_lock(name: str) -> dict[str, Locked]:
    """The entries of lock/<name>, uv's hashed requirements format: a pin line, then its
    ``--hash`` lines (comments aside)."""
    entries: dict[str, Locked] = {}
    for block in re.split(r"\n(?=[A-Za-z0-9])", (ROOT / "lock" / name).read_text()):
        if not block[:1].isalnum():
            continue  # the header
        first, *rest = block.splitlines()
        requirement = Requirement(first.rstrip(" \\"))
        (spec,) = requirement.specifier
        assert spec.operator == "==", f"lock/{name}: {first} is not pinned"
        hashes = [line.strip(" \\") for line in rest if line.strip().startswith("--hash=")]
        assert hashes, f"lock/{name}: {requirement.name} has no hash"
        key = canonicalize_name(requirement.name)
        entries[key] = Locked(key, spec.version, requirement, "\n".join([first, *hashes]))
    return entries


def environment(python: str) -> dict[str, str]:
    """This machine's marker environment, with another Python version."""
    env = dict(default_environment())
    env.update(python_version=python, python_full_version=f"{python}.0", extra="")
    return env


def this_python() -> str:
    return "{}.{}".format(*sys.version_info)


def test_every_dependency_of_pyproject_is_pinned_and_locked_at_its_pin() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    project = pyproject["project"]
    lock = read_lock("dev.txt")
    lines = [*project["dependencies"], *project["optional-dependencies"]["dev"]]
    lines += pyproject["build-system"]["requires"]
    for line in lines:
        req = Requirement(line)
        (spec,) = req.specifier
        assert spec.operator == "==", f"{line}: pin it"
        locked = lock.get(canonicalize_name(req.name))
        assert locked is not None and locked.version == spec.version, f"{line}: `make lock`"


def test_the_venv_holds_exactly_the_whole_lock() -> None:
    """What `make setup` installed is lock/dev.txt for this platform, no more, no less."""
    installed = {canonicalize_name(d.metadata["Name"]): d.version for d in metadata.distributions()}
    installed.pop(PROJECT)
    here = environment(this_python())
    wanted = {e.name: e.version for e in read_lock("dev.txt").values() if e.wanted_on(here)}
    assert installed == wanted


@pytest.mark.parametrize("python", PROMISED_PYTHONS)
def test_the_lock_resolves_from_itself(python: str) -> None:
    """Every requirement of every locked package that applies on ``python`` (its markers, the
    extras it is asked with) is met by the lock: pip --require-hashes --no-deps needs nothing
    more. Read from the installed distributions' metadata, which are the lock's versions."""
    lock = read_lock("dev.txt")
    env = environment(python)
    asked: list[tuple[str, frozenset[str]]] = [(PROJECT, frozenset({"dev"}))]
    seen: set[tuple[str, frozenset[str]]] = set()
    while asked:
        name, extras = asked.pop()
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        for line in metadata.distribution(name).requires or []:
            req = Requirement(line)
            if req.marker and not any(
                req.marker.evaluate({**env, "extra": extra}) for extra in (extras or {""})
            ):
                continue
            key = canonicalize_name(req.name)
            assert key in lock, f"Python {python}: {name} needs {req}, not in lock/dev.txt"
            assert lock[key].wanted_on(env), f"Python {python}: {name} needs {key}, marked off"
            assert req.specifier.contains(lock[key].version, prereleases=True), (
                f"Python {python}: {name} needs {req}, locked {lock[key].version}"
            )
            asked.append((key, frozenset(req.extras)))


def test_the_image_lock_is_the_run_time_part_of_the_whole_lock() -> None:
    """Each entry of lock/runtime.txt, hashes included, is that of lock/dev.txt: the image
    runs the files the test suite runs with."""
    whole, image = read_lock("dev.txt"), read_lock("runtime.txt")
    assert image.keys() <= whole.keys()
    assert {name: whole[name].text for name in image} == {n: e.text for n, e in image.items()}


def runtime_closure() -> dict[str, str]:
    """name -> installed version of everything ``pip install .`` brings (no extras)."""
    found: dict[str, str] = {}
    extras_seen: dict[str, set[str]] = {}
    todo: list[tuple[str, frozenset[str]]] = [(PROJECT, frozenset())]
    while todo:
        name, extras = todo.pop()
        key = canonicalize_name(name)
        seen = extras_seen.setdefault(key, set())
        if key in found and extras <= seen:
            continue
        seen |= extras
        dist = metadata.distribution(name)
        found[key] = dist.version
        for line in dist.requires or []:
            req = Requirement(line)
            wanted = req.marker is None or any(
                req.marker.evaluate({"extra": extra}) for extra in (seen or {""})
            )
            if wanted:
                todo.append((req.name, frozenset(req.extras)))
    del found[PROJECT]
    return found


def test_the_image_lock_pins_exactly_the_runtime_closure() -> None:
    runtime = read_lock("runtime.txt")
    here = environment(this_python())
    pins = {
        name: e.version
        for name, e in runtime.items()
        if name not in INSTALLERS and e.wanted_on(here)
    }
    assert pins == runtime_closure(), "lock/runtime.txt is not the run-time closure: make lock"
    assert runtime.keys() >= INSTALLERS  # the image's build installs with them


def test_every_install_is_from_the_lock_with_hashes() -> None:
    """The Makefile's venv and the image install the lock with --require-hashes and the
    project itself with no dependencies and no isolated build (no floating setuptools)."""
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"--require-hashes \\\n\s+--no-deps -r \$\(LOCK\)", makefile)
    assert "$(LOCKED): $(LOCK)\n\trm -rf $(VENV)" in makefile  # a new lock, a new venv
    assert "--no-deps --no-build-isolation -e ." in makefile
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "--require-hashes --no-deps -r lock/runtime.txt" in dockerfile
    assert "--no-deps --no-build-isolation ." in dockerfile
    recipes = re.sub(r"(?m)^#.*\n", "", makefile + dockerfile)
    unfolded = re.sub(r"\\\n\s*", " ", recipes)
    installs = re.findall(r"pip install[^\n&]*", unfolded)
    assert all("-r " in i or "--no-deps" in i for i in installs), installs
