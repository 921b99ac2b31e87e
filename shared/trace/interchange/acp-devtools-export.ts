/**
 * acp-devtools' session export (maksugr/acp-devtools, `packages/core/src/storage/export.ts`,
 * `SessionExport`): one JSON object `{version, session, messages: [{seq, timestamp, direction, kind,
 * raw, ...}]}`. `raw` is the frame's text (kept unchanged as the frame's `raw`; an object there is
 * re-serialised and the header says `exact-bytes` is lacking), `timestamp` epoch milliseconds or ISO
 * 8601, `direction` names the sender (`client_to_agent`, `agent_to_client`, `client->agent`, `to_agent`,
 * `from_agent`, ... case-insensitively). Messages are taken in `seq` order. One connection.
 */

import { isJsonObject } from "../../protocol/json-object.js";
import type { Direction } from "../record.js";
import { type Conversion, convertEntry, isoTime, RecordBuilder, safeJson } from "./conversion.js";

/** The `imported.format` of a converted acp-devtools export. */
export const ACP_DEVTOOLS_EXPORT = "acp-devtools-export";

/** Bound on the messages read from one export (more are named in a note, not read). */
export const MAX_DEVTOOLS_MESSAGES = 5_000_000;

/** The sender of a message from the direction names acp-devtools (and hand-written exports) use. */
export function devtoolsDirection(v: unknown): Direction | null {
  if (typeof v !== "string") return null;
  const d = v.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (CLIENT_SENT.has(d)) return "client->agent";
  if (AGENT_SENT.has(d)) return "agent->client";
  return null;
}

/** Direction names (letters and digits only) of a frame the client sent, and of one the agent sent. */
const CLIENT_SENT = new Set([
  "clienttoagent",
  "clientagent",
  "c2a",
  "ca",
  "toagent",
  "fromclient",
  "outgoing",
  "editortoagent",
  "send",
  "sent",
]);
const AGENT_SENT = new Set([
  "agenttoclient",
  "agentclient",
  "a2c",
  "ac",
  "toclient",
  "fromagent",
  "incoming",
  "agenttoeditor",
  "receive",
  "received",
]);

function epochMs(ts: unknown): number | null {
  if (typeof ts === "number" && Number.isFinite(ts)) return ts;
  if (typeof ts === "string") {
    const ms = /^\d+(\.\d+)?$/.test(ts.trim()) ? Number(ts) : Date.parse(ts);
    return Number.isNaN(ms) ? null : ms;
  }
  return null;
}

/** True when a parsed value has the shape of a `SessionExport`. */
export function isDevtoolsExport(v: unknown): v is Record<string, unknown> & { messages: unknown[] } {
  return isJsonObject(v) && Array.isArray((v as { messages?: unknown }).messages);
}

/** Converts a parsed `SessionExport`. */
export function convertDevtoolsExport(value: unknown): Conversion {
  const b = new RecordBuilder();
  if (!isDevtoolsExport(value)) {
    b.unreadable(0, "the export", "has no messages list", value);
    return b.done({ format: ACP_DEVTOOLS_EXPORT, lacks: [] }, isoTime(0));
  }
  const all = value.messages;
  const messages = all.slice(0, MAX_DEVTOOLS_MESSAGES);
  // `seq` order when every message has a numeric one; else the file's order.
  const seqOf = (m: unknown) => (m && typeof m === "object" ? (m as { seq?: unknown }).seq : undefined);
  const ordered = messages.every((m) => typeof seqOf(m) === "number")
    ? messages
        .map((m, i) => ({ m, i }))
        .sort((a, b) => (seqOf(a.m) as number) - (seqOf(b.m) as number) || a.i - b.i)
    : messages.map((m, i) => ({ m, i }));
  let first: number | null = null;
  let lastTs = 0;
  let rebuilt = false;
  let timeless = 0;
  let opened = false;
  const open = (ts: number) => {
    if (opened) return;
    opened = true;
    b.push({ type: "conn-open", ts, conn: 1, transport: "stdio", peer: "acp-devtools export" });
  };
  // conn: 1, transport: "stdio", peer: "acp-devtools export" });
  for (const { m, i } of ordered) {
    const where = `message ${i + 1}`;
    convertEntry(b, lastTs, where, m, () => {
      if (m === null || typeof m !== "object" || Array.isArray(m)) {
        b.unreadable(lastTs, where, "not an object", m);
        return;
      }
      const e = m as Record<string, unknown>;
      const at = epochMs(e.timestamp);
      if (at === null) timeless++;
      else if (first === null) first = at;
      const ts = at === null ? lastTs : Math.max(lastTs, at);
      lastTs = ts;
      open(ts);
      const dir = devtoolsDirection(e.direction);
      if (!dir) {
        b.unreadable(ts, where, `unknown direction ${safeJson(e.direction).slice(0, 80)}`, m);
        return;
      }
      if (typeof e.raw === "string") b.frame(ts, 1, dir, e.raw);
      else if (e.raw !== null && typeof e.raw === "object") {
        rebuilt = true;
        b.frame(ts, 1, dir, safeJson(e.raw));
      } else b.unreadable(ts, where, '"raw" is neither the frame text nor an object', m);
    });
  }
  if (all.length > messages.length)
    b.unreadable(
      lastTs,
      "the export",
      `has ${all.length} messages; the first ${messages.length} were read`,
      "",
    );
  if (timeless > 0)
    b.problems.push(`${timeless} message(s) without a readable timestamp (kept the previous time)`);
  const lacks = [...(rebuilt ? ["exact-bytes"] : []), ...(first === null ? ["timestamps"] : [])];
  const session = value.session;
  const id =
    session && typeof session === "object" && typeof (session as { id?: unknown }).id !== "undefined"
      ? safeJson((session as { id?: unknown }).id).slice(0, 60)
      : null;
  return b.done({ format: ACP_DEVTOOLS_EXPORT, lacks }, isoTime(first ?? 0), {
    transport: "stdio",
    name: id === null ? "acp-devtools export" : `acp-devtools export ${id}`,
  });
}
