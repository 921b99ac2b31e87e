import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { TRACE_FORMAT } from "../../../shared/trace/record.js";
import { callOperation } from "../../hub-client/hub-client.js";
import { rendezvousPath } from "../../hub-client/hub-paths.js";
import { FRONT_TOKEN_ENV } from "../../platform/front-token.js";
import { userDir } from "../../platform/user-dirs.js";
import { createHubLink, type HubLink } from "../../tap/hub-link/hub-link.js";
import { defaultTraceDir, TRACE_DIR_ENV } from "../../trace/default-trace-path.js";
import { cliPath } from "./cli.js";
import { USER_DIR_VARIABLES } from "./hermetic-dirs.js";

const children: ChildProcess[] = [];
const dirs: string[] = [];
const links: HubLink[] = [];
afterEach(async () => {
  for (const l of links.splice(0)) await l.close(100);
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill("SIGKILL");
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const inside = (path: string) => path.startsWith(`${process.env.ACP_RI_SUITE_HOME}/`);

describe("the test suite's per-user folders", () => {
  it("point every folder this tool uses at the suite's private root, in every test worker", () => {
    expect(process.env.ACP_RI_SUITE_HOME).toMatch(/acp-ri-suite-home-/);
    // A token the user exported for their own hub never reaches the suite's CLI calls.
    expect(process.env.ACP_RI_TOKEN).toBeUndefined();
    // Nor the user's traces folder or a token meant for their own `proxy --listen`.
    expect(process.env[TRACE_DIR_ENV]).toBeUndefined();
    expect(process.env[FRONT_TOKEN_ENV]).toBeUndefined();
    for (const name of USER_DIR_VARIABLES)
      expect({ name, inside: inside(process.env[name] ?? "") }).toEqual({ name, inside: true });
    for (const path of [
      rendezvousPath(),
      defaultTraceDir(),
      userDir("data"),
      userDir("config"),
      userDir("state"),
    ]) {
      expect({ path, inside: inside(path) }).toEqual({ path, inside: true });
    }
  });

  it("a hub in the user's own folders, with a rule armed, sees none of the suite's taps", async () => {
    // The user: a home of their own and no overrides, so their hub writes its rendezvous where a
    // tap would look by default.
    const home = mkdtempSync(join(tmpdir(), "acp-ri-user-home-"));
    dirs.push(home);
    const userEnv: NodeJS.ProcessEnv = { ...process.env, HOME: home };
    for (const name of [...USER_DIR_VARIABLES, "ACP_RI_SUITE_HOME"]) delete userEnv[name];
    const hub = spawn(process.execPath, [cliPath(), "serve", "--traces-dir", join(home, "traces")], {
      env: userEnv,
      stdio: "ignore",
    });
    children.push(hub);
    // Where the user's hub writes its rendezvous: their config folder, under their home.
    const userRendezvous = join(userDir("config", userEnv, process.platform, home), "hub.json");
    await vi.waitFor(() => expect(existsSync(userRendezvous)).toBe(true), { timeout: 10_000 });
    const { port, token } = JSON.parse(readFileSync(userRendezvous, "utf8")) as {
      port: number;
      token: string;
    };
    const target = { base: `http://127.0.0.1:${port}`, token };
    // The user's own tap, and a rule armed on every tap the hub has.
    const userTap = createHubLink({
      header: {
        format: TRACE_FORMAT,
        version: 1,
        tool: "test",
        startedAt: new Date().toISOString(),
        name: "user-tap",
      },
      hub: { port, token },
    });
    links.push(userTap);
    await new Promise<void>((resolve) => userTap.onAttach((a) => a && resolve()));
    await callOperation(target, "armFault", {
      spec: { action: "drop-response", match: { method: "session/prompt" }, target: { all: true } },
    });

    // The suite: the same home, with the suite's folders on top (inherited, as every test's children are).
    const work = mkdtempSync(join(tmpdir(), "acp-ri-suite-tap-"));
    dirs.push(work);
    const suiteEnv = { ...process.env, HOME: home };
    const trace = join(work, "t.jsonl");
    const agent = [cliPath(), "demo-agent", "--store", join(work, "store")];
    const run = spawnSync(
      process.execPath,
      [
        cliPath(),
        "demo-client",
        "--prompt",
        "hello",
        "--",
        process.execPath,
        cliPath(),
        "proxy",
        "--trace",
        trace,
        "--",
        process.execPath,
        ...agent,
      ],
      { env: suiteEnv, encoding: "utf8", timeout: 30_000 },
    );
    expect(run.status, run.stderr).toBe(0);
    const records = readFileSync(trace, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string });
    expect(records.filter((r) => r.type === "fault" || r.type === "note")).toEqual([]);
    const status = await callOperation(target, "hubStatus");
    expect({ taps: status.taps, recordsIn: status.recordsIn }).toEqual({ taps: 1, recordsIn: 0 });
    expect((await callOperation(target, "listTaps")).taps.map((t) => t.name)).toEqual(["user-tap"]);
    expect((await callOperation(target, "listFaults")).rules).toHaveLength(1);
  });
});
