import { execFileSync, spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { cliPath } from "../tools/testing/cli.js";
import { commands } from "./commands/index.js";

describe("acp-retry-inspector CLI", () => {
  it("lists every command in --help", () => {
    const out = execFileSync(process.execPath, [cliPath(), "--help"], { encoding: "utf8" });
    for (const c of commands) expect(out).toContain(c.name);
  });

  it("rejects an unknown command with exit status 2", () => {
    const r = spawnSync(process.execPath, [cliPath(), "no-such-command"], { encoding: "utf8" });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("unknown command 'no-such-command'");
  });
});
