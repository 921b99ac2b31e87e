import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type Rendezvous, readRendezvous, removeRendezvous, writeRendezvous } from "./rendezvous.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-rdv-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const hub = (pid: number, hubId = "h1"): Rendezvous => ({
  v: 1,
  hubId,
  pid,
  port: 1234,
  token: "t",
  url: "http://127.0.0.1:1234/#token=t",
  startedAt: "x",
});

describe("rendezvous file", () => {
  it("is written 0600 in a 0700 folder and read back as live while its process runs", () => {
    const path = join(dir, "sub", "hub.json");
    writeRendezvous(path, hub(process.pid));
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, "sub")).mode & 0o777).toBe(0o700);
    expect(readRendezvous(path)).toEqual({ kind: "live", hub: hub(process.pid) });
  });

  it("is stale when its hub process is gone or the file is garbage", () => {
    const path = join(dir, "hub.json");
    const dead = spawnSync(process.execPath, ["-e", "process.pid"]).pid as number;
    writeRendezvous(path, hub(dead));
    expect(readRendezvous(path).kind).toBe("stale");
    writeFileSync(path, "{not json");
    expect(readRendezvous(path)).toEqual({ kind: "stale" });
    expect(readRendezvous(join(dir, "missing.json"))).toEqual({ kind: "none" });
  });

  it("is removed only by the hub that wrote it", () => {
    const path = join(dir, "hub.json");
    writeRendezvous(path, hub(process.pid, "newer"));
    removeRendezvous(path, "older");
    expect(existsSync(path)).toBe(true);
    removeRendezvous(path, "newer");
    expect(existsSync(path)).toBe(false);
  });
});
