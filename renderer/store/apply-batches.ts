/**
 * The pure part of the event pipeline: folds batches from the bridge into the records state.
 * Kept free of React and zustand so it is tested directly.
 */
import type { AppStatus, EventBatch } from "../../shared/app/app-event.js";
import { type RecordRow, toRecordRow } from "./record-row.js";

/** One line of agent stderr. */
export interface StderrLine {
  readonly seq: number;
  readonly ts: number;
  readonly text: string;
}

/** Everything the UI knows from the event stream. */
export interface StreamState {
  readonly rows: readonly RecordRow[];
  readonly stderr: readonly StderrLine[];
  readonly status: AppStatus | undefined;
  /** The seq of the newest event applied; resubscriptions start after it. */
  readonly lastSeq: number;
  /** How many times the core said events were lost before we got them. */
  readonly gaps: number;
}

/** The state before the first batch. */
export const EMPTY_STREAM: StreamState = { rows: [], stderr: [], status: undefined, lastSeq: 0, gaps: 0 };

/** Applies batches in order; events at or below `lastSeq` (replays after a reconnect) are skipped. */
export function applyBatches(state: StreamState, batches: readonly EventBatch[]): StreamState {
  let rows = state.rows as RecordRow[];
  let stderr = state.stderr as StderrLine[];
  let { status, lastSeq, gaps } = state;
  let rowsCopied = false;
  let stderrCopied = false;
  for (const batch of batches) {
    if (batch.gap) gaps++;
    for (const event of batch.events) {
      if (event.seq <= lastSeq) continue;
      lastSeq = event.seq;
      if (event.kind === "status") {
        status = event.status;
      } else if (event.kind === "cleared") {
        rows = [];
        stderr = [];
        rowsCopied = stderrCopied = true;
      } else if (event.record.type === "agent-stderr") {
        if (!stderrCopied) {
          stderr = [...stderr];
          stderrCopied = true;
        }
        stderr.push({ seq: event.seq, ts: event.record.ts, text: event.record.text });
      } else {
        if (!rowsCopied) {
          rows = [...rows];
          rowsCopied = true;
        }
        rows.push(toRecordRow(event.seq, event.record));
      }
    }
  }
  return { rows, stderr, status, lastSeq, gaps };
}
