/** One client connection on a remote front (a WebSocket, or a Streamable HTTP connection id). */
export interface ClientChannel {
  /** `ws` or `http`, for the `conn-open` record. */
  readonly transport: "ws" | "http";
  /** The client's address, `127.0.0.1:54321`. */
  readonly peer: string;
  /** Sends one line the agent wrote to the client, as one message, exactly. */
  send(line: string): void;
  /** Closes the client's connection; idempotent. `why`: a refusal the client is told (a WebSocket close code). */
  close(why?: ClientCloseWhy): void;
}

/** A close the client should understand: a WebSocket close code (4000-4999 are private) and its reason. */
export interface ClientCloseWhy {
  readonly code: number;
  /** At most 123 bytes (the WebSocket limit). */
  readonly reason: string;
}
