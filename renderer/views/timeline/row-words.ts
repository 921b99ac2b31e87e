/**
 * The words and facts of a Timeline row that its cells, tooltips, sort and line counts share: the
 * first column's words, the key, the detail, the result and verdict words, start time, Agent pids,
 * connections and the waterfall's window. Text only (no components), invisible controls shown.
 */

import type { VerdictHit } from "../../../shared/analyzer/timeline-model.js";
import { durationText, latencyText } from "../../../shared/analyzer/waterfall.js";
import { attemptLabel, outcomeLabel } from "../../kit/outcome-label.js";
import { clockTime } from "../../model/text/clock-time.js";
import { visibleText } from "../../model/text/visible-text.js";
import type { TimelineRow } from "../../model/timeline/timeline-rows.js";
import { type RowFacts, spanOfRow } from "./row-facts.js";

const ARROW = { "client->agent": "client → agent", "agent->client": "agent → client" } as const;

/** Verdict severities, worst first: the order badges show and sort in. */
export const SEVERITY_ORDER: readonly string[] = ["violation", "client-issue", "info", "ok"];

/** A row's verdicts, worst first. */
export function sortedVerdicts(verdicts: readonly VerdictHit[]): VerdictHit[] {
  return [...verdicts].sort(
    (a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity),
  );
}

/** The first column's words for a row, its invisible controls shown (`visibleText`). */
export function whatText(r: TimelineRow): string {
  return visibleText(whatWire(r));
}

function whatWire(r: TimelineRow): string {
  switch (r.kind) {
    case "submission":
      return "session/prompt";
    case "request":
      return r.row.method ?? "(unmatched response)";
    case "malformed":
      return "malformed frame";
    case "attempt":
      return `attempt ${r.number}${r.attempt.origin === "inspector" ? " (inspector)" : ""}`;
    case "event":
      return r.event.words;
    case "frame":
      return `${r.role}${r.dir ? `, ${ARROW[r.dir]}` : ""}`;
  }
}

/** The time a row starts at: its first frame's, or its event's. */
export function startTs(r: TimelineRow, facts: RowFacts): number | undefined {
  switch (r.kind) {
    case "submission":
      return r.row.attempts[0]?.sentAt;
    case "attempt":
      return r.attempt.sentAt;
    case "request":
      return r.row.sentAt;
    case "event":
      return r.event.ts;
    default:
      return facts.tsOf(r.seq);
  }
}

/** The Agent pids a row's frames went to, each once. */
export function pidsOf(r: TimelineRow, facts: RowFacts): number[] {
  const pids = (pairs: { conn: number; seq: number }[]) => [
    ...new Set(pairs.map((p) => facts.pidAt(p.conn, p.seq)).filter((p): p is number => p !== null)),
  ];
  switch (r.kind) {
    case "submission":
      return pids(r.row.attempts.map((a) => ({ conn: a.conn, seq: a.requestSeq })));
    case "attempt":
      return pids([{ conn: r.attempt.conn, seq: r.attempt.requestSeq }]);
    case "request":
      return pids([{ conn: r.row.conn, seq: r.seq }]);
    case "malformed":
      return pids([{ conn: r.row.conn, seq: r.seq }]);
    case "event":
      return r.event.pid === null ? [] : [r.event.pid];
    case "frame":
      return r.conn === undefined ? [] : pids([{ conn: r.conn, seq: r.seq }]);
  }
}

/** The connection numbers a row's frames came over, each once. */
export function connsOf(r: TimelineRow): number[] {
  switch (r.kind) {
    case "submission":
      return [...new Set(r.row.attempts.map((a) => a.conn))];
    case "attempt":
      return [r.attempt.conn];
    case "request":
    case "malformed":
      return [r.row.conn];
    case "event":
      return r.event.conn === null ? [] : [r.event.conn];
    case "frame":
      return r.conn === undefined ? [] : [r.conn];
  }
}

/** A submission's key words: the key, "invalid …: reason" or "no key"; empty for other rows. */
export function keyText(r: TimelineRow): string {
  return visibleText(keyWire(r));
}

function keyWire(r: TimelineRow): string {
  if (r.kind !== "submission") return "";
  const s = r.row;
  if (s.key !== null) return s.key;
  if (s.keyStatus === "invalid") return `invalid ${s.invalidKey?.shown ?? ""}: ${s.invalidKey?.reason ?? ""}`;
  return "no key";
}

/** The Prompt / detail words of a row: a prompt, an attempt's send time and latency, a reason, a preview. */
export function detailText(r: TimelineRow, facts: RowFacts): string {
  return visibleText(detailWire(r, facts));
}

function detailWire(r: TimelineRow, facts: RowFacts): string {
  switch (r.kind) {
    case "submission":
      return r.row.promptPreview;
    case "attempt": {
      const sent = facts.timesKnown ? clockTime(r.attempt.sentAt) : "time unknown";
      return `sent ${sent}${r.attempt.latencyMs === null ? "" : `, ${Math.round(r.attempt.latencyMs)} ms`}`;
    }
    case "request":
      return r.row.latencyMs === null ? "" : `${Math.round(r.row.latencyMs)} ms`;
    case "malformed":
      return r.row.reason;
    case "frame":
      return r.preview;
    case "event":
      return "";
  }
}

/** The Result words of a row: a submission's result, an attempt's or a request's outcome, "dropped". */
export function resultText(r: TimelineRow): string {
  if (r.kind === "submission") return r.row.result;
  if (r.kind === "attempt") return attemptLabel(r.attempt).label;
  if (r.kind === "request") return outcomeLabel(r.row.outcome).label;
  if (r.kind === "frame" && r.dropped) return "dropped";
  return "";
}

/** The words of a row's Verdict badges, in the order they show (a request's retry class first). */
export function verdictBadges(r: TimelineRow): string[] {
  if (r.kind === "submission") return sortedVerdicts(r.row.verdicts).map((v) => v.name);
  if (r.kind === "request") return [r.row.retryClass, ...sortedVerdicts(r.row.verdicts).map((v) => v.name)];
  return [];
}

/** The window a row's bar is drawn in: a submission's for its attempts, the shown rows' for the rest. */
export function windowFor(r: TimelineRow, facts: RowFacts) {
  if (r.kind === "attempt") return facts.windowOf(r.submission);
  return r.depth === 0 || r.kind === "request" ? facts.topWindow : null;
}

/** The Waterfall cell in words: where a row's bar starts on its window and how long it is. */
export function waterfallText(r: TimelineRow, facts: RowFacts): string {
  const span = spanOfRow(r, facts);
  const w = windowFor(r, facts);
  if (!span || !w)
    return r.kind === "event" || r.kind === "frame" || r.kind === "malformed" ? "" : latencyText(null);
  const offset = `+${durationText(span.start - w.start)}`;
  const scope = r.kind === "attempt" ? "of its submission's attempts" : "of the rows shown";
  if (r.kind === "event") return `at ${offset} ${scope}`;
  return `starts at ${offset} ${scope}: ${latencyText(span)}`;
}
