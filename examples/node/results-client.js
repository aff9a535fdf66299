// Print the Sic Bo floor's live results, each one validated against the published JSON Schema:
// an example client for integration partners (the Python one is examples/results_client.py).
//
//   npm ci
//   NATS_URL=nats://floor.example:4222 NATS_USER=partner NATS_PASSWORD=SECRET node results-client.js
//   node results-client.js --table T1 --count 5
//
// Connection settings come from the environment: NATS_URL (default nats://127.0.0.1:4222),
// NATS_USER and NATS_PASSWORD (a user of the PARTNERS account), NATS_CA (a CA file: connect
// over TLS, trusting that CA). A partner may only subscribe to sicbo.results.<table> (or
// sicbo.results.> for every table) and read history by Direct Get (contracts/asyncapi.json).
//
// Every message is checked with Ajv's Draft 2020-12 validator in strict mode against
// contracts/schemas/results.json (--schema to use a copy elsewhere). A message that does not
// match stops the client with exit code 1: a partner should not act on what it cannot read.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { connect } from "nats";

const DEFAULT_SCHEMA = fileURLToPath(
  new URL("../../contracts/schemas/results.json", import.meta.url),
);

const { values: args } = parseArgs({
  options: {
    table: { type: "string" }, // only this table (default: every table)
    count: { type: "string" }, // stop after N results
    schema: { type: "string", default: DEFAULT_SCHEMA },
  },
});

function strictValidator(path) {
  // strict: unknown keywords, formats or ambiguous types in the schema are errors, not ignored.
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv); // date-time and date are checked, not only accepted
  return ajv.compile(JSON.parse(readFileSync(path, "utf8")));
}

function connectionOptions(env) {
  const options = { servers: env.NATS_URL ?? "nats://127.0.0.1:4222", name: "results-client" };
  if (env.NATS_USER) options.user = env.NATS_USER;
  if (env.NATS_PASSWORD) options.pass = env.NATS_PASSWORD;
  if (env.NATS_CA) options.tls = { caFile: env.NATS_CA };
  return options;
}

function describe(result) {
  let what;
  if (result.dice) {
    what = `${result.dice.join("-")} = ${result.total}`;
    if (result.corrects) what += ` (corrects ${result.corrects.join("-")})`;
    what += `; winning bets: ${result.winning_bets.join(", ")}`;
  } else {
    what = `no result (${result.reason})`;
  }
  const at = result.recorded_at.slice(11, 19); // HH:MM:SS of an RFC 3339 time
  return `[${at}] ${result.table} #${result.round} ${result.status}: ${what}`;
}

// The message as an object when it is valid, else why not (as Ajv words it).
function check(msg, validate) {
  let result;
  try {
    result = JSON.parse(msg.string());
  } catch (error) {
    return { errors: [`not JSON: ${error.message}`] };
  }
  if (validate(result)) return { result };
  return { errors: validate.errors.map((e) => `${e.instancePath || "/"} ${e.message}`) };
}

async function main() {
  const validate = strictValidator(args.schema);
  const subject = args.table ? `sicbo.results.${args.table}` : "sicbo.results.>";
  const limit = args.count === undefined ? Infinity : Number(args.count);
  const options = connectionOptions(process.env);
  const nc = await connect(options).catch((error) => {
    throw new Error(`cannot connect to ${options.servers}: ${error.message}`);
  });
  const stop = () => nc.drain();
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);

  const sub = nc.subscribe(subject);
  await nc.flush(); // the server has the subscription: nothing published from now is missed
  console.log(`subscribed to ${subject}, validating against ${validate.schema.$id}`);
  let printed = 0;
  for await (const msg of sub) {
    const { result, errors } = check(msg, validate);
    if (errors) {
      console.error(`INVALID message on ${msg.subject}: ${msg.string()}`);
      for (const error of errors) console.error(`  ${error}`);
      process.exitCode = 1;
      break;
    }
    console.log(`valid ${result.type} ${describe(result)}`);
    if (++printed >= limit) break;
  }
  await nc.close();
}

main().catch((error) => {
  console.error(`results-client: ${error.message}`);
  process.exitCode = 1;
});
