/**
 * The `Host` and `Origin` checks every loopback server of this tool makes (the hub and the
 * `proxy --listen` front): a browser page elsewhere can reach 127.0.0.1, so a request must name
 * this server by its loopback address (defeats DNS rebinding) and, when it carries an `Origin`,
 * come from this server's own pages.
 */

/** Whether `host` (a request's `Host` header) is `127.0.0.1:PORT` or `localhost:PORT` (any case). */
export function isLoopbackHost(host: string | undefined, port: number): boolean {
  const h = host?.toLowerCase();
  return h === `127.0.0.1:${port}` || h === `localhost:${port}`;
}

/** Whether `origin` (a request's `Origin` header) is absent or this server's own `http://` loopback origin. */
export function isOwnOrigin(origin: string | undefined, port: number): boolean {
  if (origin === undefined) return true;
  const o = origin.toLowerCase();
  return o === `http://127.0.0.1:${port}` || o === `http://localhost:${port}`;
}
