/**
 * Picks the bridge for the shell the page runs in: the preload's API in Electron, otherwise the
 * hub that served the page, with the token from `?token=`. The token is then removed from the
 * address bar (history.replaceState) and kept in sessionStorage; without one the cookie the hub set
 * when it served the page with its token authenticates (the hub serves no page to anyone else).
 */
import type { InspectorApi } from "../../shared/ops/inspector-api.js";
import { createElectronBridge } from "./electron-bridge.js";
import { createHubBridge } from "./hub-bridge.js";
import type { InspectorBridge } from "./inspector-bridge.js";

const TOKEN_KEY = "acp-inspector-token";

/** The bridge for this page. */
export type BridgeChoice = { readonly bridge: InspectorBridge };

/** Reads the token from `pageUrl`'s query, or undefined; returns the URL without it. */
export function takeToken(pageUrl: string): { token: string | undefined; cleanUrl: string } {
  const url = new URL(pageUrl);
  const token = url.searchParams.get("token") ?? undefined;
  url.searchParams.delete("token");
  return { token: token === "" ? undefined : token, cleanUrl: url.toString() };
}

/** Chooses and starts the bridge for this page. */
export function chooseBridge(win: Window & { acpInspector?: InspectorApi }): BridgeChoice {
  if (win.acpInspector) return { bridge: createElectronBridge(win.acpInspector) };
  const { token: fromUrl, cleanUrl } = takeToken(win.location.href);
  if (fromUrl !== undefined) {
    win.sessionStorage.setItem(TOKEN_KEY, fromUrl);
    win.history.replaceState(win.history.state, "", cleanUrl);
  }
  const token = fromUrl ?? win.sessionStorage.getItem(TOKEN_KEY) ?? undefined;
  return { bridge: createHubBridge({ pageUrl: win.location.href, token }) };
}
