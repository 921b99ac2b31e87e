/**
 * Picks the bridge for the shell the page runs in: the preload's API in Electron, otherwise the
 * hub's WebSocket with the token from `?token=`. The token is then removed from the address bar
 * (history.replaceState) and kept in sessionStorage so a reload of this tab still works.
 */
import type { InspectorApi } from "../../shared/app/inspector-api.js";
import { createElectronBridge } from "./electron-bridge.js";
import { createHubBridge } from "./hub-bridge.js";
import { hubSocketUrl } from "./hub-wire.js";
import type { InspectorBridge } from "./inspector-bridge.js";

const TOKEN_KEY = "acp-inspector-token";

/** A bridge, or the reason the page cannot have one (no token in a browser). */
export type BridgeChoice = { readonly bridge: InspectorBridge } | { readonly problem: "missing-token" };

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
  if (!token) return { problem: "missing-token" };
  return { bridge: createHubBridge({ socketUrl: hubSocketUrl(win.location.href, token) }) };
}
