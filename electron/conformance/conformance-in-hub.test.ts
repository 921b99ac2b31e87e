/**
 * The app's conformance runs against a real hub: the runner attached the way `serve` and the app
 * attach it, the suite run on the real demo agent through the real tap, driven over the hub's UI
 * WebSocket and HTTP API exactly as the two shells drive it.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { ConformanceBoard } from "../../shared/conformance/conformance-run.js";
import type { HubConformanceStatus, HubReply, HubToUi } from "../../shared/hub/ui-wire.js";
import { type RunningHub, startHub } from "../hub/hub-server.js";
import { callHub, type HubTarget } from "../hub-client/hub-client.js";
import { cliPath } from "../tools/testing/cli.js";
import { connectUiProbe, type UiProbe } from "../tools/testing/ui-probe.js";
import { readTrace } from "../trace/trace-reader.js";
import { startConformanceBesideHub } from "./conformance-beside-hub.js";
import { startRemoteDemoAgent } from "./testing/conformance-fixtures.js";

let dir: string;
let hub: RunningHub;
let target: HubTarget;
let stop: () => Promise<void>;
let ui: UiProbe;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "acp-conf-hub-"));
  const agents = join(dir, "agents.json");
  writeFileSync(agents, JSON.stringify({ agents: [{ name: "stdin reader", command: ["cat"] }] }));
  hub = await startHub({ tracesDir: join(dir, "traces"), flushMs: 10 });
  stop = startConformanceBesideHub(hub, { cliPath: cliPath(), agentsFile: agents });
  target = { base: `http://127.0.0.1:${hub.port}`, token: hub.token };
  ui = await connectUiProbe(hub.port, hub.token);
});
afterEach(async () => {
  ui.close();
  await stop();
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
});

const boards = (): ConformanceBoard[] =>
  ui.messages.filter((m): m is HubConformanceStatus => m.t === "conformance-status").map((m) => m.board);
const lastBoard = (): ConformanceBoard | undefined => boards().at(-1);
const isReply = (ref: string) => (m: HubToUi) => m.t === "reply" && m.ref === ref;

async function finished(timeoutMs: number): Promise<ConformanceBoard> {
  await ui.waitFor(
    (m) => m.t === "conformance-status" && ["done", "cancelled", "error"].includes(m.board.run.state),
    timeoutMs,
  );
  return lastBoard() as ConformanceBoard;
}

describe("conformance runs from a UI", () => {
  test("a UI sees the choices, starts a run by id, watches cases tick and reads each case's trace", async () => {
    await ui.waitFor((m) => m.t === "conformance-status");
    const first = lastBoard();
    expect(first?.run.state).toBe("idle");
    expect(first?.choices.map((c) => c.id)).toEqual([
      "demo-correct",
      "demo-naive",
      "demo-forgetful",
      "demo-strict",
      "config-1",
    ]);

    ui.send({
      t: "conformance-start",
      ref: "s1",
      request: { agent: "demo-naive", only: ["retry-same-connection", "keys-private"] },
    });
    expect(((await ui.waitFor(isReply("s1"))) as HubReply).ok).toBe(true);
    ui.send({ t: "conformance-start", ref: "s2", request: { agent: "demo-correct" } });
    expect(await ui.waitFor(isReply("s2"))).toMatchObject({
      ok: false,
      error: expect.stringContaining("already"),
    });

    const board = await finished(90_000);
    expect(board.run.state).toBe("done");
    const states = Object.fromEntries(board.run.cases.map((c) => [c.name, c.state]));
    expect(states).toEqual({ "retry-same-connection": "fail", "keys-private": "pass" });
    expect(board.run.summary).toMatchObject({ ok: false, requiredFailed: 1 });
    // Cases ticked one by one: a status with a case running, and one with one case ended and one not.
    const seen = boards().map((b) => b.run.cases.map((c) => c.state));
    expect(seen.some((s) => s.includes("running"))).toBe(true);
    const ended = (s: string) => s === "pass" || s === "fail";
    expect(seen.some((s) => s.filter(ended).length === 1 && s.length === 2)).toBe(true);
    const failed = board.run.cases.find((c) => c.name === "retry-same-connection");
    expect(failed?.reason).toMatch(/messageId/);
    const id = failed?.traceId as string;
    expect(id).toMatch(/^conformance-.*-retry-same-connection$/);
    const listed = await callHub(target, "GET", "/api/traces");
    expect((listed.body.traces as { id: string }[]).map((t) => t.id)).toContain(id);
    const res = await fetch(`${target.base}/api/traces/${id}`, {
      headers: { Authorization: `Bearer ${hub.token}` },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.split("\n")[0]).toContain('"tool"');
    expect(text).toContain("session/prompt");
    expect(text).toContain("idempotencyKey");
    // The suite's taps stayed off the hub: only the whole case traces and the probe's appear.
    const ids = (listed.body.traces as { id: string }[]).map((t) => t.id);
    expect(ids.every((t) => t.startsWith(board.run.runId as string))).toBe(true);
    expect(ids).toHaveLength(3);
  }, 120_000);

  test("the HTTP API starts and cancels a run; cases not started are not run, running ones skipped as cancelled", async () => {
    const started = await callHub(target, "POST", "/api/conformance/runs", { agent: "demo-correct" });
    expect(started.status).toBe(202);
    // the reply names the run it started, as the board shows it
    expect(started.body).toMatchObject({ ok: true, runId: expect.stringMatching(/^conformance-.+-\d+$/) });
    const running = await ui.waitFor(
      (m) => m.t === "conformance-status" && m.board.run.cases.some((c) => c.state === "running"),
      30_000,
    );
    expect(running.t === "conformance-status" && running.board.run.runId).toBe(started.body.runId);
    const cancelled = await callHub(target, "DELETE", "/api/conformance/runs");
    expect(cancelled.status).toBe(200);
    const board = await finished(60_000);
    expect(board.run.state).toBe("cancelled");
    const notRun = board.run.cases.filter((c) => c.state === "not-run");
    expect(notRun.length).toBeGreaterThan(0);
    expect(notRun.every((c) => c.reason === "not run: the run was cancelled")).toBe(true);
    const skipped = board.run.cases.filter((c) => c.state === "skip");
    expect(skipped.every((c) => /cancelled/.test(c.reason ?? ""))).toBe(true);
    const again = await callHub(target, "DELETE", "/api/conformance/runs");
    expect(again.status).toBe(409);
  }, 120_000);

  test("only an offered agent can run: unknown ids, commands and bad cases are refused", async () => {
    const unknown = await callHub(target, "POST", "/api/conformance/runs", { agent: "sh" });
    expect(unknown).toMatchObject({
      status: 409,
      body: { error: expect.stringContaining("no agent choice") },
    });
    const command = await callHub(target, "POST", "/api/conformance/runs", { command: ["sh", "-c", "id"] });
    expect(command.status).toBe(400);
    const badCase = await callHub(target, "POST", "/api/conformance/runs", {
      agent: "demo-correct",
      only: ["x"],
    });
    expect(badCase.body.error).toContain("unknown case");
    const noToken = await fetch(`${target.base}/api/conformance`);
    expect(noToken.status).toBe(401);
    expect(lastBoard()?.run.state).toBe("idle");
  });

  test("a config agent that is not an ACP agent fails the probe with a reason and a probe trace", async () => {
    await callHub(target, "POST", "/api/conformance/runs", { agent: "config-1", only: ["key-validation"] });
    const board = await finished(60_000);
    expect(board.run.probe?.status).toBe("failed");
    // The cause is on the probe, once; the case did not run.
    expect(board.run.probe?.problem).toMatch(/before answering initialize|initialize failed/);
    expect(board.run.cases[0]).toMatchObject({
      state: "not-run",
      reason: "not run: the agent did not answer initialize",
    });
    expect(board.run.summary).toMatchObject({ notRun: 1, exitStatus: 1 });
    expect(board.run.probeTraceId).toBeDefined();
    const events = [];
    for await (const ev of readTrace(join(dir, "traces", `${board.run.probeTraceId}.jsonl`))) events.push(ev);
    expect(events[0]?.kind).toBe("header");
  }, 90_000);
});

test("a remote agent from the agents file is dialled through the tap's remote front", async () => {
  const remote = await startRemoteDemoAgent("correct");
  const agents = join(dir, "remote-agents.json");
  writeFileSync(agents, JSON.stringify({ agents: [{ name: "remote demo", url: remote.ws }] }));
  const other = await startHub({ tracesDir: join(dir, "remote-traces"), flushMs: 10 });
  const stopOther = startConformanceBesideHub(other, { cliPath: cliPath(), agentsFile: agents });
  const probe = await connectUiProbe(other.port, other.token);
  try {
    const t: HubTarget = { base: `http://127.0.0.1:${other.port}`, token: other.token };
    const r = await callHub(t, "POST", "/api/conformance/runs", {
      agent: "config-1",
      only: ["retry-same-connection"],
    });
    expect(r.status).toBe(202);
    const done = (await probe.waitFor(
      (m) => m.t === "conformance-status" && m.board.run.state === "done",
      60_000,
    )) as HubConformanceStatus;
    expect(done.board.run.agent?.target).toBe(remote.ws);
    expect(done.board.run.cases[0]).toMatchObject({ name: "retry-same-connection", state: "pass" });
    const events = [];
    const id = done.board.run.cases[0]?.traceId as string;
    for await (const ev of readTrace(join(dir, "remote-traces", `${id}.jsonl`))) events.push(ev);
    const header = events[0];
    expect(header?.kind === "header" && header.header.transport).toBe("ws+http");
  } finally {
    probe.close();
    await stopOther();
    await other.close();
    await remote.stop();
  }
}, 90_000);
