/** The key group's line (group-summary.ts), on submissions the analyzer builds from scripted traces. */
import { describe, expect, it } from "vitest";
import { Analyzer } from "./analyzer.js";
import { groupSummary, shortKeyOf } from "./group-summary.js";
import { TraceScript } from "./testing/trace-script.js";
import type { Submission } from "./timeline-model.js";

const S = "sess-1";
const KEY = "5f0c7b1e-8a44-4c1e-9d0b-2f3a4b5c6d7e";

function only(t: TraceScript): Submission {
  const a = new Analyzer();
  for (const r of t.records) a.ingest(r);
  const subs = a.model().submissions;
  expect(subs).toHaveLength(1);
  return subs[0] as Submission;
}

describe("groupSummary", () => {
  it("dropped answers then a deduplicated retry: 3 attempts · 2 dropped · 1 insert · deduplicated, the final messageId", () => {
    const t = new TraceScript().open(1);
    t.prompt(1, 1, S, "deploy it", KEY).inserted(1, 1, "m1", { dropped: true });
    t.prompt(1, 2, S, "deploy it", KEY).inserted(1, 2, "m1", { dropped: true });
    t.prompt(1, 3, S, "deploy it", KEY).inserted(1, 3, "m1");
    const g = groupSummary(only(t));
    expect(g.words).toBe("3 attempts · 2 dropped · 1 insert · deduplicated");
    expect(g.finalMessageId).toBe("m1");
    expect(g.shortKey).toBe("5f0c7b1e…5c6d7e");
  });

  it("a lost answer and a retry that inserted once more: lost, 2 inserts", () => {
    const t = new TraceScript().open(1).prompt(1, 1, S, "deploy it", KEY);
    t.close(1).open(2).prompt(2, 1, S, "deploy it", KEY).inserted(2, 1, "m2");
    const g = groupSummary(only(t));
    expect(g.words).toBe("2 attempts · 1 lost · 1 insert");
    expect(g.finalMessageId).toBe("m2");
  });

  it("one attempt, answered once; a pending one; an unkeyed one", () => {
    expect(
      groupSummary(only(new TraceScript().open(1).prompt(1, 1, S, "x", KEY).inserted(1, 1, "m"))).words,
    ).toBe("1 attempt · 1 insert");
    const pending = groupSummary(only(new TraceScript().open(1).prompt(1, 1, S, "x")));
    expect(pending.words).toBe("1 attempt · 0 inserts · 1 pending");
    expect(pending.shortKey).toBe("no key");
    expect(pending.finalMessageId).toBeNull();
  });

  it("a cancelled attempt and an error answer are counted by kind", () => {
    const t = new TraceScript().open(1).prompt(1, 1, S, "x", KEY).error(1, 1, -32800, "cancelled");
    t.prompt(1, 2, S, "x", KEY).error(1, 2, -32603, "boom");
    expect(groupSummary(only(t)).words).toBe("2 attempts · 1 cancelled · 1 error · 0 inserts");
  });

  it("shortKeyOf keeps short keys whole", () => {
    expect(shortKeyOf("k-1")).toBe("k-1");
  });
});
