/**
 * The analyzer's claims about one client submission, read from `analyze --json` (the timeline
 * model as the CLI prints it): how many inserts, which messageIds, the messageId the client has,
 * the result and verdicts in words, and per attempt what the agent did and whether an answer reached
 * the client. The outcome model's fields (`agentEffect`, `clientSaw`, `sender`: docs/analyzer.md)
 * are read when the document has them; a document of an older build, without them, is read from
 * `outcome`, `forwarded` and `origin`, so the oracle can judge an old analyzer too.
 */

/** An attempt as `analyze --json` prints it (only the fields the oracle reads). */
export interface JsonAttempt {
  readonly conn: number;
  readonly id: string | number;
  readonly requestSeq: number;
  readonly outcome: {
    readonly kind: string;
    readonly messageId?: string | null;
    readonly answer?: JsonAttempt["outcome"];
  };
  readonly effect: string;
  readonly words: string;
  readonly origin?: string;
  readonly forwarded?: boolean;
  readonly agentEffect?: { readonly kind: string; readonly messageId?: string | null };
  readonly clientSaw?: { readonly kind: string; readonly messageId?: string | null };
  readonly sender?: { readonly kind: string };
  readonly tone?: string;
}

/** A submission as `analyze --json` prints it (only the fields the oracle reads). */
export interface JsonSubmission {
  readonly id: number;
  readonly sessionId: string | null;
  readonly key: string | null;
  readonly keyStatus: string;
  readonly inserts: number;
  readonly messageIds: readonly string[];
  readonly finalMessageId: string | null;
  readonly clientMessageId: string | null;
  readonly result: string;
  readonly verdicts: readonly { readonly name: string }[];
  readonly attempts: readonly JsonAttempt[];
  readonly clientAnswered?: boolean;
}

/** What the analyzer says about one attempt. */
export interface AttemptClaims {
  /** How views name it (conn, id, seq). */
  readonly ref: string;
  readonly sender: "client" | "inspector";
  /** The agent's effect: pending, inserted, deduplicated, not-inserted, not-delivered or unknown. */
  readonly effect: string;
  readonly words: string;
  /** The messageId the analyzer says the agent answered this attempt with, if any. */
  readonly agentMessageId: string | null;
  /** The messageId the analyzer says reached the client for this attempt (own answer or forwarded), if any. */
  readonly clientMessageId: string | null;
  /** The attempt's colour (`tone`: ok, violation, warn, unknown, pending), when the document has it. */
  readonly tone: string | null;
}

/** What the analyzer says about one submission (for an unkeyed client: all its submissions in the session, merged). */
export interface SubmissionClaims {
  readonly key: string | null;
  /** Row ids of the analyzer's submissions behind these claims. */
  readonly rows: readonly number[];
  readonly inserts: number;
  readonly messageIds: readonly string[];
  readonly finalMessageIds: readonly string[];
  /** The messageIds the analyzer says the client has (one per submission row that has one). */
  readonly clientMessageIds: readonly string[];
  readonly results: readonly string[];
  readonly verdicts: readonly string[];
  readonly attempts: readonly AttemptClaims[];
  /** Whether the analyzer says the client has a definite answer (any row), when the document says. */
  readonly clientAnswered: boolean | null;
}

/** The old model's effect names, as the outcome model names them. */
const OLD_EFFECT: Readonly<Record<string, string>> = {
  original: "deduplicated",
  error: "not-inserted",
  cancelled: "not-inserted",
};

function oldAnswer(o: JsonAttempt["outcome"]): string | null {
  if (o.kind === "inserted") return o.messageId ?? null;
  if (o.kind === "dropped" && o.answer?.kind === "inserted") return o.answer.messageId ?? null;
  return null;
}

function attemptClaims(a: JsonAttempt): AttemptClaims {
  const ref = `conn #${a.conn} id ${JSON.stringify(a.id)} (seq ${a.requestSeq})`;
  if (a.agentEffect && a.clientSaw && a.sender) {
    const saw = a.clientSaw.kind === "answer" || a.clientSaw.kind === "forwarded";
    return {
      ref,
      sender: a.sender.kind === "client" ? "client" : "inspector",
      effect: a.agentEffect.kind,
      words: a.words,
      agentMessageId: a.agentEffect.messageId ?? null,
      clientMessageId: saw ? (a.clientSaw.messageId ?? null) : null,
      tone: a.tone ?? null,
    };
  }
  const sender = a.origin === undefined ? "client" : "inspector";
  const answer = oldAnswer(a.outcome);
  const saw = sender === "client" ? a.outcome.kind === "inserted" : a.forwarded === true;
  return {
    ref,
    sender,
    effect: OLD_EFFECT[a.effect] ?? a.effect,
    words: a.words,
    agentMessageId: answer,
    clientMessageId: saw ? answer : null,
    tone: a.tone ?? null,
  };
}

/** Merges the claims of the analyzer's submission rows `rows` (one row for a keyed submission). */
export function claimsOf(key: string | null, rows: readonly JsonSubmission[]): SubmissionClaims {
  const uniq = (xs: readonly (string | null)[]) => [...new Set(xs.filter((x): x is string => x !== null))];
  return {
    key,
    rows: rows.map((r) => r.id),
    inserts: rows.reduce((n, r) => n + r.inserts, 0),
    messageIds: uniq(rows.flatMap((r) => r.messageIds)),
    finalMessageIds: uniq(rows.map((r) => r.finalMessageId)),
    clientMessageIds: uniq(rows.map((r) => r.clientMessageId)),
    results: rows.map((r) => r.result),
    verdicts: [...new Set(rows.flatMap((r) => r.verdicts.map((v) => v.name)))],
    attempts: rows.flatMap((r) => r.attempts.map(attemptClaims)),
    clientAnswered: rows.some((r) => r.clientAnswered === undefined)
      ? null
      : rows.some((r) => r.clientAnswered === true),
  };
}

/** The analyzer's rows for the submission with `key` (keyed), or for every unkeyed prompt of `sessionId`. */
export function rowsFor(
  submissions: readonly JsonSubmission[],
  key: string | null,
  sessionId: string | null,
): JsonSubmission[] {
  if (key !== null) return submissions.filter((s) => s.key === key);
  return submissions.filter((s) => s.keyStatus === "absent" && s.sessionId === sessionId);
}
