import { describe, expect, it } from "vitest";
import type { TraceEntry } from "../../model/traces/trace-catalog.js";
import { liveTaps, sameLiveTaps } from "./fault-form.js";

const entry = (id: string, over: Partial<TraceEntry> = {}): TraceEntry =>
  ({
    id,
    label: `tap ${id}`,
    source: "live",
    attached: true,
    agentPids: [4242],
    records: 10,
    ...over,
  }) as TraceEntry;

describe("the live taps the fault controls list", () => {
  it("are the same while only the traces' records and verdicts change", () => {
    const before = liveTaps([entry("a"), entry("b"), entry("f", { source: "imported" })]);
    const after = liveTaps([entry("a", { records: 900 }), entry("b", { records: 70 })]);
    expect(before.map((t) => t.traceId)).toEqual(["a", "b"]);
    expect(sameLiveTaps(before, after)).toBe(true);
  });

  it("differ when a tap comes or goes, is renamed, or its Agent process changes", () => {
    const base = liveTaps([entry("a"), entry("b")]);
    expect(sameLiveTaps(base, liveTaps([entry("a")]))).toBe(false);
    expect(sameLiveTaps(base, liveTaps([entry("a"), entry("b", { attached: false })]))).toBe(false);
    expect(sameLiveTaps(base, liveTaps([entry("a"), entry("b", { label: "renamed" })]))).toBe(false);
    expect(sameLiveTaps(base, liveTaps([entry("a"), entry("b", { agentPids: [4243] })]))).toBe(false);
    expect(sameLiveTaps(base, liveTaps([entry("a"), entry("b", { agentPids: [] })]))).toBe(false);
    expect(sameLiveTaps(base, liveTaps([entry("b"), entry("a")]))).toBe(false);
  });
});
