/** The words `analyze` and the UI use to say where an imported trace came from and what it lacks. */
import type { ImportedFrom } from "../record.js";
import { FORMAT_LABELS, type InterchangeFormat } from "./detect.js";

/** What each `lacks` entry means for the reader of the timeline. */
export const LACK_TEXT: Readonly<Record<string, string>> = {
  timestamps: "it has no timestamps: rows are in order, but times, durations and latencies are unknown",
  "wall-clock": "its times count from the trace's start: the wall-clock time is unknown",
  "exact-bytes": "frames were rebuilt from parsed JSON, not the bytes on the wire",
  "event-times": "frames streamed in one HTTP response all carry that response's end time",
};

/** The name of a source format. */
export function formatLabel(format: string): string {
  return FORMAT_LABELS[format as InterchangeFormat] ?? format;
}

/** One sentence: "Imported from Zed ACP log (Copy All); it has no timestamps: …; frames were …." */
export function describeImport(imported: ImportedFrom): string {
  const lacks = imported.lacks.map((l) => LACK_TEXT[l] ?? `it lacks ${l}`);
  return `Imported from ${formatLabel(imported.format)}${lacks.length > 0 ? `; ${lacks.join("; ")}` : ""}.`;
}

/** Whether the trace's `ts` values are synthetic (order only). */
export function timesUnknown(imported: ImportedFrom | undefined): boolean {
  return imported?.lacks.includes("timestamps") ?? false;
}
