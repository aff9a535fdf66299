"""The clause table of docs/rules.md: every clause of the rule documents, the code that cites it
and the tests that do (``make rules-table`` writes it; ``--check`` says whether it is current).

The clauses and their notes are ``docs/clauses.toml``. A citation is what the code and the tests
already write beside a rule (``000 §8.4``, ``002/2004 art. 3(4)``, ``004 "Ralat
Pengendalian"``) and what test names say (``test_..._000_8_4``, ``..._002_2004_art_8``). A
citation of a clause that is not in the documents (a typo, a section that does not exist) is an
error: the table says so, and the test of the table fails.
"""

from __future__ import annotations

import re
import sys
import tomllib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLAUSES = ROOT / "docs" / "clauses.toml"
RULES = ROOT / "docs" / "rules.md"
BEGIN, END = "<!-- clause-table:begin -->", "<!-- clause-table:end -->"
CODE_GLOBS = ("services/**/*.py", "services/**/*.toml", "services/**/*.js", "contracts/**/*.py")
TEST_GLOBS = ("tests/**/*.py",)
SHOWN = 3  # places listed per cell, then "+N"
#: Files whose citations are examples, not citations: this script and its test.
NOT_SCANNED = frozenset({"clause_index.py", "test_clause_table.py"})

_SECTION = r"(?<!GLI-19 )(?<!GLI-19 §C)§\s?(\d+(?:\.\d+)*)(?:\s*[-\u2013]\s*(\d+(?:\.\d+)*))?"
_ARTS = r"(\d+(?:\(\d+\))?(?:\s*(?:,|and|-|\u2013|or)\s*\d+(?:\(\d+\))?)*)"
_EDITION = r"002(?:/|\s)(2003|2004)\s+arts?\.\s*" + _ARTS
_BOTH = r"002\s+arts?\.\s*" + _ARTS
_NAME = r"[A-Z][a-z]+(?: [A-Z][a-z]+)*"
_ONLINE = rf"004\s+(?:\"({_NAME})\"|\u201c({_NAME})\u201d)"
_NAME_000 = r"(?<![0-9])000_([1-9]\d?(?:_\d{1,2}(?!\d))*)"
_NAME_002 = r"(?<![0-9])002_(?:(2003|2004)_)?art_(\d+)"


@dataclass
class Clause:
    id: str
    title: str
    note: str = ""
    code: Counter[str] = field(default_factory=Counter)
    tests: Counter[str] = field(default_factory=Counter)


def load_clauses(path: Path = CLAUSES) -> tuple[dict[str, Clause], dict[str, str]]:
    """The clauses, and the aliases: names inside a clause that the code cites (004's bet
    types and screens) -> the clause."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    clauses = {r["id"]: Clause(r["id"], r["title"], r.get("note", "")) for r in data["clause"]}
    return clauses, dict(data.get("aliases", {}))


def _articles(text: str) -> list[int]:
    """``3(4)`` -> [3]; ``1, 2, 5 and 6`` -> [1, 2, 5, 6]; ``2-4`` -> [2, 3, 4]."""
    numbers: list[int] = []
    for part in re.split(r"\s*(?:,|and|or)\s*", text):
        bounds = [int(re.sub(r"\(.*", "", b)) for b in re.split(r"\s*[-\u2013]\s*", part) if b]
        if len(bounds) == 2:
            numbers += range(bounds[0], bounds[1] + 1)
        else:
            numbers += bounds
    return numbers


def _sections(first: str, last: str | None) -> list[str]:
    """``7.1``, ``7.4`` -> 7.1 .. 7.4 (a range within one parent); one section alone."""
    if last is None:
        return [first]
    head, _, start = first.rpartition(".")
    last_head, _, end = last.rpartition(".")
    if not head or (last_head and last_head != head) or int(end) < int(start):
        return [first, last]
    return [f"{head}.{n}" for n in range(int(start), int(end) + 1)]


def citations(text: str) -> Iterator[str]:
    """Every clause a line cites, as ``000 §7.1``, ``002/2004 art. 3`` or ``004 "X"``."""
    for m in re.finditer(_SECTION, text):
        for section in _sections(m.group(1), m.group(2)):
            yield f"000 §{section}"
    for m in re.finditer(_EDITION, text):
        for n in _articles(m.group(2)):
            yield f"002/{m.group(1)} art. {n}"
    for m in re.finditer(_BOTH, text):
        for n in _articles(m.group(1)):
            yield f"002/2003 art. {n}"
            yield f"002/2004 art. {n}"
    for m in re.finditer(_ONLINE, text):
        yield f'004 "{m.group(1) or m.group(2)}"'


def named(test_name: str) -> Iterator[str]:
    """The clauses a test's name cites: ``..._000_8_4`` is 000 §8.4."""
    for m in re.finditer(_NAME_000, test_name):
        yield "000 §" + m.group(1).replace("_", ".")
    for m in re.finditer(_NAME_002, test_name):
        editions = [m.group(1)] if m.group(1) else ["2003", "2004"]
        for edition in editions:
            yield f"002/{edition} art. {m.group(2)}"


def resolve(cited: str, clauses: dict[str, Clause], aliases: dict[str, str]) -> str | None:
    """The row a citation counts for (a sub-clause counts for its clause); "" when it cites
    a part of the documents that is only a heading (000 §7, 000 §8.3); None when the
    documents have no such clause."""
    cited = aliases.get(cited, cited)
    if cited in clauses:
        return cited
    parents = [c for c in clauses if cited.startswith(c + ".")]
    if parents:
        return max(parents, key=len)
    if any(c.startswith(cited + ".") for c in clauses):
        return ""
    return None


def _files(globs: Iterable[str]) -> list[Path]:
    found = {p for g in globs for p in ROOT.glob(g) if "__pycache__" not in p.parts}
    return sorted(p for p in found if p.name not in NOT_SCANNED)


_TEST_DEF = re.compile(r"^(\s*)(?:async\s+)?def\s+(test_\w+)")
_ANY_DEF = re.compile(r"^(\s*)(?:async\s+)?(?:def|class)\s+\w+")


def _test_places(path: Path, text: str) -> Iterator[tuple[str, str]]:
    """(place, line) of a test module: a line inside a test function belongs to that test,
    any other line (the module's docstring, a helper) to the module."""
    module = path.relative_to(ROOT).as_posix()
    current: tuple[int, str] | None = None
    for line in text.splitlines():
        test = _TEST_DEF.match(line)
        other = _ANY_DEF.match(line)
        if test:
            current = (len(test.group(1)), f"{module}::{test.group(2)}")
            yield current[1], test.group(2)
        elif other and current is not None and len(other.group(1)) <= current[0]:
            current = None
        yield (current[1] if current else module), line


def index(clauses: dict[str, Clause], aliases: dict[str, str]) -> list[str]:
    """Fill each clause's code and tests; the citations of no clause (``where: what``)."""
    unknown: list[str] = []

    def count(cited: Iterable[str], place: str, into: str) -> None:
        for c in cited:
            row = resolve(c, clauses, aliases)
            if row is None:
                unknown.append(f"{place}: {c}")
            elif row:
                getattr(clauses[row], into)[place] += 1

    for path in _files(CODE_GLOBS):
        place = path.relative_to(ROOT).as_posix()
        for line in path.read_text(encoding="utf-8").splitlines():
            count(citations(line), place, "code")
    for path in _files(TEST_GLOBS):
        for place, line in _test_places(path, path.read_text(encoding="utf-8")):
            if line.startswith("test_"):
                count(named(line), place, "tests")
            else:
                count(citations(line), place, "tests")
    return sorted(set(unknown))


def _cell(places: Counter[str], strip: str) -> str:
    ranked = sorted(places, key=lambda p: (-places[p], p))
    shown = [f"`{p.removeprefix(strip)}`" for p in ranked[:SHOWN]]
    more = len(ranked) - SHOWN
    return "<br>".join(shown) + (f"<br>+{more} more" if more > 0 else "")


def gaps(clauses: dict[str, Clause]) -> list[str]:
    """Clauses with neither code and tests citing them nor a note saying why."""
    return [c.id for c in clauses.values() if not c.note and not (c.code and c.tests)]


def table(clauses: dict[str, Clause], unknown: list[str]) -> str:
    lines = [
        BEGIN,
        "<!-- written by `make rules-table` from docs/clauses.toml and the citations -->",
        "",
        "| Clause | What it says | Code citing it | Tests citing it | Note |",
        "|---|---|---|---|---|",
    ]
    for c in clauses.values():
        code = _cell(c.code, "services/sicbo/") or "-"
        tests = _cell(c.tests, "tests/") or "-"
        note = c.note or ("" if c.code and c.tests else "**not implemented yet**")
        lines.append(f"| {c.id} | {c.title} | {code} | {tests} | {note} |")
    if unknown:
        lines += ["", "Citations of no clause of the documents:", ""]
        lines += [f"- {u}" for u in unknown]
    lines.append(END)
    return "\n".join(lines)


def rendered(rules: str) -> str:
    """docs/rules.md with its clause table as the code and the tests stand now."""
    clauses, aliases = load_clauses()
    unknown = index(clauses, aliases)
    head, _, rest = rules.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return head + table(clauses, unknown) + (tail or "\n")


def main(argv: list[str]) -> int:
    current = RULES.read_text(encoding="utf-8")
    wanted = rendered(current)
    if "--check" in argv:
        if wanted != current:
            print("docs/rules.md: the clause table is stale: run `make rules-table`")
            return 1
        return 0
    RULES.write_text(wanted, encoding="utf-8")
    print("wrote docs/rules.md")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
