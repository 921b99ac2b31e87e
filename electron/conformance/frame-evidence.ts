/**
 * Finds the frames a failure names (`FrameRef`: a request by connection and JSON-RPC id, with its
 * answer; or the user message updates of a messageId) in a case's joined trace, so a reason can
 * say `#2 id 3 (seq 40, 44)` and a TCK report can carry their exact text.
 */

import type { EvidenceFrame } from "../../shared/conformance/conformance-result.js";
import { parseJsonObject } from "../../shared/protocol/json-object.js";
import { isUserMessageUpdate } from "../../shared/protocol/user-message-updates.js";
import { readTrace } from "../trace/trace-reader.js";
import type { FrameRef } from "./case-outcome.js";

/** One ref and the frames found for it. */
export interface ResolvedRef {
  readonly ref: FrameRef;
  readonly frames: readonly EvidenceFrame[];
}

function matches(ref: FrameRef, dir: string, msg: Record<string, unknown>): boolean {
  if ("id" in ref) {
    if (msg.id !== ref.id) return false;
    // The suite's request, and the agent's answer to it (not a request the agent sent with the same id).
    return dir === "client->agent" ? typeof msg.method === "string" : msg.method === undefined;
  }
  if (dir !== "agent->client" || msg.method !== "session/update") return false;
  const update = (msg.params as { update?: { sessionUpdate?: unknown; messageId?: unknown } } | undefined)
    ?.update;
  return isUserMessageUpdate(update?.sessionUpdate) && update?.messageId === ref.messageId;
}

/** The frames of `refs` in `traceFile`, in trace order per ref; an unreadable trace gives none. */
export async function resolveFrames(traceFile: string, refs: readonly FrameRef[]): Promise<ResolvedRef[]> {
  const found = refs.map((ref) => ({ ref, frames: [] as EvidenceFrame[] }));
  if (refs.length === 0) return found;
  try {
    for await (const ev of readTrace(traceFile)) {
      if (ev.kind !== "record" || ev.record.type !== "frame" || ev.record.encoding === "base64") continue;
      const r = ev.record;
      const msg = parseJsonObject(r.raw);
      if (!msg) continue;
      for (const entry of found) {
        if (entry.ref.conn === r.conn && matches(entry.ref, r.dir, msg))
          entry.frames.push({ seq: r.seq, conn: r.conn, dir: r.dir, ts: r.ts, raw: r.raw });
      }
    }
  } catch {
    // No trace: the reason names the frames without their seq.
  }
  return found;
}

/** `#2 id 3 (seq 40, 44)`, `#1 user message m-1 (seq 12)`: the refs as a reason names them. */
export function describeFrames(resolved: readonly ResolvedRef[]): string {
  return resolved
    .map(({ ref, frames }) => {
      const what = "id" in ref ? `#${ref.conn} id ${ref.id}` : `#${ref.conn} user message ${ref.messageId}`;
      return frames.length > 0 ? `${what} (seq ${frames.map((f) => f.seq).join(", ")})` : what;
    })
    .join(", ");
}
