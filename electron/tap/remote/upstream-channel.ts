/**
 * One upstream connection from the remote front to a remote agent (`proxy --listen --agent-url`),
 * whatever the agent's transport: messages go up and come back as exact text, one at a time.
 * `open-upstream.ts` dials one; `upstream-ws.ts` and `upstream-http.ts` are the two transports.
 */

/** What an upstream connection reports. */
export interface UpstreamEvents {
  /** One message from the agent: its exact bytes (a WebSocket message, an SSE event's data, a response body). */
  message(bytes: Buffer): void;
  /** The connection ended (called once), with a reason for the trace. */
  closed(reason: string): void;
}

/** An open upstream connection. */
export interface UpstreamChannel {
  /** Sends one client message (its exact text) to the agent, in order. */
  send(line: string): void;
  /** Ends the connection once what was sent went out (bounded); `closed` follows. */
  close(): void;
}
