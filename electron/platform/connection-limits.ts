import type { Server } from "node:http";
import type { Socket } from "node:net";

/** How many connections a loopback server (the hub, the `--listen` front) holds, and how long one may stay silent. */
export interface ConnectionLimits {
  /** Most TCP connections open at once, WebSockets included. */
  readonly maxConnections: number;
  /** A connection must have sent a complete request (headers) within this many ms, or it is closed. */
  readonly headersTimeoutMs: number;
}

/** The defaults the hub and the `--listen` front both use. */
export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = { maxConnections: 512, headersTimeoutMs: 5_000 };

/**
 * The listen queue both servers ask for (the kernel caps it at `net.core.somaxconn`, 4096 on
 * current Linux): a burst of connections then waits in the queue for `limitConnections` to sort
 * out instead of having its SYNs dropped, which a client retries only after 1 s, then 3 s.
 */
export const LISTEN_BACKLOG = 4096;

/** What a server tells the limits about a connection once it has checked a request on it. */
export interface ConnectionTrust {
  /** `socket` presented the server's token: it is the last to be dropped over the cap. */
  trust(socket: Socket): void;
}

/**
 * Caps the TCP connections of `server` and closes those that never send a request. Over the cap,
 * a connection that has not shown the token goes, not the new one: first the oldest that has sent
 * nothing yet, then the oldest that sent only requests without the token (the UI's static files
 * need none, and a kept-alive connection can keep asking for them; the front's refusals). A flood of idle or tokenless
 * sockets (which need no token) then cannot starve an authenticated client, whose request arrives
 * right after it connects. The new connection is dropped only when every other one has shown the
 * token. (`server.maxConnections` would refuse the newcomer, which is the starvation.)
 */
export function limitConnections(server: Server, limits: ConnectionLimits): ConnectionTrust {
  const open = new Set<Socket>();
  /** Connections that have not sent a complete request yet, oldest first, with their deadline. */
  const silent = new Map<Socket, NodeJS.Timeout>();
  /** Connections that sent requests, none with the token, in the order they were first heard. */
  const tokenless = new Set<Socket>();
  const heard = (socket: Socket) => {
    const deadline = silent.get(socket);
    if (deadline === undefined) return;
    clearTimeout(deadline);
    silent.delete(socket);
    tokenless.add(socket);
  };
  // Node's own header deadline, for later requests on a kept-alive connection (checked coarsely).
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = Math.max(server.requestTimeout, limits.headersTimeoutMs);
  server.on("connection", (socket: Socket) => {
    open.add(socket);
    silent.set(socket, setTimeout(() => socket.destroy(), limits.headersTimeoutMs).unref());
    socket.once("close", () => {
      clearTimeout(silent.get(socket));
      silent.delete(socket);
      tokenless.delete(socket);
      open.delete(socket);
    });
    if (open.size <= limits.maxConnections) return;
    const oldestSilent = silent.keys().next().value as Socket;
    const oldestTokenless = tokenless.values().next().value;
    // the new one is the newest silent connection, so it goes only when no other has to
    (oldestSilent !== socket ? oldestSilent : (oldestTokenless ?? socket)).destroy();
  });
  server.on("request", (req) => heard(req.socket as Socket));
  server.on("upgrade", (req) => heard(req.socket as Socket));
  return {
    trust(socket) {
      heard(socket);
      tokenless.delete(socket);
    },
  };
}
