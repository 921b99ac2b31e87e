/**
 * `diffTraces` on analyzer models of real traces: demo-client → `proxy --fault
 * lose-and-retry:method=session/prompt` → demo-agent (fixtures/correct.jsonl, correct2.jsonl) and
 * → `demo-agent --mode naive` (fixtures/naive.jsonl), recorded with the real tap; the same two with
 * `restart-and-retry:method=session/prompt` (fixtures/restart-correct.jsonl, restart-naive.jsonl).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Analyzer } from "../analyzer/analyzer.js";
import type { TraceHeader, TraceRecord } from "../trace/record.js";
import { boundedJson } from "./bounded-json.js";
import type { SubmissionDiff } from "./diff-model.js";
import { type DiffSide, type SideSubmission, summarizeSide } from "./diff-side.js";
import { SetupCollector } from "./setup-collector.js";
import { diffExitStatus, diffTraces, MAX_LISTED_SUBMISSIONS } from "./trace-diff.js";

const FIXTURES = join(import.meta.dirname, "fixtures");

/** A trace's text through the analyzer and the setup collector, as the CLI does it. */
function sideOfText(text: string): DiffSide {
  const lines = text.split("\n").filter((l) => l.length > 0);
  const analyzer = new Analyzer();
  const setup = new SetupCollector();
  const header = JSON.parse(lines[0] as string) as TraceHeader;
  analyzer.ingestHeader(header);
  setup.observeHeader(header);
  for (const line of lines.slice(1)) {
    const r = JSON.parse(line) as TraceRecord;
    analyzer.ingest(r);
    setup.observe(r);
  }
  return summarizeSide(analyzer.model(), setup.facts());
}

const fixture = (name: string) => readFileSync(join(FIXTURES, name), "utf8");
const side = (name: string) => sideOfText(fixture(name));

function byPrompt(diff: { submissions: readonly SubmissionDiff[] }, prompt: string): SubmissionDiff {
  const d = diff.submissions.find((s) => s.prompt === prompt);
  if (!d) throw new Error(`no submission "${prompt}"`);
  return d;
}

describe("diffTraces on recorded traces", () => {
  it("correct → naive: the lost-and-retried key went from deduplicated to duplicate-insert, and the gate fails", () => {
    const diff = diffTraces(side("correct.jsonl"), side("naive.jsonl"));
    const retried = byPrompt(diff, "deploy it");
    // Two demo-client runs mint different keys: the pair is made by session position and prompt.
    expect(retried.match).toBe("position");
    expect(retried.a?.key).not.toBe(retried.b?.key);
    expect(retried.verdictMark).toBe("worse");
    expect(retried.mark).toBe("worse");
    const f = Object.fromEntries(retried.fields.map((x) => [x.field, x]));
    expect(f.verdicts).toMatchObject({ a: "deduplicated", b: "duplicate-insert", mark: "worse" });
    expect(f.inserts).toMatchObject({ a: "1", b: "2", mark: "worse" });
    expect(f.messageIds?.mark).toBe("worse");
    expect(f.messageIds?.b).toContain("dedup broken");
    expect(f.outcome?.a).toBe("inserted, deduplicated; the client has an answer");
    expect(f.outcome?.b).toBe("inserted, inserted; the client has an answer");
    expect(f.attempts).toMatchObject({ a: "2 (1 by the client)", b: "2 (1 by the client)", mark: "same" });
    // The second prompt was not faulted: the same on both sides.
    expect(byPrompt(diff, "and then this").mark).toBe("same");
    expect(diff.totals).toMatchObject({
      matchedByPosition: 2,
      onlyA: 0,
      onlyB: 0,
      worse: 1,
      same: 1,
      verdictsWorse: 1,
    });
    expect(diffExitStatus(diff, "worse")).toBe(1);
    expect(diffExitStatus(diff, "any-change")).toBe(1);
    expect(diffExitStatus(diff, "never")).toBe(0);
  });

  it("restart-and-retry, correct → naive: the key that survived the restart now inserts twice", () => {
    const diff = diffTraces(side("restart-correct.jsonl"), side("restart-naive.jsonl"));
    const retried = byPrompt(diff, "deploy it");
    expect(retried.match).toBe("position");
    expect(retried.fields.find((x) => x.field === "verdicts")).toMatchObject({
      a: "deduplicated",
      b: "duplicate-insert",
      mark: "worse",
    });
    expect(byPrompt(diff, "and then this").mark).toBe("same");
    expect(diffExitStatus(diff, "worse")).toBe(1);
    expect(diffExitStatus(diffTraces(side("restart-correct.jsonl"), side("correct.jsonl")), "worse")).toBe(0);
  });

  it("naive → correct: the same key is better, and nothing fails the default gate", () => {
    const diff = diffTraces(side("naive.jsonl"), side("correct.jsonl"));
    const fixed = byPrompt(diff, "deploy it");
    expect(fixed.verdictMark).toBe("better");
    expect(fixed.fields.find((x) => x.field === "inserts")?.mark).toBe("better");
    expect(diff.totals.verdictsWorse).toBe(0);
    expect(diffExitStatus(diff, "worse")).toBe(0);
    expect(diffExitStatus(diff, "any-change")).toBe(1);
  });

  it("correct → correct again: every submission and method the same; the agent command differs but is not gated", () => {
    const diff = diffTraces(side("correct.jsonl"), side("correct2.jsonl"));
    expect(diff.submissions.map((s) => s.mark)).toEqual(["same", "same"]);
    expect(diff.methods.map((m) => m.mark)).toEqual(["same", "same", "same"]);
    expect(diff.setup.find((s) => s.field === "agentCommand")).toMatchObject({
      mark: "changed",
      gated: false,
    });
    expect(diff.setup.filter((s) => s.gated).every((s) => s.mark === "same")).toBe(true);
    expect(diffExitStatus(diff, "worse")).toBe(0);
    expect(diffExitStatus(diff, "any-change")).toBe(0);
  });

  it("a trace against itself pairs by key", () => {
    const diff = diffTraces(side("naive.jsonl"), side("naive.jsonl"));
    expect(diff.totals).toMatchObject({ matchedByKey: 2, matchedByPosition: 0, same: 2 });
  });

  it("reads the setup from the first initialize: protocol version, agent info, capabilities", () => {
    const s = side("correct.jsonl").setup;
    expect(s.protocolVersion).toBe("2");
    expect(s.agentInfo).toBe('{"name":"acp-retry-inspector-demo-agent","version":"0.1.0"}');
    expect(s.agentCapabilities).toBe('{"session":{"delete":{},"fork":{}}}');
    expect(s.transport).toBe("stdio");
  });

  it("a prompt only in B with a violation is worse; one only in A is a change", () => {
    const naive = side("naive.jsonl");
    const empty = summarizeSide(new Analyzer().model(), new SetupCollector().facts());
    const gained = diffTraces(empty, naive);
    expect(gained.totals).toMatchObject({ onlyB: 2, worse: 1, changed: 1, verdictsWorse: 1 });
    expect(diffExitStatus(gained, "worse")).toBe(1);
    const lost = diffTraces(naive, empty);
    expect(lost.totals).toMatchObject({ onlyA: 2, changed: 2, verdictsWorse: 0 });
    expect(diffExitStatus(lost, "worse")).toBe(0);
  });
});

describe("diff bounds", () => {
  it("lists at most MAX_LISTED_SUBMISSIONS rows, changed ones first, and counts every one", () => {
    const one = side("correct.jsonl").submissions[0] as SideSubmission;
    const many = (n: number, prompt: (i: number) => string): DiffSide => ({
      ...side("correct.jsonl"),
      submissions: Array.from({ length: n }, (_, i) => ({
        ...one,
        key: null,
        keyStatus: "absent",
        prompt: prompt(i),
        rowId: i,
      })),
    });
    const n = MAX_LISTED_SUBMISSIONS + 500;
    const diff = diffTraces(
      many(n, (i) => `p${i}`),
      many(n, (i) => (i >= n - 10 ? `q${i}` : `p${i}`)),
    );
    expect(diff.submissions).toHaveLength(MAX_LISTED_SUBMISSIONS);
    expect(diff.unlisted).toBe(n + 10 - MAX_LISTED_SUBMISSIONS);
    expect(diff.totals).toMatchObject({ same: n - 10, onlyA: 10, onlyB: 10 });
    expect(diff.submissions.slice(0, 20).every((s) => s.match === "only-a" || s.match === "only-b")).toBe(
      true,
    );
    expect(diff.bounded[0]).toContain("not listed");
  });

  it("shows untrusted setup values in bounded text: deep nesting and many keys", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = [deep];
    expect(boundedJson(deep, 200).length).toBeLessThanOrEqual(201);
    const wide = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`k${i}`, "x".repeat(10)]));
    const shown = boundedJson(wide, 2000);
    expect(shown.length).toBeLessThanOrEqual(2001);
    expect(shown.endsWith("…")).toBe(true);
    expect(boundedJson({ b: 1, a: [true, null] }, 100)).toBe('{"a":[true,null],"b":1}');
  });

  it("the setup collector never parses a frame past its bound", () => {
    const text = fixture("correct.jsonl").replace(
      '\\"capabilities\\":{\\"session\\"',
      `\\"pad\\":\\"${"x".repeat(1 << 20)}\\",\\"capabilities\\":{\\"session\\"`,
    );
    const s = sideOfText(text).setup;
    expect(s.clientInfo).not.toBeNull();
    expect(s.agentInfo).toBeNull();
  });
});
