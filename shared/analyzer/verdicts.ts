/**
 * The verdict catalogue: every judgement the analyzer can pass on a submission or request, with a
 * stable name, a severity, a one-sentence explanation and the RFD sentence it rests on.
 */

/** Every verdict name; stable, used in JSON output and exit statuses. */
export type VerdictName =
  | "single"
  | "deduplicated"
  | "retried-after-error"
  | "withdrawn"
  | "duplicate-insert"
  | "invalid-key-accepted"
  | "key-leaked"
  | "cancel-not-propagated"
  | "key-reused-different-prompt"
  | "unresolved"
  | "unkeyed-resend"
  | "duplicating-resend"
  | "new-key-on-resend"
  | "v1-answer-lost"
  | "v1-resend"
  | "unkeyed-retry-inserted";

/**
 * `ok`: behaved as the RFD intends; `violation`: the Agent broke an RFD rule; `client-issue`: the
 * Client did something the RFD warns against; `info`: worth knowing, but no rule applies (a v1
 * session, which the RFD does not change, or a retry without a key).
 */
export type VerdictSeverity = "ok" | "violation" | "client-issue" | "info";

/** One verdict's definition. */
export interface VerdictDefinition {
  readonly name: VerdictName;
  readonly severity: VerdictSeverity;
  /** When it fires and why it matters, in one sentence. */
  readonly explanation: string;
  /** The RFD sentence it cites, verbatim. */
  readonly rule: string;
}

/** The RFD's word on v1, cited by the verdicts of v1 sessions. */
const V1_RULE =
  "This RFD doesn't change v1. A v1 session/prompt response arrives at the end of the turn, so a keyed retry would need different rules for what it returns.";

/** Every verdict, ok first, then Agent violations, then Client issues, then information. */
export const VERDICTS: readonly VerdictDefinition[] = [
  {
    name: "single",
    severity: "ok",
    explanation: "The submission was sent once and got a definite answer, so there was nothing to retry.",
    rule: "Each attempt is its own JSON-RPC request with its own id. The key is what links the attempts.",
  },
  {
    name: "deduplicated",
    severity: "ok",
    explanation:
      "Several attempts of one key produced one user message, and every successful attempt got the same messageId.",
    rule: "A retry gets the original messageId and nothing else.",
  },
  {
    name: "retried-after-error",
    severity: "ok",
    explanation:
      "An attempt failed with an error and a later attempt (with the same key, or the same unkeyed prompt resent) was inserted once.",
    rule: "Errors leave the key unused. An error response to session/prompt already means the message was not inserted. The Agent records nothing, and the Client can send the same prompt with the same key again.",
  },
  {
    name: "withdrawn",
    severity: "ok",
    explanation:
      "Every attempt of the submission was answered -32800 (cancelled) and nothing was inserted: the prompt was withdrawn.",
    rule: "$/cancel_request for any pending request with the key withdraws a prompt that is not inserted yet. The Agent then answers every pending request for that key with -32800.",
  },
  {
    name: "duplicate-insert",
    severity: "violation",
    explanation: "One key produced more than one user message (two distinct messageIds or two inserts).",
    rule: "The Agent MUST NOT insert a second message for a key it has recorded.",
  },
  {
    name: "invalid-key-accepted",
    severity: "violation",
    explanation: "A malformed idempotencyKey was answered with something other than a -32602 error.",
    rule: "When present, it is an opaque, case-sensitive string of 1 to 255 characters. The Agent MUST reject any other value with -32602 (Invalid params) and MUST NOT treat it as omitted.",
  },
  {
    name: "key-leaked",
    severity: "violation",
    explanation: "The key's value appeared in a frame the Agent sent to a Client.",
    rule: "The Agent doesn't echo keys in session updates, session/list results, or replayed history, so one Client doesn't see another Client's keys.",
  },
  {
    name: "cancel-not-propagated",
    severity: "violation",
    explanation:
      "Attempts of one key that were pending when a $/cancel_request named one of them ended with different answers.",
    rule: "$/cancel_request for any pending request with the key withdraws a prompt that is not inserted yet. The Agent then answers every pending request for that key with -32800.",
  },
  {
    name: "key-reused-different-prompt",
    severity: "client-issue",
    explanation: "The Client sent the same key with a different prompt.",
    rule: "Clients MUST NOT send the same key with a different prompt.",
  },
  {
    name: "unresolved",
    severity: "client-issue",
    explanation:
      "No attempt of the submission got an answer the Client saw, nothing is pending, and the Client did not resend it: the Client cannot know whether the user's input was inserted.",
    rule: "Clients SHOULD resend a pending prompt as soon as they have resumed the session.",
  },
  {
    name: "unkeyed-resend",
    severity: "client-issue",
    explanation:
      "An identical prompt without a key was resent after the previous one's answer was lost, which can insert it twice.",
    rule: "It sends the same key on every attempt, including after reconnecting or restarting.",
  },
  {
    name: "duplicating-resend",
    severity: "client-issue",
    explanation:
      "A session/new or session/fork was resent with the same params after its answer was lost, which can create a second session.",
    rule: "The method audit finds one keyed method, session/prompt, and two duplicating methods, session/new and session/fork.",
  },
  {
    name: "new-key-on-resend",
    severity: "client-issue",
    explanation:
      "The same prompt was resent in the same session under a new key after an earlier attempt's answer was lost, so the Agent cannot tell it is a retry and may insert it twice.",
    rule: "It sends the same key on every attempt, including after reconnecting or restarting.",
  },
  {
    name: "v1-answer-lost",
    severity: "info",
    explanation:
      "In a v1 session no answer reached the Client and nothing is pending: the Client cannot know whether the prompt ran, and v1 has no keys, so a resend may insert it twice.",
    rule: V1_RULE,
  },
  {
    name: "v1-resend",
    severity: "info",
    explanation:
      "In a v1 session the Client resent a request after its answer was lost or failed: v1 has no keys, so this resend may insert twice (or, for session/new, create a second session).",
    rule: V1_RULE,
  },
  {
    name: "unkeyed-retry-inserted",
    severity: "info",
    explanation:
      "A prompt without an idempotencyKey was retried (by the inspector) and inserted again: with no key the Agent cannot tell a retry from a new prompt, so even a correct Agent inserts it twice.",
    rule: "It sends the same key on every attempt, including after reconnecting or restarting.",
  },
];

/** Every verdict name, in catalogue order. */
export const VERDICT_NAMES: readonly VerdictName[] = VERDICTS.map((v) => v.name);

const BY_NAME = new Map<VerdictName, VerdictDefinition>(VERDICTS.map((v) => [v.name, v]));

/** The definition of a verdict. */
export function verdictDefinition(name: VerdictName): VerdictDefinition {
  const d = BY_NAME.get(name);
  if (!d) throw new Error(`unknown verdict ${name}`);
  return d;
}

/** The severity of a verdict. */
export function verdictSeverity(name: VerdictName): VerdictSeverity {
  return verdictDefinition(name).severity;
}
