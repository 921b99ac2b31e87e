import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defaultTraceDir, newDefaultTracePath, TRACE_DIR_ENV, traceFileName } from "./default-trace-path.js";

const scratch = mkdtempSync(join(tmpdir(), "acp-ri-trace-dir-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const mode = (path: string) => statSync(path).mode & 0o777;

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

  it("creates the folder (and missing parents) private, 0700", () => {
    const dir = join(scratch, "new", "state", "traces");
    const path = newDefaultTracePath(new Date(0), { [TRACE_DIR_ENV]: dir });
    expect(dirname(path)).toBe(dir);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(scratch, "new"))).toBe(0o700);
  });

  it("narrows an existing folder of this user to 0700", () => {
    const dir = join(scratch, "wide");
    mkdirSync(dir);
    chmodSync(dir, 0o755);
    newDefaultTracePath(new Date(0), { [TRACE_DIR_ENV]: dir });
    expect(mode(dir)).toBe(0o700);
  });

  it("refuses a folder that is a symbolic link", () => {
    const target = join(scratch, "elsewhere");
    mkdirSync(target);
    const link = join(scratch, "linked");
    symlinkSync(target, link);
    expect(() => newDefaultTracePath(new Date(0), { [TRACE_DIR_ENV]: link })).toThrow(
      `cannot use the folder ${link}: it is a symbolic link`,
    );
  });

  it.skipIf(process.getuid?.() !== 0)("refuses a folder of another user (run as root: chown)", () => {
    const dir = join(scratch, "theirs");
    mkdirSync(dir, { mode: 0o777 });
    chownSync(dir, 65534, 65534);
    expect(() => newDefaultTracePath(new Date(0), { [TRACE_DIR_ENV]: dir })).toThrow(
      "belongs to another user",
    );
    expect(mode(dir)).toBe(0o777 & ~process.umask());
  });
});
