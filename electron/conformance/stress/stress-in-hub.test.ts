/**
 * The app's stress mode against a real hub: the runner attached the way `serve` and the app attach
 * it, stress runs on the real demo agent through the real tap, driven over the hub's UI WebSocket
 * and HTTP API as the shells drive it; the minimal failing trace is readable by its hub trace id.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import type { ConformanceBoard } from "../../../shared/conformance/conformance-run.js";
import { parseSchedule } from "../../../shared/conformance/stress/schedule.js";
import type { HubConformanceStatus, HubReply, HubToUi } from "../../../shared/hub/ui-wire.js";
import { type RunningHub, startHub } from "../../hub/hub-server.js";
import { callHub, type HubTarget } from "../../hub-client/hub-client.js";
import { cliPath } from "../../tools/testing/cli.js";
import { connectUiProbe, type UiProbe } from "../../tools/testing/ui-probe.js";
import { startConformanceBesideHub } from "../conformance-beside-hub.js";

let dir: string;
let hub: RunningHub;
let target: HubTarget;
let stop: () => Promise<void>;
let ui: UiProbe;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "acp-stress-hub-"));
  const agents = join(dir, "agents.json");
  writeFileSync(agents, JSON.stringify({ agents: [{ name: "remote", url: "ws://127.0.0.1:9/acp" }] }));
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

const lastBoard = (): ConformanceBoard | undefined =>
  ui.messages
    .filter((m): m is HubConformanceStatus => m.t === "conformance-status")
    .map((m) => m.board)
    .at(-1);
const isReply = (ref: string) => (m: HubToUi) => m.t === "reply" && m.ref === ref;

describe("stress runs from a UI", () => {
  test("a UI starts a stress run on the naive demo agent, sees runs tick and the shrunk failure, and reads its trace", async () => {
    await ui.waitFor((m) => m.t === "conformance-status");
    expect(lastBoard()?.stress?.state).toBe("idle");
    ui.send({
      t: "conformance-stress-start",
      ref: "s1",
      request: { agent: "demo-naive", runs: 4, seed: 42 },
    });
    expect(((await ui.waitFor(isReply("s1"))) as HubReply).ok).toBe(true);
    ui.send({ t: "conformance-stress-start", ref: "s2", request: { agent: "demo-correct", runs: 1 } });
    expect(await ui.waitFor(isReply("s2"))).toMatchObject({
      ok: false,
      error: "a stress run is already going",
    });
    await ui.waitFor(
      (m) => m.t === "conformance-status" && m.board.stress !== undefined && m.board.stress.state === "done",
      240_000,
    );
    const stress = lastBoard()?.stress;
    expect(stress?.agent?.id).toBe("demo-naive");
    expect(stress?.seed).toBe(42);
    expect(stress?.rows).toHaveLength(4);
    // Runs ticked one at a time: a board was pushed with 1, 2, 3 rows before the last.
    const counts = ui.messages
      .filter((m): m is HubConformanceStatus => m.t === "conformance-status")
      .map((m) => m.board.stress?.rows.length ?? 0);
    expect(counts).toEqual(expect.arrayContaining([1, 2, 3, 4]));
    expect(stress?.rows.some((r) => r.status === "fail")).toBe(true);
    const failure = stress?.failure;
    expect(failure?.shrunkFaults).toBeLessThanOrEqual(3);
    expect(parseSchedule(failure?.shrunk ?? "").faults).toHaveLength(failure?.shrunkFaults ?? -1);
    expect(failure?.traceId, JSON.stringify(failure)).toMatch(/-stress-minimal$/);
    // The minimal failing trace is a hub trace: GET /api/traces/<id> returns it.
    const res = await fetch(`${target.base}/api/traces/${failure?.traceId}`, {
      headers: { Authorization: `Bearer ${hub.token}` },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.split("\n")[0]).toContain('"format":"acp-retry-inspector-trace"');
    expect(text).toContain("session/prompt");
  }, 300_000);

  test("refusals: a URL choice, bad runs, cancel with nothing going", async () => {
    const url = await callHub(target, "POST", "/api/conformance/stress", { agent: "config-1", runs: 2 });
    expect(url.status).toBe(409);
    expect(String(url.body.error)).toMatch(/needs an agent command, not a URL/);
    const zero = await callHub(target, "POST", "/api/conformance/stress", { agent: "demo-correct", runs: 0 });
    expect(zero.status).toBe(400);
    expect(String(zero.body.error)).toMatch(/runs must be an integer from 1 to 500/);
    const cancel = await callHub(target, "DELETE", "/api/conformance/stress");
    expect(cancel.status).toBe(409);
    expect(String(cancel.body.error)).toMatch(/no stress run is going/);
  });
});
