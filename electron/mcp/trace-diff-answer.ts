/**
 * The MCP `diff_traces` answer: two redacted traces (redacted-trace.ts) compared by the one diff
 * `acp-retry-inspector diff` runs (shared/diff/), with the CI gate's verdict (`--fail-on worse`).
 * Both sides are summarised from records redacted by one redactor (`loadRedactedPair`), so a prompt
 * both traces hold has one placeholder and pairs as on the originals. Setup facts from the
 * `initialize` exchange are marked same/changed without their values (no tool returns that frame);
 * header facts keep theirs (`summarize_trace` shows the redacted header).
 */
import type { SetupDiff } from "../../shared/diff/diff-model.js";
import { type DiffSide, summarizeSide } from "../../shared/diff/diff-side.js";
import { SetupCollector } from "../../shared/diff/setup-collector.js";
import { diffExitStatus, diffTraces } from "../../shared/diff/trace-diff.js";
import type { RedactedTrace } from "./redacted-trace.js";

/** Submission rows returned at most (the default is 50); every one is counted in the totals. */
export const MAX_DIFF_SUBMISSIONS = 500;
/** Setup facts whose values the header holds (the rest come from the `initialize` frames). */
const HEADER_FACTS = new Set(["tool", "transport", "agentCommand", "importedFormat"]);

/** One redacted trace summarised for the diff. */
function sideOf(trace: RedactedTrace): DiffSide {
  const setup = new SetupCollector();
  setup.observeHeader(trace.header);
  for (const frame of trace.frames.values()) setup.observe(frame);
  return summarizeSide(trace.model, setup.facts());
}

function setupLine(s: SetupDiff) {
  if (HEADER_FACTS.has(s.field)) return s;
  return { field: s.field, mark: s.mark, gated: s.gated, valuesShown: false };
}

/** Trace A (before) compared with trace B (after): the diff's JSON, bounded, and the gate's verdict. */
export function diffAnswer(a: RedactedTrace, b: RedactedTrace, limit = 50) {
  const diff = diffTraces(sideOf(a), sideOf(b));
  const cap = Math.min(Math.max(1, Math.floor(limit)), MAX_DIFF_SUBMISSIONS);
  const worse = diffExitStatus(diff, "worse") === 1;
  return {
    a: a.entry.name,
    b: b.entry.name,
    gate: {
      failOn: "worse",
      verdict: worse ? "worse" : "same",
      reason: worse
        ? `${diff.totals.verdictsWorse} submission(s) with worse verdicts in B`
        : "no submission's verdicts got worse",
    },
    totals: diff.totals,
    setup: diff.setup.map(setupLine),
    submissions: diff.submissions.slice(0, cap),
    submissionsLeftOff: diff.unlisted + Math.max(0, diff.submissions.length - cap),
    methods: diff.methods,
    bounded: diff.bounded,
  };
}
