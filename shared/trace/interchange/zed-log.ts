/**
 * Zed's ACP log pane, "Copy All" (crates/acp_tools/src/acp_tools.rs, `serialize_observed_messages`):
 * a pretty-printed JSON array of `{_direction, _type, id, method, params}`. Zed is the Client, so
 * `outgoing` is client->agent and `incoming` agent->client. `_type` is `request`, `response` or
 * `notification`; a response's `params` holds its result, or the serialised error (`{code, message,
 * data?}`) when it failed, and its `method` is the request's method (or `[unrecognized response]`).
 * There are no timestamps and no bytes: frames are rebuilt as JSON-RPC text, and `ts` is synthetic
 * (1 ms per row from the epoch) so rows keep their order but no time or duration is known.
 */
import type { Direction } from "../record.js";
import { type Conversion, convertEntry, jsonRpcText, RecordBuilder, safeJson } from "./conversion.js";

/** The `imported.format` of a converted Zed log. */
export const ZED_LOG = "zed-log";

const DIRECTIONS: Readonly<Record<string, Direction>> = {
  outgoing: "client->agent",
  incoming: "agent->client",
};

/** An error object as Zed serialises `acp::Error`: numeric code, string message, optional data, nothing else. */
function looksLikeError(v: unknown): boolean {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  return (
    Number.isInteger(o.code) &&
    typeof o.message === "string" &&
    keys.every((k) => k === "code" || k === "message" || k === "data")
  );
}

/** Converts the parsed "Copy All" array. */
export function convertZedLog(entries: readonly unknown[]): Conversion {
  const b = new RecordBuilder();
  b.push({ type: "conn-open", ts: 0, conn: 1, transport: "stdio", peer: "Zed (from its ACP log)" });
  for (const [i, entry] of entries.entries()) {
    const ts = i + 1;
    const where = `entry ${i + 1}`;
    convertEntry(b, ts, where, entry, () => zedEntry(b, ts, where, entry));
  }
  return b.done({ format: ZED_LOG, lacks: ["timestamps", "exact-bytes"] }, new Date(0).toISOString(), {
    transport: "stdio",
    name: "Zed ACP log",
  });
}

/** One entry of the log. */
function zedEntry(b: RecordBuilder, ts: number, where: string, entry: unknown): void {
  {
    const e = entry as Record<string, unknown> | null;
    if (e === null || typeof e !== "object" || Array.isArray(e)) {
      b.unreadable(ts, where, "not an object", entry);
      return;
    }
    const dir = typeof e._direction === "string" ? DIRECTIONS[e._direction] : undefined;
    if (!dir) {
      b.unreadable(ts, where, `unknown _direction ${safeJson(e._direction).slice(0, 80)}`, entry);
      return;
    }
    const params = e.params === null ? undefined : e.params;
    switch (e._type) {
      case "request": {
        b.frame(ts, 1, dir, jsonRpcText({ id: e.id, method: e.method, params }));
        return;
      }
      case "notification": {
        b.frame(ts, 1, dir, jsonRpcText({ method: e.method, params }));
        return;
      }
      case "response": {
        b.frame(
          ts,
          1,
          dir,
          looksLikeError(e.params)
            ? jsonRpcText({ id: e.id, error: e.params })
            : jsonRpcText({ id: e.id, result: e.params ?? null }),
        );
        return;
      }
      default: {
        b.unreadable(ts, where, `unknown _type ${safeJson(e._type).slice(0, 80)}`, entry);
        return;
      }
    }
  }
}
