import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

/** The only address the hub ever binds. */
export const HUB_HOST = "127.0.0.1";

/** A fresh random hub token: 32 bytes, base64url (43 characters). */
export function newHubToken(): string {
  return randomBytes(32).toString("base64url");
}

/** The name of the cookie that carries the token for a browser UI on this port. */
export function tokenCookieName(port: number): string {
  return `acp-ri-token-${port}`;
}

/**
 * Constant-time token comparison. Both sides are hashed first so the comparison takes the same
 * time whatever the length of the candidate (timingSafeEqual itself needs equal lengths).
 */
export function tokenMatches(expected: string, candidate: string | undefined): boolean {
  if (candidate === undefined) return false;
  const a = createHash("sha256").update(expected, "utf8").digest();
  const b = createHash("sha256").update(candidate, "utf8").digest();
  return timingSafeEqual(a, b);
}

/** Loopback names a browser may put in `Host` for this hub (anything else may be DNS rebinding). */
function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
}

/** Origins that are the hub's own pages. */
function allowedOrigins(port: number): Set<string> {
  return new Set([`http://127.0.0.1:${port}`, `http://localhost:${port}`]);
}

function cookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** Where a request carried its token: `Authorization: Bearer`, `?token=`, or the hub's cookie. */
export function presentedToken(req: IncomingMessage, url: URL, port: number): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ")) return auth.slice(7).trim();
  const q = url.searchParams.get("token");
  if (q !== null) return q;
  return cookie(req, tokenCookieName(port));
}

/** Why a request was refused. */
export interface Refusal {
  readonly status: 401 | 403;
  readonly reason: string;
}

/**
 * Checks one HTTP request or WebSocket upgrade: `Host` must be this hub on loopback (defeats DNS
 * rebinding), `Origin`, when present, must be the hub's own, and the token must match.
 */
export function checkRequest(
  req: IncomingMessage,
  url: URL,
  port: number,
  token: string,
): Refusal | undefined {
  const host = req.headers.host?.toLowerCase();
  if (!host || !allowedHosts(port).has(host))
    return { status: 403, reason: "Host is not this hub on loopback" };
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedOrigins(port).has(origin.toLowerCase()))
    return { status: 403, reason: "Origin is not this hub" };
  if (!tokenMatches(token, presentedToken(req, url, port)))
    return { status: 401, reason: "missing or wrong token" };
  return undefined;
}
