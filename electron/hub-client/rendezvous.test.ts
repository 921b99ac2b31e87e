import { spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  type Rendezvous,
  RendezvousTrustError,
  readRendezvous,
  removeRendezvous,
  writeRendezvous,
} from "./rendezvous.js";

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

/** Another user's uid ("nobody"); the suite runs as root here, so it can hand files to it. */
const OTHER_UID = 65534;
const asRoot = process.getuid?.() === 0;

describe("rendezvous trust: a folder or file that is not the user's alone is refused, with the reason", () => {
  /** A rendezvous folder with a live-looking hub.json in it (another hub's, as far as a reader can tell). */
  const planted = (name: string) => {
    const folder = join(dir, name);
    mkdirSync(folder, { mode: 0o700 });
    const path = join(folder, "hub.json");
    writeFileSync(path, `${JSON.stringify(hub(process.pid, "planted"))}\n`, { mode: 0o600 });
    return { folder, path };
  };
  const refusedWrite = (path: string, why: RegExp) => {
    expect(() => writeRendezvous(path, hub(process.pid, "ours"))).toThrow(RendezvousTrustError);
    expect(() => writeRendezvous(path, hub(process.pid, "ours"))).toThrow(why);
  };

  it("a group- or other-writable folder (0777)", () => {
    const { folder, path } = planted("wide");
    chmodSync(folder, 0o777);
    const r = readRendezvous(path);
    expect(r).toEqual({
      kind: "untrusted",
      reason: expect.stringContaining(`refusing the rendezvous folder ${folder}`),
    });
    expect(r.kind === "untrusted" && r.reason).toMatch(
      /writable by its group \(mode 0777\).*ACP_RETRY_INSPECTOR_RUNTIME_DIR/,
    );
    refusedWrite(path, /writable by its group/);
    chmodSync(folder, 0o702);
    expect(readRendezvous(path)).toMatchObject({
      reason: expect.stringMatching(/writable by others \(mode 0702\)/),
    });
    expect(JSON.parse(readFileSync(path, "utf8")).hubId).toBe("planted");
  });

  it("a folder that is a symbolic link", () => {
    const { folder } = planted("real");
    const link = join(dir, "link");
    symlinkSync(folder, link);
    const path = join(link, "hub.json");
    expect(readRendezvous(path)).toMatchObject({
      kind: "untrusted",
      reason: expect.stringContaining("it is a symbolic link"),
    });
    refusedWrite(path, /refusing the rendezvous folder .*link: it is a symbolic link/);
    expect(JSON.parse(readFileSync(join(folder, "hub.json"), "utf8")).hubId).toBe("planted");
  });

  it("a file that is a symbolic link, or writable by others", () => {
    const { folder } = planted("theirs");
    const mine = join(dir, "mine");
    mkdirSync(mine, { mode: 0o700 });
    const path = join(mine, "hub.json");
    symlinkSync(join(folder, "hub.json"), path);
    expect(readRendezvous(path)).toMatchObject({
      kind: "untrusted",
      reason: expect.stringContaining(`refusing the rendezvous file ${path}: it is a symbolic link`),
    });
    refusedWrite(path, /rendezvous file .*: it is a symbolic link/);
    rmSync(path);
    writeFileSync(path, JSON.stringify(hub(process.pid)), { mode: 0o600 });
    chmodSync(path, 0o666);
    expect(readRendezvous(path)).toMatchObject({
      reason: expect.stringMatching(/writable by its group \(mode 0666\)/),
    });
    refusedWrite(path, /writable by its group/);
    // our own file, narrowed again: trusted, and replaced by the next hub
    chmodSync(path, 0o600);
    expect(readRendezvous(path).kind).toBe("live");
    writeRendezvous(path, hub(process.pid, "ours"));
    expect(readRendezvous(path)).toEqual({ kind: "live", hub: hub(process.pid, "ours") });
  });

  it.runIf(asRoot)("a folder or file that belongs to another user", () => {
    const { folder, path } = planted("foreign");
    chownSync(folder, OTHER_UID, OTHER_UID);
    expect(readRendezvous(path)).toMatchObject({
      reason: expect.stringContaining(
        `rendezvous folder ${folder}: it belongs to another user (uid ${OTHER_UID})`,
      ),
    });
    refusedWrite(path, /belongs to another user/);
    chownSync(folder, 0, 0);
    chownSync(path, OTHER_UID, OTHER_UID);
    expect(readRendezvous(path)).toMatchObject({
      reason: expect.stringContaining(
        `rendezvous file ${path}: it belongs to another user (uid ${OTHER_UID})`,
      ),
    });
    refusedWrite(path, /belongs to another user/);
    // removeRendezvous leaves a file it cannot trust alone
    removeRendezvous(path, "planted");
    expect(existsSync(path)).toBe(true);
  });
});
