import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { userDir } from "./user-dirs.js";

describe("userDir", () => {
  it("follows XDG on Linux, with its defaults", () => {
    expect(userDir("data", { XDG_DATA_HOME: "/d" }, "linux", "/h")).toBe(join("/d", "acp-retry-inspector"));
    expect(userDir("data", {}, "linux", "/h")).toBe(join("/h", ".local", "share", "acp-retry-inspector"));
    expect(userDir("state", {}, "linux", "/h")).toBe(join("/h", ".local", "state", "acp-retry-inspector"));
    expect(userDir("config", { XDG_CONFIG_HOME: "/c" }, "linux", "/h")).toBe(
      join("/c", "acp-retry-inspector"),
    );
  });

  it("uses Application Support on macOS and LOCALAPPDATA/APPDATA on Windows", () => {
    expect(userDir("state", {}, "darwin", "/U")).toBe(
      join("/U", "Library", "Application Support", "acp-retry-inspector"),
    );
    expect(userDir("data", { LOCALAPPDATA: "L" }, "win32", "H")).toBe(join("L", "acp-retry-inspector"));
    expect(userDir("config", { APPDATA: "R" }, "win32", "H")).toBe(join("R", "acp-retry-inspector"));
  });
});
