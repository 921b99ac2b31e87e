import { createReadStream } from "node:fs";
import { decodeHeader, decodeRecord } from "../../shared/trace/codec.js";
import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";

/** One item read from a trace file, in file order. */
export type TraceReadEvent =
  | { readonly kind: "header"; readonly header: TraceHeader }
  | { readonly kind: "record"; readonly record: TraceRecord; readonly line: number }
  /** A line that could not be read; `truncated` when it is the unterminated last line (a tap killed mid-write). */
  | {
      readonly kind: "problem";
      readonly line: number;
      readonly message: string;
      readonly truncated: boolean;
    };

/** Thrown when the file cannot be read at all (missing, unreadable, not a trace). */
export class TraceReadError extends Error {}

/**
 * Streams a trace file line by line with bounded memory. Bad lines are reported as `problem`
 * events and skipped, never thrown; a half-written last line is reported as truncated and the
 * rest of the file is kept. `options.bytes` reads only the file's first bytes (its size at some
 * moment), so two passes over a trace that is still growing see the same lines.
 */
export async function* readTrace(
  path: string,
  options: { readonly bytes?: number } = {},
): AsyncGenerator<TraceReadEvent> {
  const { bytes } = options;
  if (bytes === 0) throw new TraceReadError(`not a trace file: ${path} is empty`);
  const stream = createReadStream(path, {
    encoding: "utf8",
    highWaterMark: 1 << 20,
    ...(bytes !== undefined && { end: bytes - 1 }),
  });
  let pending = "";
  let lineNo = 0;
  let sawHeader = false;
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      // Only the new text can hold a newline: scanning from there keeps a long line linear.
      let from = pending.length;
      pending += chunk;
      let start = 0;
      for (let nl = pending.indexOf("\n", from); nl !== -1; nl = pending.indexOf("\n", from)) {
        const line = pending.slice(start, nl);
        start = nl + 1;
        from = start;
        lineNo++;
        const ev = decodeTraceLine(line, lineNo, sawHeader, false);
        if (ev.kind === "header") sawHeader = true;
        yield ev;
      }
      pending = pending.slice(start);
    }
  } catch (err) {
    if (err instanceof TraceReadError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new TraceReadError(`cannot read trace file ${path}: ${code ?? (err as Error).message}`);
  } finally {
    stream.destroy();
  }
  if (pending.length > 0) {
    lineNo++;
    yield decodeTraceLine(pending, lineNo, sawHeader, true);
  } else if (lineNo === 0) {
    throw new TraceReadError(`not a trace file: ${path} is empty`);
  }
}

function decodeTraceLine(line: string, lineNo: number, sawHeader: boolean, last: boolean): TraceReadEvent {
  if (lineNo === 1) {
    const d = decodeHeader(line);
    if (d.kind === "header") return d;
    throw new TraceReadError(`not a trace file: ${d.kind === "problem" ? d.message : "no header"}`);
  }
  if (!sawHeader) throw new TraceReadError("not a trace file: no header");
  const d = decodeRecord(line);
  if (d.kind === "record") return { kind: "record", record: d.record, line: lineNo };
  const message = d.kind === "problem" ? d.message : "unexpected header";
  if (last)
    return { kind: "problem", line: lineNo, message: `truncated last line (${message})`, truncated: true };
  return { kind: "problem", line: lineNo, message, truncated: false };
}
