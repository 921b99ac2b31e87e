/**
 * Issue 31's red-team inputs through the Electron shell's own path: a compromised page calls the
 * preload's functions with whatever it likes, Electron structured-clones the arguments, and the
 * main process's handlers (`ipc-setup.ts`) check them, write them as JSON and call the in-process
 * hub over HTTP (`hub-core.ts`). The browser's path skips the main process; this is where the two
 * differ. Real handlers, a real in-process hub; only `ipcMain` is stood in for by a registrar.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HubToUi } from "../../shared/hub/ui-wire.js";
import { TRACE_FORMAT } from "../../shared/trace/record.js";
import type { AppCore } from "./app-core.js";
import { IPC_CHANNELS } from "./ipc-channels.js";
import {
  type InvokeOutcome,
  type IpcCaller,
  type IpcRegistrar,
  setupEventStream,
  setupOperations,
} from "./ipc-setup.js";
import { startApp } from "./start-app.js";

let dir: string;
let core: AppCore;
const handlers = new Map<string, (caller: IpcCaller, args: readonly unknown[]) => unknown>();
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-ipc-attacks-"));
  core = await startApp({ tracesDir: join(dir, "traces"), rendezvousPath: join(dir, "hub.json") });
  const ipc: IpcRegistrar = { handle: (channel, h) => void handlers.set(channel, h) };
  setupOperations(ipc, core);
  setupEventStream(ipc, core);
});
afterAll(async () => {
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

const caller: IpcCaller = { webContentsId: 1, send() {} };

/** Calls the invoke channel as ipcMain would: arguments structured-cloned when they can be (Electron clones them). */
async function invoke(...args: unknown[]): Promise<InvokeOutcome> {
  let sent = args;
  try {
    sent = structuredClone(args);
  } catch {
    // too deep for this process's serializer: hand the value over as is, the handler must still cope
  }
  return (await handlers.get(IPC_CHANNELS.invoke)?.(caller, sent)) as InvokeOutcome;
}

/** `{a: {a: ...}}`, `depth` objects deep, built without recursion. */
function nested(depth: number): unknown {
  let v: unknown = {};
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

const HEADER = JSON.stringify({
  format: TRACE_FORMAT,
  version: 1,
  tool: "ipc-attacks",
  startedAt: "2026-01-01T00:00:00Z",
});

/** A trace whose one prompt frame nests `depth` arrays. */
function deepTrace(depth: number): string {
  const raw = `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":${"[".repeat(depth)}${"]".repeat(depth)}}}`;
  return `${[
    HEADER,
    JSON.stringify({ seq: 1, ts: 1, type: "conn-open", conn: 1, transport: "stdio" }),
    JSON.stringify({ seq: 2, ts: 2, type: "frame", conn: 1, dir: "client->agent", raw }),
  ].join("\n")}\n`;
}

describe("the IPC operation channel against a compromised page", () => {
  it("refuses odd operation names with a short message, never echoing a huge one", async () => {
    for (const op of [5, null, { toString: 0 }, ["hubStatus"], "__proto__", "constructor", "toString"]) {
      const out = await invoke(op, {});
      expect(out.ok, typeof op).toBe(false);
      if (!out.ok) expect(out.error.length).toBeLessThan(200);
    }
    const huge = await invoke("x".repeat(10_000_000), {});
    expect(huge).toEqual({ ok: false, error: "unknown operation (a name of 10000000 characters)" });
  });

  it("refuses arguments that are not an object, and takes none for an operation without any", async () => {
    for (const args of [[], "text", 7, true]) {
      const out = await invoke("readTrace", args);
      expect(out).toEqual({ ok: false, error: "readTrace: arguments must be an object" });
    }
    expect((await invoke("hubStatus", null)).ok).toBe(true);
    expect((await invoke("hubStatus")).ok).toBe(true);
  });

  it("refuses arguments nested past the limit with that reason, not a stack overflow", async () => {
    for (const depth of [600, 4_000, 5_000, 100_000]) {
      const spec = { action: "delay", delayMs: 5, target: { all: true }, match: nested(depth) };
      expect(await invoke("armFault", { spec }), `depth ${depth}`).toEqual({
        ok: false,
        error: "armFault: arguments nested deeper than 512",
      });
    }
    expect(await invoke("demo", { command: nested(100_000) })).toEqual({
      ok: false,
      error: "demo: arguments nested deeper than 512",
    });
    // A shallow but wrong spec still gets the table's reason.
    const shallow = await invoke("armFault", { spec: { action: "delay", match: nested(3) } });
    expect(shallow.ok).toBe(false);
    if (!shallow.ok) expect(shallow.error).toMatch(/match field/);
  });

  it("treats __proto__ keys as data: refused by the table, nothing polluted", async () => {
    const viaProto = JSON.parse(
      '{"__proto__":{"spec":{"action":"drop-request","target":{"all":true}}}}',
    ) as unknown;
    expect(await invoke("armFault", viaProto)).toEqual({
      ok: false,
      error: "armFault: spec must be an object",
    });
    const protoInSpec = JSON.parse(
      '{"spec":{"__proto__":{"polluted":1},"action":"drop-request","target":{"all":true}}}',
    ) as unknown;
    expect(await invoke("armFault", protoInSpec)).toMatchObject({ ok: false });
    expect((await invoke("readTrace", JSON.parse('{"__proto__":{"id":"x"}}'))).ok).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await invoke("listFaults", {})).toMatchObject({ ok: true, value: { rules: [] } });
  });

  it("reads no file outside the hub's trace folder", async () => {
    const outside = [
      "../hub.json",
      "..",
      ".",
      "/etc/passwd",
      "a/../../hub.json",
      "%2e%2e",
      "x\u0000y",
      "x".repeat(300),
    ];
    for (const id of outside) {
      for (const op of ["readTrace", "readTracePreviews"]) {
        const out = await invoke(op, { id });
        expect(out, `${op} ${id.slice(0, 20)}`).toEqual({ ok: false, error: `${op}: id must be a trace id` });
      }
      expect((await invoke("readFrame", { trace: id, seq: 1 })).ok).toBe(false);
    }
    for (const seq of [0, -1, 1.5, 1e300, "1e3", "0x10", Number.NaN, null])
      expect(await invoke("readFrame", { trace: "t", seq })).toEqual({
        ok: false,
        error: "readFrame: seq must be a positive integer",
      });
    expect((await invoke("disarmFault", { id: "a/../b" })).ok).toBe(false);
    // The hub's own rendezvous file (token inside) sits beside its trace folder, never reachable.
    expect(readdirSync(dir).sort()).toEqual(["hub.json", "traces"]);
  });

  it("imports deep and malformed traces through IPC, keeps them byte-exact and stays up", async () => {
    const deep = deepTrace(100_000);
    const imported = await invoke("importTrace", { text: deep });
    expect(imported).toMatchObject({ ok: true, value: { records: 2, flagged: 0 } });
    const id = imported.ok ? (imported.value as { id: string }).id : "";
    expect(await invoke("readTrace", { id })).toEqual({ ok: true, value: { text: deep } });
    expect(await invoke("readFrame", { trace: id, seq: 2 })).toMatchObject({ ok: true });

    // One line of 100,000 nested arrays (no record at all): kept and flagged.
    const line = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    expect(await invoke("importTrace", { text: `${HEADER}\n${line}\n` })).toMatchObject({
      ok: true,
      value: { records: 0, flagged: 1 },
    });
    // A header with wrong fields: stored, its faults named in the listing.
    const badHeader = `{"format":"${TRACE_FORMAT}","version":1,"tool":{"toString":0},"startedAt":7,"imported":{"lacks":"x"},"agent":{"command":"str"}}\n`;
    const bad = await invoke("importTrace", { text: badHeader });
    expect(bad.ok).toBe(true);
    const listed = await invoke("listTraces", {});
    const traces = listed.ok ? (listed.value as { traces: { id: string; header?: unknown }[] }).traces : [];
    const badId = bad.ok ? (bad.value as { id: string }).id : "";
    const badListed = traces.find((t) => t.id === badId)?.header as { headerFaults?: string[] } | undefined;
    expect(badListed?.headerFaults?.length).toBeGreaterThanOrEqual(3);
    expect(traces.some((t) => t.id === id)).toBe(true);
    expect((await invoke("hubStatus", {})).ok).toBe(true);
  });
});

describe("an import over the hub's limit through IPC", () => {
  it("is refused in main with the limit, before main copies it into a request", async () => {
    // Handed over as is: a 256 MiB string cloned once more would only slow the test.
    const text = "x".repeat(256 * 1024 * 1024 + 1);
    const out = await handlers.get(IPC_CHANNELS.invoke)?.(caller, ["importTrace", { text }]);
    expect(out).toEqual({ ok: false, error: "importTrace: trace larger than 268435456 bytes" });
    // The hub still takes the next import.
    expect((await invoke("importTrace", { text: deepTrace(3) })).ok).toBe(true);
  });
});

describe("the IPC event stream against a compromised page", () => {
  it("starts from the oldest held event for any odd `after`, and still streams", async () => {
    for (const after of [Number.NaN, -1, "5", 1e300, 2 ** 53, { valueOf: 3 }, null, undefined]) {
      const got: string[] = [];
      let hello: () => void = () => {};
      const seen = new Promise<void>((resolve) => {
        hello = resolve;
      });
      const window: IpcCaller = {
        webContentsId: 9,
        send(channel, payload) {
          expect(channel).toBe(IPC_CHANNELS.message);
          got.push(payload as string);
          if ((JSON.parse(payload as string) as HubToUi).t === "hello") hello();
        },
      };
      expect(handlers.get(IPC_CHANNELS.subscribe)?.(window, [after])).toBe(true);
      await seen;
      expect(got.length).toBeGreaterThan(0);
      handlers.get(IPC_CHANNELS.unsubscribe)?.(window, []);
    }
  });
});

describe("the IPC event stream under a flood of subscribes", () => {
  it("keeps one hub socket per window: 200 subscribes leave the hub's UI sockets free, and the window still streams", async () => {
    const window: IpcCaller = { webContentsId: 11, send() {} };
    for (let i = 0; i < 200; i++) handlers.get(IPC_CHANNELS.subscribe)?.(window, [i]);
    const status = async () => {
      const out = await invoke("hubStatus", {});
      return out.ok ? (out.value as { uiSockets?: number }).uiSockets : undefined;
    };
    const deadline = Date.now() + 10_000;
    let sockets = await status();
    while ((sockets === undefined || sockets > 1) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      sockets = await status();
    }
    expect(sockets).toBeLessThanOrEqual(1);
    let hello: () => void = () => {};
    const seen = new Promise<void>((resolve) => {
      hello = resolve;
    });
    const other: IpcCaller = {
      webContentsId: 12,
      send(_channel, payload) {
        if ((JSON.parse(payload as string) as HubToUi).t === "hello") hello();
      },
    };
    handlers.get(IPC_CHANNELS.subscribe)?.(other, [0]);
    await seen;
    handlers.get(IPC_CHANNELS.unsubscribe)?.(window, []);
    handlers.get(IPC_CHANNELS.unsubscribe)?.(other, []);
  });
});
