// A round's phase in words for dealers and the table's displays: the API's ids (betting-open,
// ...) stay in data attributes for programs, never on screen. The words are the catalogues'
// (static/i18n/*.json: "dealer-phase.*", "table-phase.*"), in the page's language.
import { has, t } from "/static/i18n.js";

/** The words a terminal shows for each phase: what the dealer is doing. */
export function phaseWords(phase) {
  const key = `dealer-phase.${phase || "none"}`;
  return has(key) ? t(key) : String(phase);
}

/**
 * The equipment a suspension names, in words ("equipment.<id>": the illumination service's
 * "layout-lamps"); what an operator typed stays as typed.
 */
export function equipmentWords(equipment) {
  return (equipment || []).map((e) => (has(`equipment.${e}`) ? t(`equipment.${e}`) : String(e))).join(", ");
}

/** A suspension's policy in words ("policy.<id>"), or "" for none. */
export function policyWords(policy) {
  if (!policy) return "";
  return has(`policy.${policy}`) ? t(`policy.${policy}`) : String(policy);
}

/** What a display at the table calls out to the players. */
export function tablePhaseWords(phase) {
  const key = `table-phase.${phase || "none"}`;
  return has(key) ? t(key) : String(phase);
}
