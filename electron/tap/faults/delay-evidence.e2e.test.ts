/**
 * Issue 11, item 5 end to end: a `delay` never erases evidence. A real `proxy` with a real demo
 * agent; the test is the client, and gives up before the delay ends (closes stdin, or stops the tap
 * with SIGTERM, as acpx does after its --timeout). The held frame is in the trace with its bytes
 * from the moment it is held, with its `fault` record; what became of it follows as its own record;
 * the agent's exit is recorded; and `analyze` says the frame was held and never delivered.
 */
import { createInterface } from "node:readline";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Submission } from "../../../shared/analyzer/timeline-model.js";
import type { FaultRecord, FrameRecord, TraceRecord } from "../../../shared/trace/record.js";
import { analyze, demoAgent, exited, Scratch } from "../testing/peers.js";
import { traceRecords, within } from "../testing/proxy-run.js";

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.cleanup());

const KEY = "delay-evidence-key-0001";

/** A stdio tap with `--fault`, the test as its client: initialize, session/new, then one keyed prompt. */
async function promptThroughDelay(fault: string) {
  const trace = scratch.path("delay.jsonl");
  const child = scratch.spawnCli([
    "proxy",
    "--no-hub",
    "--trace",
    trace,
    "--fault",
    fault,
    "--",
    ...demoAgent(scratch, "--turn-ms", "50"),
  ]);
  const answers = new Map<unknown, Record<string, unknown>>();
  let seen: () => void = () => {};
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    const m = JSON.parse(line) as Record<string, unknown>;
    if (m.id !== undefined) answers.set(m.id, m);
    seen();
  });
  const answer = (id: number) =>
    within(
      new Promise<Record<string, unknown>>((resolve) => {
        const check = () => {
          const a = answers.get(id);
          if (a) resolve(a);
        };
        seen = check;
        check();
      }),
      20_000,
      `the answer to ${id}`,
    );
  const send = (m: object) => child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
  send({
    id: 0,
    method: "initialize",
    params: { protocolVersion: 2, info: { name: "t", version: "1" }, capabilities: {} },
  });
  await answer(0);
  send({ id: 1, method: "session/new", params: { cwd: scratch.dir, mcpServers: [] } });
  const sessionId = ((await answer(1)).result as { sessionId: string }).sessionId;
  send({
    id: 2,
    method: "session/prompt",
    params: { sessionId, prompt: [{ type: "text", text: "hold me" }], idempotencyKey: KEY },
  });
  return { trace, child, answers, answer };
}

/** Polls the tap's own trace file until `pred` holds for a record. */
async function recordWhere(trace: string, pred: (r: TraceRecord) => boolean): Promise<TraceRecord> {
  for (let i = 0; i < 200; i++) {
    const found = (await traceRecords(trace).catch(() => [])).find(pred);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the record never appeared in the trace");
}

const isPromptAnswer = (r: TraceRecord): r is FrameRecord =>
  r.type === "frame" && r.dir === "agent->client" && JSON.parse(r.raw).id === 2;
const isPrompt = (r: TraceRecord): r is FrameRecord =>
  r.type === "frame" && r.dir === "client->agent" && JSON.parse(r.raw).method === "session/prompt";

function only(submissions: readonly Submission[]): Submission {
  expect(submissions).toHaveLength(1);
  return submissions[0] as Submission;
}

describe("a delay longer than the client waits", { timeout: 90_000 }, () => {
  it("on the response, client closes first: held frame (bytes), fault, 'never delivered', agent exit, analyzer", async () => {
    const t = await promptThroughDelay("delay:method=session/prompt,on=response,delay-ms=60000");
    // recorded while held: the frame with its bytes and the fault naming it
    const held = (await recordWhere(t.trace, isPromptAnswer)) as FrameRecord;
    expect(held.held).toBe(true);
    expect(JSON.parse(held.raw).result.messageId).toEqual(expect.any(String));
    const applied = await recordWhere(t.trace, (r) => r.type === "fault" && r.frameSeq === held.seq);
    expect(applied).toMatchObject({ action: "delay", ruleId: "cli-1", detail: "holding 60000 ms" });
    expect((applied as FaultRecord).fate).toBeUndefined();
    expect(t.answers.has(2)).toBe(false);

    t.child.stdin?.end(); // the client gives up
    await within(exited(t.child), 20_000, "the tap to end");
    const records = await traceRecords(t.trace);
    const fates = records.filter((r): r is FaultRecord => r.type === "fault" && r.fate !== undefined);
    expect(fates).toHaveLength(1);
    expect(fates[0]).toMatchObject({
      action: "delay",
      ruleId: "cli-1",
      frameSeq: held.seq,
      fate: "undelivered",
      detail: "never delivered: the client closed the connection",
    });
    expect(fates[0]?.seq).toBeGreaterThan(applied.seq);
    expect(records.some((r) => r.type === "agent-exit")).toBe(true);
    expect(records.filter((r) => r.type === "frame" && r.seq === held.seq)).toHaveLength(1);

    const s = only((await analyze(scratch, t.trace)).submissions);
    expect(s.attempts).toHaveLength(1);
    expect(s.attempts[0]?.outcome).toMatchObject({
      kind: "dropped",
      frame: "response",
      held: true,
      answer: { kind: "inserted", messageId: JSON.parse(held.raw).result.messageId },
    });
  });

  it("on the request, tap stopped by SIGTERM first: the prompt stays in the trace, never delivered, lost", async () => {
    const t = await promptThroughDelay("delay:method=session/prompt,on=request,delay-ms=60000");
    const held = (await recordWhere(t.trace, isPrompt)) as FrameRecord;
    expect(held).toMatchObject({ held: true });
    expect(JSON.parse(held.raw).params.idempotencyKey).toBe(KEY);
    await recordWhere(t.trace, (r) => r.type === "fault" && r.frameSeq === held.seq);
    t.child.kill("SIGTERM");
    await within(exited(t.child), 20_000, "the tap to end");
    const records = await traceRecords(t.trace);
    expect(records.find((r) => r.type === "fault" && r.fate !== undefined)).toMatchObject({
      frameSeq: held.seq,
      fate: "undelivered",
      detail: "never delivered: the tap received SIGTERM",
    });
    expect(records.some((r) => r.type === "agent-exit")).toBe(true);
    const s = only((await analyze(scratch, t.trace)).submissions);
    expect(s.attempts).toHaveLength(1);
    expect(s.attempts[0]?.outcome).toMatchObject({ kind: "lost" });
    expect(JSON.stringify(s.attempts[0]?.outcome)).toContain("held by a delay and never delivered");
  });

  it("a delay the client waits out: released, with how long it was held", async () => {
    const t = await promptThroughDelay("delay:method=session/prompt,on=response,delay-ms=300");
    const answer = await t.answer(2);
    t.child.stdin?.end();
    await within(exited(t.child), 20_000, "the tap to end");
    const records = await traceRecords(t.trace);
    const held = records.find(isPromptAnswer) as FrameRecord;
    expect(held.held).toBe(true);
    expect(JSON.parse(held.raw)).toEqual(answer); // the bytes the client got are the bytes recorded
    const fate = records.find((r): r is FaultRecord => r.type === "fault" && r.fate !== undefined);
    expect(fate).toMatchObject({ frameSeq: held.seq, fate: "released" });
    expect(fate?.heldMs).toBeGreaterThanOrEqual(250);
    expect(fate?.detail).toBe(`released after ${fate?.heldMs} ms`);
    const s = only((await analyze(scratch, t.trace)).submissions);
    expect(s.attempts[0]?.outcome).toMatchObject({ kind: "inserted" });
  });
});
