/**
 * One upstream connection from the remote front to a remote agent (`proxy --listen --agent-url`),
 * whatever the agent's transport: messages go up and come back as exact text, one at a time.
 * `open-upstream.ts` dials one; `upstream-ws.ts` and `upstream-http.ts` are the two transports.
 */

/** What an upstream connection reports. */
export interface UpstreamEvents {
  /** One message from the agent: its exact bytes (a WebSocket message, an SSE event's data, a response body). */
  message(bytes: Buffer): void;
  /** The connection ended (called once), with a reason for the trace; `refusal` when the agent refused it. */
  closed(reason: string, refusal?: UpstreamRefusal): void;
}

/** Why the agent refused the connection: `unauthorized` is its HTTP 401 (it wants a token, or another one). */
export type UpstreamRefusal = "unauthorized";

/** Where the remote agent is, and the bearer token it gets (`--agent-token-file`), if any. */
export interface UpstreamTarget {
  /** `ws(s)://` (WebSocket) or `http(s)://` (Streamable HTTP). */
  readonly url: string;
  /** Sent as `Authorization: Bearer TOKEN` on the WebSocket upgrade, or on every HTTP request. */
  readonly token?: string;
}

/** The reason a 401 from the agent ends the connection with: says it wants a token, and what to do. */
export function unauthorizedReason(target: UpstreamTarget): string {
  return target.token === undefined
    ? "the remote agent wants a token (401): none was sent; give it with --agent-token-file FILE"
    : "the remote agent wants a token (401): it refused the one in --agent-token-file";
}

/** `Authorization: Bearer TOKEN` for a target with a token, else no header. */
export function upstreamAuthHeaders(target: UpstreamTarget): Record<string, string> {
  return target.token === undefined ? {} : { Authorization: `Bearer ${target.token}` };
}

/** An open upstream connection. */
export interface UpstreamChannel {
  /** Sends one client message (its exact text) to the agent, in order. */
  send(line: string): void;
  /** Ends the connection once what was sent went out (bounded); `closed` follows. */
  close(): void;
}
