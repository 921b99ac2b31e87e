import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { HUB_SUBPROTOCOL, TOKEN_SUBPROTOCOL_PREFIX } from "../../shared/hub/hub-auth.js";
import { isLoopbackHost, isOwnOrigin } from "../platform/loopback-guard.js";

/** The only address the hub ever binds. */
export const HUB_HOST = "127.0.0.1";

/** A fresh random hub token: 32 bytes, base64url (43 characters). */
export function newHubToken(): string {
  return randomBytes(32).toString("base64url");
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

/** The subprotocols a WebSocket upgrade offers, in order. */
export function offeredProtocols(req: IncomingMessage): string[] {
  const header = req.headers["sec-websocket-protocol"];
  if (typeof header !== "string") return [];
  return header
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
}

/**
 * The token a request presents: `Authorization: Bearer` on any request, or, on a WebSocket upgrade
 * only, the `acp-ri.token.<token>` subprotocol (a browser cannot set headers on a WebSocket). Never
 * a cookie, never the URL.
 */
export function presentedToken(req: IncomingMessage, upgrade: boolean): string | undefined {
  const auth = req.headers.authorization;
  if (auth?.startsWith("Bearer ")) return auth.slice(7).trim();
  if (!upgrade) return undefined;
  const offered = offeredProtocols(req).find((p) => p.startsWith(TOKEN_SUBPROTOCOL_PREFIX));
  return offered?.slice(TOKEN_SUBPROTOCOL_PREFIX.length);
}

/**
 * The subprotocol the hub answers an upgrade with: the fixed `acp-ri.v1` when offered, else none.
 * Never the token's subprotocol, so the token is not echoed back.
 */
export function chosenProtocol(offered: ReadonlySet<string>): string | false {
  return offered.has(HUB_SUBPROTOCOL) ? HUB_SUBPROTOCOL : false;
}

/** Why a request was refused. */
export interface Refusal {
  readonly status: 400 | 401 | 403;
  readonly reason: string;
}

/** What a request asks for: a page or asset of the UI (no data in it), the HTTP API, or a WebSocket. */
export type RequestKind = "static" | "api" | "upgrade";

/** True for the paths of the HTTP API, which always need the token. */
export function isApiPath(pathname: string): boolean {
  return pathname === "/api" || pathname.startsWith("/api/");
}

/**
 * Checks one HTTP request or WebSocket upgrade: `Host` must be this hub on loopback (defeats DNS
 * rebinding), `Origin`, when present, must be the hub's own, no token may sit in the query string
 * (URLs end up in logs, history and Referer), and, for the API and every WebSocket, the token must
 * match. The UI's static files carry no data and need no token.
 */
export function checkRequest(
  req: IncomingMessage,
  url: URL,
  port: number,
  token: string,
  kind: RequestKind,
): Refusal | undefined {
  if (!isLoopbackHost(req.headers.host, port))
    return { status: 403, reason: "Host is not this hub on loopback" };
  if (!isOwnOrigin(req.headers.origin, port)) return { status: 403, reason: "Origin is not this hub" };
  if (url.searchParams.has("token"))
    return {
      status: 400,
      reason:
        "the hub takes no token in the URL query: open the UI link serve printed (http://127.0.0.1:PORT/#token=...), send Authorization: Bearer, or set ACP_RI_TOKEN for the CLI",
    };
  if (kind === "static") return undefined;
  if (!tokenMatches(token, presentedToken(req, kind === "upgrade")))
    return { status: 401, reason: "missing or wrong token" };
  return undefined;
}
