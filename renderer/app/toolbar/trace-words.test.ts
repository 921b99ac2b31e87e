import { describe, expect, it } from "vitest";
import { livenessOf, pastAgentWords } from "../../model/traces/liveness.js";
import type { TraceEntry } from "../../model/traces/trace-catalog.js";
import {
  agentWords,
  connectionWords,
  entryMatches,
  shortCommand,
  startTime,
  statusChip,
  verdictChip,
} from "./trace-words.js";

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

describe("an imported or ended trace never shows a live agent or open connections", () => {
  const running = { pid: 4242, exitSeq: null, exitCode: null, exitSignal: null };
  const exited = { pid: 4242, exitSeq: 9, exitCode: null, exitSignal: "SIGKILL" };

  it("only an attached tap's trace is live", () => {
    expect(livenessOf("running")).toBe("live");
    expect(livenessOf("waiting")).toBe("live");
    expect(livenessOf("ended")).toBe("ended");
    expect(livenessOf("detached")).toBe("ended");
    expect(livenessOf("file")).toBe("file");
    expect(livenessOf(undefined)).toBe("ended");
  });

  it("says running only while live; otherwise that no exit was recorded and the state is unknown", () => {
    expect(agentWords(running, "live")).toBe("agent pid 4242 running");
    expect(agentWords(running, "file")).toBe(
      "agent pid 4242: no exit recorded in this file (its state is unknown)",
    );
    expect(agentWords(running, "ended")).toBe(
      "agent pid 4242: no exit recorded before the tap went away (its state is unknown)",
    );
    for (const l of ["live", "ended", "file"] as const) {
      expect(agentWords(exited, l)).toBe("agent pid 4242 exited (SIGKILL)");
      expect(agentWords(undefined, l)).toBe("agent not seen");
    }
    expect(agentWords({ ...exited, exitSignal: null, exitCode: 0 }, "file")).toBe(
      "agent pid 4242 exited (code 0)",
    );
  });

  it("counts open connections only while live; a past trace's unclosed ones have no close recorded", () => {
    expect(connectionWords(1, 2, "live")).toBe("connections 1 open / 2");
    expect(connectionWords(1, 1, "file")).toBe("connections 1, 1 with no close recorded");
    expect(connectionWords(0, 2, "ended")).toBe("connections 2, all closed");
    expect(connectionWords(0, 0, "ended")).toBe("no connections");
    for (const l of ["ended", "file"] as const) expect(connectionWords(1, 3, l)).not.toMatch(/open/);
  });

  it("the picker's agent words of a past trace say no exit was recorded", () => {
    expect(pastAgentWords([7, 8], "file")).toBe("agent pid 7, 8, no exit recorded");
    expect(pastAgentWords([7], "ended")).toBe("agent pid 7, no exit recorded");
    expect(pastAgentWords([7], "live")).toBeUndefined();
    expect(pastAgentWords([], "file")).toBeUndefined();
  });
});
