/** Issue 31: the renderer's feed takes any value a hub or a file sends, shows it or flags it, never blanks. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEEPEST,
  FUZZ,
  hostileText,
  hostileValue,
  nestedText,
} from "../../../shared/trace/testing/hostile-values.js";
import { LoadedTrace } from "./loaded-trace.js";

const HEADER = {
  format: "acp-retry-inspector-trace",
  version: 1,
  tool: "t",
  startedAt: "2026-01-01T00:00:00.000Z",
} as const;

describe("LoadedTrace.ingest with hostile values (issue 31)", () => {
  it("keeps every value as a record or a flagged entry and publishes a view", () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(hostileValue(), hostileText()), { maxLength: 5 }),
        fc.array(hostileText(), { maxLength: 3 }),
        (values, raws) => {
          const s = new LoadedTrace("live-1", "t", "live");
          s.setHeader(HEADER);
          let seq = 0;
          for (const v of values) s.ingest(v);
          for (const raw of raws)
            s.ingest({ type: "frame", seq: 100 + ++seq, ts: seq, conn: 1, dir: "client->agent", raw });
          s.publish();
          expect(s.records.length + s.flagged.length).toBeGreaterThanOrEqual(raws.length);
        },
      ),
      { ...FUZZ, numRuns: 60 },
    );
  });

  it("shows a session whose prompt is nested 100,000 deep, and the records after it", () => {
    const s = new LoadedTrace("live-1", "t", "live");
    s.setHeader(HEADER);
    const deep = `{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"sessionId":"s","prompt":${nestedText(DEEPEST)}}}`;
    s.ingest({ type: "conn-open", seq: 1, ts: 1, conn: 1, transport: "stdio" });
    s.ingest({ type: "frame", seq: 2, ts: 2, conn: 1, dir: "client->agent", raw: deep });
    s.ingest({
      type: "frame",
      seq: 3,
      ts: 3,
      conn: 1,
      dir: "agent->client",
      raw: '{"jsonrpc":"2.0","id":1,"result":{"messageId":"m"}}',
    });
    s.publish();
    expect(s.records.map((r) => r.seq)).toEqual([1, 2, 3]);
    expect(s.view.submissions).toHaveLength(1);
  });
});
