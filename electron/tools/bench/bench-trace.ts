import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { encodeHeader, encodeRecord } from "../../../shared/trace/codec.js";
import {
  type Direction,
  TRACE_FORMAT,
  TRACE_FORMAT_VERSION,
  type TraceRecord,
} from "../../../shared/trace/record.js";

const WORDS =
  "the agent reads files runs tests and edits code while the user waits for a careful answer".split(" ");

/** Filler prose of `length` characters, the same for the same `seed` (the benches' prompt and chunk text). */
export function benchText(seed: number, length: number): string {
  let s = "";
  for (let i = seed; s.length < length; i++) s += `${WORDS[(i * 7) % WORDS.length]} `;
  return s.slice(0, length);
}

/**
 * Writes a realistic trace of about `frames` frames (~300-byte frames): keyed prompts with user_message,
 * agent_message_chunk and state_update notifications, permission and fs requests from the Agent,
 * session/list from the Client, and every 50th turn a lost response retried on a new connection.
 * Resolves to the number of frames written.
 */
export async function writeBenchTrace(path: string, frames: number): Promise<number> {
  const out = createWriteStream(path, { encoding: "utf8", highWaterMark: 1 << 20 });
  let seq = 0;
  let ts = 1_700_000_000_000;
  let written = 0;
  let buffer = "";
  let conn = 1;
  const push = async (r: TraceRecord) => {
    buffer += encodeRecord(r);
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, "drain");
      buffer = "";
    }
  };
  const frame = async (dir: Direction, message: object) => {
    written++;
    ts += 0.25;
    await push({ type: "frame", seq: ++seq, ts, conn, dir, raw: JSON.stringify(message) });
  };
  const update = (sessionId: string, u: object) =>
    frame("agent->client", { jsonrpc: "2.0", method: "session/update", params: { sessionId, update: u } });

  buffer += encodeHeader({
    format: TRACE_FORMAT,
    version: TRACE_FORMAT_VERSION,
    tool: "acp-retry-inspector bench",
    startedAt: new Date(ts).toISOString(),
  });
  await push({ type: "agent-spawn", seq: ++seq, ts, pid: 4242, command: ["bench-agent"] });
  await push({ type: "conn-open", seq: ++seq, ts, conn, transport: "stdio" });
  await frame("client->agent", {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: 2 },
  });
  await frame("agent->client", { jsonrpc: "2.0", id: 0, result: { protocolVersion: 2 } });
  let id = 1;
  let agentId = 1;
  for (let turn = 0; written < frames; turn++) {
    const sessionId = `sess-${turn % 8}`;
    const key = randomUUID();
    const prompt = { sessionId, prompt: [{ type: "text", text: benchText(turn, 160) }], idempotencyKey: key };
    const messageId = `msg-${turn}`;
    const promptId = id++;
    await frame("client->agent", { jsonrpc: "2.0", id: promptId, method: "session/prompt", params: prompt });
    await update(sessionId, { sessionUpdate: "user_message", messageId, content: prompt.prompt });
    if (turn % 50 === 49) {
      await push({ type: "conn-close", seq: ++seq, ts, conn, reason: "EOF" });
      conn++;
      id = 1;
      await push({ type: "conn-open", seq: ++seq, ts, conn, transport: "stdio" });
      await frame("client->agent", {
        jsonrpc: "2.0",
        id: id++,
        method: "session/resume",
        params: { sessionId },
      });
      await frame("agent->client", { jsonrpc: "2.0", id: id - 1, result: {} });
      const retryId = id++;
      await frame("client->agent", { jsonrpc: "2.0", id: retryId, method: "session/prompt", params: prompt });
      await frame("agent->client", { jsonrpc: "2.0", id: retryId, result: { messageId } });
    } else {
      await frame("agent->client", { jsonrpc: "2.0", id: promptId, result: { messageId } });
    }
    await update(sessionId, { sessionUpdate: "state_update", state: "running" });
    for (let c = 0; c < 12; c++) {
      await update(sessionId, {
        sessionUpdate: "agent_message_chunk",
        messageId: `a-${turn}`,
        content: { type: "text", text: benchText(turn + c, 190) },
      });
    }
    if (turn % 4 === 0) {
      const aid = agentId++;
      await frame("agent->client", {
        jsonrpc: "2.0",
        id: aid,
        method: "fs/read_text_file",
        params: { sessionId, path: `/work/project/src/file-${turn % 97}.ts` },
      });
      await frame("client->agent", { jsonrpc: "2.0", id: aid, result: { content: benchText(turn, 180) } });
    }
    if (turn % 10 === 0) {
      await frame("client->agent", { jsonrpc: "2.0", id: id++, method: "session/list", params: {} });
      await frame("agent->client", {
        jsonrpc: "2.0",
        id: id - 1,
        result: { sessions: [{ sessionId, cwd: "/work" }] },
      });
    }
    await update(sessionId, { sessionUpdate: "state_update", state: "idle", stopReason: "end_turn" });
  }
  out.end(buffer);
  await once(out, "finish");
  return written;
}
