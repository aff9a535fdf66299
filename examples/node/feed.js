// What the example clients share: the connection settings of the environment, a strict
// validator of a published schema, a result's line and a message's check.

import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { nkeyAuthenticator } from "nats";

export const DEFAULT_SCHEMAS = fileURLToPath(new URL("../../contracts/schemas/", import.meta.url));

export function strictValidator(path) {
  // strict: unknown keywords, formats or ambiguous types in the schema are errors, not ignored.
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  addFormats(ajv); // date-time and date are checked, not only accepted
  return ajv.compile(JSON.parse(readFileSync(path, "utf8")));
}

export function connectionOptions(env) {
  const options = { servers: env.NATS_URL ?? "nats://127.0.0.1:4222", name: "results-client" };
  if (env.NATS_NKEY) {
    const seed = readFileSync(env.NATS_NKEY, "utf8").trim();
    options.authenticator = nkeyAuthenticator(new TextEncoder().encode(seed));
  }
  // TLS before anything is read from the server, trusting only the floor's CA.
  if (env.NATS_CA_FILE) options.tls = { caFile: env.NATS_CA_FILE, handshakeFirst: true };
  return options;
}

export function describe(result) {
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
export function check(msg, validate) {
  let result;
  try {
    result = JSON.parse(msg.string());
  } catch (error) {
    return { errors: [`not JSON: ${error.message}`] };
  }
  if (validate(result)) return { result };
  return { errors: validate.errors.map((e) => `${e.instancePath || "/"} ${e.message}`) };
}
