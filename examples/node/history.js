// Read results back by JetStream Direct Get, as a partner catches up after a gap
// (docs/partners.md, "the five rules", 3): a table's last result (--table T) or one result by
// its sequence in the stream RESULTS (--seq N: a live result's Nats-Last-Sequence header, or
// a heartbeat's last_seq, names the one before it). Each is validated as results-client.js
// validates a live one; one that does not match stops it with exit code 1.
//
//   NATS_URL=... NATS_NKEY=acme.nk node history.js --table T1
//   NATS_URL=... NATS_NKEY=acme.nk node history.js --seq 238
//
// A partner may publish only to $JS.API.DIRECT.GET.RESULTS: nats.js's jetstreamManager() asks
// the server for its account's JetStream ($JS.API.INFO) unless told not to (checkAPI: false),
// and that ask is refused ("Permissions Violation for Publish to $JS.API.INFO").

import { join } from "node:path";
import { parseArgs } from "node:util";

import { connect } from "nats";

import { DEFAULT_SCHEMAS, check, connectionOptions, describe, strictValidator } from "./feed.js";

const STREAM = "RESULTS";

const { values: args } = parseArgs({
  options: {
    table: { type: "string" }, // this table's last result
    seq: { type: "string" }, // the result stored at this sequence of RESULTS
    schemas: { type: "string", default: DEFAULT_SCHEMAS },
  },
});

function query() {
  if (args.seq !== undefined) {
    if (!/^[1-9][0-9]{0,15}$/.test(args.seq)) throw new Error(`--seq ${args.seq}: a sequence, 1 or more`);
    return { seq: Number(args.seq) };
  }
  if (args.table === undefined || !/^[A-Za-z0-9_-]{1,32}$/.test(args.table)) {
    throw new Error("give --table T (1-32 of A-Z a-z 0-9 _ -) or --seq N");
  }
  return { last_by_subj: `sicbo.results.${args.table}` };
}

async function main() {
  const validate = strictValidator(join(args.schemas, "results.json"));
  const wanted = query();
  const options = connectionOptions(process.env);
  const nc = await connect(options).catch((error) => {
    throw new Error(`cannot connect to ${options.servers}: ${error.message}`);
  });
  try {
    const jsm = await nc.jetstreamManager({ checkAPI: false });
    const msg = await jsm.direct.getMessage(STREAM, wanted).catch((error) => {
      throw new Error(`no result ${JSON.stringify(wanted)} in ${STREAM}: ${error.message}`);
    });
    const { result, errors } = check(msg, validate);
    if (errors) {
      console.error(`INVALID message ${msg.seq} on ${msg.subject}: ${msg.string()}`);
      for (const error of errors) console.error(`  ${error}`);
      process.exitCode = 1;
      return;
    }
    console.log(`valid ${result.type} seq ${msg.seq} ${describe(result)}`);
  } finally {
    await nc.close();
  }
}

main().catch((error) => {
  console.error(`history: ${error.message}`);
  process.exitCode = 1;
});
