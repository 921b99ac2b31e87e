import { callOverHttp, type HttpTransport } from "../../shared/ops/call-over-http.js";
import type { OperationArgs, OperationName, OperationResult } from "../../shared/ops/operations.js";
import { rendezvousPath } from "./hub-paths.js";
import { readRendezvous } from "./rendezvous.js";

/** Where a running hub is and how to authenticate to it. */
export interface HubTarget {
  /** Base URL, e.g. `http://127.0.0.1:4567`. */
  readonly base: string;
  readonly token: string;
}

/** Why no hub could be reached, in words for the user. */
export class HubUnreachable extends Error {}

/**
 * Finds the hub: an explicit URL (a pasted UI URL carries its token) plus token, else the
 * rendezvous file. Throws `HubUnreachable` when there is none or it is stale.
 */
export function findHubTarget(
  explicit: { url?: string; token?: string },
  path = rendezvousPath(),
): HubTarget {
  if (explicit.url !== undefined) {
    let u: URL;
    try {
      u = new URL(explicit.url);
    } catch {
      throw new HubUnreachable(`--hub ${explicit.url} is not a URL`);
    }
    const token = explicit.token ?? u.searchParams.get("token") ?? undefined;
    if (!token) throw new HubUnreachable("--hub needs --token (or a URL with ?token=)");
    return { base: u.origin, token };
  }
  const r = readRendezvous(path);
  if (r.kind === "live")
    return { base: `http://127.0.0.1:${r.hub.port}`, token: explicit.token ?? r.hub.token };
  if (r.kind === "stale")
    throw new HubUnreachable(
      `the hub in ${path} is no longer running; start one with \`acp-retry-inspector serve\``,
    );
  throw new HubUnreachable(`no hub is running (no ${path}); start one with \`acp-retry-inspector serve\``);
}

/** The HTTP transport to the hub at `target` (giving up after `timeoutMs`). Throws `HubUnreachable` on network errors. */
export function hubTransport(target: HubTarget, timeoutMs = 10_000): HttpTransport {
  return async (request) => {
    let res: Response;
    try {
      res = await fetch(target.base + request.path, {
        method: request.method,
        headers: {
          Authorization: `Bearer ${target.token}`,
          ...(request.contentType !== undefined && { "Content-Type": request.contentType }),
        },
        ...(request.body !== undefined && { body: request.body }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      return { status: res.status, text: await res.text() };
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code;
      throw new HubUnreachable(`cannot reach the hub at ${target.base}: ${cause ?? (err as Error).message}`);
    }
  };
}

/** Runs one operation of the table on the hub at `target`; throws `OperationRefused` or `HubUnreachable`. */
export function callOperation<K extends OperationName>(
  target: HubTarget,
  op: K,
  args: OperationArgs<K> | Readonly<Record<string, unknown>> = {},
  timeoutMs = 10_000,
): Promise<OperationResult<K>> {
  return callOverHttp(hubTransport(target, timeoutMs), op, args);
}

/** Calls any path of the hub's HTTP API with a JSON body (tests and benches probe routes with it); resolves with the status and parsed JSON body. */
export async function callHub(
  target: HubTarget,
  method: "GET" | "POST" | "DELETE",
  path: string,
  body?: unknown,
  timeoutMs = 10_000,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await hubTransport(
    target,
    timeoutMs,
  )({
    method,
    path,
    ...(body !== undefined && { contentType: "application/json", body: JSON.stringify(body) }),
  });
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(res.text) as Record<string, unknown>;
  } catch {
    parsed = { error: res.text.trim() };
  }
  return { status: res.status, body: parsed };
}
