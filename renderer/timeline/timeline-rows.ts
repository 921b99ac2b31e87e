/**
 * The timeline as a flat list of display rows: one per submission, other request and malformed
 * frame, in order of their first frame; an expanded submission is followed by its attempts, an
 * expanded attempt (or request) by its frames. Filters apply to the top-level rows.
 */
import type { Attempt, Submission } from "../../shared/analyzer/timeline-model.js";
import type { Direction, TraceRecord } from "../../shared/trace/record.js";
import type { TimelineView } from "../traces/timeline-view.js";
import { matchesFilter, type TimelineFilter, type TopRow } from "./timeline-filter.js";

/** The record with a seq in the shown trace, if held. */
export type RecordOf = (seq: number) => TraceRecord | undefined;

/** How many characters of a frame a frame row shows. */
const FRAME_PREVIEW_CHARS = 160;

/** One display row. `key` is unique and stable; `seq` is the first frame it stands for. */
export type TimelineRow =
  | (TopRow & { readonly key: string; readonly depth: 0; readonly seq: number; readonly expandable: boolean })
  | {
      readonly kind: "attempt";
      readonly key: string;
      readonly depth: 1;
      readonly seq: number;
      readonly expandable: true;
      readonly submission: Submission;
      readonly attempt: Attempt;
      /** 1-based attempt number within its submission. */
      readonly number: number;
    }
  | {
      readonly kind: "frame";
      readonly key: string;
      readonly depth: 1 | 2;
      readonly seq: number;
      readonly expandable: false;
      /** What the frame is to its parent: request, response or cancel. */
      readonly role: string;
      readonly conn: number | undefined;
      readonly dir: Direction | undefined;
      /** The first characters of the frame's bytes. */
      readonly preview: string;
      readonly dropped: boolean;
    };

const topCache = new WeakMap<object, TimelineRow>();

function topRow(top: TopRow): TimelineRow {
  const cached = topCache.get(top.row);
  if (cached) return cached;
  let row: TimelineRow;
  if (top.kind === "submission") {
    const seq = top.row.attempts[0]?.requestSeq ?? 0;
    row = { ...top, key: `s${top.row.id}`, depth: 0, seq, expandable: true };
  } else if (top.kind === "request") {
    const seq = top.row.requestSeq ?? top.row.responseSeq ?? 0;
    row = { ...top, key: `r${top.row.id}`, depth: 0, seq, expandable: true };
  } else {
    row = { ...top, key: `m${top.row.id}`, depth: 0, seq: top.row.seq, expandable: false };
  }
  topCache.set(top.row, row);
  return row;
}

function attemptFrames(a: Attempt): { seq: number; role: string }[] {
  return a.frameSeqs.map((seq) => ({
    seq,
    role:
      seq === a.requestSeq
        ? "request"
        : seq === a.cancelSeq
          ? "cancel"
          : a.origin === "inspector" && seq !== a.responseSeq
            ? "response as forwarded to the client"
            : "response",
  }));
}

/** Top-level rows of a view in order of their first frame (the three row lists are each in that order). */
export function topRows(view: TimelineView): TimelineRow[] {
  const out: TimelineRow[] = [];
  const { submissions: s, requests: r, malformed: m } = view;
  let i = 0;
  let j = 0;
  let k = 0;
  const seqS = () => s[i]?.attempts[0]?.requestSeq ?? Number.POSITIVE_INFINITY;
  const seqR = () => {
    const q = r[j];
    return q ? (q.requestSeq ?? q.responseSeq ?? 0) : Number.POSITIVE_INFINITY;
  };
  const seqM = () => m[k]?.seq ?? Number.POSITIVE_INFINITY;
  while (i < s.length || j < r.length || k < m.length) {
    const a = seqS();
    const b = seqR();
    const c = seqM();
    if (a <= b && a <= c) out.push(topRow({ kind: "submission", row: s[i++] as Submission }));
    else if (b <= c) out.push(topRow({ kind: "request", row: r[j++] as NonNullable<(typeof r)[number]> }));
    else out.push(topRow({ kind: "malformed", row: m[k++] as NonNullable<(typeof m)[number]> }));
  }
  return out;
}

/** The rows to display: filtered top-level rows with the expanded ones' children after them. */
export function displayRows(
  tops: readonly TimelineRow[],
  filter: TimelineFilter | undefined,
  expanded: ReadonlySet<string>,
  recordOf: RecordOf,
): TimelineRow[] {
  const rawOf = (seq: number) => {
    const r = recordOf(seq);
    return r?.type === "frame" ? r.raw : undefined;
  };
  const frameRow = (key: string, depth: 1 | 2, seq: number, role: string): TimelineRow => {
    const r = recordOf(seq);
    const f = r?.type === "frame" ? r : undefined;
    return {
      kind: "frame",
      key,
      depth,
      seq,
      expandable: false,
      role,
      conn: f?.conn,
      dir: f?.dir,
      preview: f
        ? f.raw.slice(0, FRAME_PREVIEW_CHARS)
        : "(not held: cleared or before this window subscribed)",
      dropped: f?.dropped === true,
    };
  };
  const out: TimelineRow[] = [];
  for (const row of tops) {
    if (row.depth !== 0) continue;
    if (filter && !matchesFilter(row, filter, rawOf)) continue;
    out.push(row);
    if (!expanded.has(row.key)) continue;
    if (row.kind === "submission") {
      row.row.attempts.forEach((attempt, n) => {
        const key = `${row.key}.a${n}`;
        out.push({
          kind: "attempt",
          key,
          depth: 1,
          seq: attempt.requestSeq,
          expandable: true,
          submission: row.row,
          attempt,
          number: n + 1,
        });
        if (!expanded.has(key)) return;
        for (const f of attemptFrames(attempt)) {
          out.push(frameRow(`${key}.f${f.seq}`, 2, f.seq, f.role));
        }
      });
    } else if (row.kind === "request") {
      const r = row.row;
      const frames = [
        { seq: r.requestSeq, role: "request" },
        { seq: r.responseSeq, role: "response" },
      ].filter((f): f is { seq: number; role: string } => f.seq !== null);
      for (const f of frames) {
        out.push(frameRow(`${row.key}.f${f.seq}`, 1, f.seq, f.role));
      }
    }
  }
  return out;
}
