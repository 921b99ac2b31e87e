import { describe, expect, it } from "vitest";
import type { TraceHeader, TraceRecord } from "./record.js";
import { redactTrace } from "./redact.js";

const HEADER: TraceHeader = {
  format: "acp-retry-inspector-trace",
  version: 1,
  tool: "t",
  startedAt: "2026-01-01T00:00:00.000Z",
};
const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const frame = (seq: number, raw: string): TraceRecord => ({
  type: "frame",
  seq,
  ts: seq,
  conn: 1,
  dir: "client->agent",
  raw,
});

describe("redactTrace on values nested past the bound (issue 31)", () => {
  it("hides a 3,000-deep prompt, rawInput and header list whole, flagged, and keeps every other record", () => {
    const deep = nested(3_000);
    const records = [
      frame(
        1,
        `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":${deep}}}`,
      ),
      frame(2, `{"jsonrpc":"2.0","method":"session/update","params":{"update":{"rawInput":${deep}}}}`),
      frame(
        3,
        `{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"mcpServers":[{"headers":${deep}}]}}`,
      ),
      frame(4, `{"jsonrpc":"2.0","id":1,"result":{"stopReason":"end_turn"}}`),
    ];
    const out = redactTrace(HEADER, records, { full: false });
    expect(out.records).toHaveLength(4);
    for (const r of out.records.slice(0, 3)) {
      expect(r.type).toBe("frame");
      expect((r as { raw: string }).raw).toMatch(/^\[redacted frame: \d+ chars, nested deeper than 512\]$/);
    }
    expect(out.records[3]).toEqual(records[3]);
  });

  it("redacts a frame at depth 100,000 in well under the call stack", () => {
    const out = redactTrace(HEADER, [frame(1, `{"jsonrpc":"2.0","id":1,"result":${nested(100_000)}}`)], {
      full: false,
    });
    expect((out.records[0] as { raw: string }).raw).toContain("nested deeper than 512");
  });

  it("redacts a header whose agent.command is not a list, never a throw", () => {
    const header = { ...HEADER, agent: { command: "agent --token=abc" } } as unknown as TraceHeader;
    const out = redactTrace(header, [], { full: false });
    expect(out.header.agent?.command).toHaveLength(1);
    expect(JSON.stringify(out.header)).not.toContain("abc");
  });

  it("hides Bearer credentials inside an agent span's name", () => {
    const span: TraceRecord = {
      type: "agent-span",
      seq: 1,
      ts: 1,
      traceId: "1".repeat(32),
      spanId: "2".repeat(16),
      name: "GET /v1 Authorization: Bearer sk-live-SECRETSECRET",
      startMs: 1,
      endMs: 2,
    };
    const out = redactTrace(HEADER, [span], { full: false });
    expect(JSON.stringify(out.records)).not.toContain("SECRETSECRET");
  });
});
