/**
 * The client side of the HTTP API for every operation: validate, build the request from the
 * table's route, send it with the caller's transport (Node's or the browser's `fetch`), read the
 * answer. The CLI, the Electron main process and the browser bridge all call through this.
 */
import { requestFor } from "./http-route.js";
import {
  OPERATIONS,
  type OperationArgs,
  type OperationName,
  type OperationResult,
  parseOperationCall,
} from "./operations.js";

/** Sends one request to the hub (with its token) and returns the status and body text. */
export type HttpTransport = (request: {
  readonly method: string;
  readonly path: string;
  readonly contentType?: string;
  readonly body?: string;
}) => Promise<{ readonly status: number; readonly text: string }>;

/** An operation the hub (or the validator) refused, with the hub's words and the HTTP status (0: refused before sending). */
export class OperationRefused extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/** The `error` of a JSON error body, else the text itself. */
function errorText(status: number, text: string): string {
  try {
    const body: unknown = JSON.parse(text);
    const error = (body as { error?: unknown } | null)?.error;
    if (typeof error === "string") return error;
  } catch {}
  return text.trim() || `the hub answered ${status}`;
}

/** Runs operation `op` over HTTP; throws `OperationRefused` when it is invalid or the hub refuses it. */
export async function callOverHttp<K extends OperationName>(
  send: HttpTransport,
  op: K,
  args: OperationArgs<K> | Readonly<Record<string, unknown>>,
): Promise<OperationResult<K>> {
  const call = parseOperationCall(op, args);
  if ("error" in call) throw new OperationRefused(call.error, 0);
  const route = OPERATIONS[op].http;
  const res = await send(requestFor(route, call.args as Readonly<Record<string, unknown>>));
  if (res.status < 200 || res.status >= 300)
    throw new OperationRefused(errorText(res.status, res.text), res.status);
  return (route.response === "file" ? { text: res.text } : JSON.parse(res.text)) as OperationResult<K>;
}
