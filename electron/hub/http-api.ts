import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { EventFeed } from "./event-feed.js";
import type { FaultBoard } from "./fault-board.js";
import type { ConformancePort } from "./ports/conformance-port.js";
import type { DemoPort } from "./ports/demo-port.js";
import type { TraceStore } from "./trace-store.js";

/** What the HTTP API reads and changes. */
export interface HttpApiDeps {
  readonly board: FaultBoard;
  readonly store: TraceStore;
  readonly feed: EventFeed;
  readonly importLimitBytes: number;
  /** The `GET /api/hub` body. */
  readonly info: () => Record<string, unknown>;
  /** Taps attached right now (fault arming reports it). */
  readonly taps: () => number;
  /** The built-in demo's slot, when the hub has one. */
  readonly demo?: DemoPort;
  /** The conformance runner's slot, when the hub has one. */
  readonly conformance?: ConformancePort;
}

const JSON_LIMIT = 64 * 1024;

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    "Content-Type": "application/json; charset=utf-8",
    "Content-Length": String(Buffer.byteLength(text)),
  });
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const type = req.headers["content-type"] ?? "";
  if (!/^application\/json\b/i.test(type)) throw new HttpError(415, "Content-Type must be application/json");
  let text = "";
  for await (const chunk of req as AsyncIterable<Buffer>) {
    text += chunk.toString("utf8");
    if (text.length > JSON_LIMIT) throw new HttpError(413, "body too large");
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(400, "body is not JSON");
  }
}

/** An HTTP error with a status and a message for the body. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Routes `/api/*` (after the security checks passed). Returns false when the path is not an API
 * path. Fault rules: GET/POST/DELETE `/api/faults[/<id>]`; traces: GET/POST `/api/traces`,
 * GET `/api/traces/<id>` (export); hub status: GET `/api/hub`; the demo: GET/POST `/api/demo`;
 * conformance: GET `/api/conformance` (choices and run), POST `/api/conformance/runs` (start),
 * DELETE `/api/conformance/runs` (cancel).
 */
export async function routeApi(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  deps: HttpApiDeps,
  headers: Record<string, string>,
): Promise<boolean> {
  const path = url.pathname;
  if (!path.startsWith("/api/")) return false;
  const method = req.method ?? "GET";
  const ok = (status: number, body: unknown): true => {
    sendJson(res, status, body, headers);
    return true;
  };
  try {
    if (path === "/api/hub" && method === "GET") return ok(200, deps.info());
    if (path === "/api/faults") {
      if (method === "GET") return ok(200, { rules: deps.board.list() });
      if (method === "POST") {
        const r = deps.board.arm(await readJson(req));
        if (!r.ok) throw new HttpError(400, r.error);
        return ok(201, { rule: r.rule, immediate: r.immediate, taps: deps.taps() });
      }
      if (method === "DELETE") return ok(200, { cleared: deps.board.clear() });
    }
    const faultId = /^\/api\/faults\/([^/]+)$/.exec(path)?.[1];
    if (faultId !== undefined && method === "DELETE") {
      if (!deps.board.disarm(decodeURIComponent(faultId)))
        throw new HttpError(404, `no armed rule ${faultId}`);
      return ok(200, { disarmed: decodeURIComponent(faultId) });
    }
    if (path === "/api/demo" && deps.demo) {
      if (method === "GET") {
        const status = deps.demo.status();
        if (!status) throw new HttpError(404, "no demo is running on this hub");
        return ok(200, status);
      }
      if (method === "POST") {
        const r = await deps.demo.run(await readJson(req));
        if (!r.ok) throw new HttpError(400, r.error);
        return ok(200, r);
      }
    }
    if (path === "/api/conformance" && method === "GET") {
      const board = deps.conformance?.status();
      if (!board) throw new HttpError(404, "this hub runs no conformance suite");
      return ok(200, board);
    }
    if (path === "/api/conformance/runs" && deps.conformance && (method === "POST" || method === "DELETE")) {
      const r = method === "POST" ? deps.conformance.start(await readJson(req)) : deps.conformance.cancel();
      if (!r.ok) throw new HttpError(409, r.error);
      return ok(method === "POST" ? 202 : 200, r);
    }
    if (path === "/api/traces") {
      if (method === "GET") return ok(200, { traces: await deps.store.list() });
      if (method === "POST") {
        const r = await deps.store.importTrace(req as AsyncIterable<Buffer>, deps.importLimitBytes);
        if ("error" in r) throw new HttpError(400, r.error);
        return ok(201, r);
      }
    }
    const traceId = /^\/api\/traces\/([^/]+)$/.exec(path)?.[1];
    if (traceId !== undefined && method === "GET") {
      const file = deps.store.pathOf(decodeURIComponent(traceId));
      const s = file ? await stat(file).catch(() => undefined) : undefined;
      if (!file || !s?.isFile()) throw new HttpError(404, "no such trace");
      res.writeHead(200, {
        ...headers,
        "Content-Type": "application/x-ndjson",
        "Content-Length": String(s.size),
        "Content-Disposition": `attachment; filename="${decodeURIComponent(traceId)}.jsonl"`,
      });
      createReadStream(file).pipe(res);
      return true;
    }
    throw new HttpError(404, "no such endpoint");
  } catch (err) {
    if (res.headersSent) {
      res.destroy();
      return true;
    }
    if (err instanceof HttpError) ok(err.status, { error: err.message });
    else ok(500, { error: err instanceof Error ? err.message : String(err) });
    return true;
  }
}
