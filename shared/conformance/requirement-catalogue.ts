/**
 * The requirements the conformance suite checks, in acp-tck's shape: a stable id, a tier, the RFD
 * sentence it comes from (verbatim) and a short summary for one-line reasons. Tiers follow
 * acp-tck: `MANDATORY` for the RFD's MUSTs, `ADVISORY` for its SHOULDs, `INFORMATIONAL` where the
 * RFD leaves the Agent a choice. The RFD's "Agents that advertise capabilities.session MUST support
 * the key" makes the key handling it describes ("How the Agent handles a keyed prompt") mandatory.
 * `docs/conformance.md` lists this table; `requirement-catalogue.test.ts` keeps the two equal.
 */

/** acp-tck's tiers (this suite has no capability-gated requirement: every case needs `capabilities.session`). */
export type RequirementTier = "MANDATORY" | "ADVISORY" | "INFORMATIONAL";

/** One requirement. */
export interface Requirement {
  /** Stable id, e.g. `idem.key-validation.empty`. */
  readonly id: string;
  readonly tier: RequirementTier;
  /** What the Agent must do, in a few words (for reasons). */
  readonly summary: string;
  /** The RFD sentence, verbatim. */
  readonly text: string;
}

/** Where every requirement's text comes from. */
export const REQUIREMENT_SOURCE = "ACP v2 RFD: Idempotency Keys";

const INVALID_KEY =
  "When present, it is an opaque, case-sensitive string of 1 to 255 characters. The Agent MUST reject any other value with -32602 (Invalid params) and MUST NOT treat it as omitted.";
const RETAINED =
  "For a prompt whose inserted message the Agent retains, the Agent MUST recognize the key for as long as it retains the message. This holds across connections and Agent restarts.";

/** Every requirement, in report order. */
export const REQUIREMENTS: readonly Requirement[] = [
  {
    id: "idem.key-validation.empty",
    tier: "MANDATORY",
    summary: "an empty key MUST be rejected with -32602",
    text: INVALID_KEY,
  },
  {
    id: "idem.key-validation.too-long",
    tier: "MANDATORY",
    summary: "a 256-character key MUST be rejected with -32602",
    text: INVALID_KEY,
  },
  {
    id: "idem.key-validation.number",
    tier: "MANDATORY",
    summary: "a number key MUST be rejected with -32602",
    text: INVALID_KEY,
  },
  {
    id: "idem.key-validation.object",
    tier: "MANDATORY",
    summary: "an object key MUST be rejected with -32602",
    text: INVALID_KEY,
  },
  {
    id: "idem.key-validation.max-length",
    tier: "MANDATORY",
    summary: "a 255-character key is valid and is inserted",
    text: "When present, it is an opaque, case-sensitive string of 1 to 255 characters.",
  },
  {
    id: "idem.key-validation.null",
    tier: "MANDATORY",
    summary: "a null key means no key: the prompt is inserted",
    text: "Omitted and null are equivalent and mean no key. The Agent handles the prompt without duplicate detection, as it does today.",
  },
  {
    id: "idem.retry.original-message-id",
    tier: "MANDATORY",
    summary: "a retry gets the original messageId",
    text: "A retry gets the original messageId and nothing else. The Agent doesn’t start a second round of work for the message.",
  },
  {
    id: "idem.retained.across-connections",
    tier: "MANDATORY",
    summary: "the key MUST be recognised on a new connection after session/resume",
    text: RETAINED,
  },
  {
    id: "idem.retained.across-restarts",
    tier: "MANDATORY",
    summary: "the key MUST be recognised after the Agent restarted",
    text: RETAINED,
  },
  {
    id: "idem.held.answered-with-original",
    tier: "MANDATORY",
    summary: "a retry of a held prompt is answered when the original is, with its messageId",
    text: "ACP requests can stay pending, so the Agent answers the retry when it answers the original.",
  },
  {
    id: "idem.cancel.withdraws-all",
    tier: "MANDATORY",
    summary: "$/cancel_request withdraws the held prompt and answers every request for the key with -32800",
    text: "$/cancel_request for any pending request with the key withdraws a prompt that is not inserted yet. The Agent then answers every pending request for that key with -32800.",
  },
  {
    id: "idem.error.key-unused",
    tier: "MANDATORY",
    summary: "after an error the key is unused: the same key is inserted later",
    text: "Errors leave the key unused. An error response to session/prompt already means the message was not inserted. The Agent records nothing, and the Client can send the same prompt with the same key again.",
  },
  {
    id: "idem.scope.session",
    tier: "MANDATORY",
    summary: "the same key in another session is a new submission",
    text: "A key is scoped to the session named by sessionId. The same key string in another session, including a fork of this one, names an unrelated submission.",
  },
  {
    id: "idem.insert.once",
    tier: "MANDATORY",
    summary: "the Agent MUST NOT insert a second message for a recorded key",
    text: "The Agent MUST NOT insert a second message for a key it has recorded.",
  },
  {
    id: "idem.keys.private",
    tier: "MANDATORY",
    summary: "keys never appear in updates, session/list results or replayed history",
    text: "The Agent doesn’t echo keys in session updates, session/list results, or replayed history, so one Client doesn’t see another Client’s keys.",
  },
  {
    id: "idem.reuse.different-prompt",
    tier: "INFORMATIONAL",
    summary: "a recorded key with a different prompt is answered as a retry or rejected with -32602",
    text: "If a request carries a recorded key with a different prompt, the Agent either answers as for a retry or, if it notices the difference, rejects the request with -32602.",
  },
];

/**
 * The requirements of the client suite (`conformance --client`), in report order. The RFD's one
 * client MUST is MANDATORY, its SHOULDs ADVISORY. The rules that say what a key is ("One key
 * identifies one submission. ... It sends the same key on every attempt ... It uses a new key for
 * a new submission") and its shape are MANDATORY too: a Client that sends keys and breaks them can
 * insert twice or lose input. The retry classes (no resend of an unkeyed prompt or a `session/new`)
 * are worded as guidance, not as a MUST: ADVISORY.
 */
export const CLIENT_REQUIREMENTS: readonly Requirement[] = [
  {
    id: "client.key.length",
    tier: "MANDATORY",
    summary: "every idempotencyKey the Client sends is a string of 1 to 255 characters",
    text: "When present, it is an opaque, case-sensitive string of 1 to 255 characters.",
  },
  {
    id: "client.key.new-submission",
    tier: "MANDATORY",
    summary: "a new submission gets a new key, even for the same text",
    text: "It uses a new key for a new submission, including when the user sends the same text again on purpose.",
  },
  {
    id: "client.key.same-prompt",
    tier: "MANDATORY",
    summary: "a key is never sent with a different prompt",
    text: "Clients MUST NOT send the same key with a different prompt.",
  },
  {
    id: "client.retry.same-key",
    tier: "MANDATORY",
    summary: "a resend of a prompt whose answer was lost carries the same key",
    text: "It sends the same key on every attempt, including after reconnecting or restarting.",
  },
  {
    id: "client.retry.resend",
    tier: "ADVISORY",
    summary: "a keyed prompt whose answer was lost is resent",
    text: "Clients SHOULD resend a pending prompt as soon as they have resumed the session.",
  },
  {
    id: "client.resume.before-resend",
    tier: "ADVISORY",
    summary: "after a reconnect or an agent restart, the Client resumes the session, then resends",
    text: "Clients SHOULD resend a pending prompt as soon as they have resumed the session.",
  },
  {
    id: "client.resend.unkeyed",
    tier: "ADVISORY",
    summary: "a prompt without a key whose answer was lost is not resent",
    text: "A Client then knows whether a request is safe to send again as is, safe to send again with a key, or not resent at all.",
  },
  {
    id: "client.resend.session-new",
    tier: "ADVISORY",
    summary: "a session/new whose answer was lost is not resent",
    text: "The method audit finds one keyed method, session/prompt, and two duplicating methods, session/new and session/fork.",
  },
];

/** The requirement `id` (of either suite). */
export function requirement(id: string): Requirement {
  const found = REQUIREMENTS.find((r) => r.id === id) ?? CLIENT_REQUIREMENTS.find((r) => r.id === id);
  if (!found) throw new Error(`unknown conformance requirement ${id}`);
  return found;
}
