/** One client connection on a remote front (a WebSocket, or a Streamable HTTP connection id). */
export interface ClientChannel {
  /** `ws` or `http`, for the `conn-open` record. */
  readonly transport: "ws" | "http";
  /** The client's address, `127.0.0.1:54321`. */
  readonly peer: string;
  /** Sends one line the agent wrote to the client, as one message, exactly. */
  send(line: string): void;
  /** Closes the client's connection; idempotent. */
  close(): void;
}
