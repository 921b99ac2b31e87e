/**
 * The hub's HTTP API, derived from the operation table: each operation's route
 * (`shared/ops/operations.ts`) is matched here, its body read and its arguments validated, its
 * handler run, and the answer written as JSON (or, for `readTrace`, the file streamed). Requests
 * reach this only after the token, Host and Origin checks passed.
 */
import { createReadStream } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { matchPath } from "../../shared/ops/http-route.js";
import {
  OPERATION_NAMES,
  OPERATIONS,
  type OperationName,
  parseOperationCall,
} from "../../shared/ops/operations.js";
import {
  type FailureKind,
  type HandlerResult,
  OperationFailure,
  type OperationHandlers,
  type TraceFileAnswer,
} from "./operation-handlers.js";
import { previewedTrace } from "./ui-previews.js";

/** The largest JSON body any operation takes. */
const JSON_LIMIT = 64 * 1024;

const STATUS_OF: Record<FailureKind, number> = { invalid: 400, missing: 404, conflict: 409 };

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(text)),
  });
  res.end(text);
}

/** An HTTP-level refusal (before any handler ran). */
class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The request's body as text, at most `limit` bytes. Each chunk is decoded as it comes and let go
 * (no array of every socket chunk, then a concatenated copy of them all, then its text: three copies
 * of a large import at once). 8 concurrent 200 MiB imports left the hub at 3.4 GB, now about 0.4 GB.
 * A chunked body over the limit is still read up to the limit before the refusal.
 */
async function readBody(req: IncomingMessage, limit: number): Promise<string> {
  // refused before a byte is read when the request says it is too large
  if (Number(req.headers["content-length"]) > limit)
    throw new HttpRefusal(413, `body larger than ${limit} bytes`);
  const decoder = new TextDecoder();
  const pieces: string[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limit) throw new HttpRefusal(413, `body larger than ${limit} bytes`);
    pieces.push(decoder.decode(chunk, { stream: true }));
  }
  pieces.push(decoder.decode());
  return pieces.join("");
}

/** The operation `method path` names, with its path arguments; undefined for no operation. */
function findRoute(
  method: string,
  pathname: string,
): { op: OperationName; params: Record<string, string> } | undefined {
  let pathMatched = false;
  for (const op of OPERATION_NAMES) {
    const route = OPERATIONS[op].http;
    const params = matchPath(route.path, pathname);
    if (!params) continue;
    pathMatched = true;
    if (route.method === method) return { op, params };
  }
  if (pathMatched) throw new HttpRefusal(405, `${method} is not allowed on ${pathname}`);
  return undefined;
}

/** The raw arguments of a request: its path segments, plus its body as the route's body argument. */
async function requestArgs(
  op: OperationName,
  req: IncomingMessage,
  params: Record<string, string>,
  importLimitBytes: number,
): Promise<Record<string, unknown>> {
  const route = OPERATIONS[op].http;
  if (route.body === undefined) return params;
  if (route.bodyType === "jsonl") return { ...params, [route.body]: await readBody(req, importLimitBytes) };
  if (!/^application\/json\b/i.test(req.headers["content-type"] ?? ""))
    throw new HttpRefusal(415, "Content-Type must be application/json");
  const text = await readBody(req, JSON_LIMIT);
  try {
    return { ...params, [route.body]: JSON.parse(text) };
  } catch {
    throw new HttpRefusal(400, "body is not JSON");
  }
}

/** Routes `/api/*`; returns false when the path is not an API path. */
export async function routeOperations(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  handlers: OperationHandlers,
  importLimitBytes: number,
  headers: Record<string, string>,
): Promise<boolean> {
  if (!url.pathname.startsWith("/api/")) return false;
  try {
    const found = findRoute(req.method ?? "GET", url.pathname);
    if (!found) throw new HttpRefusal(404, "no such endpoint");
    const call = parseOperationCall(
      found.op,
      await requestArgs(found.op, req, found.params, importLimitBytes),
    );
    // A malformed name in the path names nothing (404); a malformed body is bad input (400).
    if ("error" in call) throw new HttpRefusal(Object.keys(found.params).length > 0 ? 404 : 400, call.error);
    const run = handlers[call.op] as (
      args: unknown,
    ) => Promise<HandlerResult<OperationName>> | HandlerResult<OperationName>;
    const result = await run(call.args);
    const route = OPERATIONS[call.op].http;
    if (route.response === "file") {
      const answer = result as unknown as TraceFileAnswer;
      if (answer.previews) {
        // Lines cut as they are read: the length is known only at the end (chunked).
        res.writeHead(route.status, {
          ...headers,
          "Content-Type": "application/x-ndjson",
          "Content-Disposition": `attachment; filename="${answer.name}"`,
        });
        const body = Readable.from(previewedTrace(answer.file, answer.bytes));
        body.on("error", () => res.destroy());
        body.pipe(res);
        return true;
      }
      res.writeHead(route.status, {
        ...headers,
        "Content-Type": "application/x-ndjson",
        "Content-Length": String(answer.bytes),
        "Content-Disposition": `attachment; filename="${answer.name}"`,
      });
      // Exactly the bytes stat counted: a live trace may grow while it is sent.
      if (answer.bytes === 0) res.end();
      else createReadStream(answer.file, { end: answer.bytes - 1 }).pipe(res);
      return true;
    }
    sendJson(res, route.status, result, headers);
  } catch (err) {
    if (res.headersSent) res.destroy();
    else if (err instanceof OperationFailure)
      sendJson(res, STATUS_OF[err.kind], { error: err.message }, headers);
    else if (err instanceof HttpRefusal) sendJson(res, err.status, { error: err.message }, headers);
    else sendJson(res, 500, { error: err instanceof Error ? err.message : String(err) }, headers);
  }
  return true;
}
