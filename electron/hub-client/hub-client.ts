import { request as httpRequest } from "node:http";
import { connect, type Socket } from "node:net";
import { takeFragmentToken } from "../../shared/hub/hub-auth.js";
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

/** A hub address the user gave that cannot be used as given (a token in it, not loopback), in words for the user. */
export class HubAddressRefused extends Error {}

/** The environment variable that gives the CLI the hub's token (never argv, which `ps` shows to everyone). */
export const TOKEN_ENV = "ACP_RI_TOKEN";

const LOOPBACK_NAMES = new Set(["127.0.0.1", "localhost"]);

/** The origin of an explicit `--hub` URL: loopback only, and no token in it (query or fragment). */
function explicitHub(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new HubAddressRefused(`--hub ${url} is not a URL`);
  }
  if (u.searchParams.has("token") || takeFragmentToken(u.hash).token !== undefined)
    throw new HubAddressRefused(
      `--hub must not carry the token: a command line is visible to every user of this machine (ps). ` +
        `Pass the hub's address only (${u.origin}) and the token in ${TOKEN_ENV}, or let the CLI read ` +
        "the hub's rendezvous file",
    );
  if (u.protocol !== "http:" || !LOOPBACK_NAMES.has(u.hostname) || u.port === "")
    throw new HubAddressRefused(`--hub must be http://127.0.0.1:PORT (the hub listens on loopback only)`);
  return u;
}

/**
 * Finds the hub: an explicit loopback URL (`--hub`, no token in it), else the rendezvous file. The
 * token comes from `ACP_RI_TOKEN` when set, else from the rendezvous file, and that file's token
 * goes only to the hub that file names. Throws `HubAddressRefused` for an unusable `--hub` and
 * `HubUnreachable` when there is no hub or no token for it, or the rendezvous is not to be trusted
 * (a link, another user's, writable by others: its reason says so).
 */
export function findHubTarget(
  explicit: { url?: string },
  path = rendezvousPath(),
  env: NodeJS.ProcessEnv = process.env,
): HubTarget {
  const fromEnv = env[TOKEN_ENV] || undefined;
  const r = readRendezvous(path);
  if (explicit.url !== undefined) {
    const u = explicitHub(explicit.url);
    const sameHub = r.kind === "live" && Number(u.port) === r.hub.port;
    const token = fromEnv ?? (sameHub ? r.hub.token : undefined);
    if (!token)
      throw new HubUnreachable(
        `no token for the hub at ${u.origin}: set ${TOKEN_ENV} to its token (in its rendezvous file, ` +
          `field "token"); ${r.kind === "untrusted" ? r.reason : `the hub in ${path} ${r.kind === "live" ? `is on port ${r.hub.port}` : "is not running"}`}`,
      );
    return { base: `http://127.0.0.1:${u.port}`, token };
  }
  if (r.kind === "untrusted") throw new HubUnreachable(r.reason);
  if (r.kind === "live") return { base: `http://127.0.0.1:${r.hub.port}`, token: fromEnv ?? r.hub.token };
  if (r.kind === "stale")
    throw new HubUnreachable(
      `the hub in ${path} is no longer running; start one with \`acp-retry-inspector serve\``,
    );
  throw new HubUnreachable(`no hub is running (no ${path}); start one with \`acp-retry-inspector serve\``);
}

/**
 * While no connection attempt to the hub has connected, another starts this often, up to
 * `CONNECT_ATTEMPTS` at once. A SYN the kernel dropped because the hub's listen queue was full (a
 * flood of connections arriving) is retried by the kernel only after 1 s; a new attempt may get in
 * well before that.
 */
export const CONNECT_RACE_MS = 200;
const CONNECT_ATTEMPTS = 5;

/**
 * A TCP connection to 127.0.0.1:`port`: the first of the attempts (one now, one more every
 * `CONNECT_RACE_MS` while none has connected) to connect, with its number (1: the first); the
 * others are closed. Rejects with the error of the last attempt when every one started has failed
 * (a refused connection fails at once: nobody listens), or when `signal` aborts.
 */
export function raceConnect(port: number, signal: AbortSignal): Promise<{ socket: Socket; attempt: number }> {
  return new Promise((resolve, reject) => {
    const pending = new Set<Socket>();
    let started = 0;
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener("abort", onAbort);
      for (const s of pending) s.destroy();
      pending.clear();
      outcome();
    };
    const onAbort = () => finish(() => reject(signal.reason));
    const attempt = () => {
      const n = ++started;
      const s = connect({ host: "127.0.0.1", port });
      pending.add(s);
      s.once("connect", () => {
        pending.delete(s);
        finish(() => resolve({ socket: s, attempt: n }));
      });
      s.once("error", (err) => {
        pending.delete(s);
        s.destroy();
        if (pending.size === 0) finish(() => reject(err));
      });
      if (started < CONNECT_ATTEMPTS) timer = setTimeout(attempt, CONNECT_RACE_MS);
    };
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener("abort", onAbort);
    attempt();
  });
}

/** One request to the hub over a connection from `raceConnect`; resolves with the status and the body. */
async function hubRequest(
  target: HubTarget,
  request: Parameters<HttpTransport>[0],
  signal: AbortSignal,
): Promise<{ status: number; text: string }> {
  const port = Number(new URL(target.base).port);
  const { socket } = await raceConnect(port, signal);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: request.method,
        path: request.path,
        headers: {
          Authorization: `Bearer ${target.token}`,
          Connection: "close",
          ...(request.contentType !== undefined && { "Content-Type": request.contentType }),
        },
        createConnection: () => socket,
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(request.body);
  });
}

/**
 * The HTTP transport to the hub at `target` (giving up after `timeoutMs`). Each request has its
 * own connection, made by `raceConnect`. Throws `HubUnreachable` on network errors.
 */
export function hubTransport(target: HubTarget, timeoutMs = 10_000): HttpTransport {
  return async (request) => {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      return await hubRequest(target, request, signal);
    } catch (err) {
      const why = signal.aborted
        ? `no answer in ${timeoutMs} ms`
        : ((err as { code?: string }).code ?? (err as Error).message);
      throw new HubUnreachable(`cannot reach the hub at ${target.base}: ${why}`);
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
