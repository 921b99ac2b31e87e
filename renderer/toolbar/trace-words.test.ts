import { describe, expect, it } from "vitest";
import type { TraceEntry } from "../traces/trace-catalog.js";
import { entryMatches, shortCommand, startTime, statusChip, verdictChip } from "./trace-words.js";

describe("how the trace picker words a trace", () => {
  it("gives the start as a time of day today and with its date otherwise", () => {
    const now = new Date(2026, 0, 31, 15, 0, 0);
    expect(startTime(new Date(2026, 0, 31, 9, 5, 7).toISOString(), now)).toBe("09:05:07");
    expect(startTime(new Date(2026, 0, 30, 23, 59, 1).toISOString(), now)).toBe("2026-01-30 23:59");
    expect(startTime(null, now)).toBe("no start time");
  });

  it("leads the verdict chip with the worst severity and says whether more may come", () => {
    expect(verdictChip({ ok: 2, violation: 1, clientIssue: 0 }, true)).toEqual({
      label: "1 violation · 2 ok",
      tone: "error",
    });
    expect(verdictChip({ ok: 0, violation: 0, clientIssue: 3 }, false).label).toBe("3 client issues");
    expect(verdictChip({ ok: 0, violation: 0, clientIssue: 0 }, true).label).toBe("no verdicts yet");
    expect(verdictChip({ ok: 0, violation: 0, clientIssue: 0 }, false).label).toBe("no verdicts");
  });

  it("shortens the interpreter and script paths of a command, nothing else", () => {
    expect(shortCommand(["/usr/bin/node", "/opt/x/dist/cli.js", "demo-agent", "--store", "/tmp/s"])).toBe(
      "node …/cli.js demo-agent --store /tmp/s",
    );
    expect(shortCommand(["npx", "@zed-industries/claude-code-acp"])).toBe(
      "npx @zed-industries/claude-code-acp",
    );
  });

  it("finds an entry by every word of the query in what it shows", () => {
    const e: TraceEntry = {
      id: "20260131T120501Z-3f9a",
      label: "claude-code-acp @ myrepo",
      detail: "",
      command: ["npx", "@zed-industries/claude-code-acp"],
      cwd: "/home/me/myrepo",
      source: "live",
      attached: false,
      status: "ended",
      startedAt: null,
      agent: "agent exited (code 0)",
      agentPids: [],
      records: 3,
      verdicts: { ok: 0, violation: 0, clientIssue: 0 },
    };
    expect(entryMatches(e, "CLAUDE ended")).toBe(true);
    expect(entryMatches(e, "zed-industries /home/me")).toBe(true);
    expect(entryMatches(e, "claude live")).toBe(false);
    expect(statusChip("detached").tone).toBe("warn");
  });
});
