"""Print the Sic Bo floor's results as they come: an example client for integration partners.

Needs only nats-py with nkeys and the contracts (``pip install 'nats-py[nkeys]' ./contracts``).
A partner connects as itself, with the seed file ``sicbo partners add NAME`` wrote (or its
own seed), named by ``NATS_NKEY`` (as for the ``nats`` CLI)::

    NATS_URL=nats://floor.example:4222 NATS_NKEY=acme.nk python examples/results_client.py
    NATS_URL=tls://floor.example:4222 NATS_NKEY=acme.nk NATS_CA_FILE=floor-ca.crt \
      python examples/results_client.py          # TLS, the server verified by the floor's CA
    python examples/results_client.py --table T1 --history 10   # the last 10 first

Without ``NATS_NKEY`` it connects with no credentials, or those of ``NATS_URL``.

A partner may subscribe to ``sicbo.results.<table>`` and read the history of its copy of the
feed (stream ``RESULTS``) by Direct Get; nothing else (contracts/asyncapi.json). The
subscription is made before the history is read, so nothing falls between them, and a
result seen twice is printed once: its identity is ``(table, source_seq)``.

Each table's heartbeat (``sicbo.results.<table>.heartbeat``, docs/feed.md) names its last
result: one newer than the last printed means a result was missed (read it back by Direct
Get); no heartbeat for a few intervals means the feed or the way to it is down.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import ssl
import sys
from typing import Any

import msgspec
import nats
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg

from sicbo_contracts.results import FeedHeartbeat, FeedMessage, RoundResult

decode = msgspec.json.Decoder(FeedMessage).decode  # a result or a heartbeat, by "type"


async def history(nc: NATS, stream: str, subjects: str, n: int) -> list[RoundResult]:
    """The last ``n`` results on ``subjects``, oldest first: one Direct Get for the newest
    one's sequence, then batches from a window before it, widened until it holds ``n``."""
    if n <= 0:
        return []
    body = json.dumps({"last_by_subj": subjects}).encode()
    headers = (await nc.request(f"$JS.API.DIRECT.GET.{stream}", body)).headers or {}
    if "Status" in headers:  # 404: no result yet
        return []
    last, window = int(headers["Nats-Sequence"]), n
    while True:
        start = seq = max(1, last - window + 1)
        found: list[tuple[int, RoundResult]] = []
        while seq <= last:
            page = await _page(nc, stream, seq, subjects)
            found += [(s, r) for s, r in page if s <= last]
            if not page or page[-1][0] >= last:
                break
            seq = page[-1][0] + 1
        if len(found) >= n or start == 1:
            return [r for _, r in found[-n:]]
        window *= 4


async def _page(nc: NATS, stream: str, seq: int, subjects: str) -> list[tuple[int, RoundResult]]:
    """One Direct Get batch: messages, then a status message that ends it."""
    inbox = nc.new_inbox()
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    page: list[tuple[int, RoundResult]] = []

    async def on_msg(msg: Msg) -> None:
        headers = msg.headers or {}
        if "Status" in headers:  # 204: end of batch, 404: nothing (more)
            if not done.done():
                done.set_result(None)
            return
        message = decode(msg.data)
        if isinstance(message, RoundResult):  # "sicbo.results.>" holds the heartbeats too
            page.append((int(headers["Nats-Sequence"]), message))

    sub = await nc.subscribe(inbox, cb=on_msg)
    body = {"seq": seq, "next_by_subj": subjects, "batch": 100}
    await nc.publish(f"$JS.API.DIRECT.GET.{stream}", json.dumps(body).encode(), reply=inbox)
    await asyncio.wait_for(done, 5)
    await sub.unsubscribe()
    return page


def show(result: RoundResult) -> None:
    if result.dice is not None:
        what = f"{'-'.join(map(str, result.dice))} = {result.total}"
        if result.corrects is not None:
            what += f" (corrects {'-'.join(map(str, result.corrects))})"
        what += f"; winning bets: {', '.join(result.winning_bets)}"
    else:
        what = f"no result ({result.reason})"
    print(f"[{result.recorded_at:%H:%M:%S}] {result.table} #{result.round} {result.status}: {what}")


def tls_options(url: str) -> dict[str, Any]:
    """TLS when the floor gave a CA (``NATS_CA_FILE``) or the URL says ``tls://``: the server's
    certificate must chain to that CA (else the system's) and name the host. The handshake
    comes first, so the password never travels before TLS is up."""
    ca_file = os.environ.get("NATS_CA_FILE") or None
    if ca_file is None and not url.startswith("tls://"):
        return {}
    return {"tls": ssl.create_default_context(cafile=ca_file), "tls_handshake_first": True}


async def connect(url: str, seed_file: str | None) -> NATS:
    """Connected, reconnecting by itself after an outage; a refused key stops the client with
    one line (nats-py would otherwise try again and again)."""
    refused: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def on_error(exc: Exception) -> None:
        if "authorization violation" in str(exc).lower() and not refused.done():
            refused.set_result(str(exc))
        elif not refused.done():
            print(f"nats: {exc}", file=sys.stderr)  # e.g. a lost connection, retried

    nkey = {"nkeys_seed": seed_file} if seed_file else {}  # signs the server's nonce; never sent
    connecting: asyncio.Future[NATS] = asyncio.ensure_future(
        nats.connect(url, error_cb=on_error, **nkey, **tls_options(url))
    )
    waits: list[asyncio.Future[Any]] = [connecting, refused]
    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    if refused.done():
        connecting.cancel()
        raise SystemExit(f"refused by {url}: {refused.result()} (check NATS_NKEY={seed_file})")
    return connecting.result()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--table", help="only this table (default: every table)")
    parser.add_argument("--history", type=int, default=0, help="first print the last N")
    parser.add_argument("--count", type=int, help="stop after N results")
    parser.add_argument("--stream", default="RESULTS", help="the copy to read history from")
    args = parser.parse_args()
    # A table's results and its heartbeats; or every table's.
    subjects = f"sicbo.results.{args.table}" if args.table else "sicbo.results.*"
    heartbeats = f"sicbo.results.{args.table or '*'}.heartbeat"

    url = os.environ.get("NATS_URL", "nats://127.0.0.1:4222")
    nc = await connect(url, os.environ.get("NATS_NKEY"))
    queue: asyncio.Queue[Msg] = asyncio.Queue()
    subs = [await nc.subscribe(s, cb=queue.put) for s in (subjects, heartbeats)]  # first
    latest: dict[str, int] = {}  # table -> last source_seq shown: a table's results are in order
    printed = 0
    try:
        backlog = await history(nc, args.stream, subjects, args.history)
        while args.count is None or printed < args.count:
            message = backlog.pop(0) if backlog else decode((await queue.get()).data)
            if isinstance(message, FeedHeartbeat):
                # A gap only after a result of the table was seen (or read as history): a
                # client that just started has seen none and missed none.
                seen = latest.get(message.table)
                if seen is not None and message.last_source_seq > seen:
                    print(f"{message.table}: result #{message.last_source_seq} not seen yet")
                continue
            if message.source_seq <= latest.get(message.table, 0):
                continue  # seen already (in the history and live)
            latest[message.table] = message.source_seq
            show(message)
            printed += 1
    finally:
        for sub in subs:
            await sub.unsubscribe()
        await nc.close()


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:  # Ctrl-C: stop quietly
        sys.exit(130)
