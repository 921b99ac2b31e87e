/** Every conformance case, in the order the suite runs and reports them, with the RFD sentence each checks. */

import type { CaseDefinition, CaseName } from "./conformance-result.js";

/** The catalogue, in report order. */
export const CONFORMANCE_CASES: readonly CaseDefinition[] = [
  {
    name: "key-validation",
    title: 'keys "", 256 chars, a number, an object are rejected; 255 chars and null accepted',
    rule: "When present, it is an opaque, case-sensitive string of 1 to 255 characters. The Agent MUST reject any other value with -32602 (Invalid params) and MUST NOT treat it as omitted.",
    required: true,
    retry: false,
    requirements: [
      "idem.key-validation.empty",
      "idem.key-validation.too-long",
      "idem.key-validation.number",
      "idem.key-validation.object",
      "idem.key-validation.max-length",
      "idem.key-validation.null",
      "idem.insert.once",
    ],
  },
  {
    name: "retry-same-connection",
    title: "a retry on the same connection gets the original messageId, one insert",
    rule: "A retry gets the original messageId and nothing else. The Agent doesn’t start a second round of work for the message.",
    required: true,
    retry: true,
    requirements: ["idem.retry.original-message-id", "idem.insert.once"],
  },
  {
    name: "retry-after-resume",
    title: "a retry after session/resume on a new connection gets the original messageId",
    rule: "For a prompt whose inserted message the Agent retains, the Agent MUST recognize the key for as long as it retains the message. This holds across connections and Agent restarts.",
    required: true,
    retry: true,
    requirements: ["idem.retained.across-connections", "idem.insert.once"],
  },
  {
    name: "retry-after-restart",
    title: "a retry after the agent was killed and restarted gets the original messageId",
    rule: "The cases that need the key are a crashed or restarted Agent process and a restarted Client, so the record only helps if it is in the stored session.",
    required: true,
    retry: true,
    requirements: ["idem.retained.across-restarts", "idem.insert.once"],
  },
  {
    name: "retry-while-held",
    title: "a retry of a held prompt is answered with the original, one insert",
    rule: "ACP requests can stay pending, so the Agent answers the retry when it answers the original.",
    required: true,
    retry: true,
    requirements: ["idem.held.answered-with-original", "idem.insert.once"],
  },
  {
    name: "cancel-held",
    title: "$/cancel_request for one of two pending attempts answers both with -32800, nothing inserted",
    rule: "$/cancel_request for any pending request with the key withdraws a prompt that is not inserted yet. The Agent then answers every pending request for that key with -32800.",
    required: true,
    retry: true,
    requirements: ["idem.cancel.withdraws-all"],
  },
  {
    name: "retry-after-error",
    title: "after an error the key is unused: the same key is inserted once, then recognised",
    rule: "Errors leave the key unused. An error response to session/prompt already means the message was not inserted. The Agent records nothing, and the Client can send the same prompt with the same key again.",
    required: true,
    retry: true,
    requirements: ["idem.error.key-unused", "idem.retry.original-message-id"],
  },
  {
    name: "same-key-other-session",
    title: "the same key in another session is a new insert; each session keeps its own",
    rule: "A key is scoped to the session named by sessionId. The same key string in another session, including a fork of this one, names an unrelated submission.",
    required: true,
    retry: true,
    requirements: ["idem.scope.session", "idem.retry.original-message-id"],
  },
  {
    name: "retry-during-active-work",
    title: "a retry of a prompt inserted during active work gets its messageId, one insert",
    rule: "The Agent MUST NOT insert a second message for a key it has recorded.",
    required: true,
    retry: true,
    requirements: ["idem.insert.once", "idem.retry.original-message-id"],
  },
  {
    name: "keys-private",
    title: "keys never appear in updates, session/list results or replayed history",
    rule: "The Agent doesn’t echo keys in session updates, session/list results, or replayed history, so one Client doesn’t see another Client’s keys.",
    required: true,
    retry: false,
    requirements: ["idem.keys.private"],
  },
  {
    name: "different-prompt",
    title: "informative: the same key with a different prompt is a retry or -32602, never a second insert",
    rule: "If a request carries a recorded key with a different prompt, the Agent either answers as for a retry or, if it notices the difference, rejects the request with -32602.",
    required: false,
    retry: true,
    requirements: ["idem.reuse.different-prompt"],
  },
];

/** Every case name, in report order. */
export const CASE_NAMES: readonly CaseName[] = CONFORMANCE_CASES.map((c) => c.name);

/** The definition of `name`. */
export function caseDefinition(name: CaseName): CaseDefinition {
  const found = CONFORMANCE_CASES.find((c) => c.name === name);
  if (!found) throw new Error(`unknown conformance case ${name}`);
  return found;
}

/** Whether `name` names a case (for `--only`). */
export function isCaseName(name: string): name is CaseName {
  return CASE_NAMES.includes(name as CaseName);
}
