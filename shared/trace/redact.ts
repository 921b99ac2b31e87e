/**
 * Redacted trace export (Chrome's sanitised-HAR idea): prompt text, message content, file contents,
 * terminal output and agent stderr are replaced by a placeholder that states their length, while
 * the JSON structure, ids, keys, methods, sessionIds, messageIds and error codes stay, so the
 * analyzer reaches the same verdicts and groups the same submissions on the redacted trace.
 *
 * Two details keep the verdicts equal. Placeholders are numbered per distinct original string
 * (`[redacted #3: 42 chars]`), so two prompts compare equal after redaction exactly when they did
 * before (the `unkeyed-resend` and same-key-different-prompt checks compare prompt content). And a
 * redacted string that contains an idempotency key of this trace keeps the key inside its
 * placeholder, so a key an Agent leaked into its text is still found.
 */
import { KeyLeakIndex } from "../analyzer/key-leak.js";
import { classifyFrame } from "../protocol/frame.js";
import type { FrameRecord, TraceHeader, TraceRecord } from "./record.js";

/** Options of `redactTrace`. */
export interface RedactOptions {
  /** True: export everything as recorded (header and records returned unchanged). */
  readonly full: boolean;
}

/** A trace ready to write out. */
export interface RedactedTrace {
  readonly header: TraceHeader;
  readonly records: readonly TraceRecord[];
}

/** Fields whose string value is replaced wherever they appear in a frame. */
export const REDACTED_STRING_FIELDS: ReadonlySet<string> = new Set([
  "text",
  "content",
  "data",
  "blob",
  "output",
  "newText",
  "oldText",
  "title",
  "command",
]);

/** Fields whose whole value (every string inside, at any depth) is replaced. */
export const REDACTED_SUBTREE_FIELDS: ReadonlySet<string> = new Set(["rawInput", "rawOutput", "args", "env"]);

/** Numbers distinct redacted strings and keeps the trace's keys visible inside placeholders. */
class Placeholders {
  private readonly numbers = new Map<string, number>();
  private readonly found = new Set<string>();

  constructor(
    private readonly keys: KeyLeakIndex,
    private readonly exactKeys: ReadonlySet<string>,
  ) {}

  /** The placeholder for `s` (a string equal to a key of this trace stays as it is). */
  of(s: string): string {
    if (this.exactKeys.has(s)) return s;
    let n = this.numbers.get(s);
    if (n === undefined) {
      n = this.numbers.size + 1;
      this.numbers.set(s, n);
    }
    this.keys.scan(s, this.found);
    let keys = "";
    if (this.found.size > 0) {
      keys = `; contains key ${[...this.found].map((k) => JSON.stringify(k)).join(", ")}`;
      this.found.clear();
    }
    return `[redacted #${n}: ${s.length} chars${keys}]`;
  }
}

/** The idempotency keys the trace's `session/prompt` requests carry (any string value). */
function collectKeys(records: readonly TraceRecord[]): Set<string> {
  const keys = new Set<string>();
  for (const r of records) {
    if (r.type !== "frame" || r.encoding === "base64" || r.dir !== "client->agent") continue;
    if (!r.raw.includes("idempotencyKey")) continue;
    const f = classifyFrame(r.raw);
    if (f.kind !== "request" || f.method !== "session/prompt") continue;
    const key = (f.params as { idempotencyKey?: unknown } | null)?.idempotencyKey;
    if (typeof key === "string") keys.add(key);
  }
  return keys;
}

/** Replaces every string inside `value` (a subtree named by REDACTED_SUBTREE_FIELDS). */
function redactAll(value: unknown, p: Placeholders): unknown {
  if (typeof value === "string") return p.of(value);
  if (Array.isArray(value)) return value.map((v) => redactAll(v, p));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactAll(v, p);
    return out;
  }
  return value;
}

/** Copies `value`, replacing the string values of content fields and everything in subtree fields. */
function redactValue(value: unknown, p: Placeholders): unknown {
  if (Array.isArray(value)) return value.map((v) => redactValue(v, p));
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (REDACTED_SUBTREE_FIELDS.has(k)) out[k] = redactAll(v, p);
    else if (typeof v === "string") out[k] = REDACTED_STRING_FIELDS.has(k) ? p.of(v) : v;
    else out[k] = redactValue(v, p);
  }
  return out;
}

/** The byte length a base64 string decodes to. */
function base64Bytes(b64: string): number {
  const pad = b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0;
  return Math.floor((b64.length * 3) / 4) - pad;
}

function redactFrame(r: FrameRecord, p: Placeholders): FrameRecord {
  const flagged = r.encoding === "base64" || (r.flags !== undefined && r.flags.length > 0);
  const frame = flagged ? null : classifyFrame(r.raw);
  if (frame === null || frame.kind === "malformed") {
    const { encoding: _encoding, ...rest } = r;
    const size =
      r.encoding === "base64" ? `${r.bytes ?? base64Bytes(r.raw)} bytes` : `${r.bytes ?? r.raw.length} chars`;
    return { ...rest, raw: `[redacted frame: ${size}]` };
  }
  const before = JSON.stringify(frame.message);
  const after = JSON.stringify(redactValue(frame.message, p));
  return after === before ? r : { ...r, raw: after };
}

/**
 * Redacts a trace for export: `full: false` (the default for exports) replaces content with length
 * placeholders and marks the header `redacted: true`; `full: true` returns header and records as given.
 */
export function redactTrace(
  header: TraceHeader,
  records: readonly TraceRecord[],
  options: RedactOptions,
): RedactedTrace {
  if (options.full) return { header, records };
  const keys = collectKeys(records);
  const index = new KeyLeakIndex();
  for (const k of keys) index.add(k);
  const p = new Placeholders(index, keys);
  const out = records.map((r): TraceRecord => {
    if (r.type === "frame") return redactFrame(r, p);
    if (r.type === "agent-stderr") return { ...r, text: p.of(r.text) };
    return r;
  });
  return { header: { ...header, redacted: true }, records: out };
}
