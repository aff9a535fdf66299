"""The AsyncAPI document's servers, security and Direct Get say what the floor does: the
partners' copy, the partner's permissions, the event store's own Direct Get reader."""

import json
from typing import Any

import msgspec

from sicbo.eventstore.records import _DIRECT_META
from sicbo.infra.partner_accounts import PARTNER_PERMISSIONS
from sicbo.results.partners import partner_copy
from sicbo_contracts import asyncapi_direct_get as direct_get
from sicbo_contracts.subjects import RESULTS_ALL, subject_matches
from tests.unit.contracts.asyncapi_support import (
    document,
    embedded_validator,
    errors,
    follow,
    resolve,
)


def _messages(doc: dict[str, Any]) -> dict[str, Any]:
    messages: dict[str, Any] = doc["components"]["messages"]
    return messages


def test_the_catch_up_is_an_operation_on_the_copys_direct_get_with_every_reply() -> None:
    doc = document()
    copy = partner_copy().config
    assert copy["allow_direct"] is True
    assert copy["republish"] == {"src": RESULTS_ALL, "dest": RESULTS_ALL}
    catch_up = doc["operations"]["catchUp"]
    assert catch_up["action"] == "send"
    channel = resolve(doc, catch_up["channel"]["$ref"])
    assert channel["address"] == f"$JS.API.DIRECT.GET.{copy['name']}"
    replies = [follow(doc, m["$ref"]) for m in catch_up["reply"]["messages"]]
    statuses = {
        m["x-nats-status"]["code"]: m["x-nats-status"]["description"]
        for m in replies
        if "x-nats-status" in m
    }
    assert statuses == {
        204: "EOB",
        404: "Message Not Found",
        408: "Bad Request",
        413: "Too Many Results",
    }
    assert "storedResult" in {name for name, m in _messages(doc).items() if m in replies}
    assert resolve(doc, catch_up["reply"]["channel"]["$ref"])["address"] is None  # the inbox


def test_a_partner_may_publish_exactly_the_documented_direct_get_subjects() -> None:
    doc = document()
    sent = {
        resolve(doc, op["channel"]["$ref"])["address"]
        for op in doc["operations"].values()
        if op["action"] == "send"
    }
    # the subject-appended form's {table} is one or more tokens: `.>` in a permission
    as_permissions = {address.replace(".sicbo.results.{table}", ".>") for address in sent}
    assert as_permissions == set(PARTNER_PERMISSIONS.publish)
    received = {
        resolve(doc, op["channel"]["$ref"])["address"].replace("{table}", "T1")
        for op in doc["operations"].values()
        if op["action"] == "receive"
    }
    assert len(received) == 2  # results and heartbeats
    for subject in received:  # each one a subject the partner may subscribe to
        assert any(subject_matches(subject, p) for p in PARTNER_PERMISSIONS.subscribe), subject


def test_the_request_offers_every_option_and_its_examples_are_valid_requests() -> None:
    doc = document()
    pointer = _messages(doc)["directGetRequest"]["payload"]["$ref"] + "/schema"
    schema = resolve(doc, pointer)
    assert {"seq", "start_time", "next_by_subj", "batch", "max_bytes", "multi_last"} <= set(
        schema["$defs"]["DirectGetRequest"]["properties"]
    )
    validator = embedded_validator(doc, pointer)
    examples = _messages(doc)["directGetRequest"]["examples"]
    assert {"resume-after-sequence", "from-start-time", "last-of-every-table"} <= {
        e["name"] for e in examples
    }
    for example in examples:
        assert errors(validator, example["payload"]) == [], example["name"]
        request = msgspec.json.decode(
            json.dumps(example["payload"]), type=direct_get.DirectGetRequest
        )
        assert json.loads(msgspec.json.encode(request)) == example["payload"]
    assert errors(validator, {"batch": -1}) != []


def test_the_reply_headers_are_what_direct_get_adds_plus_the_stored_message_id() -> None:
    doc = document()
    stored = _messages(doc)["storedResult"]["headers"]["properties"]
    # the event store's own reader strips exactly these as Direct Get's
    assert set(stored) == set(_DIRECT_META) | {"Nats-Msg-Id"}
    end = _messages(doc)["endOfBatch"]["headers"]
    assert set(end["required"]) == {"Nats-Num-Pending", "Nats-Last-Sequence"}
    assert "Nats-UpTo-Sequence" in end["properties"]


def test_servers_production_over_tls_and_the_local_demo_each_partner_by_its_nkey() -> None:
    doc = document()
    production, local = doc["servers"]["production"], doc["servers"]["local"]
    for server in (production, local):
        assert server["protocol"] == "nats"
        for variable in ("host", "port"):
            if "{" + variable + "}" in server["host"]:
                assert variable in server["variables"], variable
    assert "tls://{host}:{port}" in production["description"]
    assert [t["name"] for t in production["tags"]] == ["tls"]
    schemes = doc["components"]["securitySchemes"]
    types = {resolve(doc, s["$ref"])["type"] for s in production["security"]}
    assert types == {"asymmetricEncryption"} == {s["type"] for s in schemes.values()}
    assert [s["$ref"] for s in local["security"]] == [s["$ref"] for s in production["security"]]
    assert local["host"].startswith("127.0.0.1:")
    assert "sicbo partners add demo --floor var/floor" in local["description"]
