/**
 * The live half of the UI bench: a tap's hub link (the code the proxy uses) sending a realistic
 * mix of records at a fixed rate, remembering when it sent each one so the reader can tell how far
 * behind the UI is.
 */
import type { HubLink } from "../../electron/tap/hub-link/hub-link.js";
import type { TraceRecord } from "../../shared/trace/record.js";

/** A record before the producer stamps its seq and ts. */
type Unstamped = TraceRecord extends infer R
  ? R extends TraceRecord
    ? Omit<R, "seq" | "ts">
    : never
  : never;

/** Generates the records of turn after turn: a keyed prompt, its answer, updates, a file read. */
export function* liveRecords(): Generator<Unstamped> {
  yield { type: "agent-spawn", pid: 4242, command: ["bench-agent"] };
  yield { type: "conn-open", conn: 1, transport: "stdio" };
  let id = 1;
  for (let turn = 0; ; turn++) {
    const sessionId = `sess-${turn % 8}`;
    const frame = (dir: "client->agent" | "agent->client", m: object) =>
      ({ type: "frame", conn: 1, dir, raw: JSON.stringify({ jsonrpc: "2.0", ...m }) }) as const;
    const promptId = id++;
    yield frame("client->agent", {
      id: promptId,
      method: "session/prompt",
      params: {
        sessionId,
        idempotencyKey: `live-key-${turn}`,
        prompt: [{ type: "text", text: `turn ${turn} ${"x".repeat(120)}` }],
      },
    });
    yield frame("agent->client", { id: promptId, result: { messageId: `msg-${turn}` } });
    for (let c = 0; c < 14; c++) {
      yield frame("agent->client", {
        method: "session/update",
        params: {
          sessionId,
          update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "y".repeat(180) } },
        },
      });
    }
    if (turn % 4 === 0) {
      yield frame("agent->client", {
        id: 10_000 + turn,
        method: "fs/read_text_file",
        params: { sessionId, path: `/w/f${turn}.ts` },
      });
      yield frame("client->agent", { id: 10_000 + turn, result: { content: "z".repeat(150) } });
    }
  }
}

/** Sends `rate` records a second for `seconds` through `link`; `sentAt[n]` is when record n (1-based) left. */
export async function produce(
  link: HubLink,
  rate: number,
  seconds: number,
  sentAt: number[],
): Promise<number> {
  const gen = liveRecords();
  const start = Date.now();
  let sent = 0;
  while (Date.now() - start < seconds * 1000) {
    const due = Math.floor(((Date.now() - start) / 1000) * rate);
    while (sent < due) {
      const now = Date.now();
      const next = gen.next().value as Unstamped;
      sent++;
      link.send({ ...next, seq: sent, ts: now } as TraceRecord);
      sentAt[sent] = now;
    }
    await new Promise((r) => setTimeout(r, 5));
  }
  return sent;
}
