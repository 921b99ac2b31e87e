/** One trace record as the UI lists it: parsed once on arrival, never again while rendering. */
import { classifyFrame } from "../../shared/protocol/frame.js";
import type { TraceRecord } from "../../shared/trace/record.js";

/** A short, display-ready description of a frame. */
export interface FrameSummary {
  readonly kind: "request" | "notification" | "result" | "error" | "malformed";
  /** The method, or for responses the empty string (the analyzer pairs them later). */
  readonly method: string;
  /** The JSON-RPC id as text, empty for notifications. */
  readonly id: string;
}

/** A record with the UI's `seq` (the app event seq, unique for the session) and its summary. */
export interface RecordRow {
  readonly seq: number;
  readonly record: TraceRecord;
  readonly frame?: FrameSummary;
}

/** Builds the row for a record, classifying frames once. */
export function toRecordRow(seq: number, record: TraceRecord): RecordRow {
  if (record.type !== "frame") return { seq, record };
  if (record.encoding === "base64") return { seq, record, frame: { kind: "malformed", method: "", id: "" } };
  const f = classifyFrame(record.raw);
  const id = "id" in f && f.id !== null && f.id !== undefined ? String(f.id) : "";
  const method = "method" in f ? f.method : "";
  return { seq, record, frame: { kind: f.kind, method, id } };
}
