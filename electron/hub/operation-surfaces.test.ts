import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HubReply } from "../../shared/hub/ui-wire.js";
import { uiOperationMessage } from "../../shared/hub/ui-wire.js";
import { OPERATION_NAMES, OPERATIONS, type OperationName } from "../../shared/ops/operations.js";
import { TRACE_FORMAT } from "../../shared/trace/record.js";
import { callOperation } from "../hub-client/hub-client.js";
import { connectUiProbe, type UiProbe } from "../tools/testing/ui-probe.js";
import { type RunningHub, startHub } from "./hub-server.js";

/** How a call came out, whatever the surface: the result, or the hub's words of refusal. */
type Outcome = { ok: true; value: unknown } | { ok: false; error: string };
type Surface = (op: OperationName, args: Record<string, unknown>) => Promise<Outcome>;

const FRAME = {
  seq: 1,
  ts: 1,
  type: "frame",
  conn: 1,
  dir: "client->agent",
  raw: '{"jsonrpc":"2.0","method":"m"}',
};
const TRACE = `${JSON.stringify({ type: "header", format: TRACE_FORMAT, version: 1, tool: "test", startedAt: "2026-01-01T00:00:00Z" })}\n${JSON.stringify(FRAME)}\n`;

/**
 * One script that calls every operation of the table on a fresh hub without a demo or a
 * conformance runner attached. Each step names its operation; later steps use earlier results.
 */
async function script(call: Surface): Promise<Map<OperationName, Outcome>> {
  const seen = new Map<OperationName, Outcome>();
  const step = async (op: OperationName, args: Record<string, unknown> = {}) => {
    const outcome = await call(op, args);
    seen.set(op, outcome);
    return outcome.ok ? (outcome.value as Record<string, unknown>) : undefined;
  };
  await step("hubStatus");
  const armed = await step("armFault", {
    spec: { action: "drop-response", match: { method: "session/prompt" }, target: { all: true } },
  });
  await step("listFaults");
  await step("disarmFault", { id: (armed?.rule as { id: string } | undefined)?.id ?? "none" });
  await step("clearFaults");
  await step("listTaps");
  const imported = await step("importTrace", { text: TRACE });
  await step("listTraces");
  await step("readTrace", { id: String(imported?.id) });
  await step("readTracePreviews", { id: String(imported?.id) });
  await step("readFrame", { trace: String(imported?.id), seq: 1 });
  await step("checkSchema", { id: String(imported?.id) });
  await step("demoStatus");
  await step("demo", { command: { op: "send", text: "hi", withKey: true } });
  await step("conformanceStatus");
  await step("conformanceStart", { request: { agent: "demo-correct" } });
  await step("conformanceCancel");
  await step("conformanceStressStart", { request: { agent: "demo-correct", runs: 2 } });
  await step("conformanceStressCancel");
  await step("replay", { traceId: String(imported?.id), agentId: "argv" });
  return seen;
}

/** An outcome without what differs between two hubs (ids, times, ports). */
function shape(o: Outcome): unknown {
  if (!o.ok) return o;
  return JSON.parse(
    JSON.stringify(o.value, (k, v) =>
      [
        "id",
        "hubId",
        "pid",
        "port",
        "startedAt",
        "armedAt",
        "modifiedAt",
        "disarmed",
        "rssBytes",
        "heapUsedBytes",
        "maxRssBytes",
      ].includes(k)
        ? "*"
        : v,
    ).replace(/imported-[0-9A-Za-z-]+/g, "imported-*"),
  );
}

let dir: string;
let hub: RunningHub;
let ui: UiProbe;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-surfaces-"));
  hub = await startHub({ tracesDir: join(dir, "traces") });
  ui = await connectUiProbe(hub.port, hub.token);
});
afterEach(async () => {
  ui.close();
  await hub.close();
  rmSync(dir, { recursive: true, force: true });
});

const overHttp: Surface = async (op, args) => {
  try {
    return {
      ok: true,
      value: await callOperation({ base: `http://127.0.0.1:${hub.port}`, token: hub.token }, op, args),
    };
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
};

let ref = 0;
const overSocket: Surface = async (op, args) => {
  const r = `s${++ref}`;
  ui.send(uiOperationMessage(op, args, r));
  const reply = (await ui.waitFor((m) => m.t === "reply" && m.ref === r)) as HubReply;
  return reply.ok ? { ok: true, value: reply.value } : { ok: false, error: reply.error };
};

describe("every operation of the table on every hub surface", () => {
  it("the script calls every operation, and HTTP and the UI WebSocket give the same outcome for each", async () => {
    const http = await script(overHttp);
    expect([...http.keys()].sort()).toEqual([...OPERATION_NAMES].sort());
    // A fresh hub for the socket run, so both runs start from the same state.
    ui.close();
    await hub.close();
    hub = await startHub({ tracesDir: join(dir, "traces-ws") });
    ui = await connectUiProbe(hub.port, hub.token);
    const ws = await script(overSocket);
    for (const op of OPERATION_NAMES) {
      expect({ op, outcome: shape(ws.get(op)!) }).toEqual({ op, outcome: shape(http.get(op)!) });
      // No surface may fail to route an operation of the table.
      const o = http.get(op)!;
      if (!o.ok) expect(o.error).not.toMatch(/no such endpoint|unknown UI message|unknown operation/);
    }
  });

  it("routes do what the table says: the trace read back is the trace imported, refusals name their reason", async () => {
    const seen = await script(overHttp);
    expect(seen.get("readTrace")).toEqual({ ok: true, value: { text: TRACE } });
    // no frame over the preview threshold: the file as it is
    expect(seen.get("readTracePreviews")).toEqual({ ok: true, value: { text: TRACE } });
    // no tap is attached to this hub: a rule has nothing to be armed on, and says so
    expect(seen.get("armFault")).toEqual({ ok: false, error: expect.stringContaining("no tap is attached") });
    expect(seen.get("listFaults")).toEqual({ ok: true, value: { rules: [], faults: [], recent: [] } });
    expect(seen.get("disarmFault")).toMatchObject({ ok: false, error: "no armed rule none" });
    expect(seen.get("readFrame")).toEqual({ ok: true, value: { frame: FRAME } });
    // the frame's method "m" is in no schema: listed as not checked, no violation
    expect(seen.get("checkSchema")).toMatchObject({
      ok: true,
      value: {
        reports: [{ seq: 1, notChecked: expect.stringContaining("not in the v1 schema") }],
        summary: { checked: 0 },
      },
    });
    expect(seen.get("importTrace")).toMatchObject({ ok: true, value: { records: 1, flagged: 0 } });
    expect(seen.get("demo")).toEqual({ ok: false, error: expect.stringContaining("no demo") });
    expect(seen.get("conformanceStart")).toEqual({ ok: false, error: "this hub runs no conformance suite" });
    expect(seen.get("conformanceStressStart")).toEqual({
      ok: false,
      error: "this hub runs no conformance stress mode",
    });
    expect(seen.get("replay")).toEqual({ ok: false, error: "this hub runs no replays" });
  });

  it("docs/hub.md lists every operation with its route and WebSocket type", () => {
    const doc = readFileSync(join(import.meta.dirname, "../../docs/hub.md"), "utf8");
    for (const op of OPERATION_NAMES) {
      const { http, ws } = OPERATIONS[op];
      const row = doc.split("\n").find((l) => l.startsWith(`| \`${op}\` `));
      expect(row, op).toContain(`\`${http.method} ${http.path.replace(/:(\w+)/g, "<$1>")}\``);
      expect(row, op).toContain(`\`${ws}\``);
    }
  });

  it("every operation has its own HTTP route and its own WebSocket message type", () => {
    const routes = OPERATION_NAMES.map((op) => `${OPERATIONS[op].http.method} ${OPERATIONS[op].http.path}`);
    const types = OPERATION_NAMES.map((op) => OPERATIONS[op].ws);
    expect(new Set(routes).size).toBe(OPERATION_NAMES.length);
    expect(new Set(types).size).toBe(OPERATION_NAMES.length);
    expect(types).not.toContain("subscribe");
  });
});
