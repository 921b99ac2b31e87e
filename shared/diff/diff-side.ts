/**
 * One trace as `diff` needs it: a compact summary of each submission, the figures of each method
 * and the setup, taken from the analyzer's model so the model can be let go before the other trace
 * is analysed (the diff's memory stays near one analysis). Pure: the CLI builds the model.
 */
import { latencyReport } from "../analyzer/latency.js";
import type {
  AgentEffect,
  Attempt,
  KeyStatus,
  Submission,
  TimelineModel,
} from "../analyzer/timeline-model.js";
import type { DiffVerdict, MethodFigures } from "./diff-model.js";
import type { SetupFacts } from "./setup-collector.js";

/** At most this many attempts of one submission are looked at for its outcome (the rest are counted). */
export const MAX_ATTEMPTS_SEEN = 64;
/** At most this many methods are kept (the rest are counted in `methodsLeftOut`). */
export const MAX_METHODS = 500;
/** Method names are cut to this many characters, as the latency report cuts them. */
const MAX_METHOD_CHARS = 120;

/** One submission as the diff compares it. */
export interface SideSubmission {
  readonly rowId: number;
  readonly firstSeq: number;
  /** The position of its session in the trace (order of first appearance); null sessions share one. */
  readonly session: number;
  readonly key: string | null;
  readonly keyStatus: KeyStatus;
  readonly prompt: string;
  readonly result: string;
  readonly verdicts: readonly DiffVerdict[];
  /** Every attempt, the inspector's included, and the Client's own. */
  readonly attempts: number;
  readonly clientAttempts: number;
  /** `agentEffect.kind` of each attempt, in order (at most `MAX_ATTEMPTS_SEEN`). */
  readonly effects: readonly AgentEffect["kind"][];
  readonly clientAnswered: boolean;
  /** True when an attempt's effect is unknown (an answer lost with its connection or Agent). */
  readonly unknownEffect: boolean;
  readonly inserts: number;
  readonly distinctMessageIds: number;
  /** True when the Client's messageId is one the Agent produced for it (null: the Client has none). */
  readonly clientHasAgentMessage: boolean | null;
  /** From its first attempt's request to the last answer, ms; null when no attempt has a latency. */
  readonly latencyMs: number | null;
}

/** One trace summarised for `diff`. */
export interface DiffSide {
  readonly submissions: readonly SideSubmission[];
  readonly methods: ReadonlyMap<string, MethodFigures>;
  /** Methods past `MAX_METHODS` (their requests not compared). */
  readonly methodsLeftOut: number;
  readonly setup: SetupFacts;
}

/** Summarises an analyzed trace for `diff`. */
export function summarizeSide(model: TimelineModel, setup: SetupFacts): DiffSide {
  const sessions = new Map<string | null, number>();
  const submissions = model.submissions.map((s) => {
    let session = sessions.get(s.sessionId);
    if (session === undefined) {
      session = sessions.size;
      sessions.set(s.sessionId, session);
    }
    return summarizeSubmission(s, session);
  });
  const { methods, leftOut } = methodFigures(model);
  return { submissions, methods, methodsLeftOut: leftOut, setup };
}

function summarizeSubmission(s: Submission, session: number): SideSubmission {
  const seen = s.attempts.length > MAX_ATTEMPTS_SEEN ? s.attempts.slice(0, MAX_ATTEMPTS_SEEN) : s.attempts;
  const names = new Set<string>();
  const verdicts: DiffVerdict[] = [];
  for (const v of s.verdicts)
    if (!names.has(v.name)) {
      names.add(v.name);
      verdicts.push({ name: v.name, severity: v.severity });
    }
  const first = s.attempts[0];
  return {
    rowId: s.id,
    firstSeq: first?.requestSeq ?? 0,
    session,
    key: s.key,
    keyStatus: s.keyStatus,
    prompt: s.promptPreview,
    result: s.result,
    verdicts,
    attempts: s.attempts.length,
    clientAttempts: s.attempts.filter((a) => a.sender.kind === "client").length,
    effects: seen.map((a) => a.agentEffect.kind),
    clientAnswered: s.clientAnswered,
    unknownEffect: s.attempts.some((a) => a.agentEffect.kind === "unknown"),
    inserts: s.inserts,
    distinctMessageIds: s.messageIds.length,
    clientHasAgentMessage: s.clientMessageId === null ? null : s.messageIds.includes(s.clientMessageId),
    latencyMs: settleLatency(s.attempts),
  };
}

/** From the first attempt's request to the last answer any attempt got, ms. */
function settleLatency(attempts: readonly Attempt[]): number | null {
  const start = attempts[0]?.sentAt;
  if (start === undefined) return null;
  let end: number | null = null;
  for (const a of attempts) {
    if (a.latencyMs === null || !Number.isFinite(a.latencyMs)) continue;
    const at = a.sentAt + a.latencyMs;
    if (end === null || at > end) end = at;
  }
  return end === null ? null : Math.max(0, end - start);
}

function cutMethod(method: string): string {
  return method.length > MAX_METHOD_CHARS ? `${method.slice(0, MAX_METHOD_CHARS)}…` : method;
}

/** Requests, errors and no-answers per method (prompt attempts as `session/prompt`), with p50/p99. */
function methodFigures(model: TimelineModel): { methods: Map<string, MethodFigures>; leftOut: number } {
  const counts = new Map<string, { requests: number; errors: number; noAnswer: number }>();
  let leftOut = 0;
  const add = (method: string, kind: string) => {
    let c = counts.get(method);
    if (!c) {
      if (counts.size >= MAX_METHODS) {
        leftOut++;
        return;
      }
      c = { requests: 0, errors: 0, noAnswer: 0 };
      counts.set(method, c);
    }
    c.requests++;
    if (kind === "error" || kind === "cancelled") c.errors++;
    else if (kind === "pending" || kind === "lost" || kind === "dropped-request") c.noAnswer++;
  };
  const kindOf = (o: Attempt["outcome"]): string => {
    if (o.kind !== "dropped") return o.kind;
    return o.frame === "request" ? "dropped-request" : (o.answer?.kind ?? "answered");
  };
  for (const s of model.submissions) for (const a of s.attempts) add("session/prompt", kindOf(a.outcome));
  for (const r of model.requests) if (r.method !== null) add(cutMethod(r.method), kindOf(r.outcome));
  const latency = new Map(latencyReport(model).byMethod.map((m) => [m.method, m]));
  const methods = new Map<string, MethodFigures>();
  for (const [method, c] of counts) {
    const l = latency.get(method);
    methods.set(method, { ...c, p50: l?.p50 ?? null, p99: l?.p99 ?? null });
  }
  return { methods, leftOut };
}
