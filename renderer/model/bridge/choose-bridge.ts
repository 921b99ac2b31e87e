/**
 * Picks the bridge for the shell the page runs in: the preload's API in Electron, otherwise the
 * hub that served the page, with the token from the link's fragment (`/#token=…`, which the
 * browser never sends to a server). The token is removed from the address bar at once
 * (history.replaceState) and kept in this tab's sessionStorage, so a reload still works; it is
 * never put in a cookie or a URL. Without a token there is no bridge: the page says where the
 * right link comes from.
 */
import { takeFragmentToken } from "../../../shared/hub/hub-auth.js";
import type { InspectorApi } from "../../../shared/ops/inspector-api.js";
import { createElectronBridge } from "./electron-bridge.js";
import { createHubBridge } from "./hub-bridge.js";
import type { InspectorBridge } from "./inspector-bridge.js";

const TOKEN_KEY = "acp-inspector-token";

/** The bridge for this page, or why there is none. */
export type BridgeChoice = { readonly bridge: InspectorBridge } | { readonly missingToken: true };

/** Reads the token from `pageUrl`'s fragment, or undefined; returns the URL without it. */
export function takeToken(pageUrl: string): { token: string | undefined; cleanUrl: string } {
  const url = new URL(pageUrl);
  const { token, rest } = takeFragmentToken(url.hash);
  url.hash = rest;
  // `url.hash = ""` still leaves a bare "#" when the URL had one; drop it.
  return { token, cleanUrl: url.toString().replace(/#$/, "") };
}

/** Chooses and starts the bridge for this page. */
export function chooseBridge(win: Window & { acpInspector?: InspectorApi }): BridgeChoice {
  if (win.acpInspector) return { bridge: createElectronBridge(win.acpInspector) };
  const { token: fromUrl, cleanUrl } = takeToken(win.location.href);
  if (fromUrl !== undefined) win.sessionStorage.setItem(TOKEN_KEY, fromUrl);
  if (cleanUrl !== win.location.href) win.history.replaceState(win.history.state, "", cleanUrl);
  // A new link pasted into this tab (a hub restarted on the same port) changes only the fragment,
  // which loads nothing: start over with its token.
  win.addEventListener("hashchange", () => {
    if (takeToken(win.location.href).token !== undefined) win.location.reload();
  });
  const token = fromUrl ?? win.sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  if (!token) return { missingToken: true };
  return { bridge: createHubBridge({ pageUrl: cleanUrl, token }) };
}
