import { describe, expect, it } from "vitest";
import { mixedTrace } from "../analyzer/testing/mixed-trace.js";
import { TraceScript } from "../analyzer/testing/trace-script.js";
import type { TraceHeader } from "../trace/record.js";
import type { SpanDescription, SpanOp } from "./span-description.js";
import { keyHash } from "./span-mapping.js";
import { TraceSpans } from "./trace-spans.js";

const C2A = "client->agent" as const;
const A2C = "agent->client" as const;
const S = "sess-1";
const KEY = "0f0e7a52-5b7e-4a44-9d2c-6a3c1d2e9f10";

function run(
  t: TraceScript,
  includePrompts = false,
  header: TraceHeader | null = null,
  analyzeEveryFrame = false,
): SpanOp[] {
  const spans = new TraceSpans(header, { includePrompts }, analyzeEveryFrame);
  const ops: SpanOp[] = [];
  for (const r of t.records) {
    spans.ingest(r);
    ops.push(...spans.take());
  }
  ops.push(...spans.finish());
  return ops;
}

/** As the tap's sink feeds it: `skipNow` first while nothing is held, else held and taken every `batch` records. */
function runLikeTheTap(t: TraceScript, batch: number): { ops: SpanOp[]; skipped: number } {
  const spans = new TraceSpans(null, { includePrompts: false });
  const ops: SpanOp[] = [];
  let held: typeof t.records = [];
  let skipped = 0;
  const drain = () => {
    for (const r of held) spans.ingest(r);
    held = [];
    ops.push(...spans.take());
  };
  for (const r of t.records) {
    if (held.length === 0 && spans.skipNow(r)) {
      skipped++;
      continue;
    }
    held.push(r);
    if (held.length >= batch) drain();
  }
  drain();
  ops.push(...spans.finish());
  return { ops, skipped };
}

function spans(ops: SpanOp[]): Array<{ parent: number | null; span: SpanDescription }> {
  return ops.flatMap((o) => (o.op === "span" ? [{ parent: o.parent, span: o.span }] : []));
}

describe("TraceSpans", () => {
  it("exports a keyed retry after a dropped answer as one root with two attempts, deduplicated", () => {
    const t = new TraceScript()
      .open(1)
      .prompt(1, 1, S, "deploy it", KEY)
      .inserted(1, 1, "m1", { dropped: true })
      .close(1)
      .open(2)
      .prompt(2, 7, S, "deploy it", KEY)
      .inserted(2, 7, "m1");
    const ops = run(t);
    const open = ops.find((o) => o.op === "open");
    const close = ops.find((o) => o.op === "close");
    if (open?.op !== "open" || close?.op !== "close") throw new Error("no root span");
    expect(open.span.name).toBe("invoke_agent");
    expect(open.span.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "gen_ai.conversation.id": S,
      "acp.session.id": S,
      "acp.idempotency_key.status": "valid",
      "acp.idempotency_key.sha1": keyHash(KEY),
      "acp.retry_class": "keyed",
    });
    expect(JSON.stringify(ops)).not.toContain(KEY);
    expect(JSON.stringify(ops)).not.toContain("deploy it");
    expect(close.attributes).toMatchObject({
      "acp.verdict": "deduplicated",
      "acp.verdict.severity": "ok",
      "acp.inserts": 1,
      "acp.attempts": 2,
      "acp.settled": true,
      "acp.message_id": "m1",
    });
    const attempts = spans(ops);
    expect(attempts.map((a) => a.parent)).toEqual([open.ref, open.ref]);
    expect(attempts.map((a) => a.span.attributes)).toMatchObject([
      {
        "rpc.system.name": "jsonrpc",
        "rpc.method": "session/prompt",
        "jsonrpc.request.id": "1",
        "jsonrpc.protocol.version": "2.0",
        "acp.connection": 1,
        "acp.origin": "client",
        "acp.outcome": "dropped",
        "acp.message_id": "m1",
      },
      { "jsonrpc.request.id": "7", "acp.connection": 2, "acp.outcome": "inserted", "acp.message_id": "m1" },
    ]);
    expect(ops.indexOf(close)).toBeGreaterThan(ops.indexOf(open));
    expect(close.endTime).toBeGreaterThanOrEqual(open.span.startTime);
  });

  it("keeps a keyed submission open after an error, and settles it on the retry's insert", () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "hi", KEY)
      .error(1, 1, -32603, "internal")
      .prompt(1, 2, S, "hi", KEY)
      .inserted(1, 2, "m9");
    const spans = new TraceSpans(null, { includePrompts: false });
    const [p1, e1, p2, ok] = t.records;
    for (const r of [p1, e1]) if (r) spans.ingest(r);
    const first = spans.take();
    expect(first.map((o) => o.op)).toEqual(["open", "span"]);
    const errored = first[1];
    if (errored?.op !== "span") throw new Error("no attempt span");
    expect(errored.span.status.code).toBe("error");
    expect(errored.span.attributes).toMatchObject({
      "error.type": "-32603",
      "rpc.response.status_code": "-32603",
    });
    for (const r of [p2, ok]) if (r) spans.ingest(r);
    const second = spans.take();
    expect(second.map((o) => o.op)).toEqual(["span", "close"]);
    expect(second[1]).toMatchObject({
      attributes: { "acp.verdict": "retried-after-error", "acp.inserts": 1 },
    });
    expect(spans.finish()).toEqual([]);
  });

  it("puts an Agent exit on the open submission and closes it unsettled at the trace's end", () => {
    const t = new TraceScript().spawn(42).open(1).prompt(1, 1, S, "hi", KEY).exit(42, null, "SIGKILL");
    const ops = run(t);
    const event = ops.find((o) => o.op === "event");
    expect(event).toMatchObject({
      event: { name: "acp.agent.exit", attributes: { "acp.agent.pid": 42, "acp.agent.signal": "SIGKILL" } },
    });
    const close = ops.find((o) => o.op === "close");
    expect(close).toMatchObject({ attributes: { "acp.settled": false, "acp.verdict": "unresolved" } });
    expect(spans(ops)[0]?.span.attributes).toMatchObject({ "acp.outcome": "lost" });
  });

  it("exports an attempt still pending at the trace's end as pending", () => {
    const ops = run(new TraceScript().prompt(1, 1, S, "hi", KEY));
    expect(spans(ops)[0]?.span.attributes["acp.outcome"]).toBe("pending");
    expect(ops.find((o) => o.op === "close")).toMatchObject({
      attributes: { "acp.settled": false, "acp.verdict": "pending" },
    });
  });

  it("exports other requests with their retry class, nested under the prompt they served", () => {
    const t = new TraceScript()
      .request(1, C2A, 0, "session/new", { cwd: "/", mcpServers: [] })
      .result(1, A2C, 0, { sessionId: S })
      .prompt(1, 1, S, "read it", KEY)
      .request(1, A2C, 5, "fs/read_text_file", { sessionId: S, path: "/a" })
      .result(1, C2A, 5, { content: "x" })
      .inserted(1, 1, "m1");
    const ops = run(t);
    const open = ops.find((o) => o.op === "open");
    const byName = new Map(spans(ops).map((s) => [s.span.name, s]));
    expect(byName.get("session/new")).toMatchObject({
      parent: null,
      span: {
        kind: "client",
        attributes: {
          "acp.retry_class": "duplicating",
          "acp.created_session.id": S,
          "acp.outcome": "answered",
        },
      },
    });
    expect(byName.get("fs/read_text_file")).toMatchObject({
      parent: open?.op === "open" ? open.ref : -1,
      span: { attributes: { "acp.retry_class": "safe", "acp.direction": A2C, "jsonrpc.request.id": "5" } },
    });
  });

  it("exports the prompt preview and names the root after the tap only when asked", () => {
    const t = new TraceScript().prompt(1, 1, S, "secret plan", KEY).inserted(1, 1, "m1");
    const header = { ...t.header(), name: "demo-agent @ repo" };
    const withPrompts = run(t, true, header).find((o) => o.op === "open");
    expect(withPrompts).toMatchObject({
      span: {
        name: "invoke_agent demo-agent @ repo",
        attributes: { "acp.prompt.preview": "secret plan", "gen_ai.agent.name": "demo-agent @ repo" },
      },
    });
    expect(JSON.stringify(run(t, false, header))).not.toContain("secret plan");
  });

  it("gives a fault with no submission open a span of its own", () => {
    const t = new TraceScript().record({
      type: "fault",
      action: "kill-agent",
      ruleId: "r1",
      detail: "by test",
    });
    const [only] = spans(run(t));
    expect(only?.span).toMatchObject({
      name: "acp.fault",
      attributes: {
        "acp.fault.action": "kill-agent",
        "acp.fault.rule_id": "r1",
        "acp.fault.detail": "by test",
      },
    });
  });

  it("plans the same spans whether or not it skips the Agent's notifications", () => {
    for (const seed of [1, 2, 3, 4, 5]) {
      const t = mixedTrace(400, seed);
      const everyFrame = run(t, false, null, true);
      expect(everyFrame.length).toBeGreaterThan(400);
      expect(run(t)).toEqual(everyFrame);
      // Taking the skippable frames at once, as the tap's sink does, plans the same spans.
      const tap = runLikeTheTap(t, 1);
      expect(tap.skipped).toBeGreaterThan(20);
      expect(tap.ops).toEqual(everyFrame);
    }
  });

  it("still sees a key leaked in a streamed chunk, and a user message that names a messageId", () => {
    const t = new TraceScript()
      .prompt(1, 1, S, "hi", KEY)
      .notify(1, A2C, "session/update", {
        sessionId: S,
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `key is ${KEY}!` } },
      })
      .userMessage(1, S, "m1")
      .inserted(1, 1, "m1");
    const close = run(t).find((o) => o.op === "close");
    expect(close).toMatchObject({ attributes: { "acp.verdict": "key-leaked", "acp.message_id": "m1" } });
    expect(run(t)).toEqual(run(t, false, null, true));
    // The chunk that shows the key is not taken at once (it is analyzed), nor the user message.
    expect(runLikeTheTap(t, 1)).toEqual({ ops: run(t, false, null, true), skipped: 0 });
  });

  it("puts a fault on the submission whose frame it dropped, even when that frame settled it", () => {
    const t = new TraceScript()
      .prompt(1, 2, S, "deploy it")
      .inserted(1, 2, "m1", { dropped: true })
      .record({ type: "fault", action: "drop-response", ruleId: "cli-1", conn: 1, frameSeq: 2 });
    const ops = run(t);
    expect(ops.map((o) => o.op)).toEqual(["open", "span", "event", "close"]);
    expect(ops[2]).toMatchObject({ event: { name: "acp.fault", attributes: { "acp.fault.frame_seq": 2 } } });
  });
});
