/**
 * Issue 11, item 3 end to end: two real `proxy` taps (each spawning a real demo agent) on one real
 * hub (`serve`), rules armed with the real `fault` CLI. A rule targeted at one tap never touches
 * the other; the CLI says "armed" only after the tap acknowledged; with two taps and no target
 * `fault` exits 2 and lists them.
 */
import { type ChildProcess, execFile } from "node:child_process";
import { createInterface } from "node:readline";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ArmedFault } from "../../../shared/faults/armed-fault.js";
import type { TapSummary } from "../../../shared/hub/tap-summary.js";
import type { FaultRecord, FrameRecord, TraceRecord } from "../../../shared/trace/record.js";
import { cliPath } from "../../tools/testing/cli.js";
import { demoAgent, exited, Scratch } from "../testing/peers.js";
import { traceRecords, within } from "../testing/proxy-run.js";

const run = promisify(execFile);
let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.cleanup());

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [cliPath(), ...args], { env: scratch.env, timeout: 30_000 });
    return { code: 0, stdout: r.stdout, stderr: r.stderr };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

/** Starts `serve` and resolves once it printed its URL (the rendezvous file is written then). */
async function serve(): Promise<ChildProcess> {
  const child = scratch.spawnCli(["serve", "--traces-dir", scratch.path("hub-traces")]);
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  await within(
    new Promise<void>((resolve) => lines.once("line", () => resolve())),
    20_000,
    "serve to print its URL",
  );
  return child;
}

/** A stdio tap attached to the hub, with lines the test writes as the client and the agent's answers by id. */
function tap(name: string) {
  const trace = scratch.path(`${name}.jsonl`);
  const child = scratch.spawnCli(["proxy", "--name", name, "--trace", trace, "--", ...demoAgent(scratch)]);
  const answers = new Map<unknown, unknown>();
  const waiters: { id: unknown; resolve: () => void }[] = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    const m = JSON.parse(line) as { id?: unknown };
    if (m.id === undefined) return;
    answers.set(m.id, m);
    for (const w of waiters.filter((w) => w.id === m.id)) w.resolve();
  });
  const send = (m: object) => child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
  return {
    name,
    trace,
    child,
    answers,
    send,
    answered: (id: unknown) =>
      within(
        new Promise<void>((resolve) => {
          if (answers.has(id)) resolve();
          else waiters.push({ id, resolve });
        }),
        20_000,
        `${name} to answer id ${String(id)}`,
      ),
    start() {
      send({ id: 0, method: "initialize", params: { protocolVersion: 2, clientCapabilities: {} } });
    },
  };
}

async function liveTaps(n: number): Promise<TapSummary[]> {
  for (let i = 0; i < 200; i++) {
    const r = await cli(["taps", "--json"]);
    const taps = r.code === 0 ? (JSON.parse(r.stdout) as TapSummary[]) : [];
    const live = taps.filter((t) => t.attached && t.agentPids.length > 0);
    if (live.length === n) return live;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${n} taps did not attach`);
}

async function board(): Promise<{ faults: ArmedFault[]; recent: ArmedFault[] }> {
  const r = await cli(["fault", "list", "--json"]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { faults: ArmedFault[]; recent: ArmedFault[] };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

const faults = (records: TraceRecord[]) => records.filter((r): r is FaultRecord => r.type === "fault");

describe("targeted faults with two taps on one hub", { timeout: 120_000 }, () => {
  it("a rule armed on one tap is acknowledged by it, fires there only, and never touches the other", async () => {
    const hub = await serve();
    const a = tap("tap-a");
    const b = tap("tap-b");
    a.start();
    b.start();
    await Promise.all([a.answered(0), b.answered(0)]);
    const live = await liveTaps(2);
    const byName = new Map(live.map((t) => [t.name, t]));
    const ta = byName.get("tap-a") as TapSummary;
    const tb = byName.get("tap-b") as TapSummary;
    const [pidA] = ta.agentPids as [number];
    const [pidB] = tb.agentPids as [number];
    expect(pidA).not.toBe(pidB);

    // two taps, no target: exit 2, and both are listed
    const untargeted = await cli(["fault", "drop-response", "--method", "session/new"]);
    expect(untargeted.code).toBe(2);
    expect(untargeted.stderr).toContain("2 taps are attached");
    expect(untargeted.stderr).toContain("tap-a");
    expect(untargeted.stderr).toContain("tap-b");
    expect((await board()).faults).toEqual([]);
    // an unknown tap: exit 2, nothing armed
    expect((await cli(["fault", "drop-response", "--tap", "nope"])).code).toBe(2);

    // targeted by name at B: the CLI answers after B acknowledged, and says so in words
    const armed = await cli(["fault", "drop-response", "--method", "session/new", "--tap", "tap-b"]);
    expect(armed.code, armed.stderr).toBe(0);
    expect(armed.stdout).toContain("Drop the next session/new response");
    expect(armed.stdout).toContain(`tap tap-b (pid ${pidB})`);
    expect(armed.stdout).toContain("armed · 1 left");
    const before = await board();
    expect(before.faults).toHaveLength(1);
    expect(before.faults[0]).toMatchObject({
      state: "armed",
      allTaps: false,
      taps: [{ traceId: tb.traceId, name: "tap-b", acked: true, agentPids: [pidB] }],
      rule: { target: { tap: tb.traceId } },
    });

    const newSession = (id: number) => ({
      id,
      method: "session/new",
      params: { cwd: scratch.dir, mcpServers: [] },
    });
    a.send(newSession(1));
    b.send(newSession(1));
    await a.answered(1); // A's answer came through
    // B's answer was dropped: the hub saw B's fault record and the rule left the armed list
    let after = await board();
    for (let i = 0; i < 100 && after.recent.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      after = await board();
    }
    expect(after.faults).toEqual([]);
    expect(after.recent[0]).toMatchObject({
      state: "used",
      fired: 1,
      lastFired: { traceId: tb.traceId, name: "tap-b" },
    });
    const listed = await cli(["fault", "list"]);
    expect(listed.stdout).toContain("no fault rules armed");
    expect(listed.stdout).toMatch(/fired at \d\d:\d\d:\d\d on tap tap-b/);
    expect(b.answers.has(1)).toBe(false);

    // kill-agent now, on A only: A's agent dies, B's lives on
    const kill = await cli(["fault", "kill-agent", "--tap", ta.traceId]);
    expect(kill.code, kill.stderr).toBe(0);
    expect(kill.stdout).toContain("Kill the agent now");
    await within(exited(a.child), 20_000, "tap A to end"); // its agent is gone (the trace says how, below)
    expect(alive(pidB)).toBe(true);
    b.send(newSession(2));
    await b.answered(2); // B still answers, with the same agent
    expect(alive(pidB)).toBe(true);

    b.child.stdin?.end();
    await within(exited(b.child), 20_000, "tap B to end");
    hub.kill("SIGTERM");

    const recA = await traceRecords(a.trace);
    const recB = await traceRecords(b.trace);
    // A: the kill and only it; its one agent was the one killed; its session/new answer went through
    expect(faults(recA).map((f) => f.action)).toEqual(["kill-agent"]);
    expect(recA.filter((r) => r.type === "agent-spawn").map((r) => (r as { pid: number }).pid)).toEqual([
      pidA,
    ]);
    expect(recA.find((r) => r.type === "agent-exit")).toMatchObject({ pid: pidA, signal: "SIGKILL" });
    expect(recA.some((r) => r.type === "frame" && r.dropped)).toBe(false);
    // B: the drop and only it, on its own session/new answer; its agent never killed
    const fb = faults(recB);
    expect(fb.map((f) => f.action)).toEqual(["drop-response"]);
    const dropped = recB.find((r) => r.seq === fb[0]?.frameSeq) as FrameRecord;
    expect(dropped).toMatchObject({ dir: "agent->client", dropped: true });
    expect(JSON.parse(dropped.raw).id).toBe(1);
    expect(recB.filter((r) => r.type === "agent-spawn").map((r) => (r as { pid: number }).pid)).toEqual([
      pidB,
    ]);
    expect(recB.find((r) => r.type === "agent-exit")).toMatchObject({ pid: pidB, signal: null });
  });

  // Session 4 once saw a hub-attached stdio tap exit 0 after kill-agent; it must die of SIGKILL
  // (status 137 in a shell) every time. KILL_AGENT_RUNS runs it more often (30 in the trial).
  const killRuns = Number(process.env.KILL_AGENT_RUNS ?? 3);
  it("kill-agent through the hub: the stdio tap dies of SIGKILL, every run", {
    timeout: 60_000 + killRuns * 20_000,
  }, async () => {
    const runs = killRuns;
    const hub = await serve();
    const ends: string[] = [];
    for (let i = 1; i <= runs; i++) {
      const t = tap(`kill-${i}`);
      t.start();
      await t.answered(0);
      const [live] = (await liveTaps(1)) as [TapSummary];
      const kill = await cli(["fault", "kill-agent", "--tap", live.traceId]);
      expect(kill.code, kill.stderr).toBe(0);
      const end = await within(exited(t.child), 20_000, `tap kill-${i} to end`);
      ends.push(`${end.code}/${end.signal}`);
      if (process.env.KILL_AGENT_RUNS) process.stderr.write(`kill-agent run ${i}: ${ends.at(-1)}\n`);
      const records = await traceRecords(t.trace);
      expect(records.find((r) => r.type === "agent-exit")).toMatchObject({ signal: "SIGKILL" });
    }
    hub.kill("SIGTERM");
    expect(ends).toEqual(Array.from({ length: runs }, () => "null/SIGKILL"));
  });

  it("--all arms on every live tap; with one tap the flag may be left out", async () => {
    await serve();
    const a = tap("only-tap");
    a.start();
    await a.answered(0);
    const [t] = (await liveTaps(1)) as [TapSummary];
    const one = await cli(["fault", "delay", "--delay-ms", "10", "--method", "session/new", "--json"]);
    expect(one.code, one.stderr).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({
      rule: { target: { tap: t.traceId } },
      fault: { state: "armed" },
    });
    const all = await cli(["fault", "drop-request", "--method", "x/none", "--all"]);
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout).toContain("all live taps (1)");
    expect((await board()).faults.map((f) => [f.rule.action, f.allTaps, f.state])).toEqual([
      ["delay", false, "armed"],
      ["drop-request", true, "armed"],
    ]);
    expect((await cli(["fault", "drop-request", "--all", "--tap", "only-tap"])).code).toBe(2);
  });
});
