/**
 * One test per trace the RFD asks SDKs and conformance suites to exercise, against the demo agent
 * in a real process, plus the key validation table, key privacy and cancellation.
 */

import { appendFileSync } from "node:fs";
import { join } from "node:path";
import { createWebSocketStream } from "@agentclientprotocol/sdk/experimental/ws-client";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { derivedMessageId } from "../../../shared/keys/peer-choices.js";
import { RpcError } from "../rpc/json-rpc-peer.js";
import { AgentProcess, RawConnection, startRemoteAgent, tempStore, within } from "../testing/raw-agent.js";
import { readSessionFile } from "./session-file.js";

const agents: AgentProcess[] = [];
function agent(store = tempStore(), args: string[] = []): AgentProcess {
  const a = new AgentProcess(store, args);
  agents.push(a);
  return a;
}
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop()));
});

function records(store: string, sessionId: string) {
  return readSessionFile(join(store, "sessions", `${sessionId}.jsonl`))?.records ?? [];
}
function users(store: string, sessionId: string) {
  return records(store, sessionId).filter((r) => r.t === "user");
}
function effects(store: string, sessionId: string) {
  return records(store, sessionId).filter((r) => r.t === "effect");
}
async function errorOf(result: Promise<unknown>): Promise<RpcError> {
  const outcome = await within(
    result.then(
      () => undefined,
      (e: unknown) => e,
    ),
    10_000,
    "an error",
  );
  if (!(outcome instanceof RpcError)) throw new Error(`expected an RpcError, got ${String(outcome)}`);
  return outcome;
}

describe("RFD traces", () => {
  it("a retry on the same connection gets the original messageId and starts no work", async () => {
    const a = agent();
    const c = a.connection;
    const s = await c.openSession();
    const first = await within(c.prompt(s, "deploy", "k1").result, 10_000, "first");
    const retry = await within(c.prompt(s, "deploy", "k1").result, 10_000, "retry");
    expect(retry).toEqual(first);
    expect(first).toEqual({ messageId: derivedMessageId(s, "k1") });
    await c.idleCount(s, 1);
    expect(users(a.store, s)).toHaveLength(1);
    expect(effects(a.store, s)).toHaveLength(1);
  });

  it("a retry after session/resume on a new connection (WebSocket) gets the original messageId", async () => {
    const store = tempStore();
    const remote = await startRemoteAgent(store);
    try {
      const open = () =>
        new RawConnection(createWebSocketStream(remote.wsUrl, { WebSocket: WebSocket as never }));
      const c1 = open();
      const s = await c1.openSession();
      const first = await within(c1.prompt(s, "deploy", "k").result, 10_000, "first");
      c1.peer.close();
      const c2 = open();
      await c2.call("initialize", { protocolVersion: 2, info: { name: "t", version: "1" } });
      await c2.call("session/resume", { sessionId: s, cwd: "/tmp" });
      expect(await within(c2.prompt(s, "deploy", "k").result, 10_000, "retry")).toEqual(first);
      await c2.until((us) => us.some((u) => u.update.state === "idle"), "idle");
      expect(users(store, s)).toHaveLength(1);
      c2.peer.close();
    } finally {
      await remote.stop();
    }
  });

  it("a retry after an agent restart (kill -9) with a stored session gets the original messageId", async () => {
    const store = tempStore();
    const a1 = agent(store, ["--turn-ms", "2000"]);
    const s = await a1.connection.openSession();
    const first = await within(a1.connection.prompt(s, "deploy", "k").result, 10_000, "first");
    await a1.kill9(); // mid-turn: the message is stored, the turn is not finished
    const a2 = agent(store);
    await a2.connection.call("initialize", { protocolVersion: 2, info: { name: "t", version: "1" } });
    await a2.connection.call("session/resume", { sessionId: s, cwd: "/tmp" });
    expect(await within(a2.connection.prompt(s, "deploy", "k").result, 10_000, "retry")).toEqual(first);
    await a2.connection.until((us) => us.some((u) => u.update.state === "idle"), "the continued turn to end");
    expect(users(store, s)).toHaveLength(1);
    expect(effects(store, s)).toHaveLength(1);
  });

  it("a retry while the prompt is held waits for the original and gets its messageId", async () => {
    const a = agent(undefined, ["--turn-ms", "600"]);
    const c = a.connection;
    const s = await c.openSession();
    await within(c.prompt(s, "busy", "a").result, 10_000, "a");
    const original = c.prompt(s, "held", "b");
    const retry = c.prompt(s, "held", "b");
    let settledBeforeIdle = false;
    void retry.result.then(() => {
      settledBeforeIdle = !c.updates.some((u) => u.update.state === "idle");
    });
    const [o, r] = await within(Promise.all([original.result, retry.result]), 10_000, "held answers");
    expect(r).toEqual(o);
    expect(settledBeforeIdle).toBe(false);
    await c.idleCount(s, 2);
    expect(users(a.store, s).map((u) => u.messageId)).toEqual([
      derivedMessageId(s, "a"),
      derivedMessageId(s, "b"),
    ]);
  });

  it("a retry after an error inserts once: errors record nothing", async () => {
    const a = agent(undefined, ["--fail-inserts", "1"]);
    const c = a.connection;
    const s = await c.openSession();
    expect((await errorOf(c.prompt(s, "x", "k").result)).code).toBe(-32603);
    expect(users(a.store, s)).toHaveLength(0);
    expect(await within(c.prompt(s, "x", "k").result, 10_000, "retry")).toEqual({
      messageId: derivedMessageId(s, "k"),
    });
    expect(users(a.store, s)).toHaveLength(1);
  });

  it("the same key in another session, or a fork, is a new insert", async () => {
    const a = agent();
    const c = a.connection;
    const s1 = await c.openSession();
    const s2 = ((await c.call("session/new", { cwd: "/tmp" })) as { sessionId: string }).sessionId;
    const m1 = await within(c.prompt(s1, "x", "k").result, 10_000, "s1");
    const m2 = await within(c.prompt(s2, "x", "k").result, 10_000, "s2");
    expect(m1).not.toEqual(m2);
    await c.idleCount(s1, 1);
    const fork = ((await c.call("session/fork", { sessionId: s1, cwd: "/tmp" })) as { sessionId: string })
      .sessionId;
    const m3 = await within(c.prompt(fork, "x", "k").result, 10_000, "fork");
    expect(m3).toEqual({ messageId: derivedMessageId(fork, "k") });
    expect(users(a.store, fork)).toHaveLength(2); // the copied message and the new one
    expect(users(a.store, s1)).toHaveLength(1);
    expect(users(a.store, s2)).toHaveLength(1);
  });

  it("a retry of a prompt inserted during active work is answered at once and starts no second turn", async () => {
    const a = agent(undefined, ["--turn-ms", "400"]);
    const c = a.connection;
    const s = await c.openSession();
    await within(c.prompt(s, "first", "a").result, 10_000, "a");
    const b = await within(c.prompt(s, "second", "b").result, 10_000, "b inserted after a");
    // b's own turn is running now: its retry is answered immediately, with no new work.
    expect(await within(c.prompt(s, "second", "b").result, 1_000, "retry")).toEqual(b);
    await c.idleCount(s, 2);
    expect(effects(a.store, s)).toHaveLength(2);
    expect(c.updates.filter((u) => u.update.sessionUpdate === "user_message")).toHaveLength(2);
  });
});

describe("key validation and privacy", () => {
  it.each([
    ["empty", "", -32602],
    ["255 characters", "x".repeat(255), null],
    ["256 characters", "x".repeat(256), -32602],
    ["a number", 7, -32602],
    ["an object", { k: 1 }, -32602],
    ["null (no key)", null, null],
  ])("%s", async (_name, key, code) => {
    const a = agent();
    const s = await a.connection.openSession();
    const sent = a.connection.prompt(s, "x", key, true);
    if (code === null) {
      await within(sent.result, 10_000, "answer");
      expect(users(a.store, s)).toHaveLength(1);
    } else {
      expect((await errorOf(sent.result)).code).toBe(code);
      expect(users(a.store, s)).toHaveLength(0);
    }
  });

  it("never sends a key to a client: not in updates, list results or replay", async () => {
    const a = agent();
    const c = a.connection;
    const key = "secret-key-7f3a";
    const s = await c.openSession();
    await within(c.prompt(s, "x", key).result, 10_000, "answer");
    await c.idleCount(s, 1);
    await c.call("session/list", {});
    await c.call("session/resume", { sessionId: s, cwd: "/tmp", replayFrom: { type: "start" } });
    await c.call("session/fork", { sessionId: s, cwd: "/tmp" });
    expect(users(a.store, s)[0]).toMatchObject({ key }); // stored, privately
    expect(a.stdoutLines.length).toBeGreaterThan(5);
    for (const line of a.stdoutLines) expect(line).not.toContain(key);
  });
});

describe("cancellation and modes", () => {
  it("$/cancel_request for any pending request of a key withdraws the held prompt and answers all with -32800", async () => {
    const a = agent(undefined, ["--turn-ms", "800"]);
    const c = a.connection;
    const s = await c.openSession();
    await within(c.prompt(s, "busy", "a").result, 10_000, "a");
    const original = c.prompt(s, "held", "b");
    const retry = c.prompt(s, "held", "b");
    c.peer.notify("$/cancel_request", { requestId: retry.id });
    expect((await errorOf(original.result)).code).toBe(-32800);
    expect((await errorOf(retry.result)).code).toBe(-32800);
    // Nothing was recorded: the same key can be sent again and is inserted once.
    expect(await within(c.prompt(s, "held", "b").result, 10_000, "resend")).toEqual({
      messageId: derivedMessageId(s, "b"),
    });
    expect(users(a.store, s)).toHaveLength(2);
  });

  it("session/cancel answers held prompts with -32800", async () => {
    const a = agent(undefined, ["--turn-ms", "800"]);
    const c = a.connection;
    const s = await c.openSession();
    await within(c.prompt(s, "busy", "a").result, 10_000, "a");
    const held = c.prompt(s, "held", "b");
    c.peer.notify("session/cancel", { sessionId: s });
    expect((await errorOf(held.result)).code).toBe(-32800);
    await c.until((us) => us.some((u) => u.update.stopReason === "cancelled"), "cancelled turn");
  });

  it("a reused key with a different prompt: answered as a retry by default, -32602 in strict mode", async () => {
    for (const [mode, expectError] of [
      ["correct", false],
      ["strict", true],
    ] as const) {
      const a = agent(undefined, ["--mode", mode]);
      const c = a.connection;
      const s = await c.openSession();
      const first = await within(c.prompt(s, "one", "k").result, 10_000, "first");
      const other = c.prompt(s, "two", "k").result;
      if (expectError) expect((await errorOf(other)).code).toBe(-32602);
      else expect(await within(other, 10_000, "retry")).toEqual(first);
      expect(users(a.store, s)).toHaveLength(1);
    }
  });

  it("naive mode inserts every attempt", async () => {
    const a = agent(undefined, ["--mode", "naive"]);
    const c = a.connection;
    const s = await c.openSession();
    const one = await within(c.prompt(s, "x", "k").result, 10_000, "one");
    const two = await within(c.prompt(s, "x", "k").result, 10_000, "two");
    expect(two).not.toEqual(one);
    expect(users(a.store, s)).toHaveLength(2);
  });

  it("ignores a torn last record and keeps appending cleanly", async () => {
    const store = tempStore();
    const a1 = agent(store);
    const s = await a1.connection.openSession();
    await within(a1.connection.prompt(s, "x", "k").result, 10_000, "first");
    await a1.connection.idleCount(s, 1);
    await a1.stop();
    appendFileSync(join(store, "sessions", `${s}.jsonl`), '{"rec":{"t":"user","messageId":"torn');
    const a2 = agent(store);
    await a2.connection.call("initialize", { protocolVersion: 2, info: { name: "t", version: "1" } });
    await a2.connection.call("session/resume", { sessionId: s, cwd: "/tmp" });
    await within(a2.connection.prompt(s, "x", "k").result, 10_000, "retry");
    await within(a2.connection.prompt(s, "y", "k2").result, 10_000, "new");
    const file = readSessionFile(join(store, "sessions", `${s}.jsonl`));
    expect(file?.damaged).toBe(false);
    expect(users(store, s)).toHaveLength(2);
  });

  it("answers an unsupported protocol version with -32022 and v1 prompts at the end of the turn", async () => {
    const a = agent();
    const c = a.connection;
    const bad = await errorOf(c.send("initialize", { protocolVersion: 0 }).result);
    expect(bad.code).toBe(-32022);
    expect(await c.call("initialize", { protocolVersion: 1 })).toMatchObject({ protocolVersion: 1 });
    const { sessionId } = (await c.call("session/new", { cwd: "/tmp", mcpServers: [] })) as {
      sessionId: string;
    };
    expect(await c.call("session/prompt", { sessionId, prompt: [{ type: "text", text: "hi" }] })).toEqual({
      stopReason: "end_turn",
    });
    expect(c.updates.some((u) => u.update.sessionUpdate === "tool_call")).toBe(true);
  });
});
