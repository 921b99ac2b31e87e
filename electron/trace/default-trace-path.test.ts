import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultTraceDir, TRACE_DIR_ENV, traceFileName } from "./default-trace-path.js";

describe("default trace path", () => {
  it("honours the override, then XDG_STATE_HOME, then the platform convention", () => {
    expect(defaultTraceDir({ [TRACE_DIR_ENV]: "/x" }, "linux", "/home/u")).toBe("/x");
    expect(defaultTraceDir({ XDG_STATE_HOME: "/s" }, "linux", "/home/u")).toBe(
      join("/s", "acp-retry-inspector", "traces"),
    );
    expect(defaultTraceDir({}, "linux", "/home/u")).toBe(
      join("/home/u", ".local", "state", "acp-retry-inspector", "traces"),
    );
    expect(defaultTraceDir({}, "darwin", "/Users/u")).toBe(
      join("/Users/u", "Library", "Application Support", "acp-retry-inspector", "traces"),
    );
    expect(defaultTraceDir({ LOCALAPPDATA: "C:/L" }, "win32", "C:/u")).toBe(
      join("C:/L", "acp-retry-inspector", "traces"),
    );
  });

  it("names files by UTC start time and pid", () => {
    expect(traceFileName(new Date("2026-01-31T12:05:01.250Z"), 4242)).toBe("20260131T120501Z-4242.jsonl");
  });
});
