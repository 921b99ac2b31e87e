/**
 * Issue 4 end to end: fault rules applied by a real proxy between the reference peers (real
 * processes, real pipes and loopback sockets), judged by the real analyzer.
 */

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Submission } from "../../../shared/analyzer/timeline-model.js";
import type { FaultRecord, FrameRecord, TraceRecord } from "../../../shared/trace/record.js";
import {
  analyze,
  demoAgent,
  demoClient,
  exited,
  Scratch,
  startFront,
  stopFront,
  tapped,
} from "../testing/peers.js";
import { traceRecords } from "../testing/proxy-run.js";

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.cleanup());

/** `proxy --no-hub --trace T --fault ... -- demo-agent ...` as the demo client's stdio agent command. */
function proxied(trace: string, faults: string[], agentArgs: string[] = []): string[] {
  return [
    "--",
    ...tapped(
      trace,
      faults.flatMap((f) => ["--fault", f]),
      demoAgent(scratch, ...agentArgs),
    ),
  ];
}

function only(submissions: readonly Submission[]): Submission {
  expect(submissions).toHaveLength(1);
  return submissions[0] as Submission;
}

const verdicts = (s: Submission) => s.verdicts.map((v) => v.name);
const faultsOf = (records: TraceRecord[]) => records.filter((r): r is FaultRecord => r.type === "fault");

describe("lost response, then a keyed retry", { timeout: 90_000 }, () => {
  it("stdio: the response is dropped, the client resends on the same connection, one insert", async () => {
    const trace = scratch.path("drop-response.jsonl");
    const report = await demoClient(scratch, [
      "--timeout",
      "4000",
      "--no-wait-idle",
      ...proxied(trace, ["drop-response:method=session/prompt"], ["--turn-ms", "100"]),
    ]);
    expect(report.ok).toBe(true);
    const model = await analyze(scratch, trace);
    const s = only(model.submissions);
    expect(s.attempts).toHaveLength(2);
    expect(s.attempts[0]?.outcome).toMatchObject({ kind: "dropped", frame: "response" });
    expect(s.inserts).toBe(1);
    expect(verdicts(s)).toEqual(["deduplicated"]);
    const records = await traceRecords(trace);
    const fault = faultsOf(records)[0];
    expect(fault).toMatchObject({ action: "drop-response", ruleId: "cli-1", conn: 1 });
    const dropped = records.find((r) => r.seq === fault?.frameSeq) as FrameRecord;
    expect(dropped).toMatchObject({ type: "frame", dir: "agent->client", dropped: true });
    expect(JSON.parse(dropped.raw).result.messageId).toBe(s.finalMessageId);
  });

  it.each([
    ["correct", "deduplicated", 1],
    ["naive", "duplicate-insert", 2],
  ] as const)(
    "WebSocket front, %s agent: the answer is lost with the connection, the retry comes on connection #2: %s",
    async (mode, verdict, inserts) => {
      const trace = scratch.path(`ws-${mode}.jsonl`);
      const front = await startFront(
        scratch,
        ["--no-hub", "--trace", trace, "--fault", "disconnect-client:method=session/prompt,on=response"],
        demoAgent(scratch, "--mode", mode, "--turn-ms", "100"),
      );
      const report = await demoClient(scratch, [
        "--timeout",
        "8000",
        "--no-wait-idle",
        "--url",
        front.wsUrl,
        "--token-file",
        front.tokenFile,
      ]);
      await stopFront(front.child);
      expect(report.connections).toBe(2);
      const model = await analyze(scratch, trace);
      const s = only(model.submissions);
      expect(s.attempts.map((a) => a.conn)).toEqual([1, 2]);
      expect(s.attempts[0]?.outcome).toMatchObject({ kind: "dropped", frame: "response" });
      expect(s.inserts).toBe(inserts);
      expect(verdicts(s)).toContain(verdict);
      expect(report.submissions[0]?.messageIds).toHaveLength(1); // the client only saw the retry's answer
    },
  );
});

describe("agent crash, restart, resume, retry", { timeout: 90_000 }, () => {
  it("stdio: restart-agent mid-turn after the insert; the retry gets the original messageId", async () => {
    const trace = scratch.path("restart.jsonl");
    const report = await demoClient(scratch, [
      "--timeout",
      "4000",
      "--no-wait-idle",
      ...proxied(trace, ["restart-agent:method=session/prompt,on=response"], ["--turn-ms", "2000"]),
    ]);
    expect(report.ok).toBe(true);
    expect(report.connections).toBe(1); // the client's pipe stayed open across the restart
    const records = await traceRecords(trace);
    const spawns = records.filter((r) => r.type === "agent-spawn");
    expect(spawns).toHaveLength(2);
    expect(records.find((r) => r.type === "agent-exit")).toMatchObject({ signal: "SIGKILL" });
    const replay = records.filter((r): r is FrameRecord => r.type === "frame" && r.origin === "tap");
    // initialize, then session/resume of the client's session (its state snapshot is the tap's too)
    expect(replay.map((r) => [r.dir, JSON.parse(r.raw).id ?? JSON.parse(r.raw).method])).toEqual([
      ["client->agent", "acp-retry-inspector:replay:1"],
      ["agent->client", "acp-retry-inspector:replay:1"],
      ["client->agent", "acp-retry-inspector:replay:2"],
      ["agent->client", "session/update"],
      ["agent->client", "acp-retry-inspector:replay:2"],
    ]);
    expect(JSON.parse(replay[0]?.raw ?? "{}").method).toBe("initialize");
    const model = await analyze(scratch, trace);
    const s = only(model.submissions);
    expect(s.attempts).toHaveLength(2);
    const original = s.attempts[0]?.outcome;
    expect(original).toMatchObject({ kind: "dropped", frame: "response", answer: { kind: "inserted" } });
    const originalId =
      original?.kind === "dropped" && original.answer?.kind === "inserted" ? original.answer.messageId : null;
    expect(s.attempts[1]?.outcome).toEqual({ kind: "inserted", messageId: originalId });
    expect(s.inserts).toBe(1);
    expect(verdicts(s)).toEqual(["deduplicated"]);
    expect(report.submissions[0]?.messageId).toBe(originalId);
  });

  it("stdio: kill-agent ends the tap the way an agent crash does (SIGKILL), with the fault on record", async () => {
    const trace = scratch.path("kill.jsonl");
    const child = scratch.spawnCli([
      "proxy",
      "--no-hub",
      "--trace",
      trace,
      "--fault",
      "kill-agent:method=session/new",
      "--",
      ...demoAgent(scratch),
    ]);
    child.stdin?.write(
      '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":2,"info":{"name":"t","version":"1"},"capabilities":{}}}\n',
    );
    child.stdin?.write(`{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"${scratch.dir}"}}\n`);
    const end = await exited(child);
    expect(end.signal).toBe("SIGKILL");
    const records = await traceRecords(trace);
    expect(faultsOf(records)).toMatchObject([{ action: "kill-agent", ruleId: "cli-1" }]);
    expect(records.filter((r) => r.type === "agent-exit")).toMatchObject([{ signal: "SIGKILL" }]);
    expect(records.at(-1)).toMatchObject({ type: "conn-close", reason: "agent exited" });
  });
});

describe("drop the request", { timeout: 90_000 }, () => {
  it("stdio: the agent never sees the first attempt; the retry is the first and only insert", async () => {
    const trace = scratch.path("drop-request.jsonl");
    const report = await demoClient(scratch, [
      "--timeout",
      "4000",
      "--no-wait-idle",
      ...proxied(trace, ["drop-request:method=session/prompt"], ["--turn-ms", "100"]),
    ]);
    expect(report.ok).toBe(true);
    const model = await analyze(scratch, trace);
    const s = only(model.submissions);
    expect(s.attempts[0]?.outcome).toMatchObject({ kind: "dropped", frame: "request" });
    expect(s.attempts[1]?.outcome).toMatchObject({ kind: "inserted" });
    expect(s.inserts).toBe(1);
    expect(s.messageIds).toHaveLength(1);
    expect(model.verdictCounts["duplicate-insert"]).toBe(0);
    const records = await traceRecords(trace);
    const prompts = records.filter(
      (r): r is FrameRecord =>
        r.type === "frame" && r.dir === "client->agent" && r.raw.includes('"session/prompt"'),
    );
    expect(prompts.map((p) => p.dropped ?? false)).toEqual([true, false]);
  });
});
