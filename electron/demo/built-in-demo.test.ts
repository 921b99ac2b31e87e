/**
 * The demo end to end below the UI: a real hub, the built CLI's tap (`proxy --listen`) and
 * demo-agent processes, the in-process demo client over a real WebSocket, and the real analyzer
 * judging the hub's copy of the trace. Each scenario is played with no pauses.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import type { DemoStatus } from "../../shared/demo/demo-wire.js";
import type { HubToUi } from "../../shared/hub/ui-wire.js";
import { type RunningHub, startHub } from "../hub/hub-server.js";
import { cliPath } from "../tools/testing/cli.js";
import { BuiltInDemo } from "./built-in-demo.js";

/** The demo needs the tap's remote front (`proxy --listen`, branch tap4); older builds skip these tests. */
const PROXY_LISTENS = execFileSync(process.execPath, [cliPath(), "proxy", "--help"], {
  encoding: "utf8",
}).includes("--listen");

let dir: string;
let hub: RunningHub;
let demo: BuiltInDemo;

/** Resolves with the first status for which `holds` is true, within `ms`. */
function statusWhere(holds: (s: DemoStatus) => boolean, ms = 30_000): Promise<DemoStatus> {
  return new Promise((resolve, reject) => {
    const now = demo.status();
    if (holds(now)) return resolve(now);
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no such status within ${ms} ms; last: ${JSON.stringify(demo.status(), null, 1)}`));
    }, ms);
    const stop = demo.onStatus((s) => {
      if (!holds(s)) return;
      clearTimeout(timer);
      stop();
      resolve(s);
    });
  });
}

const ended = (s: DemoStatus) => ["finished", "failed", "stopped"].includes(s.scenario?.phase ?? "");

beforeAll(async () => {
  if (!PROXY_LISTENS) return;
  dir = mkdtempSync(join(tmpdir(), "acp-ri-demo-"));
  hub = await startHub({ tracesDir: join(dir, "traces") });
  demo = await BuiltInDemo.start({
    hub,
    cliPath: cliPath(),
    dataDir: join(dir, "demo"),
    turnMs: 200,
    longTurnMs: 20_000,
    attemptTimeoutMs: 1_000,
    stepTimeoutMs: 20_000,
  });
  hub.attachDemo(demo);
}, 60_000);

afterAll(async () => {
  await demo?.close();
  await hub?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.runIf(PROXY_LISTENS)("BuiltInDemo", { timeout: 60_000 }, () => {
  it("starts the agent behind the tap and answers a keyed prompt from the panel", async () => {
    const ready = demo.status();
    expect(ready).toMatchObject({ state: "ready", mode: "correct", client: { state: "connected", conn: 1 } });
    expect(ready.tapPid).toBeGreaterThan(0);
    expect(ready.traceId).toMatch(/./);
    const s = await demo.send("hello", true);
    expect(s.key).toMatch(/^[0-9a-f-]{36}$/);
    const answered = await statusWhere((st) => st.submissions.some((x) => x.status === "answered"));
    expect(answered.submissions[0]).toMatchObject({ text: "hello", attempts: 1 });
    expect(answered.agentPid).toBeGreaterThan(0);
    const unkeyed = await demo.send("again", false);
    expect(unkeyed.key).toBeNull();
  });

  it("plays lost-response: one drop, a keyed retry, verdict deduplicated, one messageId", async () => {
    await demo.runScenario("lost-response", { stepDelayMs: 0 });
    const end = await statusWhere(ended);
    expect(end.scenario).toMatchObject({ phase: "finished", step: 3, steps: 4 });
    const a = end.submissions.find((x) => x.label === "A");
    expect(a).toMatchObject({ status: "answered", attempts: 2 });
    expect(a?.messageIds).toHaveLength(1);
    expect(end.deploys).toBe(1);
  });

  it("plays naive-duplicate on a restarted naive agent: duplicate-insert, two deploys", async () => {
    // the last scenario (lost-response) finished; while the naive agent starts, the status names
    // the scenario about to play, never the last one's end
    const starting: DemoStatus[] = [];
    const stop = demo.onStatus((s) => s.state === "starting" && starting.push(s));
    await demo.runScenario("naive-duplicate", { stepDelayMs: 0 });
    stop();
    expect(starting.length).toBeGreaterThan(0);
    for (const s of starting)
      expect(s.scenario).toMatchObject({
        id: "naive-duplicate",
        step: 0,
        phase: "waiting",
        waitingFor: "a fresh tap and agent",
      });
    const end = await statusWhere(ended);
    expect(end.mode).toBe("naive");
    expect(end.scenario).toMatchObject({ phase: "finished" });
    expect(end.deploys).toBeGreaterThanOrEqual(2);
    const a = end.submissions.find((x) => x.label === "A");
    expect(a?.attempts).toBe(2);
  });

  it("plays crash-restart: the agent dies, the client reconnects to a new agent process", async () => {
    const before = demo.status().agentPid;
    await demo.runScenario("crash-restart", { stepDelayMs: 0 });
    const end = await statusWhere(ended);
    expect(end.scenario).toMatchObject({ phase: "finished" });
    expect(end.client.conn).toBe(2);
    expect(end.agentPid).not.toBe(before);
    expect(end.submissions.find((x) => x.label === "A")?.messageIds).toHaveLength(1);
  });

  it("plays held-cancel: the retry waits with the held prompt, one cancel answers both -32800", async () => {
    await demo.runScenario("held-cancel", { stepDelayMs: 0 });
    const end = await statusWhere(ended);
    expect(end.scenario).toMatchObject({ phase: "finished" });
    const b = end.submissions.find((x) => x.label === "B");
    expect(b).toMatchObject({ status: "failed", messageIds: [] });
    expect(b?.error).toMatch(/^-32800/);
  });

  it("waits for the presenter between steps, and stops on request", async () => {
    await demo.runScenario("lost-response", { stepDelayMs: null });
    const shown = await statusWhere((s) => s.scenario?.phase === "shown");
    expect(shown.scenario).toMatchObject({ step: 0, expectation: expect.stringMatching(/armed/) });
    await demo.command({ op: "next" });
    await statusWhere((s) => (s.scenario?.step ?? 0) >= 1);
    await demo.command({ op: "stop" });
    expect(demo.status().scenario?.phase).toBe("stopped");
    await demo.command({ op: "reset", mode: "correct" });
    expect(demo.status()).toMatchObject({ state: "ready", scenario: null, submissions: [] });
  });

  it("reaches UIs through the hub: demo-status on the UI socket and POST /api/demo", async () => {
    const res = await fetch(`http://127.0.0.1:${hub.port}/api/demo`, {
      method: "POST",
      headers: { Authorization: `Bearer ${hub.token}`, "Content-Type": "application/json" },
      body: JSON.stringify({ op: "spawn", command: ["sh"] }),
    });
    expect(res.status).toBe(400);
    const got = await fetch(`http://127.0.0.1:${hub.port}/api/demo`, {
      headers: { Authorization: `Bearer ${hub.token}` },
    });
    expect(await got.json()).toMatchObject({ v: 1, state: "ready" });

    const ws = new WebSocket(`ws://127.0.0.1:${hub.port}/ws/ui`, {
      headers: { Authorization: `Bearer ${hub.token}` },
    });
    const seen: HubToUi[] = [];
    const replied = new Promise<HubToUi>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply; saw ${JSON.stringify(seen)}`)), 10_000);
      ws.on("message", (data) => {
        const m = JSON.parse(data.toString()) as HubToUi;
        seen.push(m);
        if (m.t === "demo-status") ws.send(JSON.stringify({ t: "demo", ref: "7", command: { op: "stop" } }));
        if (m.t === "reply") {
          clearTimeout(timer);
          resolve(m);
        }
      });
    });
    expect(await replied).toEqual({ t: "reply", ref: "7", ok: true, value: { ok: true } });
    expect(seen.find((m) => m.t === "demo-status")).toMatchObject({ status: { v: 1, mode: "correct" } });
    ws.close();
  });
});
