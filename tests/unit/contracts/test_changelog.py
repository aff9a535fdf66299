"""contracts/CHANGELOG.md: an entry for the contract version, the deprecation policy linked from
the AsyncAPI document, and only type tags the contracts have."""

import re
import tomllib
from pathlib import Path
from typing import Any, get_args

from sicbo_contracts import asyncapi, schemas
from sicbo_contracts.base import tag_of
from sicbo_contracts.version import CONTRACT_VERSION
from tests.unit.contracts.asyncapi_support import document

CHANGELOG = Path(schemas.__file__).resolve().parent.parent / "CHANGELOG.md"
#: A version heading: ``## [1.0.0] - 2026-12-01``.
_HEADING = re.compile(r"^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$", re.MULTILINE)
#: A type tag in backticks: ``round.invalidated.v1``, ``result.v1``.
_TAG = re.compile(r"`([a-z][a-z-]*(?:\.[a-z][a-z-]*)*\.v\d+)`")


def _text() -> str:
    return CHANGELOG.read_text(encoding="utf-8")


def _tags() -> set[str]:
    """Every type tag of every published union (the query and history bodies have none)."""
    found = set()
    for union in schemas.UNIONS.values():
        for member in get_args(union) or (union,):
            config: Any = getattr(member, "__struct_config__", None)
            if config is not None and config.tag is not None:
                found.add(tag_of(member))
    return found


def test_the_contract_version_has_a_changelog_entry_and_is_the_newest() -> None:
    versions = [version for version, _ in _HEADING.findall(_text())]
    assert CONTRACT_VERSION in versions, f"add '## [{CONTRACT_VERSION}] - <date>' to {CHANGELOG}"
    assert versions[0] == CONTRACT_VERSION  # newest first
    as_numbers = [tuple(int(n) for n in v.split(".")) for v in versions]
    assert as_numbers == sorted(as_numbers, reverse=True)


def test_the_asyncapi_document_carries_that_version_and_links_the_policy() -> None:
    doc = document()
    assert doc["info"]["version"] == CONTRACT_VERSION
    assert "## Deprecation policy" in _text()
    assert "Deprecation policy" in doc["info"]["description"]
    assert "(CHANGELOG.md)" in doc["info"]["description"]  # beside contracts/asyncapi.json
    assert asyncapi.ASYNCAPI_PATH.parent / "CHANGELOG.md" == CHANGELOG
    assert doc["info"]["externalDocs"]["url"].endswith("contracts/CHANGELOG.md")


def test_every_type_tag_the_changelog_names_is_one_of_the_contracts() -> None:
    named = set(_TAG.findall(_text()))
    known = _tags()
    assert "result.v1" in named and "result.v1" in known
    # v2 in the policy's wording is an example of a future tag, not a claim
    assert {tag for tag in named - known if not tag.endswith(".v2")} == set()


def test_every_type_tag_past_v1_is_in_the_changelog() -> None:
    """A vN+1 is introduced in the changelog (Deprecation policy, step 1)."""
    named = set(_TAG.findall(_text()))
    later = {tag for tag in _tags() if not tag.endswith(".v1")}
    assert later <= named, later - named


def test_the_contracts_package_carries_the_contract_version() -> None:
    """`pip install ./contracts` gives a partner the version the changelog names."""
    project = tomllib.loads((CHANGELOG.parent / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["version"] == CONTRACT_VERSION
