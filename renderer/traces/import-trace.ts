/**
 * Imports a trace file into this window: decoded chunk by chunk and fed through the same pump as
 * live events (so each chunk is analyzed and shown on the next animation frame), which puts the
 * first rows of a large file on screen long before the last line is read.
 */
import type { InspectorContextValue } from "../store/inspector-store.js";
import { asTraceText } from "./foreign-file.js";
import { decodeLines, splitTraceText } from "./trace-file.js";

/** Lines decoded per chunk. */
const CHUNK_LINES = 10_000;

/** What an import found. */
export interface ImportResult {
  readonly traceId: string;
  readonly records: number;
  readonly problems: readonly string[];
}

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

/** Imports `text` as a new trace named `fileName`, shows it, and resolves once every chunk is queued. */
export async function importTraceText(
  ctx: InspectorContextValue,
  fileName: string,
  text: string,
): Promise<ImportResult> {
  // Another tool's file is converted to our trace text first (its conversion problems are kept as
  // note records and listed); then it takes the same path as our own files.
  const converted = asTraceText(text);
  if ("error" in converted)
    throw new Error(`${fileName} is not a trace file or a supported import: ${converted.error}`);
  const split = splitTraceText(converted.text);
  if (!split.ok) throw new Error(`${fileName} is not a trace file: ${split.problem}`);
  const session = ctx.catalog.addImported(fileName, split.header);
  ctx.store.getState().selectTrace(session.id);
  const problems: string[] = [...converted.problems];
  let records = 0;
  const total = split.lines.length;
  for (let from = 0; from < total || from === 0; from += CHUNK_LINES) {
    const chunk = decodeLines(split.lines, from, from + CHUNK_LINES);
    problems.push(...chunk.problems);
    records += chunk.records.length;
    const done = Math.min(total, from + CHUNK_LINES);
    ctx.pump.push({
      kind: "import",
      traceId: session.id,
      records: chunk.entries,
      progress: done < total ? { traceId: session.id, fileName, done, total } : undefined,
    });
    if (done < total) await nextFrame();
    if (total === 0) break;
  }
  return { traceId: session.id, records, problems };
}
