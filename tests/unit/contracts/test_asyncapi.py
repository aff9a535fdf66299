"""The partners' AsyncAPI document: checked in fresh, valid AsyncAPI 3.0.0, its payload schema
the published one in the same dialect, its examples real messages of every status."""

import json
from typing import Any, get_args

import msgspec
from jsonschema import Draft202012Validator

from sicbo.results.feed import msg_id
from sicbo.results.project import winners
from sicbo_contracts import asyncapi, asyncapi_embed
from sicbo_contracts.base import tag_of
from sicbo_contracts.results import FeedHeartbeat, PublicResult, ResultStatus, RoundResult
from sicbo_contracts.schemas import SCHEMA_DIR
from sicbo_contracts.subjects import heartbeat, results
from tests.unit.contracts.asyncapi_support import (
    asyncapi_validator,
    document,
    embedded_validator,
    errors,
    refs,
    resolve,
)

RESULTS_AT = asyncapi_embed.location(asyncapi.RESULTS_SCHEMA)


def _live_examples(doc: dict[str, Any]) -> list[dict[str, Any]]:
    examples: list[dict[str, Any]] = doc["components"]["messages"]["roundResult"]["examples"]
    return examples


def test_checked_in_asyncapi_document_is_fresh() -> None:
    assert not asyncapi.stale(), "run `make schemas` and commit contracts/asyncapi.json"


def test_the_document_is_valid_against_asyncapis_own_3_0_0_schema() -> None:
    doc = document()
    assert doc["asyncapi"] == "3.0.0"
    validator = asyncapi_validator()
    assert errors(validator, doc) == []
    # The validator bites: a security scheme of a type AsyncAPI does not define is refused.
    broken = json.loads(json.dumps(doc))
    broken["components"]["securitySchemes"]["partnerNkey"]["type"] = "nkey"
    assert errors(validator, broken) != []


def test_every_ref_resolves_in_the_document_also_inside_the_embedded_schemas() -> None:
    doc = document()
    found = refs(doc)
    assert any(ref.startswith(RESULTS_AT + "/$defs/") for ref in found)
    for ref in found:
        assert resolve(doc, ref) is not None, ref


def test_the_payload_schema_is_the_published_file_in_draft_2020_12() -> None:
    doc = document()
    payload = doc["components"]["messages"]["roundResult"]["payload"]
    assert resolve(doc, payload["$ref"]) is doc["components"]["schemas"]["results"]
    embedded = doc["components"]["schemas"]["results"]
    assert embedded["schemaFormat"] == "application/schema+json;version=draft-2020-12"
    Draft202012Validator.check_schema(embedded["schema"])
    assert "prefixItems" in json.dumps(embedded)  # 2020-12 tuples, not Draft 07's items list
    # Taken back out, it is the checked-in file but for the keywords of a document's root.
    on_disk = json.loads((SCHEMA_DIR / "results.json").read_text(encoding="utf-8"))
    root_only = set(asyncapi_embed.ROOT_ONLY)
    assert asyncapi_embed.published(doc, "results") == {
        key: value for key, value in on_disk.items() if key not in root_only
    }
    assert not root_only & set(embedded["schema"])


def test_the_direct_get_reply_carries_the_same_payload_schema() -> None:
    doc = document()
    stored = doc["components"]["messages"]["storedResult"]
    assert stored["payload"] == doc["components"]["messages"]["roundResult"]["payload"]


def test_there_is_an_example_of_every_status_and_every_message_type() -> None:
    examples = _live_examples(document())
    assert [e["name"] for e in examples] == [e["payload"]["status"] for e in examples]
    assert {e["payload"]["status"] for e in examples} == {s.value for s in ResultStatus}
    members = get_args(PublicResult) or (PublicResult,)
    assert {e["payload"]["type"] for e in examples} == {tag_of(m) for m in members}
    doc = document()
    assert doc["components"]["messages"]["roundResult"]["name"] == tag_of(RoundResult)


def test_the_examples_are_the_contracts_own_encoding_and_valid_against_both_schemas() -> None:
    doc = document()
    in_document = embedded_validator(doc, RESULTS_AT)
    on_disk = Draft202012Validator(
        json.loads((SCHEMA_DIR / "results.json").read_text(encoding="utf-8"))
    )
    for example in _live_examples(doc):
        payload = example["payload"]
        result = msgspec.json.decode(json.dumps(payload), type=PublicResult)
        assert json.loads(msgspec.json.encode(result)) == payload, example["name"]
        assert errors(in_document, payload) == [], example["name"]
        assert errors(on_disk, payload) == [], example["name"]
    # and the schema refuses what the contract refuses: four dice
    four_dice = {**_live_examples(doc)[0]["payload"], "dice": [1, 2, 3, 4]}
    assert errors(in_document, four_dice) != []


def test_the_examples_dice_win_what_the_game_says() -> None:
    for example in _live_examples(document()):
        result = msgspec.json.decode(json.dumps(example["payload"]), type=RoundResult)
        if result.status in (ResultStatus.RESULT, ResultStatus.CORRECTION):
            assert result.dice is not None
            assert result.dice == tuple(sorted(result.dice))
            assert result.winning_bets == winners(result.paytable, result.dice)
            assert result.total == sum(result.dice)
        else:
            assert (result.dice, result.total, result.winning_bets) == (None, None, [])
        assert (result.corrects is not None) == (result.status is ResultStatus.CORRECTION)


def test_each_example_carries_the_headers_a_subscriber_receives() -> None:
    doc = document()
    message = doc["components"]["messages"]["roundResult"]
    validator = Draft202012Validator(message["headers"])
    assert set(message["headers"]["required"]) == {
        "Nats-Msg-Id",
        "Nats-Stream",
        "Nats-Subject",
        "Nats-Sequence",
        "Nats-Time-Stamp",
        "Nats-Last-Sequence",
    }
    previous: int | None = None
    for example in _live_examples(doc):
        headers, payload = example["headers"], example["payload"]
        assert errors(validator, headers) == [], example["name"]
        assert headers["Nats-Msg-Id"] == msg_id(payload["source_seq"])  # as the feed publishes
        assert headers["Nats-Subject"] == results(payload["table"])
        if previous is not None:  # one table: each names the one before it
            assert int(headers["Nats-Last-Sequence"]) == previous
        previous = int(headers["Nats-Sequence"])
    # The headers schema refuses a message id that is not the feed's
    wrong = {**_live_examples(doc)[0]["headers"], "Nats-Msg-Id": "7"}
    assert errors(validator, wrong) != []


def test_a_correction_example_names_the_result_it_supersedes() -> None:
    """docs/feed.md "Supersession": a correction names the source_seq of the round's message
    it replaces; an example that supersedes nothing has no earlier message of its round."""
    seen: dict[int, int] = {}  # round -> source_seq of its last message so far
    for example in _live_examples(document()):
        payload = example["payload"]
        assert payload["supersedes"] == seen.get(payload["round"]), example["name"]
        seen[payload["round"]] = payload["source_seq"]
    assert any(e["payload"]["supersedes"] is not None for e in _live_examples(document()))


def test_the_heartbeat_is_documented_with_its_schema_headers_and_a_valid_example() -> None:
    doc = document()
    message = doc["components"]["messages"]["feedHeartbeat"]
    assert message["name"] == tag_of(FeedHeartbeat)
    pointer = asyncapi_embed.location("results-heartbeat")
    assert resolve(doc, message["payload"]["$ref"] + "/schema") == resolve(doc, pointer)
    on_disk = json.loads((SCHEMA_DIR / "results-heartbeat.json").read_text(encoding="utf-8"))
    assert asyncapi_embed.published(doc, "results-heartbeat") == {
        k: v for k, v in on_disk.items() if k not in asyncapi_embed.ROOT_ONLY
    }
    [example] = message["examples"]
    beat = msgspec.json.decode(json.dumps(example["payload"]), type=FeedHeartbeat)
    assert json.loads(msgspec.json.encode(beat)) == example["payload"]
    assert errors(embedded_validator(doc, pointer), example["payload"]) == []
    assert errors(Draft202012Validator(message["headers"]), example["headers"]) == []
    assert example["headers"]["Nats-Subject"] == heartbeat(beat.table)
    # it names the table's last result of the live examples, as the copy numbers it
    last = _live_examples(doc)[-1]
    assert str(beat.last_seq) == last["headers"]["Nats-Sequence"]
    assert beat.last_source_seq == last["payload"]["source_seq"]
    channel = doc["channels"]["tableHeartbeat"]
    assert channel["address"] == "sicbo.results.{table}.heartbeat"
    assert heartbeat("T1") == channel["address"].replace("{table}", "T1")
