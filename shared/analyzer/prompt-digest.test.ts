/** Prompts past CANONICAL_DIGEST_MAX_CHARS are compared by hash (issue 31): same and different still told apart. */
import { describe, expect, it } from "vitest";
import { CANONICAL_DIGEST_MAX_CHARS } from "../protocol/canonical-json.js";
import { Analyzer } from "./analyzer.js";
import { TraceScript } from "./testing/trace-script.js";
import type { Submission, TimelineModel } from "./timeline-model.js";

const S = "sess-1";
const K1 = "5f0c7b1e-8a44-4c1e-9d0b-2f3a4b5c6d7e";
const K2 = "0b1c2d3e-4f50-4617-8829-3a4b5c6d7e8f";
const LONG = `${"word ".repeat(CANONICAL_DIGEST_MAX_CHARS / 4)}end`;

function run(t: TraceScript): TimelineModel {
  const a = new Analyzer();
  for (const r of t.records) a.ingest(r);
  return a.model();
}

function v2(): TraceScript {
  return new TraceScript()
    .open(1)
    .request(1, "client->agent", 0, "initialize", { protocolVersion: 2, clientCapabilities: {} })
    .result(1, "agent->client", 0, { protocolVersion: 2 });
}

const names = (s: Submission | undefined) => (s?.verdicts ?? []).map((v) => v.name);

describe("long prompts compared by digest", () => {
  it("a retry with the same long prompt under the same key is one clean submission", () => {
    const m = run(
      v2().prompt(1, 1, S, LONG, K1).prompt(1, 2, S, LONG, K1).inserted(1, 1, "m1").inserted(1, 2, "m1"),
    );
    expect(m.submissions).toHaveLength(1);
    expect(names(m.submissions[0])).not.toContain("key-reused-different-prompt");
    expect(m.submissions[0]?.promptPreview).toBe(`${"word ".repeat(24)}`.slice(0, 119).concat("…"));
  });

  it("a long prompt one character different at its end under the same key is flagged", () => {
    const other = `${LONG.slice(0, -1)}D`;
    const m = run(
      v2().prompt(1, 1, S, LONG, K1).prompt(1, 2, S, other, K1).inserted(1, 1, "m1").inserted(1, 2, "m1"),
    );
    expect(names(m.submissions[0])).toContain("key-reused-different-prompt");
  });

  it("the same long prompt under a new key after a lost answer is a resend", () => {
    const m = run(
      v2()
        .prompt(1, 1, S, LONG, K1)
        .inserted(1, 1, "m1", { dropped: true })
        .prompt(1, 2, S, LONG, K2)
        .inserted(1, 2, "m2"),
    );
    expect(m.submissions.map(names)).toEqual([[], ["new-key-on-resend"]]);
    expect(m.submissions[1]?.resendOf).toBe(m.submissions[0]?.id);
  });
});
