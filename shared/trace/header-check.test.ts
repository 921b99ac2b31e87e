import { describe, expect, it } from "vitest";
import { decodeHeader } from "./codec.js";
import { checkHeader } from "./header-check.js";

const BASE = {
  format: "acp-retry-inspector-trace",
  version: 1,
  tool: "t",
  startedAt: "2026-01-01T00:00:00Z",
};

describe("checkHeader (issue 31: headers are checked field by field)", () => {
  it("drops a wrong imported field and says so, keeping the rest", () => {
    const d = decodeHeader(JSON.stringify({ ...BASE, name: "n", imported: { lacks: "x" } }));
    expect(d.kind).toBe("header");
    if (d.kind !== "header") return;
    expect(d.header.imported).toBeUndefined();
    expect(d.header.name).toBe("n");
    expect(d.header.headerFaults?.[0]).toMatch(/^imported must be/);
  });

  it("keeps a replay's replayOf {trace, sha256} and drops one whose sha256 is not 64 hex digits", () => {
    const sha256 = "a".repeat(64);
    const ok = checkHeader({ ...BASE, replayOf: { trace: "src.jsonl", sha256, extra: 1 } });
    expect("header" in ok && ok.header.replayOf).toEqual({ trace: "src.jsonl", sha256 });
    const bad = checkHeader({ ...BASE, replayOf: { trace: "src.jsonl", sha256: "xyz" } });
    expect("header" in bad && bad.header.replayOf).toBeUndefined();
    expect("header" in bad && bad.header.headerFaults?.[0]).toMatch(/^replayOf must be/);
  });

  it("drops agent when its command is a string, and agent.cwd alone when only it is wrong", () => {
    const a = checkHeader({ ...BASE, agent: { command: "agent --x" } });
    expect("header" in a && a.header.agent).toBeFalsy();
    const b = checkHeader({ ...BASE, agent: { command: ["a"], cwd: 3 } });
    expect("header" in b && b.header.agent).toEqual({ command: ["a"] });
  });

  it("keeps a header whose required text fields are wrong, with a stand-in, never a throw", () => {
    const c = checkHeader({ ...BASE, tool: { toString: 0 }, startedAt: 7, tapPid: "x", redacted: "yes" });
    expect("header" in c).toBe(true);
    if (!("header" in c)) return;
    expect(c.header.tool).toBe("(unknown tool)");
    expect(c.header.headerFaults).toHaveLength(4);
  });

  it("drops an unknown field nested deeper than the bound; keeps a shallow one", () => {
    const deep = JSON.parse(`${"[".repeat(100_000)}${"]".repeat(100_000)}`);
    const c = checkHeader({ ...BASE, future: deep, other: { a: 1 } });
    expect("header" in c && JSON.stringify(c.header)).toContain('"other":{"a":1}');
    expect("header" in c && c.header.headerFaults).toEqual(["future nested deeper than 512; left out"]);
  });

  it("refuses what is not a header, or a newer version", () => {
    expect(checkHeader(null)).toHaveProperty("problem");
    expect(checkHeader({ ...BASE, format: "x" })).toHaveProperty("problem");
    expect(checkHeader({ ...BASE, version: 2 })).toHaveProperty("problem");
    expect(checkHeader({ ...BASE, version: "1" })).toHaveProperty("problem");
  });
});
