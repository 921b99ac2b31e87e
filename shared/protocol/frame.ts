/**
 * JSON-RPC 2.0 frame classification. Never throws: any string gets a kind, and a frame that is
 * not a valid JSON-RPC 2.0 message is `malformed` with a reason, kept for display.
 */

/** A JSON-RPC id: ACP uses strings and integers; `null` only on errors answering unreadable requests. */
export type JsonRpcId = string | number | null;

/** The JSON-RPC error object of an error response. */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** One frame, classified. `message` is the parsed object for every kind but `malformed`. */
export type Frame =
  | {
      readonly kind: "request";
      readonly id: string | number;
      readonly method: string;
      readonly params: unknown;
      readonly message: Record<string, unknown>;
    }
  | {
      readonly kind: "notification";
      readonly method: string;
      readonly params: unknown;
      readonly message: Record<string, unknown>;
    }
  | {
      readonly kind: "result";
      readonly id: JsonRpcId;
      readonly result: unknown;
      readonly message: Record<string, unknown>;
    }
  | {
      readonly kind: "error";
      readonly id: JsonRpcId;
      readonly error: JsonRpcErrorObject;
      readonly message: Record<string, unknown>;
    }
  | { readonly kind: "malformed"; readonly reason: string; readonly value?: unknown };

/** A request frame (it has an id and a method). */
export type RequestFrame = Extract<Frame, { kind: "request" }>;

/** A notification frame (a method, no id). */
export type NotificationFrame = Extract<Frame, { kind: "notification" }>;

/** A response frame: a result or an error. */
export type ResponseFrame = Extract<Frame, { kind: "result" | "error" }>;

function isId(v: unknown): v is string | number {
  return typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
}

/** Classifies an already-parsed JSON value as a JSON-RPC 2.0 frame. */
export function classifyMessage(value: unknown): Frame {
  if (Array.isArray(value))
    return { kind: "malformed", reason: "batch arrays are not allowed in ACP", value };
  if (value === null || typeof value !== "object")
    return { kind: "malformed", reason: "not a JSON object", value };
  const m = value as Record<string, unknown>;
  if (m.jsonrpc !== "2.0") return { kind: "malformed", reason: 'missing or wrong "jsonrpc": "2.0"', value };
  const hasId = "id" in m;
  if (typeof m.method === "string") {
    if (!hasId) return { kind: "notification", method: m.method, params: m.params, message: m };
    if (!isId(m.id)) return { kind: "malformed", reason: "request id must be a string or a number", value };
    return { kind: "request", id: m.id, method: m.method, params: m.params, message: m };
  }
  if ("method" in m) return { kind: "malformed", reason: '"method" must be a string', value };
  if (!hasId) return { kind: "malformed", reason: 'neither "method" nor "id"', value };
  const id = m.id;
  if (id !== null && !isId(id))
    return { kind: "malformed", reason: "response id must be a string, a number or null", value };
  const hasResult = "result" in m;
  const hasError = "error" in m;
  if (hasResult && hasError) return { kind: "malformed", reason: 'both "result" and "error"', value };
  if (hasResult) return { kind: "result", id, result: m.result, message: m };
  if (hasError) {
    const e = m.error as Record<string, unknown> | null;
    if (e === null || typeof e !== "object" || typeof e.code !== "number" || typeof e.message !== "string") {
      return { kind: "malformed", reason: "error object needs a numeric code and a string message", value };
    }
    return { kind: "error", id, error: { code: e.code, message: e.message, data: e.data }, message: m };
  }
  return { kind: "malformed", reason: 'a response needs "result" or "error"', value };
}

/** Parses and classifies one line of text (one stdio message). */
export function classifyFrame(raw: string): Frame {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    return { kind: "malformed", reason: `not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  return classifyMessage(value);
}
