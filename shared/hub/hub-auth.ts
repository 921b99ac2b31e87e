/**
 * How a client shows the hub its per-run token. No ambient credentials: the token is never in a
 * cookie or a URL query. HTTP calls send `Authorization: Bearer <token>`; a browser's WebSocket,
 * which cannot set headers, offers it as the subprotocol `acp-ri.token.<token>` next to the fixed
 * `acp-ri.v1`, and the hub answers with `acp-ri.v1` only. The UI link carries the token in its
 * fragment (`/#token=…`), which a browser never sends to any server.
 */

/** The fixed WebSocket subprotocol of the hub's wire; the only one the hub ever answers with. */
export const HUB_SUBPROTOCOL = "acp-ri.v1";

/** Prefix of the subprotocol that carries the token from a browser. */
export const TOKEN_SUBPROTOCOL_PREFIX = "acp-ri.token.";

/** The subprotocols a browser offers to open a hub WebSocket with `token`. */
export function socketProtocols(token: string): string[] {
  return [HUB_SUBPROTOCOL, `${TOKEN_SUBPROTOCOL_PREFIX}${token}`];
}

/** The UI link of the hub at `origin` (`http://127.0.0.1:PORT`): the token in the fragment. */
export function uiLink(origin: string, token: string): string {
  return `${origin}/#token=${encodeURIComponent(token)}`;
}

/** The token in a URL fragment (`#token=…`; other fragment parts kept verbatim), and the fragment without it. */
export function takeFragmentToken(hash: string): { token: string | undefined; rest: string } {
  let token: string | undefined;
  const kept: string[] = [];
  for (const part of hash.replace(/^#/, "").split("&")) {
    if (part.startsWith("token=")) {
      try {
        token = decodeURIComponent(part.slice("token=".length));
      } catch {
        token = undefined;
      }
    } else if (part !== "") kept.push(part);
  }
  return { token: token === "" ? undefined : token, rest: kept.length === 0 ? "" : `#${kept.join("&")}` };
}
