/**
 * The `replay` operation on a real hub with the replay runner attached as `serve` attaches it:
 * a lose-and-retry recording (demo-client → the real tap → demo-agent) in the hub's folder is
 * replayed against the hub's command-line agent (demo-agent --mode naive); the replay's tap
 * streams into the hub, so its trace appears there, its header naming the source.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startConformanceBesideHub } from "../conformance/conformance-beside-hub.js";
import { callOperation, type HubTarget } from "../hub-client/hub-client.js";
import { traceRecords } from "../tap/testing/proxy-run.js";
import { cliPath } from "../tools/testing/cli.js";
import { type RunningHub, startHub } from "./hub-server.js";

const run = promisify(execFile);

let dir: string;
let hub: RunningHub;
let stop: () => Promise<void>;
let target: HubTarget;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-replay-op-"));
  const agents = join(dir, "agents.json");
  writeFileSync(agents, JSON.stringify({ agents: [] }));
  hub = await startHub({ tracesDir: join(dir, "traces"), flushMs: 10 });
  const naive = [process.execPath, cliPath(), "demo-agent", "--mode", "naive", "--store", join(dir, "naive")];
  stop = startConformanceBesideHub(hub, { cliPath: cliPath(), argvCommand: naive, agentsFile: agents });
  target = { base: `http://127.0.0.1:${hub.port}`, token: hub.token };
});
afterEach(async () => {
  await stop();
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Records a lose-and-retry session straight into the hub's folder (no hub link: a file like an import). */
async function recordBug(): Promise<string> {
  mkdirSync(join(dir, "traces"), { recursive: true });
  const trace = join(dir, "traces", "bug.jsonl");
  const agent = [
    process.execPath,
    cliPath(),
    "demo-agent",
    "--store",
    join(dir, "correct"),
    "--turn-ms",
    "50",
  ];
  const tap = [
    process.execPath,
    cliPath(),
    "proxy",
    "--no-hub",
    "--trace",
    trace,
    "--fault",
    "lose-and-retry:method=session/prompt",
  ];
  await run(
    process.execPath,
    [
      cliPath(),
      "demo-client",
      "--quiet",
      "--pending",
      join(dir, "pending.json"),
      "--prompt",
      "deploy it",
      "--no-wait-idle",
      "--timeout",
      "10000",
      "--",
      ...tap,
      "--",
      ...agent,
    ],
    { timeout: 60_000, env: { ...process.env, ACP_RETRY_INSPECTOR_RUNTIME_DIR: join(dir, "no-hub") } },
  );
  for (let i = 0; i < 200; i++) {
    const records = await traceRecords(trace).catch(() => []);
    if (records.some((r) => r.type === "agent-exit")) return "bug";
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the recording tap never wrote its agent's exit");
}

describe("replay (operation)", () => {
  it("replays a hub trace against the configured agent: the replay streams in as a new trace naming its source", async () => {
    const source = await recordBug();
    const started = await callOperation(target, "replay", { traceId: source, agentId: "argv" });
    expect(started.ok).toBe(true);
    expect(started.traceId).not.toBe(source);
    const listed = await callOperation(target, "listTraces", {});
    const replayed = listed.traces.find((t) => t.id === started.traceId);
    expect(replayed?.header?.replayOf?.trace).toBe(join(dir, "traces", "bug.jsonl"));
    expect(replayed?.header?.replayOf?.sha256).toMatch(/^[0-9a-f]{64}$/);
    // the replay plays to its end: the hub's copy gets the naive agent's second insert of the key
    for (let i = 0; i < 300; i++) {
      const t = (await callOperation(target, "listTraces", {})).traces.find((x) => x.id === started.traceId);
      if (t && !t.live) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const { text } = await callOperation(target, "readTrace", { id: started.traceId });
    expect(text).toContain("deploy it");
    expect(text).toContain('"origin":"inspector"');
  }, 90_000);

  it("refuses an agent that is not configured (the built-in demo agents are not replay targets) and a trace the hub lacks", async () => {
    const source = await recordBug();
    await expect(callOperation(target, "replay", { traceId: source, agentId: "demo-naive" })).rejects.toThrow(
      /no configured agent demo-naive/,
    );
    await expect(callOperation(target, "replay", { traceId: "nope", agentId: "argv" })).rejects.toThrow(
      /no trace nope/,
    );
    await expect(callOperation(target, "replay", { traceId: "../x", agentId: "argv" })).rejects.toThrow();
  }, 90_000);

  it("a trace with no client frames is refused with the replay's own words", async () => {
    mkdirSync(join(dir, "traces"), { recursive: true });
    writeFileSync(
      join(dir, "traces", "empty.jsonl"),
      `${JSON.stringify({ type: "header", format: "acp-retry-inspector-trace", version: 1, tool: "t", startedAt: "2026-01-01T00:00:00Z" })}\n`,
    );
    await expect(callOperation(target, "replay", { traceId: "empty", agentId: "argv" })).rejects.toThrow(
      /no client frames/,
    );
  }, 60_000);
});
