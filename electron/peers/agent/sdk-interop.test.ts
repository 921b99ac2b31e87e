/**
 * Interop: the official SDK's v2 client drives the demo agent over stdio, and the SDK's
 * validators accept every response (a response the SDK rejects fails its request).
 */

import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import * as v2 from "@agentclientprotocol/sdk/experimental/v2";
import * as v2unstable from "@agentclientprotocol/sdk/experimental/v2/unstable";
import { afterEach, describe, expect, it } from "vitest";
import { cliPath } from "../../tools/testing/cli.js";
import { tempStore, within } from "../testing/raw-agent.js";

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill("SIGKILL");
});

function agentStream(store: string) {
  const child = spawn(process.execPath, [cliPath(), "demo-agent", "--store", store, "--turn-ms", "100"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  children.push(child);
  return v2.ndJsonStream(
    Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
  );
}

describe("SDK v2 client against demo-agent", () => {
  it("initialize, new, prompt, list, resume with replay, fork, close: every response validates", async () => {
    const store = tempStore();
    const updates: { sessionUpdate: string }[] = [];
    let watcher: (() => void) | undefined;
    const until = (count: (u: typeof updates) => boolean) =>
      within(
        new Promise<void>((resolve) => {
          watcher = () => {
            if (count(updates)) resolve();
          };
          watcher();
        }),
        10_000,
        "session updates",
      );
    const app = v2.client().onNotification("session/update", (ctx) => {
      updates.push(ctx.params.update as { sessionUpdate: string });
      watcher?.();
    });
    const sessionId = await within(
      app.connectWith(agentStream(store), async (agent) => {
        const init = await agent.request("initialize", {
          protocolVersion: 2,
          info: { name: "interop", version: "1" },
          capabilities: {},
        });
        expect(init.capabilities?.session).toBeTruthy();
        const { sessionId } = await agent.request("session/new", { cwd: "/tmp" });
        const params = {
          sessionId,
          prompt: [{ type: "text" as const, text: "hello" }],
          idempotencyKey: "k-1",
        };
        const first = await agent.request("session/prompt", params);
        const retry = await agent.request("session/prompt", params);
        expect(retry.messageId).toBe(first.messageId);
        await until((us) => us.some((u) => (u as { state?: string }).state === "idle"));
        const list = await agent.request("session/list", {});
        expect(list.sessions.map((s) => s.sessionId)).toContain(sessionId);
        updates.length = 0;
        await agent.request("session/resume", { sessionId, cwd: "/tmp", replayFrom: { type: "start" } });
        await until((us) => us.length >= 4);
        expect(updates.map((u) => u.sessionUpdate)).toEqual([
          "user_message",
          "tool_call_update",
          "agent_message",
          "state_update",
        ]);
        await agent.request("session/close", { sessionId });
        return sessionId;
      }),
      20_000,
      "the stable v2 client flow",
    );
    // session/fork is in the unstable v2 schema: the SDK's unstable v2 client drives it.
    const forked = await within(
      v2unstable.client().connectWith(agentStream(store), async (agent) => {
        await agent.request("initialize", { protocolVersion: 2, info: { name: "interop", version: "1" } });
        await agent.request("session/resume", { sessionId, cwd: "/tmp" });
        const fork = await agent.request("session/fork", { sessionId, cwd: "/tmp" });
        await agent.request("session/close", { sessionId: fork.sessionId });
        await agent.request("session/delete", { sessionId: fork.sessionId });
        return fork.sessionId;
      }),
      20_000,
      "the unstable v2 client flow",
    );
    expect(forked).not.toBe(sessionId);
  });
});
