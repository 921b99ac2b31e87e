/** Trace files for the sequence view e2e test, written with the analyzer's TraceScript. */
import { TraceScript } from "../../shared/analyzer/testing/trace-script.js";
import { encodeHeader, encodeRecord } from "../../shared/trace/codec.js";
import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";

/** An error message that would run script if anything rendered wire text as HTML. */
export const HOSTILE_MESSAGE = "<script>window.__pwned=1</script>";
const S = "sess-1";
const KEY = "5f0c7b1e-8a44-4c1e-9d0b-2f3a4b5c6d7e";
const C2A = "client->agent" as const;
const A2C = "agent->client" as const;

/**
 * A keyed prompt retried across a connection break and an agent restart: a dropped request, a
 * dropped response with its fault record, a burst of chunks, an idle gap and a hostile error text.
 */
export function retryStory(): string {
  const t = new TraceScript(1_700_000_000_000, 7)
    .spawn(100)
    .open(1)
    .request(1, C2A, 0, "initialize", { protocolVersion: 2 })
    .result(1, A2C, 0, { protocolVersion: 2 })
    .prompt(1, 1, S, "refactor the billing module", KEY)
    .userMessage(1, S, "m1", "refactor the billing module");
  for (let i = 0; i < 12; i++) {
    t.notify(1, A2C, "session/update", {
      sessionId: S,
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `part ${i}` } },
    });
  }
  t.close(1, "client disconnected").exit(100, null, "SIGKILL").wait(3200).spawn(101).open(2);
  t.prompt(2, 1, S, "refactor the billing module", KEY, { dropped: true });
  const droppedSeq = t.records.length;
  t.prompt(2, 2, S, "refactor the billing module", KEY)
    .inserted(2, 2, "m1", { dropped: true })
    .prompt(2, 4, S, "refactor the billing module", KEY)
    .inserted(2, 4, "m1")
    .request(2, C2A, 3, "session/set_mode", { sessionId: S, modeId: "x" })
    .error(2, 3, -32602, HOSTILE_MESSAGE);
  return jsonl(t.header(), withFaultAfter(t.records, droppedSeq, "drop-request"));
}

/** Inserts the fault record that explains frame `frameSeq`, right after it, renumbering later records. */
function withFaultAfter(records: readonly TraceRecord[], frameSeq: number, action: string): TraceRecord[] {
  const out: TraceRecord[] = [];
  for (const r of records) {
    out.push({ ...r, seq: out.length + 1 });
    if (r.seq === frameSeq)
      out.push({ type: "fault", seq: out.length + 1, ts: r.ts, action, frameSeq, ruleId: "r1" });
  }
  return out;
}

function jsonl(header: TraceHeader, records: readonly TraceRecord[]): string {
  return encodeHeader(header) + records.map(encodeRecord).join("");
}

/** `pairs` prompt/answer pairs on one connection, for the virtualisation check. */
export function longTrace(pairs: number): string {
  const t = new TraceScript();
  for (let i = 0; i < pairs; i++)
    t.prompt(1, i, S, `prompt ${i}`, `key-${i}-0000000000`).inserted(1, i, `m${i}`);
  return t.jsonl();
}
