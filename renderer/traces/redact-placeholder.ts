/**
 * PLACEHOLDER until `shared/trace/redact.ts` (another branch) lands with
 * `redactTrace(header, records, { full })`: replace this file's import in `trace-export.ts` with
 * that one and delete this file. Same signature. Until then a redacted export replaces every
 * string value named `text`, `content`, `data` or `prompt` (and all stderr text) by its length,
 * and a frame that is not JSON by its byte count.
 */
import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";

const SENSITIVE = new Set(["text", "content", "data", "prompt"]);

function redactValue(value: unknown, key: string | undefined): unknown {
  if (typeof value === "string")
    return key && SENSITIVE.has(key) ? `<redacted: ${value.length} chars>` : value;
  if (Array.isArray(value)) return value.map((v) => redactValue(v, key));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactValue(v, k);
    return out;
  }
  return value;
}

function redactRecord(r: TraceRecord): TraceRecord {
  if (r.type === "agent-stderr") return { ...r, text: `<redacted: ${r.text.length} chars>` };
  if (r.type !== "frame") return r;
  if (r.encoding === "base64") return { ...r, raw: "", bytes: r.bytes ?? r.raw.length };
  try {
    return { ...r, raw: JSON.stringify(redactValue(JSON.parse(r.raw), undefined)) };
  } catch {
    return { ...r, raw: `<redacted: ${r.raw.length} chars>` };
  }
}

/** PLACEHOLDER: the trace as it may be shared (`full: false`) or unchanged (`full: true`). */
export function redactTrace(
  header: TraceHeader,
  records: readonly TraceRecord[],
  options: { readonly full: boolean },
): { header: TraceHeader; records: TraceRecord[] } {
  if (options.full) return { header, records: [...records] };
  return { header, records: records.map(redactRecord) };
}
