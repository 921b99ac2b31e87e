/**
 * The operations the UI can ask of the app core, one per toolbar action. Both shells (the Electron
 * preload and the hub's WebSocket) carry exactly these, and the core validates every call with
 * `parseOperationCall` because anything crossing a process boundary is untrusted input.
 */

/** A fault the UI can arm or trigger; the proxy/hub decides how each one is carried out. */
export type FaultAction =
  | "drop-next-response"
  | "drop-next-request"
  | "delay-next-response"
  | "reconnect-client"
  | "kill-agent"
  | "restart-agent";

/** Every fault action, in toolbar order. */
export const FAULT_ACTIONS: readonly FaultAction[] = [
  "drop-next-response",
  "drop-next-request",
  "delay-next-response",
  "reconnect-client",
  "kill-agent",
  "restart-agent",
];

/** Arguments of each operation, by name. */
export interface OperationArgs {
  clear: Record<string, never>;
  setPaused: { readonly paused: boolean };
  exportTrace: { readonly redacted: boolean };
  importTrace: { readonly fileName: string; readonly text: string };
  injectFault: { readonly action: FaultAction; readonly delayMs?: number };
}

/** What each operation resolves to, by name. */
export interface OperationResults {
  clear: { readonly cleared: true };
  setPaused: { readonly paused: boolean };
  exportTrace: { readonly fileName: string; readonly text: string; readonly redacted: boolean };
  importTrace: { readonly records: number; readonly problems: readonly string[] };
  injectFault: { readonly accepted: boolean; readonly detail: string };
}

/** The name of an operation. */
export type OperationName = keyof OperationArgs;

/** Every operation name. */
export const OPERATION_NAMES: readonly OperationName[] = [
  "clear",
  "setPaused",
  "exportTrace",
  "importTrace",
  "injectFault",
];

/** A validated call: the name and its arguments, typed together. */
export type OperationCall = {
  [K in OperationName]: { readonly op: K; readonly args: OperationArgs[K] };
}[OperationName];

/** The largest trace text an import may carry across a process boundary (64 MiB). */
export const MAX_IMPORT_CHARS = 64 * 1024 * 1024;
/** The longest delay a `delay-next-response` fault may ask for. */
export const MAX_FAULT_DELAY_MS = 120_000;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Validates an untrusted `(op, args)` pair; returns the typed call or a message saying what is wrong. */
export function parseOperationCall(op: unknown, args: unknown): OperationCall | { readonly error: string } {
  if (typeof op !== "string" || !(OPERATION_NAMES as readonly string[]).includes(op)) {
    return { error: `unknown operation ${JSON.stringify(op)}` };
  }
  const a = args === undefined ? {} : args;
  if (!isRecord(a)) return { error: `${op}: arguments must be an object` };
  switch (op as OperationName) {
    case "clear":
      return { op: "clear", args: {} };
    case "setPaused":
      if (typeof a.paused !== "boolean") return { error: "setPaused: paused must be a boolean" };
      return { op: "setPaused", args: { paused: a.paused } };
    case "exportTrace":
      if (typeof a.redacted !== "boolean") return { error: "exportTrace: redacted must be a boolean" };
      return { op: "exportTrace", args: { redacted: a.redacted } };
    case "importTrace":
      if (typeof a.fileName !== "string" || a.fileName.length > 1024) {
        return { error: "importTrace: fileName must be a string of at most 1024 characters" };
      }
      if (typeof a.text !== "string" || a.text.length > MAX_IMPORT_CHARS) {
        return { error: `importTrace: text must be a string of at most ${MAX_IMPORT_CHARS} characters` };
      }
      return { op: "importTrace", args: { fileName: a.fileName, text: a.text } };
    case "injectFault": {
      if (typeof a.action !== "string" || !(FAULT_ACTIONS as readonly string[]).includes(a.action)) {
        return { error: `injectFault: unknown action ${JSON.stringify(a.action)}` };
      }
      const action = a.action as FaultAction;
      if (a.delayMs === undefined) return { op: "injectFault", args: { action } };
      if (
        typeof a.delayMs !== "number" ||
        !Number.isInteger(a.delayMs) ||
        a.delayMs < 0 ||
        a.delayMs > MAX_FAULT_DELAY_MS
      ) {
        return { error: `injectFault: delayMs must be an integer from 0 to ${MAX_FAULT_DELAY_MS}` };
      }
      return { op: "injectFault", args: { action, delayMs: a.delayMs } };
    }
  }
}
