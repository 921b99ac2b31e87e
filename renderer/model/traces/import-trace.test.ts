import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import { importTraceFile, importTraceText } from "./import-trace.js";
import { fileOf, imported, inspector } from "./testing/import-harness.js";

beforeEach(() => {
  vi.stubGlobal("requestAnimationFrame", (cb: () => void) => setTimeout(cb, 0));
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe("importing a trace file as a stream", () => {
  const sc = new TraceScript()
    .open(1)
    .prompt(1, 1, "sess-é", "naïve prompt 🙂 with ünïcode", "K1")
    .inserted(1, 1, "m1")
    .prompt(1, 2, "sess-é", "another 🙂", "K2");
  const text = `${sc.jsonl()}not json at all\n{"type":"frame","seq":99,"ts":1,"conn":1}\n${new TraceScript()
    .open(2)
    .prompt(2, 7, "s2", "late", "K3")
    .records.map((r) => JSON.stringify({ ...r, seq: r.seq + 200 }))
    .join("\n")}`;

  it("gives the same records, flagged lines, problems and rows as reading the whole text, wherever the chunks cut", async () => {
    const whole = await imported((ctx) => importTraceText(ctx, "t.jsonl", text));
    expect(whole.result.problems).toEqual([
      expect.stringMatching(/^line 6: not JSON/),
      expect.stringMatching(/^line 7: /),
    ]);
    expect(whole.submissions).toHaveLength(3);
    for (const every of [1, 3, 7, 64, 1 << 16]) {
      const streamed = await imported((ctx) => importTraceFile(ctx, fileOf("t.jsonl", text, every)));
      expect(streamed).toEqual(whole);
    }
  });

  it("resolves once every record is in and its rows are shown (the notice never runs ahead of the table)", async () => {
    const ctx = inspector();
    const result = await importTraceFile(ctx, fileOf("t.jsonl", text, 64));
    const state = ctx.store.getState();
    expect(state.importing).toBeUndefined();
    expect(state.view.records).toBe(ctx.catalog.get(result.traceId)?.records.length);
    expect(state.view.submissions).toHaveLength(3);
  });

  it("takes another tool's file, an empty file and a non-trace the way the whole-text import does", async () => {
    const zed = JSON.stringify([
      { _direction: "outgoing", _type: "request", id: 1, method: "initialize", params: {} },
    ]);
    for (const other of [zed, "", "\n\n", '{"hello":1}\n']) {
      const whole = await imported((ctx) => importTraceText(ctx, "x.json", other)).catch(
        (e: Error) => e.message,
      );
      const streamed = await imported((ctx) => importTraceFile(ctx, fileOf("x.json", other, 5))).catch(
        (e: Error) => e.message,
      );
      expect(streamed).toEqual(whole);
    }
  });

  it("converts a sacp or ACP-inspector file as it reads it, with the whole-text import's records, problems and rows", async () => {
    const sacp = [
      {
        type: "request",
        ts: 0.001,
        protocol: "acp",
        from: "client",
        to: "agent",
        id: 1,
        method: "initialize",
        params: { protocolVersion: 2 },
      },
      {
        type: "response",
        ts: 0.002,
        from: "agent",
        to: "client",
        id: 1,
        is_error: false,
        payload: { protocolVersion: 2 },
      },
      {
        type: "request",
        ts: 0.01,
        protocol: "acp",
        from: "client",
        to: "agent",
        id: 2,
        method: "session/prompt",
        session: "s-é",
        params: { sessionId: "s-é", prompt: [{ type: "text", text: "naïve 🙂" }], idempotencyKey: "K1" },
      },
      {
        type: "notification",
        ts: 0.02,
        protocol: "acp",
        from: "agent",
        to: "client",
        method: "session/update",
        params: { sessionId: "s-é", update: { sessionUpdate: "user_message", messageId: "m1" } },
      },
      {
        type: "response",
        ts: 0.03,
        from: "agent",
        to: "client",
        id: 2,
        is_error: false,
        payload: { stopReason: "end_turn", messageId: "m1" },
      },
    ].map((e) => JSON.stringify(e));
    const inspector = [
      {
        ts: "2026-11-30T09:15:00.000Z",
        direction: "fromClient",
        json: '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}',
      },
      { direction: "fromAgent", json: '{"jsonrpc":"2.0","id":1,"result":{}}' },
      { ts: "2026-11-30T09:15:01.000Z", direction: "sideways", json: "{}" },
      { ts: "2026-11-30T09:15:02.000Z", direction: "fromClient", json: "not a frame 🙂" },
    ].map((e) => JSON.stringify(e));
    const files = {
      "t.jsons": `${sacp.slice(0, 2).join("\n")}\nnot json\n\n${sacp.slice(2).join("\n")}\n{"type":"request","from":"x","to":"agent"}\n`,
      "r.jsonl": `\n${inspector.join("\n")}`,
      // An ACP-inspector file whose first lines carry no time: the header waits for one.
      "late.jsonl": `${inspector[1]}\n${inspector[1]}\n${inspector[0]}\n`,
    };
    for (const [name, text] of Object.entries(files)) {
      const whole = await imported((ctx) => importTraceText(ctx, name, text));
      expect(whole.records.length).toBeGreaterThan(2);
      expect(whole.result.problems.length).toBeGreaterThan(0);
      for (const every of [1, 3, 7, 64, 1 << 16]) {
        const streamed = await imported((ctx) => importTraceFile(ctx, fileOf(name, text, every)));
        expect(streamed).toEqual(whole);
      }
    }
  });

  it("shows a sacp file's first records before the rest of the file is read", async () => {
    const line = (i: number) =>
      JSON.stringify({
        type: "request",
        ts: i,
        protocol: "acp",
        from: "client",
        to: "agent",
        id: i,
        method: "initialize",
        params: {},
      });
    const head = new TextEncoder().encode(
      `${Array.from({ length: 2500 }, (_, i) => line(i + 1)).join("\n")}\n`,
    );
    let release = () => {};
    const rest = new Promise<void>((r) => {
      release = r;
    });
    const file = {
      name: "slow.jsons",
      size: head.length * 2,
      stream: () =>
        new ReadableStream<Uint8Array>({
          async start(c) {
            c.enqueue(head);
            await rest;
            c.enqueue(new TextEncoder().encode(`${line(2501)}\n`));
            c.close();
          },
        }),
    } as unknown as File;
    const ctx = inspector();
    const done = importTraceFile(ctx, file);
    // The file has not ended, yet its trace is there with the first lines' records.
    await vi.waitFor(() => expect(ctx.catalog.all()[0]?.records.length).toBeGreaterThanOrEqual(2_000));
    release();
    const result = await done;
    // A conn-open and 2501 frames.
    expect(result.records).toBe(2502);
  });
});
