import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { HubToUi } from "../../shared/hub/ui-wire.js";
import { TRACE_FORMAT } from "../../shared/trace/record.js";
import { createHubLink, type HubLink } from "../tap/hub-link/hub-link.js";
import type { AppCore } from "./app-core.js";
import { IPC_CHANNELS } from "./ipc-channels.js";
import { type IpcCaller, type IpcRegistrar, setupEventStream, setupOperations } from "./ipc-setup.js";
import { startApp } from "./start-app.js";

/** A registrar that records handlers so the test can call them like ipcMain would. */
function registrar() {
  const handlers = new Map<string, (caller: IpcCaller, args: readonly unknown[]) => unknown>();
  const ipc: IpcRegistrar = { handle: (channel, h) => void handlers.set(channel, h) };
  const call = (channel: string, caller: IpcCaller, ...args: unknown[]) =>
    handlers.get(channel)!(caller, args);
  return { ipc, call };
}

let dir: string;
let core: AppCore;
let link: HubLink;
beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-ipc-"));
  core = await startApp({ tracesDir: join(dir, "traces"), rendezvousPath: join(dir, "hub.json") });
  // a tap for the rules to be armed on (a rule always has one)
  link = createHubLink({
    header: { format: TRACE_FORMAT, version: 1, tool: "test", startedAt: "2026-01-01T00:00:00Z" },
    rendezvousPath: join(dir, "hub.json"),
    retryMinMs: 20,
  });
  await new Promise<void>((resolve) => link.onAttach((a) => a && resolve()));
});
afterEach(async () => {
  await link.close(100);
  await core.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("IPC feature modules over the in-process hub", () => {
  it("runs operations on the hub and returns failures as messages, not throws", async () => {
    const { ipc, call } = registrar();
    setupOperations(ipc, core);
    const caller = { webContentsId: 1, send() {} };
    const armed = (await call(IPC_CHANNELS.invoke, caller, "armFault", {
      spec: { action: "delay", delayMs: 100, match: { method: "session/prompt" }, target: { all: true } },
    })) as { ok: true; value: { rule: { id: string } } };
    expect(armed.ok).toBe(true);
    expect(await call(IPC_CHANNELS.invoke, caller, "disarmFault", { id: armed.value.rule.id })).toEqual({
      ok: true,
      value: { disarmed: armed.value.rule.id },
    });
    expect(await call(IPC_CHANNELS.invoke, caller, "armFault", { spec: { action: "rm -rf" } })).toMatchObject(
      {
        ok: false,
        error: expect.stringContaining("action"),
      },
    );
    expect(await call(IPC_CHANNELS.invoke, caller, "shell", { cmd: "rm" })).toEqual({
      ok: false,
      error: 'unknown operation "shell"',
    });
  });

  it("streams the hub's messages to the subscribing window and stops on unsubscribe", async () => {
    const { ipc, call } = registrar();
    setupOperations(ipc, core);
    setupEventStream(ipc, core);
    const got: HubToUi[] = [];
    const waiters = new Set<() => void>();
    const caller: IpcCaller = {
      webContentsId: 3,
      send(channel, payload) {
        expect(channel).toBe(IPC_CHANNELS.message);
        got.push(JSON.parse(payload as string) as HubToUi);
        for (const w of waiters) w();
      },
    };
    const until = (pred: () => boolean) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out: ${JSON.stringify(got)}`)), 5_000);
        const check = () => {
          if (!pred()) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      });
    call(IPC_CHANNELS.subscribe, caller, 0);
    await until(() => got.some((m) => m.t === "hello") && got.some((m) => m.t === "fault-rules"));
    await call(IPC_CHANNELS.invoke, caller, "armFault", {
      spec: { action: "drop-request", target: { all: true } },
    });
    await until(() => got.some((m) => m.t === "fault-rules" && m.rules.length === 1));
    call(IPC_CHANNELS.unsubscribe, caller);
    const before = got.length;
    await call(IPC_CHANNELS.invoke, caller, "clearFaults", {});
    // The hub answered the clear; a still-subscribed window would have had a new rule list by now.
    const status = (await call(IPC_CHANNELS.invoke, caller, "hubStatus", {})) as { ok: boolean };
    expect(status.ok).toBe(true);
    expect(got).toHaveLength(before);
  });
});
