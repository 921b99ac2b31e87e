/**
 * Compares one matched pair of submissions field by field (prompt, when a key paired two prompts;
 * outcome, verdicts, attempts, inserts, messageId rules, latency), each marked better / worse / same / changed with a one-line reason.
 * It reads the outcome model's facts (`agentEffect`, `clientAnswered`) as diff-side.ts kept them.
 */
import type { VerdictSeverity } from "../analyzer/verdicts.js";
import type { DiffMark, DiffVerdict, FieldDiff, SubmissionDiff, SubmissionRef } from "./diff-model.js";
import type { SideSubmission } from "./diff-side.js";
import type { MatchedPair } from "./submission-match.js";

/** A latency is marked worse (or better) only past both: B at least this many times A, and this many ms apart. */
export const LATENCY_RATIO = 1.5;
export const LATENCY_MIN_MS = 100;

const SEVERITY_RANK: Record<VerdictSeverity, number> = { ok: 0, info: 1, "client-issue": 2, violation: 3 };

/** The most severe verdict, or null when there is none. */
function worst(verdicts: readonly DiffVerdict[]): DiffVerdict | null {
  let w: DiffVerdict | null = null;
  for (const v of verdicts) if (!w || SEVERITY_RANK[v.severity] > SEVERITY_RANK[w.severity]) w = v;
  return w;
}

const rank = (v: DiffVerdict | null): number => (v ? SEVERITY_RANK[v.severity] : 0);
const names = (vs: readonly DiffVerdict[]): string =>
  vs.length === 0 ? "none" : vs.map((v) => v.name).join(", ");
const serious = (v: DiffVerdict): boolean => SEVERITY_RANK[v.severity] >= SEVERITY_RANK["client-issue"];

function field(f: FieldDiff["field"], a: string, b: string, mark: DiffMark, reason: string): FieldDiff {
  return { field: f, a, b, mark, reason };
}

/** Verdicts: a more severe worst verdict, or a new violation or client issue, is worse. */
export function compareVerdicts(a: readonly DiffVerdict[], b: readonly DiffVerdict[]): FieldDiff {
  const sa = names(a);
  const sb = names(b);
  const wa = worst(a);
  const wb = worst(b);
  if (new Set(a.map((v) => v.name)).size === b.length && b.every((v) => a.some((x) => x.name === v.name)))
    return field("verdicts", sa, sb, "same", "the same verdicts");
  if (rank(wb) > rank(wa))
    return field(
      "verdicts",
      sa,
      sb,
      "worse",
      `${wb?.name} (${wb?.severity}) where A had ${wa?.name ?? "no verdict"}`,
    );
  if (rank(wb) < rank(wa))
    return field(
      "verdicts",
      sa,
      sb,
      "better",
      `${wa?.name} (${wa?.severity}) is gone: B has ${wb?.name ?? "no verdict"}`,
    );
  const added = b.filter((v) => serious(v) && !a.some((x) => x.name === v.name));
  if (added.length > 0)
    return field("verdicts", sa, sb, "worse", `new ${added[0]?.severity}: ${added[0]?.name}`);
  const removed = a.filter((v) => serious(v) && !b.some((x) => x.name === v.name));
  if (removed.length > 0) return field("verdicts", sa, sb, "better", `${removed[0]?.name} is gone`);
  return field("verdicts", sa, sb, "changed", "other verdicts of the same severity");
}

/** Where the Client stands: answered with every effect known > answered, an effect unknown > unanswered. */
function outcomeRank(s: SideSubmission): number {
  return (s.clientAnswered ? 2 : 0) - (s.unknownEffect ? 1 : 0);
}

function outcomeText(s: SideSubmission): string {
  const more = s.attempts > s.effects.length ? `, +${s.attempts - s.effects.length} more` : "";
  const client = s.clientAnswered ? "the client has an answer" : "the client has no answer";
  return `${s.effects.join(", ")}${more}; ${client}`;
}

function compareOutcome(a: SideSubmission, b: SideSubmission): FieldDiff {
  const ta = outcomeText(a);
  const tb = outcomeText(b);
  const ra = outcomeRank(a);
  const rb = outcomeRank(b);
  if (rb < ra)
    return field(
      "outcome",
      ta,
      tb,
      "worse",
      b.clientAnswered ? "an effect is now unknown" : "the client no longer has an answer",
    );
  if (rb > ra)
    return field(
      "outcome",
      ta,
      tb,
      "better",
      a.clientAnswered ? "no effect is unknown now" : "the client now has an answer",
    );
  return field(
    "outcome",
    ta,
    tb,
    ta === tb ? "same" : "changed",
    ta === tb ? "the same effects" : "other effects, the client as well off",
  );
}

function compareAttempts(a: SideSubmission, b: SideSubmission): FieldDiff {
  const t = (s: SideSubmission) => `${s.attempts} (${s.clientAttempts} by the client)`;
  if (b.clientAttempts > a.clientAttempts)
    return field("attempts", t(a), t(b), "worse", "the client had to send it more often");
  if (b.clientAttempts < a.clientAttempts)
    return field("attempts", t(a), t(b), "better", "the client sent it fewer times");
  if (a.attempts !== b.attempts)
    return field("attempts", t(a), t(b), "changed", "the inspector sent it a different number of times");
  return field("attempts", t(a), t(b), "same", "as many attempts");
}

function compareInserts(a: SideSubmission, b: SideSubmission): FieldDiff {
  const ta = String(a.inserts);
  const tb = String(b.inserts);
  if (a.inserts === b.inserts) return field("inserts", ta, tb, "same", "as many inserts");
  if (b.inserts > 1 && b.inserts > a.inserts)
    return field("inserts", ta, tb, "worse", `the prompt was inserted ${b.inserts} times`);
  if (a.inserts > 1 && b.inserts < a.inserts)
    return field("inserts", ta, tb, "better", "fewer duplicate inserts");
  return field("inserts", ta, tb, "changed", "another number of inserts");
}

/** True when a keyed submission kept one message: at most one distinct messageId and one insert. */
function dedupHeld(s: SideSubmission): boolean | null {
  if (s.keyStatus !== "valid") return null;
  return s.distinctMessageIds <= 1 && s.inserts <= 1;
}

function messageIdText(s: SideSubmission): string {
  const held = dedupHeld(s);
  const dedup = held === null ? "no key" : held ? "dedup held" : "dedup broken";
  const client =
    s.clientHasAgentMessage === null
      ? "the client has no messageId"
      : s.clientHasAgentMessage
        ? "the client has the agent's messageId"
        : "the client has a messageId the agent never produced";
  return `${s.distinctMessageIds} distinct; ${dedup}; ${client}`;
}

function compareMessageIds(a: SideSubmission, b: SideSubmission): FieldDiff {
  const ta = messageIdText(a);
  const tb = messageIdText(b);
  if (dedupHeld(a) === true && dedupHeld(b) === false)
    return field(
      "messageIds",
      ta,
      tb,
      "worse",
      `dedup broke: ${b.distinctMessageIds} messageIds for one key`,
    );
  if (dedupHeld(a) === false && dedupHeld(b) === true)
    return field("messageIds", ta, tb, "better", "dedup holds now");
  if (a.clientHasAgentMessage === true && b.clientHasAgentMessage !== true)
    return field("messageIds", ta, tb, "worse", "the client no longer has the agent's messageId");
  if (a.clientHasAgentMessage !== true && b.clientHasAgentMessage === true)
    return field("messageIds", ta, tb, "better", "the client now has the agent's messageId");
  if (ta === tb) return field("messageIds", ta, tb, "same", "the same messageId rules hold");
  return field("messageIds", ta, tb, "changed", "another count of messageIds");
}

function compareLatency(a: SideSubmission, b: SideSubmission): FieldDiff {
  const t = (ms: number | null) => (ms === null ? "none" : `${Math.round(ms)} ms`);
  const la = a.latencyMs;
  const lb = b.latencyMs;
  if (la === null || lb === null)
    return field(
      "latency",
      t(la),
      t(lb),
      la === lb ? "same" : "changed",
      la === lb ? "no answer either side" : "answered on one side only",
    );
  if (lb >= la * LATENCY_RATIO && lb - la >= LATENCY_MIN_MS)
    return field("latency", t(la), t(lb), "worse", `${Math.round(lb - la)} ms slower to settle`);
  if (la >= lb * LATENCY_RATIO && la - lb >= LATENCY_MIN_MS)
    return field("latency", t(la), t(lb), "better", `${Math.round(la - lb)} ms faster to settle`);
  return field("latency", t(la), t(lb), "same", `within ${LATENCY_RATIO}x or ${LATENCY_MIN_MS} ms`);
}

function ref(s: SideSubmission): SubmissionRef {
  return { rowId: s.rowId, firstSeq: s.firstSeq, key: s.key, result: s.result, verdicts: s.verdicts };
}

/** Worse beats better beats changed beats same. */
export function overallMark(marks: readonly DiffMark[]): DiffMark {
  if (marks.includes("worse")) return "worse";
  if (marks.includes("better")) return "better";
  if (marks.includes("changed")) return "changed";
  return "same";
}

/** One pair compared; an unmatched submission is `changed`, or `worse` when it is new in B with a violation or client issue. */
export function compareSubmission(pair: MatchedPair): SubmissionDiff {
  const { a, b } = pair;
  const one = (a ?? b) as SideSubmission;
  const base = { match: pair.kind, session: one.session, prompt: one.prompt, a: a && ref(a), b: b && ref(b) };
  if (!a || !b) {
    const newProblem = !a && b !== null && b.verdicts.some(serious);
    const mark: DiffMark = newProblem ? "worse" : "changed";
    return { ...base, fields: [], verdictMark: mark, mark };
  }
  const verdicts = compareVerdicts(a.verdicts, b.verdicts);
  const fields = [
    ...(a.prompt === b.prompt
      ? []
      : [field("prompt", a.prompt, b.prompt, "changed", "the same key with another prompt")]),
    compareOutcome(a, b),
    verdicts,
    compareAttempts(a, b),
    compareInserts(a, b),
    compareMessageIds(a, b),
    compareLatency(a, b),
  ];
  const mark = overallMark(fields.filter((f) => f.field !== "latency").map((f) => f.mark));
  return { ...base, fields, verdictMark: verdicts.mark, mark };
}
