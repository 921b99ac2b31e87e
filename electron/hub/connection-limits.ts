import type { Server } from "node:http";
import type { Socket } from "node:net";

/** How many connections the hub holds, and how long one may stay silent. */
export interface ConnectionLimits {
  /** Most TCP connections open at once, WebSockets included. */
  readonly maxConnections: number;
  /** A connection must have sent a complete request (headers) within this many ms, or it is closed. */
  readonly headersTimeoutMs: number;
}

/**
 * Caps the TCP connections of `server` and closes those that never send a request. Over the
 * cap, the oldest connection that has not sent a request yet is destroyed, not the new one: a
 * flood of idle sockets (which need no token) then cannot starve an authenticated client, whose
 * request arrives right after it connects. Only when every other connection is busy is the new
 * one destroyed. (`server.maxConnections` would refuse the newcomer, which is the starvation.)
 */
export function limitConnections(server: Server, limits: ConnectionLimits): void {
  const open = new Set<Socket>();
  /** Connections that have not sent a complete request yet, oldest first, with their deadline. */
  const silent = new Map<Socket, NodeJS.Timeout>();
  const heard = (socket: Socket) => {
    clearTimeout(silent.get(socket));
    silent.delete(socket);
  };
  // Node's own header deadline, for later requests on a kept-alive connection (checked coarsely).
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = Math.max(server.requestTimeout, limits.headersTimeoutMs);
  server.on("connection", (socket: Socket) => {
    open.add(socket);
    silent.set(socket, setTimeout(() => socket.destroy(), limits.headersTimeoutMs).unref());
    socket.once("close", () => {
      heard(socket);
      open.delete(socket);
    });
    if (open.size <= limits.maxConnections) return;
    // the new one is the newest silent connection, so it goes only when no other is silent
    (silent.keys().next().value as Socket).destroy();
  });
  server.on("request", (req) => heard(req.socket as Socket));
  server.on("upgrade", (req) => heard(req.socket as Socket));
}
