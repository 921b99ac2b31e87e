import { describe, expect, it } from "vitest";
import type { EventBatch } from "../../shared/app/app-event.js";
import { IPC_CHANNELS } from "./ipc-channels.js";
import { type IpcCaller, type IpcRegistrar, setupEventStream, setupOperations } from "./ipc-setup.js";
import { createPlaceholderCore } from "./placeholder-core.js";

/** A registrar that records handlers so the test can call them like ipcMain would. */
function registrar() {
  const handlers = new Map<string, (caller: IpcCaller, args: readonly unknown[]) => unknown>();
  const ipc: IpcRegistrar = { handle: (channel, h) => void handlers.set(channel, h) };
  const call = (channel: string, caller: IpcCaller, ...args: unknown[]) =>
    handlers.get(channel)!(caller, args);
  return { ipc, call };
}

describe("IPC feature modules", () => {
  it("runs operations and returns failures as messages, not throws", async () => {
    const { ipc, call } = registrar();
    setupOperations(ipc, createPlaceholderCore({ label: "t", tool: "t" }));
    const caller = { webContentsId: 1, send() {} };
    expect(await call(IPC_CHANNELS.invoke, caller, "setPaused", { paused: true })).toEqual({
      ok: true,
      value: { paused: true },
    });
    expect(await call(IPC_CHANNELS.invoke, caller, "shell", { cmd: "rm" })).toEqual({
      ok: false,
      error: 'unknown operation "shell"',
    });
  });

  it("streams batches to the subscribing window and stops on unsubscribe", async () => {
    const { ipc, call } = registrar();
    const core = createPlaceholderCore({ label: "t", tool: "t" });
    setupEventStream(ipc, core);
    const got: EventBatch[] = [];
    let wake: () => void = () => {};
    const caller: IpcCaller = {
      webContentsId: 3,
      send(channel, payload) {
        expect(channel).toBe(IPC_CHANNELS.batch);
        got.push(payload as EventBatch);
        wake();
      },
    };
    const first = new Promise<void>((r) => {
      wake = r;
    });
    call(IPC_CHANNELS.subscribe, caller, 0);
    await first;
    expect(got[0]!.events[0]!.seq).toBe(1);
    call(IPC_CHANNELS.unsubscribe, caller);
    await core.invoke("clear", {});
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(got).toHaveLength(1);
  });
});
