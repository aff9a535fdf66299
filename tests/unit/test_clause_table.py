"""docs/rules.md's clause table: every clause of the rule documents, with the code and the tests
that cite it, or a note saying why none; current with the code, and no citation of a clause the
documents do not have."""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "clause_index.py"


@pytest.fixture(scope="module")
def clause_index() -> ModuleType:
    spec = importlib.util.spec_from_file_location("clause_index", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["clause_index"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_citations_are_read_as_the_code_writes_them(clause_index: ModuleType) -> None:
    cited = list(clause_index.citations("000 §7.1-7.4, §8.5; 002/2004 arts. 1, 2 and 5-6"))
    assert cited == [
        *(f"000 §7.{n}" for n in (1, 2, 3, 4)),
        "000 §8.5",
        *(f"002/2004 art. {n}" for n in (1, 2, 5, 6)),
    ]
    assert list(clause_index.citations("002 art. 3(3), GLI-19 §4.18.4")) == [
        "002/2003 art. 3",
        "002/2004 art. 3",
    ]
    assert list(clause_index.citations('004 "Ralat Pengendalian"')) == ['004 "Ralat Pengendalian"']
    assert list(clause_index.named("test_x_000_8_4_and_002_2004_art_8")) == [
        "000 §8.4",
        "002/2004 art. 8",
    ]
    assert list(clause_index.named("test_x_000_7_002_art_3")) == [
        "000 §7",  # not 000 §7.002: the 002 that follows is the next document
        "002/2003 art. 3",
        "002/2004 art. 3",
    ]


def test_a_sub_clause_counts_for_its_clause_and_a_missing_one_is_an_error(
    clause_index: ModuleType,
) -> None:
    clauses, aliases = clause_index.load_clauses()
    assert clause_index.resolve("000 §3.1.1.2", clauses, aliases) == "000 §3.1.1"
    assert clause_index.resolve("000 §8.4.2", clauses, aliases) == "000 §8.4"
    assert clause_index.resolve("000 §7", clauses, aliases) == ""  # a heading: counts for none
    assert clause_index.resolve("000 §9.1", clauses, aliases) is None
    assert clause_index.resolve("002/2003 art. 8", clauses, aliases) is None
    assert clause_index.resolve('004 "Rekod Pertaruhan"', clauses, aliases) == (
        '004 "Dasar Pemutusan Sambungan"'
    )


def test_every_clause_has_code_and_tests_or_a_note_and_no_citation_is_of_no_clause(
    clause_index: ModuleType,
) -> None:
    clauses, aliases = clause_index.load_clauses()
    unknown = clause_index.index(clauses, aliases)
    assert unknown == [], "citations of no clause of the documents"
    assert clause_index.gaps(clauses) == [], "clauses with neither code and tests nor a note"


def test_the_table_in_docs_rules_md_is_current(clause_index: ModuleType) -> None:
    current = clause_index.RULES.read_text(encoding="utf-8")
    assert clause_index.rendered(current) == current, "run `make rules-table`"
