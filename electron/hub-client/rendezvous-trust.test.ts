/**
 * Issue 31 item 6, as it was reproduced: a runtime folder of another user (mode 0777) holding a
 * `hub.json` of theirs that names a fake hub on loopback. The tap, `serve` and the CLI are real
 * processes; the fake hub is a real WebSocket server that counts who connects to it.
 */
import { spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WebSocketServer } from "ws";
import { exited, Scratch } from "../tap/testing/peers.js";
import { scriptedAgent, within } from "../tap/testing/proxy-run.js";
import { cliPath } from "../tools/testing/cli.js";

/** Another user's uid ("nobody"); the suite runs as root, so it can hand folders to it. */
const OTHER_UID = 65534;
const asRoot = process.getuid?.() === 0;

let scratch: Scratch;
let fakeHub: WebSocketServer;
let connections = 0;
beforeEach(async () => {
  scratch = new Scratch();
  connections = 0;
  fakeHub = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  fakeHub.on("connection", () => {
    connections++;
  });
  await new Promise((resolve) => fakeHub.once("listening", resolve));
});
afterEach(async () => {
  for (const ws of fakeHub.clients) ws.terminate();
  await new Promise((resolve) => fakeHub.close(resolve));
  scratch.cleanup();
});

/** The scratch runtime folder made someone else's and 0777, with their hub.json naming the fake hub. */
function plantForeignRendezvous(): { folder: string; file: string; text: string } {
  const folder = scratch.path("run");
  mkdirSync(folder);
  const port = (fakeHub.address() as AddressInfo).port;
  const text = `${JSON.stringify({
    v: 1,
    hubId: "theirs",
    pid: process.pid,
    port,
    token: "their-token",
    url: `http://127.0.0.1:${port}/#token=their-token`,
    startedAt: new Date().toISOString(),
  })}\n`;
  const file = join(folder, "hub.json");
  writeFileSync(file, text);
  chmodSync(folder, 0o777);
  if (asRoot) {
    chownSync(file, OTHER_UID, OTHER_UID);
    chownSync(folder, OTHER_UID, OTHER_UID);
  }
  return { folder, file, text };
}

describe("rendezvous trust: the tap, serve and the CLI refuse a rendezvous that is not the user's", {
  timeout: 60_000,
}, () => {
  it("the tap never connects to the hub a foreign 0777 folder names, and says why", async () => {
    const { folder } = plantForeignRendezvous();
    const tap = scratch.spawnCli([
      "proxy",
      "--trace",
      scratch.path("t.jsonl"),
      "--",
      ...scriptedAgent("echo"),
    ]);
    let stderr = "";
    tap.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString("utf8");
    });
    tap.stdout?.resume();
    tap.stdin?.write('{"jsonrpc":"2.0","id":1,"method":"session/prompt","params":{"prompt":"secret"}}\n');
    // until the tap refuses the folder, or (the bug) reaches the fake hub
    await within(
      new Promise<void>((resolve) => {
        const tick = () =>
          connections > 0 || stderr.includes("refusing") ? resolve() : setTimeout(tick, 10);
        tick();
      }),
      20_000,
      "the tap to refuse the rendezvous or connect to it",
    );
    tap.stdin?.end();
    await exited(tap);
    expect(connections).toBe(0);
    expect(stderr).toContain(
      `refusing the rendezvous folder ${folder}: it ${asRoot ? "belongs to another user" : "is writable by its group"}`,
    );
    // said once, not at every retry
    expect(stderr.split("refusing the rendezvous").length).toBe(2);
  });

  it("serve refuses to write its hub.json into that folder, or through a symbolic link to it, and exits 1 saying why", async () => {
    const { folder, file, text } = plantForeignRendezvous();
    /** Runs `serve` with the runtime folder `runtime` until it exits; its exit code and stderr. */
    const serve = async (runtime: string) => {
      const child = spawn(process.execPath, [cliPath(), "serve", "--traces-dir", scratch.path("traces")], {
        env: { ...scratch.env, ACP_RETRY_INSPECTOR_RUNTIME_DIR: runtime },
        stdio: ["ignore", "ignore", "pipe"],
      });
      let stderr = "";
      child.stderr?.on("data", (d: Buffer) => {
        stderr += d.toString("utf8");
      });
      const { code } = await within(exited(child), 20_000, "serve to exit").finally(() =>
        child.kill("SIGKILL"),
      );
      return { code, stderr };
    };
    const direct = await serve(folder);
    expect(direct.code).toBe(1);
    expect(direct.stderr).toContain(`refusing the rendezvous folder ${folder}`);
    expect(readFileSync(file, "utf8")).toBe(text);

    // a link to their folder (made private again, so only the link is wrong)
    chmodSync(folder, 0o700);
    const link = scratch.path("run-link");
    symlinkSync(folder, link);
    const linked = await serve(link);
    expect(linked.code).toBe(1);
    expect(linked.stderr).toContain(`refusing the rendezvous folder ${link}: it is a symbolic link`);
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("the CLI (taps) refuses it and says why", async () => {
    const { folder } = plantForeignRendezvous();
    const taps = scratch.spawnCli(["taps"]);
    let err = "";
    taps.stderr?.on("data", (d: Buffer) => {
      err += d.toString("utf8");
    });
    expect(await within(exited(taps), 20_000, "taps to refuse")).toMatchObject({ code: 1 });
    expect(err).toContain(`refusing the rendezvous folder ${folder}`);
    expect(connections).toBe(0);
  });
});

describe("rendezvous trust: startHub", () => {
  it("refuses a group-writable rendezvous folder and leaves no hub listening unannounced", async () => {
    const { startHub } = await import("../hub/hub-server.js");
    const folder = scratch.path("wide");
    mkdirSync(folder);
    chmodSync(folder, 0o775);
    const servers = () => process.getActiveResourcesInfo().filter((r) => r === "TCPServerWrap").length;
    const before = servers();
    await expect(
      startHub({ tracesDir: scratch.path("traces"), rendezvousPath: join(folder, "hub.json") }),
    ).rejects.toThrow(`refusing the rendezvous folder ${folder}: it is writable by its group (mode 0775)`);
    // the refused hub's server goes away (its handle is released a moment after close)
    await within(
      new Promise<void>((resolve) => {
        const tick = () => (servers() === before ? resolve() : setTimeout(tick, 10));
        tick();
      }),
      5_000,
      "the refused hub's server to close",
    );
    expect(readdirSync(folder)).toEqual([]);
  });
});
