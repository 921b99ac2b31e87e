/**
 * Latency per method and per connection: p50/p95/p99/max of the time from a request to its answer,
 * as the tap recorded both (`latencyMs` of attempts and request rows). What the numbers measure:
 * the answerer's time (the Agent's, or the Client's for Agent→Client requests) seen at the tap. A
 * dropped answer counts, because the Agent did answer, and is counted apart (`dropped`): the Client
 * never got it and waited on. Requests the inspector made (its retries, the tap's replays) count too,
 * apart (`inspector`). Requests with no answer (pending, lost, never delivered) have no latency and
 * are counted in `noAnswer`, never given a made-up one. Bounded: at most `MAX_GROUPS` methods and
 * connection×method groups are broken out (the rest are counted in `overflow`).
 */
import type { Attempt, Outcome, RequestRow, TimelineModel } from "./timeline-model.js";

/** How many method groups, and connection×method groups, are broken out; the rest are counted. */
export const MAX_LATENCY_GROUPS = 500;
/** Method names are cut to this many characters (a peer chooses them). */
const MAX_METHOD_CHARS = 120;

/** The latency figures of one group of requests. */
export interface LatencyStats {
  /** Requests in the group (answered or not). */
  readonly requests: number;
  /** Requests with a latency: the samples p50..max are taken from. */
  readonly samples: number;
  /** Of the samples: answers the inspector dropped (the Agent's time; the Client never got them). */
  readonly dropped: number;
  /** Of the samples: requests the inspector made (its retries, the tap's replays), not the Client. */
  readonly inspector: number;
  /** Requests with no answer (pending, lost with the connection or Agent, never delivered). */
  readonly noAnswer: number;
  /** Nearest-rank percentiles and the maximum, ms; null without samples. */
  readonly p50: number | null;
  readonly p95: number | null;
  readonly p99: number | null;
  readonly max: number | null;
}

/** One method's figures over every connection. */
export interface MethodLatency extends LatencyStats {
  readonly method: string;
}

/** One method's figures on one connection. */
export interface ConnectionLatency extends LatencyStats {
  readonly conn: number;
  readonly method: string;
}

/** The latency section of `analyze --json` and the app's panel. */
export interface LatencyReport {
  /** By method, slowest p95 first. */
  readonly byMethod: readonly MethodLatency[];
  /** By connection, then method. */
  readonly byConnection: readonly ConnectionLatency[];
  /** Requests whose group was past `MAX_LATENCY_GROUPS` (not broken out), and latencies that were negative (a clock went back: left out). */
  readonly overflow: number;
  readonly negative: number;
}

/** The nearest-rank percentile `p` (0 < p ≤ 100) of ascending `sorted`; null when empty. */
export function percentile(sorted: readonly number[], p: number): number | null {
  if (sorted.length === 0) return null;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? null;
}

/** One request as the statistics see it. */
interface Sample {
  readonly conn: number;
  readonly method: string;
  readonly latencyMs: number | null;
  readonly outcome: Outcome;
  readonly inspector: boolean;
}

/** A group being filled. */
class Group {
  readonly values: number[] = [];
  requests = 0;
  dropped = 0;
  inspector = 0;
  noAnswer = 0;

  add(s: Sample): void {
    this.requests++;
    if (s.latencyMs === null) {
      this.noAnswer++;
      return;
    }
    this.values.push(s.latencyMs);
    if (s.outcome.kind === "dropped") this.dropped++;
    if (s.inspector) this.inspector++;
  }

  stats(): LatencyStats {
    const sorted = this.values.sort((a, b) => a - b);
    return {
      requests: this.requests,
      samples: sorted.length,
      dropped: this.dropped,
      inspector: this.inspector,
      noAnswer: this.noAnswer,
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      max: sorted.length > 0 ? (sorted[sorted.length - 1] as number) : null,
    };
  }
}

function* samplesOf(model: TimelineModel): Generator<Sample> {
  for (const s of model.submissions) for (const a of s.attempts) yield attemptSample(a);
  for (const r of model.requests) if (r.method !== null) yield requestSample(r, r.method);
}

function attemptSample(a: Attempt): Sample {
  return {
    conn: a.conn,
    method: "session/prompt",
    latencyMs: answeredLatency(a.latencyMs, a.outcome),
    outcome: a.outcome,
    inspector: a.origin !== undefined,
  };
}

function requestSample(r: RequestRow, method: string): Sample {
  return {
    conn: r.conn,
    method: method.length > MAX_METHOD_CHARS ? `${method.slice(0, MAX_METHOD_CHARS)}…` : method,
    latencyMs: answeredLatency(r.latencyMs, r.outcome),
    outcome: r.outcome,
    inspector: r.origin !== undefined,
  };
}

/** A latency only for an answer (a dropped answer included); a lost or undelivered request has none. */
function answeredLatency(latencyMs: number | null, outcome: Outcome): number | null {
  if (latencyMs === null || !Number.isFinite(latencyMs)) return null;
  if (outcome.kind === "pending" || outcome.kind === "lost") return null;
  if (outcome.kind === "dropped" && outcome.frame === "request") return null;
  return latencyMs;
}

/** Latency per method and per connection of a model (see the file comment for what counts). */
export function latencyReport(model: TimelineModel): LatencyReport {
  const byMethod = new Map<string, Group>();
  const byConn = new Map<string, { conn: number; method: string; group: Group }>();
  let overflow = 0;
  let negative = 0;
  for (const s of samplesOf(model)) {
    if (s.latencyMs !== null && s.latencyMs < 0) {
      negative++;
      continue;
    }
    let m = byMethod.get(s.method);
    if (!m && byMethod.size < MAX_LATENCY_GROUPS) {
      m = new Group();
      byMethod.set(s.method, m);
    }
    const key = `${s.conn} ${s.method}`;
    let c = byConn.get(key);
    if (!c && byConn.size < MAX_LATENCY_GROUPS) {
      c = { conn: s.conn, method: s.method, group: new Group() };
      byConn.set(key, c);
    }
    if (!m || !c) overflow++;
    m?.add(s);
    c?.group.add(s);
  }
  const methods = [...byMethod].map(([method, g]) => ({ method, ...g.stats() }));
  methods.sort((a, b) => (b.p95 ?? -1) - (a.p95 ?? -1) || a.method.localeCompare(b.method));
  const conns = [...byConn.values()].map(({ conn, method, group }) => ({ conn, method, ...group.stats() }));
  conns.sort((a, b) => a.conn - b.conn || a.method.localeCompare(b.method));
  return { byMethod: methods, byConnection: conns, overflow, negative };
}
