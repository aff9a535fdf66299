// Print the Sic Bo floor's live results, each one validated against the published JSON Schema:
// an example client for integration partners (the Python one is examples/results_client.py).
//
//   npm ci
//   NATS_URL=tls://floor.example:4222 NATS_NKEY=acme.nk NATS_CA_FILE=ca.crt node results-client.js
//   node results-client.js --table T1 --count 5
//
// Connection settings come from the environment: NATS_URL (default nats://127.0.0.1:4222),
// NATS_NKEY (the seed file `sicbo partners add` wrote, or your own: it signs the server's
// challenge and is never sent), NATS_CA_FILE (a CA file: connect over TLS, trusting only that
// CA). A partner may only subscribe to its copy's sicbo.results.* (results) and
// sicbo.results.*.heartbeat (heartbeats) and read history by Direct Get (docs/partners.md).
//
// Every message is checked with Ajv's Draft 2020-12 validator in strict mode against the
// published schema of its kind (contracts/schemas/results.json, results-heartbeat.json;
// --schemas DIR to use copies elsewhere). A message that does not match stops the client with
// exit code 1: a partner should not act on what it cannot read.

import { join } from "node:path";
import { parseArgs } from "node:util";

import { connect } from "nats";

import { DEFAULT_SCHEMAS, check, connectionOptions, describe, strictValidator } from "./feed.js";

const { values: args } = parseArgs({
  options: {
    table: { type: "string" }, // only this table (default: every table)
    count: { type: "string" }, // stop after N results
    schemas: { type: "string", default: DEFAULT_SCHEMAS },
  },
});

// The heartbeat (docs/feed.md): silence for three intervals means the path is broken.
function describeHeartbeat(beat) {
  const last = `last result seq ${beat.last_seq} (source_seq ${beat.last_source_seq})`;
  return `${beat.table} ${last}, next within ${beat.interval_s} s`;
}

// Results and heartbeats, each validated against its own schema, until `limit` results.
async function main() {
  const validate = strictValidator(join(args.schemas, "results.json"));
  const validateHeartbeat = strictValidator(join(args.schemas, "results-heartbeat.json"));
  const table = args.table ?? "*";
  // Checked before connecting: "--count five" used to mean no limit, a table id with a dot or
  // a wildcard another subject than a table's results.
  if (table !== "*" && !/^[A-Za-z0-9_-]{1,32}$/.test(table)) {
    throw new Error(`--table ${table}: a table id, 1-32 of A-Z a-z 0-9 _ -`);
  }
  if (args.count !== undefined && !/^[1-9][0-9]{0,8}$/.test(args.count)) {
    throw new Error(`--count ${args.count}: a number of results, 1 or more`);
  }
  const subject = `sicbo.results.${table}`;
  const limit = args.count === undefined ? Infinity : Number(args.count);
  const options = connectionOptions(process.env);
  const nc = await connect(options).catch((error) => {
    throw new Error(`cannot connect to ${options.servers}: ${error.message}`);
  });
  const stop = () => nc.drain();
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);

  const sub = nc.subscribe(subject);
  nc.subscribe(`${subject}.heartbeat`, {
    callback: (error, msg) => {
      const { result: beat, errors } = error
        ? { errors: [error.message] }
        : check(msg, validateHeartbeat);
      if (errors) return invalid(msg, errors, nc);
      console.log(`valid ${beat.type} ${describeHeartbeat(beat)}`);
    },
  });
  await nc.flush(); // the server has the subscriptions: nothing published from now is missed
  console.log(`subscribed to ${subject}, validating against ${validate.schema.$id}`);
  let printed = 0;
  for await (const msg of sub) {
    const { result, errors } = check(msg, validate);
    if (errors) {
      invalid(msg, errors, nc);
      break;
    }
    console.log(`valid ${result.type} ${describe(result)}`);
    if (++printed >= limit) break;
  }
  if (!nc.isClosed()) await nc.close();
}

// Says what is wrong with the first message that does not match and stops the client (exit
// code 1): the connection is closed, so nothing after it is read.
function invalid(msg, errors, nc) {
  if (nc.isClosed()) return;
  console.error(`INVALID message on ${msg.subject}: ${msg.string()}`);
  for (const error of errors) console.error(`  ${error}`);
  process.exitCode = 1;
  nc.close(); // ends the loop over results and the heartbeats' callback
}

main().catch((error) => {
  console.error(`results-client: ${error.message}`);
  process.exitCode = 1;
});
