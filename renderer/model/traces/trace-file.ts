/**
 * Reading a trace file's text in the renderer (imports, and the hub's copy for exports): the header
 * line, then records decoded chunk by chunk so a large file shows its first rows while the rest loads.
 */
import { decodeHeader, parseRecordLine } from "../../../shared/trace/codec.js";
import type { TraceHeader, TraceRecord } from "../../../shared/trace/record.js";
import { InvalidRecord, invalidRecord } from "../../../shared/trace/record-check.js";

/** A trace file split into its header and record lines, or why it is not a trace. */
export type TraceText =
  | { readonly ok: true; readonly header: TraceHeader; readonly lines: readonly string[] }
  | { readonly ok: false; readonly problem: string };

/** Splits a trace file's text; the first non-empty line must be a trace header. */
export function splitTraceText(text: string): TraceText {
  const lines = text.split("\n");
  let first = 0;
  while (first < lines.length && (lines[first] as string).trim() === "") first++;
  const headLine = lines[first];
  if (headLine === undefined) return { ok: false, problem: "the file is empty" };
  const head = decodeHeader(headLine);
  if (head.kind !== "header")
    return { ok: false, problem: head.kind === "problem" ? head.message : "no header" };
  return { ok: true, header: head.header, lines: lines.slice(first + 1) };
}

/**
 * Decoded records of a range of lines, with one message per unreadable line (1-based line numbers
 * after the header; `lines[0]` is the `base`-th line after it, for a file read a piece at a time).
 * `flagged` keeps, in line order, an entry for every line that is not a valid record: an invalid
 * record says which fields are wrong, an unreadable line says why (field `line`).
 */
export function decodeLines(
  lines: readonly string[],
  from: number,
  to: number,
  base = 0,
): { records: TraceRecord[]; problems: string[]; entries: (TraceRecord | InvalidRecord)[] } {
  const records: TraceRecord[] = [];
  const problems: string[] = [];
  const entries: (TraceRecord | InvalidRecord)[] = [];
  for (let i = from; i < to && i < lines.length; i++) {
    const line = lines[i] as string;
    if (line.trim() === "") continue;
    // parseRecordLine: decodeRecord's answer without a wrapper object per line.
    const d = parseRecordLine(line);
    if (typeof d === "string") {
      const n = base + i + 2;
      problems.push(`line ${n}: ${d}`);
      entries.push(invalidRecord(line, [{ field: "line", reason: `line ${n}: ${d}` }]));
    } else if (d instanceof InvalidRecord) {
      problems.push(`line ${base + i + 2}: ${describeLine(d)}`);
      entries.push(d);
    } else {
      records.push(d);
      entries.push(d);
    }
  }
  return { records, problems, entries };
}

function describeLine(e: InvalidRecord): string {
  return e.faults.map((f) => `${f.field} ${f.reason}`).join("; ");
}

/**
 * Cuts a file's text, given a chunk at a time, into its lines. A chunk's lines are cut from the
 * chunk itself and only the part line left over from the chunk before is joined to its first:
 * appending each chunk of megabytes to the leftover and searching that would copy the whole file
 * once more on the way in.
 */
export class LineSplitter {
  private carry = "";

  /** The lines `text` completes, in order (none when it has no line break). */
  push(text: string): string[] {
    const last = text.lastIndexOf("\n");
    if (last === -1) {
      this.carry += text;
      return [];
    }
    const lines = text.slice(0, last).split("\n");
    if (this.carry !== "") lines[0] = this.carry + lines[0];
    this.carry = text.slice(last + 1);
    return lines;
  }

  /** The text after the last line break (the last line, when the file does not end with one). */
  end(): string {
    const rest = this.carry;
    this.carry = "";
    return rest;
  }
}
