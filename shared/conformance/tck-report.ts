/**
 * The conformance report in acp-tck's `--report-json` shape (agentclientprotocol/acp-tck,
 * `tck.common.report`), so an acp-tck user can merge it with the official report: one entry per
 * requirement (id, tier, text, citation, aggregated status) with every case bound to it as a test
 * outcome (status, message, duration, properties, and for failures a transcript of the frames that
 * broke it), and a verdict. Statuses aggregate as acp-tck's do: FAIL > PASS > SKIPPED, and a
 * requirement no case ran is NOT_TESTED (a MANDATORY one then makes the run not conformant).
 * Pure: report in, JSON-ready object out.
 */

import type {
  AnyCaseName,
  CaseResult,
  CaseStatus,
  ConformanceReport,
  EvidenceFrame,
} from "./conformance-result.js";
import {
  CLIENT_REQUIREMENTS,
  REQUIREMENT_SOURCE,
  REQUIREMENTS,
  type RequirementTier,
} from "./requirement-catalogue.js";

/** acp-tck's statuses. */
export type TckStatus = "PASS" | "FAIL" | "SKIPPED" | "NOT_TESTED";

/** acp-tck's tiers (this suite uses no CAPABILITY requirement, but counts it like acp-tck does). */
export type TckTier = RequirementTier | "CAPABILITY";

/** One line of a failing outcome's transcript: acp-tck's `dir`/`t`/`raw`, plus where the frame is in the case's trace. */
export interface TckTranscriptEntry {
  readonly dir: "sent" | "received";
  /** Seconds (epoch; acp-tck's are monotonic seconds: only differences mean anything). */
  readonly t: number;
  readonly raw: string;
  readonly seq: number;
  readonly conn: number;
}

/** One case's outcome for one requirement. */
export interface TckTestOutcome {
  /** `acp-retry-inspector::conformance::<case>`. */
  readonly nodeid: string;
  readonly status: Exclude<TckStatus, "NOT_TESTED">;
  readonly message: string;
  readonly duration_s: number;
  /** `case`, `trace_file` (the case's whole trace) and `reason` (the case's one-line reason). */
  readonly properties: Record<string, string>;
  /** FAIL only: the frames that broke the requirement, in trace order. */
  readonly transcript: readonly TckTranscriptEntry[] | null;
  readonly stderr: string | null;
}

/** One requirement with its aggregated status. */
export interface TckRequirementResult {
  readonly id: string;
  readonly tier: TckTier;
  readonly capability: null;
  readonly text: string;
  readonly citation: string;
  readonly status: TckStatus;
  readonly tests: readonly TckTestOutcome[];
}

/** The whole report. */
export interface TckReport {
  readonly tck_version: string;
  readonly protocol_version: number;
  readonly schema_revision: string;
  readonly agent_command: readonly string[];
  readonly agent_info: { readonly name?: string; readonly version?: string } | null;
  /** The agent's capabilities from its `initialize` answer (the agent suite's probe); null when unknown. */
  readonly agent_capabilities: Readonly<Record<string, unknown>> | null;
  readonly started_at: string;
  readonly finished_at: string;
  readonly requirements: readonly TckRequirementResult[];
  readonly verdict: {
    readonly conformant: boolean;
    readonly tier_counts: Record<TckTier, Record<TckStatus, number>>;
    readonly blocked_by_auth: boolean;
    readonly blocked_by_version_mismatch: boolean;
  };
}

/** What this suite's requirements are checked against. */
export const TCK_SCHEMA_REVISION = "rfd-v2-idempotency-keys";
const TIERS: readonly TckTier[] = ["MANDATORY", "CAPABILITY", "ADVISORY", "INFORMATIONAL"];
const STATUSES: readonly TckStatus[] = ["PASS", "FAIL", "SKIPPED", "NOT_TESTED"];
const PRIORITY: Record<TckStatus, number> = { FAIL: 0, PASS: 1, SKIPPED: 2, NOT_TESTED: 3 };
const STATUS: Record<Exclude<CaseStatus, "not-run">, Exclude<TckStatus, "NOT_TESTED">> = {
  pass: "PASS",
  fail: "FAIL",
  skip: "SKIPPED",
};

function transcript(frames: readonly EvidenceFrame[]): TckTranscriptEntry[] {
  return [...frames]
    .sort((a, b) => a.seq - b.seq)
    .map((f) => ({
      dir: f.dir === "client->agent" ? "sent" : "received",
      t: f.ts / 1000,
      raw: f.raw,
      seq: f.seq,
      conn: f.conn,
    }));
}

/** The outcomes of `c` for requirement `id`: none when the case did not run (the requirement is then NOT_TESTED). */
function outcomesOf(c: CaseResult<AnyCaseName>, id: string, suite: string): TckTestOutcome[] {
  return c.outcomes.flatMap((o) => {
    if (o.id !== id || o.status === "not-run") return [];
    const status = STATUS[o.status];
    return [
      {
        nodeid: `acp-retry-inspector::${suite}::${c.name}`,
        status,
        message: o.message,
        duration_s: c.durationMs / 1000,
        properties: { case: c.name, reason: c.reason, ...(c.traceFile && { trace_file: c.traceFile }) },
        transcript: status === "FAIL" ? transcript(o.frames ?? []) : null,
        stderr: null,
      },
    ];
  });
}

/** The report in acp-tck's shape (a client-suite report lists the client requirements, `conformance-client::<case>`). */
export function toTckReport(report: ConformanceReport<AnyCaseName>): TckReport {
  const client = report.target.kind === "client";
  const suite = client ? "conformance-client" : "conformance";
  const requirements = [...(client ? CLIENT_REQUIREMENTS : REQUIREMENTS)]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((r): TckRequirementResult => {
      const tests = report.cases.flatMap((c) => outcomesOf(c, r.id, suite));
      const status = tests.reduce<TckStatus>(
        (worst, t) => (PRIORITY[t.status] < PRIORITY[worst] ? t.status : worst),
        "NOT_TESTED",
      );
      return {
        id: r.id,
        tier: r.tier,
        capability: null,
        text: r.text,
        citation: REQUIREMENT_SOURCE,
        status,
        tests,
      };
    });
  const tierCounts = Object.fromEntries(
    TIERS.map((tier) => [tier, Object.fromEntries(STATUSES.map((s) => [s, 0]))]),
  ) as Record<TckTier, Record<TckStatus, number>>;
  for (const r of requirements) tierCounts[r.tier][r.status]++;
  const mismatch = report.probe.status === "not-v2";
  const conformant =
    tierCounts.MANDATORY.FAIL === 0 &&
    tierCounts.MANDATORY.NOT_TESTED === 0 &&
    tierCounts.CAPABILITY.FAIL === 0 &&
    !mismatch;
  const finished = new Date(new Date(report.startedAt).getTime() + report.durationMs).toISOString();
  return {
    tck_version: report.tool,
    protocol_version: report.probe.protocolVersion ?? 2,
    schema_revision: TCK_SCHEMA_REVISION,
    // For the client suite: the client command (acp-tck has no field for a client).
    agent_command: report.target.kind === "url" ? [report.target.url] : [...report.target.command],
    agent_info: report.probe.info ?? null,
    agent_capabilities: report.probe.capabilities ?? null,
    started_at: report.startedAt,
    finished_at: finished,
    requirements,
    verdict: {
      conformant,
      tier_counts: tierCounts,
      blocked_by_auth: false,
      blocked_by_version_mismatch: mismatch,
    },
  };
}
