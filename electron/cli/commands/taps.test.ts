import { describe, expect, it } from "vitest";
import type { TapSummary } from "../../../shared/hub/tap-summary.js";
import { TERMINAL_CONTROL } from "../../tools/testing/terminal-controls.js";
import { tapTable } from "./taps.js";

const tap: TapSummary = {
  traceId: "20260131T114010Z-77c01d2e3f40",
  tapId: "t1",
  // A tap names itself in its trace header: any process with the hub's token can send any text.
  name: "evil\u001b[2J\u001b]52;c;SGVsbG8=\u0007",
  startedAt: "2026-01-31T11:40:10.000Z",
  transport: "stdio",
  command: ["my-agent", "--x=\u001b[8m", "line\nbreak"],
  cwd: "/home/u",
  tapPid: 4242,
  status: "running",
  attached: true,
  agentPids: [4243],
  lastExit: null,
  connections: { open: 1, total: 1 },
  records: 10,
  attachedAt: "2026-01-31T11:40:10.000Z",
  detachedAt: null,
};

describe("taps table", () => {
  it("shows what the taps sent escaped: one line per tap, nothing a terminal acts on", () => {
    const table = tapTable([tap]);
    expect(table).not.toMatch(TERMINAL_CONTROL);
    expect(table.split("\n")).toHaveLength(2);
    expect(table).toContain("evil\\x1b[2J\\x1b]52;c;SGVsbG8=\\x07");
    expect(table).toContain("my-agent --x=\\x1b[8m line\\nbreak");
  });
});
