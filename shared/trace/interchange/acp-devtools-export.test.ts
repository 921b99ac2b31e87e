import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { devtoolsDirection } from "./acp-devtools-export.js";
import { convertToTrace } from "./convert.js";
import { detectFormat } from "./detect.js";

const fixture = readFileSync(
  join(import.meta.dirname, "../../../e2e/fixtures/imports/acp-devtools-export.json"),
  "utf8",
);

describe("acp-devtools SessionExport import", () => {
  it("is detected by content, whole or from its first 200 characters, and on one line", () => {
    expect(detectFormat(fixture)).toEqual({ format: "acp-devtools-export" });
    expect(detectFormat(fixture.slice(0, 200))).toEqual({ format: "acp-devtools-export" });
    expect(detectFormat(JSON.stringify(JSON.parse(fixture)))).toEqual({ format: "acp-devtools-export" });
  });

  it("keeps every message's raw text as a frame, in seq order, with its direction and time", () => {
    const r = convertToTrace(fixture);
    if ("error" in r) throw new Error(r.error);
    const doc = JSON.parse(fixture) as { messages: { raw: string; direction: string; timestamp: number }[] };
    const frames = r.records.filter((x) => x.type === "frame");
    expect(frames.map((f) => f.raw)).toEqual(doc.messages.map((m) => m.raw));
    expect(frames.map((f) => f.dir)).toEqual(doc.messages.map((m) => devtoolsDirection(m.direction)));
    expect(frames.map((f) => f.ts)).toEqual(doc.messages.map((m) => m.timestamp));
    expect(r.header.imported).toEqual({ format: "acp-devtools-export", lacks: [] });
    expect(r.problems).toEqual([]);
  });

  it("orders by seq, re-serialises an object raw (lacks exact-bytes) and keeps a bad message as a note", () => {
    const doc = {
      version: 1,
      session: { id: "s" },
      messages: [
        {
          seq: 2,
          timestamp: 20,
          direction: "agent_to_client",
          kind: "response",
          raw: { jsonrpc: "2.0", id: 1, result: {} },
        },
        {
          seq: 1,
          timestamp: 10,
          direction: "client_to_agent",
          kind: "request",
          raw: '{"jsonrpc":"2.0","id":1,"method":"initialize"}',
        },
        { seq: 3, timestamp: 30, direction: "sideways", kind: "?", raw: "{}" },
      ],
    };
    const r = convertToTrace(JSON.stringify(doc));
    if ("error" in r) throw new Error(r.error);
    const frames = r.records.filter((x) => x.type === "frame");
    expect(frames.map((f) => [f.dir, f.raw])).toEqual([
      ["client->agent", '{"jsonrpc":"2.0","id":1,"method":"initialize"}'],
      ["agent->client", '{"jsonrpc":"2.0","id":1,"result":{}}'],
    ]);
    expect(r.header.imported?.lacks).toEqual(["exact-bytes"]);
    expect(r.problems).toEqual([expect.stringContaining('unknown direction "sideways"')]);
    expect(r.records.some((x) => x.type === "note" && x.text.includes("sideways"))).toBe(true);
  });
});
