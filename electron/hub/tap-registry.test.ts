import { type ChildProcessWithoutNullStreams, execFile, spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TapSummary } from "../../shared/hub/tap-summary.js";
import { TRACE_FORMAT, type TraceHeader } from "../../shared/trace/record.js";
import { callOperation } from "../hub-client/hub-client.js";
import { createHubLink, type HubLink } from "../tap/hub-link/hub-link.js";
import { traceRecords } from "../tap/testing/proxy-run.js";
import { cliPath } from "../tools/testing/cli.js";
import { type RunningHub, startHub } from "./hub-server.js";

let dir: string;
let runDir: string;
const hubs: RunningHub[] = [];
const proxies: ChildProcessWithoutNullStreams[] = [];
const links: HubLink[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-taps-"));
  runDir = join(dir, "run");
});
afterEach(async () => {
  for (const l of links.splice(0)) await l.close(100);
  for (const p of proxies.splice(0)) if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
  for (const h of hubs.splice(0)) await h.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ ...process.env, ACP_RETRY_INSPECTOR_RUNTIME_DIR: runDir });

async function hub(): Promise<RunningHub> {
  const h = await startHub({ tracesDir: join(dir, "traces"), rendezvousPath: join(runDir, "hub.json") });
  hubs.push(h);
  return h;
}

/** The real CLI's `proxy [args] -- demo-agent --store …`, run in `cwd`, its stdin held open by the test. */
function proxy(args: readonly string[], cwd: string, trace: string): ChildProcessWithoutNullStreams {
  const store = join(dir, `store-${proxies.length}`);
  const agent = [process.execPath, cliPath(), "demo-agent", "--store", store];
  const child = spawn(process.execPath, [cliPath(), "proxy", "--trace", trace, ...args, "--", ...agent], {
    cwd,
    env: env(),
    stdio: ["pipe", "pipe", "pipe"],
  });
  proxies.push(child);
  return child;
}

/** Runs the real CLI to completion with the hub's environment. */
function cli(
  args: string[],
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [cliPath(), ...args],
      { env: { ...env(), ...extraEnv }, timeout: 15_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, stdout, stderr }),
    );
  });
}

const target = (h: RunningHub) => ({ base: `http://127.0.0.1:${h.port}`, token: h.token });

/** Polls `listTaps` (bounded) until `pred` holds; returns that answer. */
async function tapsWhere(
  h: RunningHub,
  pred: (taps: readonly TapSummary[]) => boolean,
): Promise<readonly TapSummary[]> {
  let last: readonly TapSummary[] = [];
  await vi.waitFor(
    async () => {
      last = (await callOperation(target(h), "listTaps")).taps;
      expect(pred(last), JSON.stringify(last, null, 1)).toBe(true);
    },
    { timeout: 15_000, interval: 50 },
  );
  return last;
}

const header = (path: string) =>
  JSON.parse(readFileSync(path, "utf8").split("\n")[0] as string) as TraceHeader;

describe("listTaps and `taps`: the hub's live and recent taps", () => {
  it("names two real proxies, gives their agent pids and status, and shows one ending", async () => {
    const h = await hub();
    const repo = join(dir, "myrepo");
    mkdirSync(repo);
    const first = proxy([], repo, join(dir, "first.jsonl"));
    await tapsWhere(h, (t) => t.length === 1 && t[0]?.agentPids.length === 1);
    const second = proxy(["--name", "QA repro #42 <b>lost</b>"], dir, join(dir, "second.jsonl"));
    const taps = await tapsWhere(h, (t) => t.length === 2 && t.every((x) => x.agentPids.length === 1));

    // newest first; the default name is the agent program and the folder
    expect(taps.map((t) => t.name)).toEqual(["QA repro #42 <b>lost</b>", "demo-agent @ myrepo"]);
    const [b, a] = taps as [TapSummary, TapSummary];
    for (const [t, child, file] of [
      [a, first, "first.jsonl"],
      [b, second, "second.jsonl"],
    ] as const) {
      expect(t).toMatchObject({
        status: "running",
        attached: true,
        transport: "stdio",
        tapPid: child.pid,
        connections: { open: 1, total: 1 },
        lastExit: null,
        detachedAt: null,
      });
      expect(t.command?.slice(2, 3)).toEqual(["demo-agent"]);
      // the pid is the agent's, as the tap's own trace file records its spawn
      const spawned = await vi.waitFor(async () => {
        const r = (await traceRecords(join(dir, file))).find((x) => x.type === "agent-spawn");
        expect(r).toBeDefined();
        return r;
      });
      expect(t.agentPids).toEqual([spawned?.type === "agent-spawn" ? spawned.pid : -1]);
      // the header carries the name, the start time and the tap's pid, in the tap's file and the hub's copy
      const own = header(join(dir, file));
      expect(own).toMatchObject({
        name: t.name,
        startedAt: t.startedAt,
        tapPid: child.pid,
        transport: "stdio",
      });
      expect(header(join(h.tracesDir, `${t.traceId}.jsonl`))).toEqual(own);
    }
    expect(Date.parse(b.startedAt)).toBeGreaterThanOrEqual(Date.parse(a.startedAt));

    // the client goes away: the agent exits, the tap ends and detaches
    first.stdin.end();
    const after = await tapsWhere(h, (t) => t.find((x) => x.traceId === a.traceId)?.status === "ended");
    expect(after.find((x) => x.traceId === a.traceId)).toMatchObject({
      attached: false,
      agentPids: [],
      lastExit: { code: 0, signal: null },
      connections: { open: 0, total: 1 },
    });

    const json = await cli(["taps", "--json"]);
    expect(json.code).toBe(0);
    const listed = JSON.parse(json.stdout) as TapSummary[];
    expect(listed.map((t) => [t.name, t.status])).toEqual([
      ["QA repro #42 <b>lost</b>", "running"],
      ["demo-agent @ myrepo", "ended"],
    ]);
    const text = await cli(["taps"]);
    expect(text.code).toBe(0);
    const lines = text.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+NAME\s+STATUS\s+STARTED\s+AGENT PID\s+CONNS\s+COMMAND$/);
    expect(lines[1]).toContain("QA repro #42 <b>lost</b>");
    expect(lines[1]).toMatch(new RegExp(`running\\s+\\S+ \\S+\\s+${b.agentPids[0]}\\s+1/1\\s+\\S*node`));
    expect(lines[2]).toMatch(/demo-agent @ myrepo\s+ended\s+.*exited \(code 0\)\s+0\/1/);
  });

  it("keeps a tap's agent pid when it re-attaches to a new hub on the same folder", async () => {
    const a = await hub();
    const p = proxy(["--name", "survivor"], dir, join(dir, "t.jsonl"));
    const [before] = await tapsWhere(a, (t) => t[0]?.agentPids.length === 1);
    await a.close();
    const b = await hub();
    const [again] = await tapsWhere(b, (t) => t.length === 1 && t[0]?.attached === true);
    // the new hub read the tap's spawn back from the file the tap continues
    await tapsWhere(b, (t) => t[0]?.agentPids.length === 1);
    expect(again).toMatchObject({ traceId: before?.traceId, name: "survivor", tapPid: p.pid });
    const [now] = (await callOperation(target(b), "listTaps")).taps;
    expect(now).toMatchObject({
      agentPids: before?.agentPids,
      status: "running",
      connections: { open: 1, total: 1 },
    });
    expect(now?.records).toBeGreaterThanOrEqual(before?.records ?? 0);
  });

  it("names a tap whose header predates names from its agent command and folder", async () => {
    const h = await hub();
    const old: TraceHeader = {
      format: TRACE_FORMAT,
      version: 1,
      tool: "acp-retry-inspector 0.0.9",
      startedAt: "2026-01-31T12:05:01.250Z",
      agent: { command: ["npx", "@zed-industries/claude-code-acp"], cwd: "/home/me/site" },
    };
    const link = createHubLink({ header: old, hub: { port: h.port, token: h.token } });
    links.push(link);
    const [t] = await tapsWhere(h, (x) => x.length === 1);
    expect(t).toMatchObject({
      name: "claude-code-acp @ site",
      startedAt: old.startedAt,
      transport: null,
      tapPid: process.pid,
      status: "waiting",
      agentPids: [],
    });
  });

  it("refuses a bad --name, a token on the command line, and says when no hub runs", async () => {
    const bad = await cli(["proxy", "--name=", "--", "x"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--name needs a non-empty name");
    const none = await cli(["taps"], { ACP_RETRY_INSPECTOR_RUNTIME_DIR: join(dir, "nobody") });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no hub is running");
    const argvToken = await cli(["taps", "--token=secret"]);
    expect(argvToken.code).toBe(2);
    expect(argvToken.stderr).toContain("taps takes no --token");
    // a hub named by address, its token from the environment
    const h = await hub();
    const named = await cli(["taps", "--json", "--hub", `http://127.0.0.1:${h.port}`], {
      ACP_RETRY_INSPECTOR_RUNTIME_DIR: join(dir, "nobody"),
      ACP_RI_TOKEN: h.token,
    });
    expect(named.code, named.stderr).toBe(0);
    expect(JSON.parse(named.stdout)).toEqual([]);
  });
});
