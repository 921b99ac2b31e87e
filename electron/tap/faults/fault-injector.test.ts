import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { FaultRule } from "../../../shared/faults/fault-rule.js";
import type { FaultRecord, FrameRecord, TraceRecord } from "../../../shared/trace/record.js";
import { RecordSequencer } from "../../trace/record-sequencer.js";
import { TraceFanout } from "../../trace/trace-fanout.js";
import { StdioTap } from "../stdio/stdio-tap.js";
import { scriptedAgent, within } from "../testing/proxy-run.js";
import { FaultInjector } from "./fault-injector.js";

function rule(id: string, over: Partial<FaultRule>): FaultRule {
  return { id, action: "delay", match: {}, count: 1, armedAt: "t", ...over };
}

/** A stdio tap over an echo agent with a fault injector; records kept in memory. */
function echoTap(agent = scriptedAgent("echo")) {
  const records: TraceRecord[] = [];
  const trace = new TraceFanout(new RecordSequencer(), [
    { write: (r) => records.push(r), backpressure: () => null, close: async () => {} },
  ]);
  const faults = new FaultInjector(trace);
  const clientIn = new PassThrough();
  const clientOut = new PassThrough();
  const errOut = new PassThrough();
  errOut.resume();
  let out = "";
  const waiters: { text: string; resolve: () => void }[] = [];
  clientOut.on("data", (c: Buffer) => {
    out += c.toString("utf8");
    for (const w of [...waiters])
      if (out.includes(w.text)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
  });
  const tap = new StdioTap({ command: agent, clientIn, clientOut, errOut, trace, faults });
  return {
    tap,
    faults,
    records,
    clientIn,
    output: () => out,
    echoed: (text: string) =>
      within(
        new Promise<void>((resolve) => {
          if (out.includes(text)) resolve();
          else waiters.push({ text, resolve });
        }),
        10_000,
        `echo of ${text}`,
      ),
  };
}

const line = (method: string, id?: number) =>
  `{"jsonrpc":"2.0",${id === undefined ? "" : `"id":${id},`}"method":"${method}"}\n`;

describe("FaultInjector in a stdio tap", () => {
  it("is idle (fast path) until a rule is armed; delays keep order, are recorded when held, then released", async () => {
    const t = echoTap();
    expect(t.faults.armed()).toBe(false);
    t.faults.armLocal([rule("cli-1", { delayMs: 80, match: { method: "slow", on: "request" } })]);
    expect(t.faults.armed()).toBe(true);
    const run = t.tap.run();
    t.clientIn.write(line("slow") + line("fast"));
    await t.echoed('"fast"');
    t.clientIn.end();
    await within(run, 10_000, "the tap to end");
    expect(t.output()).toBe(line("slow") + line("fast"));
    const [fault, fate] = t.records.filter((r): r is FaultRecord => r.type === "fault");
    expect(fault).toMatchObject({ action: "delay", ruleId: "cli-1", conn: 1, detail: "holding 80 ms" });
    const delayed = t.records.find((r) => r.seq === fault?.frameSeq) as FrameRecord;
    expect(delayed.raw).toBe(line("slow").trim());
    expect(delayed).toMatchObject({ dir: "client->agent", held: true });
    expect(fate).toMatchObject({ action: "delay", ruleId: "cli-1", frameSeq: delayed.seq, fate: "released" });
    expect(fate?.heldMs).toBeGreaterThanOrEqual(70);
    // the frame behind the held one waited: it is recorded after the release
    const fast = t.records.find((r) => r.type === "frame" && r.raw === line("fast").trim()) as FrameRecord;
    expect(fast.seq).toBeGreaterThan(fate?.seq ?? Number.POSITIVE_INFINITY);
    expect(t.faults.armed()).toBe(false); // count 1: used up
  });

  it("command-line rules fire before the hub's, and the hub's list going away disarms its rules", async () => {
    const t = echoTap();
    t.faults.setHubRules([
      rule("r1", { action: "drop-request", match: { method: "b", on: "request" }, count: 5 }),
    ]);
    t.faults.armLocal([rule("cli-1", { action: "drop-request", match: { on: "request" } })]);
    const run = t.tap.run();
    t.clientIn.write(line("b") + line("b") + line("c"));
    await t.echoed('"c"');
    t.faults.setHubRules([]); // the hub went away: its rules no longer apply
    t.clientIn.write(line("b"));
    await t.echoed('"b"');
    t.clientIn.end();
    await within(run, 10_000, "the tap to end");
    const faults = t.records.filter((r): r is FaultRecord => r.type === "fault");
    expect(faults.map((f) => f.ruleId)).toEqual(["cli-1", "r1"]);
    expect(t.output()).toBe(line("c") + line("b"));
  });

  it("an immediate restart-agent respawns the agent, replays initialize, and holds client frames until it is answered", async () => {
    const t = echoTap(scriptedAgent("rpc")); // answers every request with {"result":{}}
    const run = t.tap.run();
    t.clientIn.write(line("initialize", 0));
    await t.echoed('"id":0');
    t.faults.setHubRules([rule("r9", { action: "restart-agent", match: {} })]);
    t.clientIn.write(line("after", 1));
    await t.echoed('"id":1');
    t.clientIn.end();
    const end = await within(run, 10_000, "the tap to end");
    expect(end).toEqual({ kind: "exited", code: 0, signal: null });
    const types = t.records.map((r) => r.type);
    expect(types.filter((x) => x === "agent-spawn")).toHaveLength(2);
    expect(t.records.find((r) => r.type === "fault")).toMatchObject({
      action: "restart-agent",
      detail: "immediate",
    });
    const tapFrames = t.records.filter((r): r is FrameRecord => r.type === "frame" && r.origin === "tap");
    expect(tapFrames.map((f) => f.dir)).toEqual(["client->agent", "agent->client"]);
    expect(JSON.parse(tapFrames[0]?.raw ?? "{}")).toMatchObject({
      id: "acp-retry-inspector:replay:1",
      method: "initialize",
    });
    // The client saw the answers to its own requests, never the answer to the tap's replay.
    expect(t.output()).toBe('{"jsonrpc":"2.0","id":0,"result":{}}\n{"jsonrpc":"2.0","id":1,"result":{}}\n');
    const after = t.records.findIndex((r) => r.type === "frame" && r.raw.includes('"after"'));
    const replayAnswered = t.records.indexOf(tapFrames[1] as FrameRecord);
    expect(after).toBeGreaterThan(replayAnswered);
  });
});
