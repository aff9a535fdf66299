"""The local operator list (``sicbo.gateway.operators``): who signs in at a terminal, with which
role (GLI-19 §C.6: access by role). A malformed list names the entry and the field; PINs are
stored only as salted PBKDF2 hashes; the shipped demo list matches the sign-ins ``make run``
prints (``sicbo.demo.run.DEMO_SIGN_INS``)."""

import hashlib
import json
from importlib import resources

import pytest

from sicbo.demo.run import DEMO_SIGN_INS
from sicbo.demo.tables import DEMO_TABLES
from sicbo.gateway.operators import (
    Operator,
    OperatorListError,
    operator_entry,
    parse_operators,
)
from sicbo_contracts.base import Role

SALT = "00112233445566778899aabbccddeeff"
OTHER_SALT = "ffeeddccbbaa99887766554433221100"


def pbkdf2(pin: str, salt: str) -> str:
    """Written out here, not taken from the module: 120,000 rounds of PBKDF2-HMAC-SHA256. A
    change of the scheme invalidates every deployed list, so it must fail a test."""
    return hashlib.pbkdf2_hmac("sha256", pin.encode(), bytes.fromhex(salt), 120_000).hex()


ANA_HASH = pbkdf2("1111", SALT)
SOFIA_HASH = pbkdf2("3333", OTHER_SALT)


def entry(**fields: object) -> str:
    """One ``[[operator]]`` table (ana, a dealer, PIN 1111); a field given as None is left out."""
    base: dict[str, object] = {"id": "ana", "role": "dealer", "salt": SALT, "pin_hash": ANA_HASH}
    base.update(fields)
    lines = ["[[operator]]"]
    for key, value in base.items():
        if value is not None:  # a JSON string is a TOML basic string
            lines.append(f"{key} = {json.dumps(value) if isinstance(value, str) else value}")
    return "\n".join(lines) + "\n"


VALID = (
    entry(name="Ana Lima")
    + "\n"
    + entry(id="sofia", role="supervisor", salt=OTHER_SALT, pin_hash=SOFIA_HASH)
)


# ---- a valid list --------------------------------------------------------------------------------


def test_a_valid_list_parses_to_operators_by_id() -> None:
    operators = parse_operators(VALID)
    assert operators == {
        "ana": Operator(id="ana", role=Role.DEALER, salt=SALT, pin_hash=ANA_HASH),
        "sofia": Operator(id="sofia", role=Role.SUPERVISOR, salt=OTHER_SALT, pin_hash=SOFIA_HASH),
    }
    assert operators["sofia"].role is Role.SUPERVISOR


@pytest.mark.parametrize("role", ["dealer", "supervisor", "inspector", "operator"])
def test_every_terminal_role_may_sign_in(role: str) -> None:
    assert parse_operators(entry(role=role))["ana"].role == Role(role)


@pytest.mark.parametrize("op_id", ["a", "ana.lima", "ana_l", "ana-l", "ana@floor:2", "A" * 64])
def test_ids_as_the_contracts_allow_them(op_id: str) -> None:
    assert set(parse_operators(entry(id=op_id))) == {op_id}


def test_the_right_pin_matches_and_no_other() -> None:
    ana = parse_operators(VALID)["ana"]
    assert ana.pin_matches("1111")
    for wrong in ("1112", "11111", "111", "", "3333", " 1111", "1111 "):
        assert not ana.pin_matches(wrong), wrong
    # sofia's PIN under her own salt, not ana's
    assert parse_operators(VALID)["sofia"].pin_matches("3333")
    assert not parse_operators(VALID)["sofia"].pin_matches("1111")


# ---- malformed lists: each names the entry and the field -----------------------------------------

MALFORMED = [
    # (case, text, words the error must contain)
    (
        "missing pin_hash",
        entry() + entry(id="ben", pin_hash=None),
        ["operator #2", "missing pin_hash"],
    ),
    ("missing two", entry(role=None, salt=None), ["operator #1", "missing role, salt"]),
    ("missing id", entry(id=None), ["operator #1", "missing id"]),
    ("unknown field", entry(pin="1111"), ["operator #1", "unknown field(s) pin"]),
    ("two unknown", entry(pin="1", team="x"), ["operator #1", "pin, team"]),
    ("id with a space", entry(id="ana lima"), ["operator #1", "id must be"]),
    ("id too long", entry(id="a" * 65), ["operator #1", "id must be"]),
    ("id empty", entry(id=""), ["operator #1", "id must be"]),
    ("id slash", entry(id="ana/1"), ["operator #1", "id must be"]),
    ("id not a string", entry(id=7), ["operator #1", "id must be"]),
    ("role player", entry(role="player"), ["operator #1 (ana)", "role must be one of"]),
    ("role service", entry(role="service"), ["operator #1 (ana)", "role must be one of"]),
    ("role cashier", entry(role="cashier"), ["operator #1 (ana)", "role must be one of"]),
    ("role capital", entry(role="Dealer"), ["operator #1 (ana)", "role must be one of"]),
    (
        "salt not hex",
        entry(salt="zz" * 16),
        ["operator #1 (ana)", "salt must be 32-128 lowercase hex"],
    ),
    ("salt upper", entry(salt=SALT.upper()), ["operator #1 (ana)", "salt must be"]),
    ("salt short", entry(salt="abcd"), ["operator #1 (ana)", "salt must be"]),
    ("salt number", entry(salt=1234), ["operator #1 (ana)", "salt must be"]),
    ("hash not hex", entry(pin_hash="g" * 64), ["operator #1 (ana)", "pin_hash must be"]),
    ("hash upper", entry(pin_hash=ANA_HASH.upper()), ["operator #1 (ana)", "pin_hash must be"]),
    ("hash clear pin", entry(pin_hash="1111"), ["operator #1 (ana)", "pin_hash must be"]),
    ("duplicate id", entry() + entry(role="supervisor"), ["operator #2", "'ana' listed twice"]),
    ("not TOML", "[[operator]\nid = ana\n", ["not TOML"]),
    ("not TOML either", entry() + "role = 'dealer'\n", ["not TOML"]),
    ("empty", "", ["no [[operator]] entries"]),
    ("other tables only", "[operators]\nid = 'ana'\n", ["no [[operator]] entries"]),
    ("empty array", "operator = []\n", ["no [[operator]] entries"]),
    ("a string", "operator = 'ana'\n", ["no [[operator]] entries"]),
]


@pytest.mark.parametrize(
    ("text", "words"), [(t, w) for _, t, w in MALFORMED], ids=[c for c, _, _ in MALFORMED]
)
def test_a_malformed_list_names_the_entry_and_the_field(text: str, words: list[str]) -> None:
    with pytest.raises(OperatorListError) as caught:
        parse_operators(text, where="ops.toml")
    message = str(caught.value)
    assert message.startswith("ops.toml"), message
    for word in words:
        assert word in message, f"{word!r} not in {message!r}"


def test_the_role_error_lists_the_terminal_roles() -> None:
    with pytest.raises(OperatorListError, match=r"dealer, inspector, operator, supervisor$"):
        parse_operators(entry(role="player"))


def test_the_default_place_is_the_operator_list() -> None:
    with pytest.raises(OperatorListError, match=r"^operator list, operator #1 \(ana\): salt"):
        parse_operators(entry(salt="xyz"))


def test_an_entry_that_is_not_a_table_is_named() -> None:
    with pytest.raises(OperatorListError, match="operator #1"):
        parse_operators("operator = ['ana']\n")


def test_an_id_with_a_trailing_newline_is_refused() -> None:
    with pytest.raises(OperatorListError, match="id must be"):
        parse_operators(entry(id="ana\n"))


# ---- operator_entry: what `sicbo gateway hash-pin` prints ----------------------------------------


@pytest.mark.parametrize(
    "pin",
    [
        "",
        "123",
        "1234567890123",
        "12a4",
        "12 34",
        "-1234",
        "+1234",
        "12.5",
        "\uff11\uff12\uff13\uff14",
    ],
)
def test_operator_entry_refuses_a_pin_that_is_not_4_to_12_digits(pin: str) -> None:
    with pytest.raises(OperatorListError, match="4 to 12 digits"):
        operator_entry("ana", Role.DEALER, pin, SALT)


def test_operator_entry_refuses_a_pin_with_a_trailing_newline() -> None:
    with pytest.raises(OperatorListError, match="4 to 12 digits"):
        operator_entry("ana", Role.DEALER, "1234\n", SALT)


def test_operator_entry_stores_the_salted_hash_never_the_pin() -> None:
    text = operator_entry("ana", Role.DEALER, "1111", SALT)
    assert f'pin_hash = "{ANA_HASH}"' in text
    assert f'salt = "{SALT}"' in text
    assert "1111" not in text.replace(SALT, "").replace(ANA_HASH, "")


@pytest.mark.parametrize("pin", ["1234", "000000", "123456789012"])
def test_the_shortest_and_longest_pins_round_trip(pin: str) -> None:
    ana = parse_operators(operator_entry("ana", Role.DEALER, pin, SALT))["ana"]
    assert ana.pin_matches(pin)
    assert not ana.pin_matches(pin[:-1])


def test_entries_round_trip_for_every_terminal_role() -> None:
    people = [
        ("dee", Role.DEALER, "2580"),
        ("sam", Role.SUPERVISOR, "97531"),
        ("ida", Role.INSPECTOR, "11223344"),
        ("oli", Role.OPERATOR, "909090909090"),
    ]
    text = "\n".join(
        operator_entry(op_id, role, pin, f"{n:02x}" * 16)
        for n, (op_id, role, pin) in enumerate(people)
    )
    operators = parse_operators(text)
    assert sorted(operators) == sorted(p[0] for p in people)
    for op_id, role, pin in people:
        operator = operators[op_id]
        assert operator.role is role
        assert operator.pin_matches(pin)
        assert not operator.pin_matches("0" + pin[1:] if pin[0] != "0" else "1" + pin[1:])
    # the same PIN under two salts gives two hashes
    assert (
        operators["dee"].pin_hash
        != parse_operators(operator_entry("x", Role.DEALER, "2580", SALT))["x"].pin_hash
    )


# ---- the shipped demo list -----------------------------------------------------------------------


def demo_list() -> dict[str, Operator]:
    text = resources.files("sicbo.gateway").joinpath("operators.toml").read_text()
    return parse_operators(text, where="operators.toml")


def test_the_demo_list_holds_exactly_the_printed_sign_ins() -> None:
    assert sorted(demo_list()) == sorted(op_id for op_id, _, _ in DEMO_SIGN_INS)


@pytest.mark.parametrize(("op_id", "pin", "role"), DEMO_SIGN_INS, ids=[s[0] for s in DEMO_SIGN_INS])
def test_each_printed_demo_sign_in_works(op_id: str, pin: str, role: str) -> None:
    operator = demo_list()[op_id]
    assert operator.role == Role(role)
    assert operator.pin_matches(pin)
    assert operator.pin_hash == pbkdf2(pin, operator.salt)


def test_the_demo_list_has_every_terminal_role() -> None:
    assert {o.role for o in demo_list().values()} == {
        Role.DEALER,
        Role.SUPERVISOR,
        Role.INSPECTOR,
        Role.OPERATOR,
    }


def test_the_demo_list_has_two_supervisors_for_dual_control() -> None:
    """A demo table under dual control (demo-macau04) needs a second supervisor to approve
    what the first proposes (TableConfig.dual_control)."""
    supervisors = sorted(o.id for o in demo_list().values() if o.role is Role.SUPERVISOR)
    assert supervisors == ["sam", "sofia"]
    dual = [t.table for t in DEMO_TABLES if t.config.dual_control]
    assert dual == ["demo-macau04"]
