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

/** Calls the hub's HTTP API (giving up after `timeoutMs`); resolves with the status and parsed JSON body. Throws `HubUnreachable` on network errors. */
export async function callHub(
  target: HubTarget,
  method: "GET" | "POST" | "DELETE",
  path: string,
  body?: unknown,
  timeoutMs = 10_000,
): Promise<{ status: number; body: Record<string, unknown> }> {
  let res: Response;
  try {
    res = await fetch(target.base + path, {
      method,
      headers: {
        Authorization: `Bearer ${target.token}`,
        ...(body !== undefined && { "Content-Type": "application/json" }),
      },
      ...(body !== undefined && { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code;
    throw new HubUnreachable(`cannot reach the hub at ${target.base}: ${cause ?? (err as Error).message}`);
  }
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { error: text.trim() };
  }
  return { status: res.status, body: parsed };
}
