/**
 * Redacted trace export (Chrome's sanitised-HAR idea): prompt text, message content, file contents,
 * terminal output, agent stderr and string values of the agent's own spans are replaced by a placeholder that states their length, and so
 * is every credential: secret-named fields (`Authorization`, `apiKey`, `x-api-key`, `*_TOKEN`, ...),
 * header and env values (`mcpServers` of `session/new` and `session/resume` among them), URL
 * userinfo and query values, `Bearer` credentials in text and secret options of the agent's argv.
 * The JSON structure, ids, keys, methods, sessionIds, messageIds and error codes stay, so the
 * analyzer reaches the same verdicts and groups the same submissions on the redacted trace.
 *
 * Two details keep the verdicts equal. Placeholders are numbered per distinct original string
 * (`[redacted #3: 42 chars]`), so two prompts compare equal after redaction exactly when they did
 * before (the `unkeyed-resend` and same-key-different-prompt checks compare prompt content). And a
 * redacted string that contains an idempotency key of this trace keeps the key inside its
 * placeholder, so a key an Agent leaked into its text is still found (see placeholders.ts).
 *
 * `redactTrace` does it to a trace in memory (the UI's export); `promptKey` and `TraceRedactor` are
 * the same steps for a caller that streams the trace twice, keys first (the CLI's `export`).
 */
import { classifyFrame } from "../protocol/frame.js";
import { jsonTextTooDeep, MAX_JSON_DEPTH } from "./json-depth.js";
import { Placeholders } from "./placeholders.js";
import type { AgentSpanRecord, FrameRecord, TraceHeader, TraceRecord } from "./record.js";
import { type Hide, hideSecretsInArgv, hideSecretsInText, isSecretName } from "./secret-shapes.js";

/** A frame hidden whole by an export (`[redacted frame: 18 chars]`, `[redacted frame: 11 bytes]`, with a reason). */
const REDACTED_FRAME = /^\[redacted frame: \d{1,15} (?:chars|bytes)(?:, [^\]]{1,80})?\]$/;
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

/** Fields whose entries' values are replaced and names kept: `[{ name, value }]` or `{ name: value }`. */
export const HEADER_FIELDS: ReadonlySet<string> = new Set(["headers"]);

/** The idempotency key a record carries, if it is a Client `session/prompt` with a string key. */
export function promptKey(r: TraceRecord): string | undefined {
  if (r.type !== "frame" || r.encoding === "base64" || r.dir !== "client->agent") return undefined;
  if (!r.raw.includes("idempotencyKey")) return undefined;
  const f = classifyFrame(r.raw);
  if (f.kind !== "request" || f.method !== "session/prompt") return undefined;
  const key = (f.params as { idempotencyKey?: unknown } | null)?.idempotencyKey;
  return typeof key === "string" ? key : undefined;
}

/** Replaces every string inside `value` (numbers, booleans and null stay: token counts are not secrets). */
function hideAll(value: unknown, hide: Hide): unknown {
  if (typeof value === "string") return hide(value);
  if (Array.isArray(value)) return value.map((v) => hideAll(v, hide));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = hideAll(v, hide);
    return out;
  }
  return value;
}

/** Header lists keep each entry's `name` and lose every other string; a header map keeps its keys. */
function hideHeaderValues(value: unknown, hide: Hide): unknown {
  if (!Array.isArray(value)) return hideAll(value, hide);
  return value.map((entry) => {
    if (entry === null || typeof entry !== "object" || Array.isArray(entry)) return hideAll(entry, hide);
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(entry)) out[k] = k === "name" ? v : hideAll(v, hide);
    return out;
  });
}

/** Whether `obj` is a `{ name | key: <secret name>, value }` pair, e.g. `{ name: "API_KEY", value: "…" }`. */
function isSecretPair(obj: Record<string, unknown>): boolean {
  if (!("value" in obj)) return false;
  const name = obj.name ?? obj.key;
  return typeof name === "string" && isSecretName(name);
}

/** Copies a parsed frame, replacing content, credentials and the secrets quoted in kept text. */
function redactValue(value: unknown, hide: Hide): unknown {
  if (typeof value === "string") return hideSecretsInText(value, hide);
  if (Array.isArray(value)) return value.map((v) => redactValue(v, hide));
  if (value === null || typeof value !== "object") return value;
  const obj = value as Record<string, unknown>;
  const secretPair = isSecretPair(obj);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) {
    if (REDACTED_SUBTREE_FIELDS.has(k) || isSecretName(k) || (secretPair && k === "value"))
      out[k] = hideAll(v, hide);
    else if (HEADER_FIELDS.has(k)) out[k] = hideHeaderValues(v, hide);
    else if (typeof v === "string" && REDACTED_STRING_FIELDS.has(k)) out[k] = hide(v);
    else out[k] = redactValue(v, hide);
  }
  return out;
}

/** The byte length a base64 string decodes to. */
function base64Bytes(b64: string): number {
  const pad = b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0;
  return Math.floor((b64.length * 3) / 4) - pad;
}

/** Redacts one record at a time, numbering placeholders across all the records it is given. */
export class TraceRedactor {
  private readonly hide: Hide;

  /** `keys`: every `promptKey` of the trace (they stay visible, see placeholders.ts). */
  constructor(keys: Iterable<string>) {
    this.hide = new Placeholders(keys).of;
  }

  /** The export's header: marked `redacted: true`, secrets in the agent's argv replaced. */
  header(h: TraceHeader): TraceHeader {
    // A header from a file or a UI may be unchecked: a command that is not a list is hidden whole.
    const command = h.agent?.command;
    const agent = h.agent && {
      ...h.agent,
      command: Array.isArray(command)
        ? hideSecretsInArgv(
            command.map((w) => (typeof w === "string" ? w : String(JSON.stringify(w)))),
            this.hide,
          )
        : [this.hide(String(JSON.stringify(command) ?? ""))],
    };
    return { ...h, ...(agent && { agent }), redacted: true };
  }

  /**
   * The record as the export shows it. Never a throw: a record this cannot redact leaves the export
   * as a `warn` note that says so (with its seq and type, nothing of its content).
   */
  record(r: TraceRecord): TraceRecord {
    try {
      return this.redacted(r);
    } catch (err) {
      const why = err instanceof Error ? err.name : "error";
      return {
        type: "note",
        seq: r.seq,
        ts: r.ts,
        level: "warn",
        text: `${String(r.type).slice(0, 40)} record seq ${r.seq} left out of the redacted export (${why})`,
      };
    }
  }

  private redacted(r: TraceRecord): TraceRecord {
    switch (r.type) {
      case "frame":
        return this.frame(r);
      case "agent-stderr":
        return { ...r, text: this.hide(r.text) };
      case "agent-spawn":
        return { ...r, command: hideSecretsInArgv(r.command, this.hide) };
      case "note":
        return { ...r, text: hideSecretsInText(r.text, this.hide) };
      case "conn-close":
        return r.reason === undefined ? r : { ...r, reason: hideSecretsInText(r.reason, this.hide) };
      case "agent-span":
        return this.agentSpan(r);
      default:
        return r;
    }
  }

  /** An agent's span keeps its names, ids and times; every string value (prompts, paths, output) is hidden. */
  private agentSpan(r: AgentSpanRecord): AgentSpanRecord {
    const hideValue = (v: string | number | boolean) => (typeof v === "string" ? this.hide(v) : v);
    const attributes =
      r.attributes &&
      Object.fromEntries(
        Object.entries(r.attributes).map(([k, v]) => [
          k,
          Array.isArray(v) ? v.map(hideValue) : hideValue(v as string),
        ]),
      );
    return {
      ...r,
      name: hideSecretsInText(r.name, this.hide),
      ...(attributes && { attributes }),
      ...(r.statusMessage !== undefined && { statusMessage: this.hide(r.statusMessage) }),
    };
  }

  private frame(r: FrameRecord): FrameRecord {
    const flagged = r.encoding === "base64" || (r.flags !== undefined && r.flags.length > 0);
    // Deeper than the walk below follows: hidden whole (its structure is the attack, not evidence).
    const tooDeep = !flagged && jsonTextTooDeep(r.raw);
    const frame = flagged || tooDeep ? null : classifyFrame(r.raw);
    if (frame === null || frame.kind === "malformed") {
      // A frame an earlier export hid whole stays as that export said (an export of an export).
      if (r.encoding !== "base64" && REDACTED_FRAME.test(r.raw)) return r;
      const { encoding: _encoding, ...rest } = r;
      const size =
        r.encoding === "base64"
          ? `${r.bytes ?? base64Bytes(r.raw)} bytes`
          : `${r.bytes ?? r.raw.length} chars`;
      const why = tooDeep ? `, nested deeper than ${MAX_JSON_DEPTH}` : "";
      return { ...rest, raw: `[redacted frame: ${size}${why}]` };
    }
    const before = JSON.stringify(frame.message);
    const after = JSON.stringify(redactValue(frame.message, this.hide));
    return after === before ? r : { ...r, raw: after };
  }
}

/**
 * Redacts a trace for export: `full: false` (the default for exports) replaces content and
 * credentials with length placeholders and marks the header `redacted: true`; `full: true` returns
 * header and records as given.
 */
export function redactTrace(
  header: TraceHeader,
  records: readonly TraceRecord[],
  options: RedactOptions,
): RedactedTrace {
  if (options.full) return { header, records };
  const keys = new Set<string>();
  for (const r of records) {
    const key = promptKey(r);
    if (key !== undefined) keys.add(key);
  }
  const redactor = new TraceRedactor(keys);
  return { header: redactor.header(header), records: records.map((r) => redactor.record(r)) };
}
