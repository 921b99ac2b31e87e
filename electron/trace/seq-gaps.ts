/**
 * Gaps in a trace's seqs, written down and found again. A tap numbers its records 1, 2, 3, ... with
 * no hole, so a missing seq is a missing record: the hub's copy of a tap whose link dropped records
 * under backlog, or a line that could not be read. The hub writes a gap note where its copy has a
 * hole (`gapNote`); `SeqGaps` finds every hole while a trace is read, with the note's reason when
 * one explains it (docs/trace-format.md#gaps).
 */
import type { NoteRecord, TraceRecord } from "../../shared/trace/record.js";

/** The `gap` field of a gap note: the seqs `from`..`to` (inclusive) are not in this file, and why. */
export interface GapField {
  readonly from: number;
  readonly to: number;
  /** `to - from + 1`. */
  readonly missing: number;
  /** `tap-dropped`: the tap's hub link said it dropped records; `not-received`: it did not say why. */
  readonly reason: "tap-dropped" | "not-received";
}

/** A gap note: a `note` record that also carries `gap`. */
export type GapNote = NoteRecord & { readonly gap: GapField };

/** How many gaps `SeqGaps` lists one by one (the rest are counted). */
export const MAX_GAPS_LISTED = 20;

/**
 * The note a hub copy writes where seqs `from`..`to` are missing. It takes the last missing seq
 * (`to`), so it sits in seq order right before the record after the gap, and says so.
 */
export function gapNote(from: number, to: number, reason: GapField["reason"], ts: number): GapNote {
  const missing = to - from + 1;
  const seqs = from === to ? `seq ${from}` : `seqs ${from}-${to}`;
  const why =
    reason === "tap-dropped"
      ? "the tap's hub link dropped them (its backlog was full, or no hub was attached) and said so; the tap's own trace file keeps every record"
      : "the hub never received them from the tap (sent to an earlier hub, or lost with a connection); the tap's own trace file keeps every record";
  return {
    seq: to,
    ts,
    type: "note",
    level: "warn",
    text: `hub copy: ${missing} record(s) missing, ${seqs}: ${why}. This note takes the place of seq ${to}.`,
    gap: { from, to, missing, reason },
  };
}

/** The gap a record states, when it is a well-formed gap note ending at its own seq. */
export function gapOf(record: TraceRecord): GapField | undefined {
  if (record.type !== "note") return undefined;
  const g = (record as { gap?: unknown }).gap;
  if (typeof g !== "object" || g === null) return undefined;
  const { from, to, reason } = g as Record<string, unknown>;
  if (!Number.isSafeInteger(from) || !Number.isSafeInteger(to)) return undefined;
  if ((from as number) < 1 || to !== record.seq || (from as number) > (to as number)) return undefined;
  if (reason !== "tap-dropped" && reason !== "not-received") return undefined;
  return { from: from as number, to: to as number, missing: (to as number) - (from as number) + 1, reason };
}

/** One hole in a trace's seqs; `note` when a gap note in the file explains it (its seq is `to`). */
export interface SeqGap {
  readonly from: number;
  readonly to: number;
  readonly missing: number;
  readonly note?: { readonly seq: number; readonly reason: GapField["reason"] };
}

/** Finds the holes in the seqs of the records read, in file order. */
export class SeqGaps {
  private last = 0;
  private gaps = 0;
  private missingSeqs = 0;
  private readonly shown: SeqGap[] = [];

  /** Takes the seq of the next record (or invalid record with a valid seq) in file order. */
  take(seq: number, record?: TraceRecord): void {
    if (seq <= this.last) return; // repeated or going back: the analyzer's seqIssues say so
    const note = record ? gapOf(record) : undefined;
    if (note && note.from > this.last) {
      // the note stands in for the last missing seq: the hole is from..to, the note included
      this.add({ from: note.from, to: note.to, missing: note.missing, note: { seq, reason: note.reason } });
      if (note.from > this.last + 1) this.add(this.hole(this.last + 1, note.from - 1));
    } else if (seq > this.last + 1) this.add(this.hole(this.last + 1, seq - 1));
    this.last = seq;
  }

  /** How many holes, how many seqs they miss, and the first `MAX_GAPS_LISTED` of them. */
  result(): { readonly gaps: number; readonly missing: number; readonly listed: readonly SeqGap[] } {
    return {
      gaps: this.gaps,
      missing: this.missingSeqs,
      listed: [...this.shown].sort((a, b) => a.from - b.from),
    };
  }

  private hole(from: number, to: number): SeqGap {
    return { from, to, missing: to - from + 1 };
  }

  private add(gap: SeqGap): void {
    this.gaps++;
    this.missingSeqs += gap.missing;
    if (this.shown.length < MAX_GAPS_LISTED) this.shown.push(gap);
  }
}
