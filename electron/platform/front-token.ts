/**
 * The credential of a remote front (`proxy --listen`): every connection spawns an agent, so every
 * request must carry `Authorization: Bearer <token>`. The token is random per run, or given by the
 * process that started the front through `ACP_RETRY_INSPECTOR_LISTEN_TOKEN` (an environment
 * variable, never argv: other users can read argv with `ps`). Clients find it in that same variable
 * or in the 0600 file the front writes next to its trace (`<trace>.token`).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** The environment variable that gives a front its token (and the demo client the token to send). */
export const FRONT_TOKEN_ENV = "ACP_RETRY_INSPECTOR_LISTEN_TOKEN";

/** A fresh random token: 32 bytes, base64url. */
export function newFrontToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Where a front with trace `tracePath` writes its token: `<trace>.token`. */
export function tokenFilePath(tracePath: string): string {
  return `${tracePath}.token`;
}

/** The `Authorization` header value a client sends. */
export function bearer(token: string): string {
  return `Bearer ${token}`;
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

/** Whether an `Authorization` header carries `token` as a Bearer credential; compared in constant time. */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const given = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? "")?.[1];
  // Digests have one length whatever the input, so the comparison takes the same time for every guess.
  const same = timingSafeEqual(digest(given ?? ""), digest(token));
  return given !== undefined && same;
}
