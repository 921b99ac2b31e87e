/**
 * PROVISIONAL wire format between the browser renderer and the hub's WebSocket, until the hub's
 * own `shared/hub` protocol is merged; then this file maps to it and nothing else changes.
 * Client → hub: `subscribe {fromSeq}`, `invoke {id, op, args}`.
 * Hub → client: `batch {batch}`, `result {id, ok, value | error}`.
 * Authentication: the per-run token as the `token` query parameter of the socket URL; the hub
 * closes the socket with code 4401 when it is wrong.
 */
import type { EventBatch } from "../../shared/app/app-event.js";
import type { OperationName } from "../../shared/app/operation.js";

/** A message the renderer sends to the hub. */
export type ClientMessage =
  | { readonly type: "subscribe"; readonly fromSeq: number }
  | { readonly type: "invoke"; readonly id: number; readonly op: OperationName; readonly args: unknown };

/** A message the hub sends to the renderer. */
export type HubMessage =
  | { readonly type: "batch"; readonly batch: EventBatch }
  | { readonly type: "result"; readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly type: "result"; readonly id: number; readonly ok: false; readonly error: string };

/** Close code the hub uses for a missing or wrong token (4000-4999 are application codes). */
export const CLOSE_UNAUTHORIZED = 4401;

/** Path of the hub's WebSocket endpoint. */
export const HUB_SOCKET_PATH = "/ws";

/** The socket URL for a page served by the hub at `pageUrl`, carrying `token`. */
export function hubSocketUrl(pageUrl: string, token: string): string {
  const page = new URL(pageUrl);
  const url = new URL(HUB_SOCKET_PATH, page);
  url.protocol = page.protocol === "https:" ? "wss:" : "ws:";
  url.search = new URLSearchParams({ token }).toString();
  url.hash = "";
  return url.toString();
}

/** Parses one hub message; undefined for anything that is not one (ignored, never thrown). */
export function parseHubMessage(data: unknown): HubMessage | undefined {
  if (typeof data !== "string") return undefined;
  let v: unknown;
  try {
    v = JSON.parse(data);
  } catch {
    return undefined;
  }
  if (typeof v !== "object" || v === null) return undefined;
  const m = v as Record<string, unknown>;
  if (m.type === "batch" && typeof m.batch === "object" && m.batch !== null) {
    const b = m.batch as Record<string, unknown>;
    if (Array.isArray(b.events)) return { type: "batch", batch: { events: b.events, gap: b.gap === true } };
    return undefined;
  }
  if (m.type === "result" && typeof m.id === "number") {
    if (m.ok === true) return { type: "result", id: m.id, ok: true, value: m.value };
    return { type: "result", id: m.id, ok: false, error: typeof m.error === "string" ? m.error : "failed" };
  }
  return undefined;
}
