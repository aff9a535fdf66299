"""The Node.js example's catch-up (examples/node/history.js) against a real floor, as a
partner runs it: a table's last result and a result by its sequence, read by Direct Get from
the partner's copy RESULTS with nothing but a partner's permissions, each validated against
contracts/schemas/results.json. nats.js's plain ``jetstreamManager()`` asks ``$JS.API.INFO``
first, which a partner may not: a newcomer following the docs with it was refused. Both
example clients name a bad argument before they connect."""

from __future__ import annotations

import asyncio
import os
import re

from sicbo.results.project import winners
from tests.integration.test_node_client import (  # noqa: F401 - module fixtures
    CLIENT_DIR,
    NodeClient,
    PartnerFloor,
    clients,
    node,
    partner_floor,
)
from tests.integration.test_partner_access import (  # noqa: F401 - module fixtures
    checkout,
    floor_nc,
    partner_copy_ready,
    publish_through_feed,
    server,
    store_dir,
    store_round,
)


async def history(node_bin: str, floor: PartnerFloor, *args: str) -> tuple[int, str, str]:
    """examples/node/history.js as a process of its own: its exit code, stdout, stderr."""
    env = {**os.environ, "NATS_URL": f"nats://127.0.0.1:{floor.port}", "NATS_NKEY": str(floor.seed)}
    proc = await asyncio.create_subprocess_exec(
        node_bin, "history.js", *args, cwd=CLIENT_DIR, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 30)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_a_partner_reads_a_tables_last_result_and_one_by_its_sequence(
    node: str,  # noqa: F811 - the fixtures imported above
    partner_floor: PartnerFloor,  # noqa: F811
    clients: list[NodeClient],  # noqa: F811
) -> None:
    live = await NodeClient.start(node, partner_floor, "--table", "H1", "--count", "2")
    clients.append(live)
    nc = partner_floor.floor_nc
    await publish_through_feed(nc, "H1", await store_round(nc, "H1", 1, (2, 2, 3)))
    await publish_through_feed(nc, "H1", await store_round(nc, "H1", 2, (6, 5, 4)))
    code, _, err = await live.finish()  # both in the partner's copy: the live client had them
    assert code == 0, err

    code, out, err = await history(node, partner_floor, "--table", "H1")
    assert code == 0, err
    last = re.fullmatch(r"valid result\.v1 seq (\d+) \[\d\d:\d\d:\d\d\] (.*)\n", out)
    assert last is not None, out
    won = ", ".join(winners("cca-1992@v1", (6, 5, 4)))
    assert last[2] == f"H1 #2 result: 4-5-6 = 15; winning bets: {won}"

    # The one before it, by the sequence a live result's Nats-Last-Sequence would name.
    seq = int(last[1])
    code, out, err = await history(node, partner_floor, "--seq", str(seq))
    assert code == 0, err
    assert out.startswith(f"valid result.v1 seq {seq} ") and "H1 #2 result: 4-5-6" in out
    code, out, err = await history(node, partner_floor, "--table", "H1-none")
    assert (code, out) == (1, "")
    assert "history: no result" in err and "sicbo.results.H1-none" in err, err


async def test_history_names_what_is_wrong_with_its_arguments(
    node: str,  # noqa: F811 - the fixtures imported above
    partner_floor: PartnerFloor,  # noqa: F811
) -> None:
    code, _, err = await history(node, partner_floor, "--seq", "0")
    assert code == 1 and "--seq 0: a sequence, 1 or more" in err, err
    code, _, err = await history(node, partner_floor, "--table", "a.b")
    assert code == 1 and "give --table T" in err, err


async def test_the_live_client_names_what_is_wrong_with_its_arguments(node: str) -> None:  # noqa: F811
    """``--count five`` meant no limit at all (Number("five") is NaN), ``--table a.b`` or
    ``--table '>'`` another subject than a table's results: each is now refused by name."""
    for args, why in (
        (("--count", "five"), "--count five: a number of results, 1 or more"),
        (("--count", "0"), "--count 0: a number of results, 1 or more"),
        (("--table", "a.b"), "--table a.b: a table id"),
        (("--table", ">"), "--table >: a table id"),
    ):
        done = await asyncio.create_subprocess_exec(
            node, "results-client.js", *args, cwd=CLIENT_DIR,
            env={**os.environ, "NATS_URL": "nats://127.0.0.1:9"},  # never reached
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
        )  # fmt: skip
        out, err = await asyncio.wait_for(done.communicate(), 30)
        assert (done.returncode, out) == (1, b""), args
        assert f"results-client: {why}" in err.decode(), err
