import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { FaultRule } from "../../shared/faults/fault-rule.js";
import { takeFragmentToken } from "../../shared/hub/hub-auth.js";
import { TRACE_FORMAT, type TraceRecord } from "../../shared/trace/record.js";
import { createHubLink, type HubLink } from "../tap/hub-link/hub-link.js";
import { cliPath } from "../tools/testing/cli.js";

let dir: string;
let runDir: string;
const children: ChildProcess[] = [];
const links: HubLink[] = [];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "acp-ri-hubproc-"));
  runDir = join(dir, "run");
});
afterEach(async () => {
  for (const l of links.splice(0)) await l.close(100);
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ ...process.env, ACP_RETRY_INSPECTOR_RUNTIME_DIR: runDir });

/** Starts `serve` as a real process; resolves with its printed URL. */
function serve(tracesDir: string): Promise<{ child: ChildProcess; url: URL }> {
  const child = spawn(process.execPath, [cliPath(), "serve", "--traces-dir", tracesDir], { env: env() });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`serve printed no URL in 10 s: ${err}`)), 10_000);
    child.stderr?.on("data", (d) => {
      err += d;
    });
    child.stdout?.on("data", (d) => {
      out += d;
      const nl = out.indexOf("\n");
      if (nl === -1) return;
      clearTimeout(timer);
      resolve({ child, url: new URL(out.slice(0, nl)) });
    });
    child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${err}`)));
  });
}

/** Runs the CLI to completion (with `extraEnv` on top of the test's environment). */
function cli(
  args: string[],
  extraEnv: Record<string, string> = {},
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath(), ...args], { env: { ...env(), ...extraEnv } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`acp-retry-inspector ${args.join(" ")} did not finish in 10 s`));
    }, 10_000);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve(child.exitCode);
    const timer = setTimeout(() => reject(new Error("process did not exit in 10 s")), 10_000);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

/** Resolves on the link's next attach or detach matching `attached`. */
function nextAttach(link: HubLink, attached: boolean): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`link did not ${attached ? "attach" : "detach"} in 10 s`)),
      10_000,
    );
    const off = link.onAttach((a, traceId) => {
      if (a !== attached) return;
      clearTimeout(timer);
      off();
      resolve(traceId);
    });
  });
}

function nextRules(
  link: HubLink,
  pred: (rules: readonly FaultRule[]) => boolean,
): Promise<readonly FaultRule[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no matching fault-rules in 10 s")), 10_000);
    const off = link.onFaultRules((rules) => {
      if (!pred(rules)) return;
      clearTimeout(timer);
      off();
      resolve(rules);
    });
  });
}

const tapHeader = {
  format: TRACE_FORMAT,
  version: 1,
  tool: "test",
  startedAt: "2026-01-01T00:00:00Z",
} as const;

const frame = (seq: number): TraceRecord => ({
  type: "frame",
  seq,
  ts: seq,
  conn: 1,
  dir: "agent->client",
  raw: `{"n":${seq}}`,
});

// Each test starts a dozen short-lived CLI processes; on a loaded 2-core CI machine node start-up alone takes a second.
describe("serve and fault (real processes)", { timeout: 120_000 }, () => {
  it("arms, lists, disarms and clears rules through the fault CLI", async () => {
    const { child, url } = await serve(join(dir, "traces"));
    expect(url.host).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(url.search).toBe("");
    expect(url.hash).toMatch(/^#token=[A-Za-z0-9_-]{43}$/);
    const rendezvous = join(runDir, "hub.json");
    expect(statSync(rendezvous).mode & 0o777).toBe(0o600);

    // no tap yet: nothing to arm on
    const none = await cli(["fault", "drop-response"]);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain("no tap is attached");
    const link = createHubLink({ header: { ...tapHeader, name: "only" }, rendezvousPath: rendezvous });
    links.push(link);
    await nextAttach(link, true);

    const armed = await cli([
      "fault",
      "drop-response",
      "--method",
      "session/prompt",
      "--key",
      "K-1",
      "--count",
      "2",
    ]);
    expect(armed).toMatchObject({ status: 0 });
    const id = armed.stdout.split("\t")[0] as string;
    expect(armed.stdout).toContain("Drop the next 2 session/prompt responses with key K-1\ttap only (");
    expect(armed.stdout).toContain("armed · 2 left");
    expect((await cli(["fault", "delay", "--delay-ms", "150", "--on", "request"])).status).toBe(0);

    const listed = await cli(["fault", "list", "--json"]);
    const rules = (JSON.parse(listed.stdout) as { rules: FaultRule[] }).rules;
    expect(rules.map((r) => r.action)).toEqual(["drop-response", "delay"]);
    expect(rules[0]).toMatchObject({
      id,
      count: 2,
      match: { method: "session/prompt", idempotencyKey: "K-1" },
    });

    const bad = await cli(["fault", "delay"]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("delay needs delayMs");
    expect((await cli(["fault", "explode"])).status).toBe(2);

    expect((await cli(["fault", "disarm", id])).status).toBe(0);
    expect((await cli(["fault", "disarm", id])).status).toBe(2);
    expect((await cli(["fault", "list"])).stdout).toContain("Delay the next request by 150 ms");
    expect((await cli(["fault", "clear"])).stdout).toContain("disarmed 1 rule(s)");
    expect((await cli(["fault", "list"])).stdout).toContain("no fault rules armed");

    child.kill("SIGTERM");
    expect(await exited(child)).toBe(0);
    expect(existsSync(rendezvous)).toBe(false);
    const gone = await cli(["fault", "list"]);
    expect(gone.status).toBe(1);
    expect(gone.stderr).toContain("no hub is running");
  });

  it("fault takes the token from ACP_RI_TOKEN or the rendezvous file, never from its command line", async () => {
    const { url } = await serve(join(dir, "traces"));
    const token = takeFragmentToken(url.hash).token as string;
    for (const args of [
      ["fault", "list", "--token", token],
      ["fault", "list", `--token=${token}`],
      ["fault", "list", "--hub", url.href],
      ["fault", "list", "--hub", `${url.origin}/?token=${token}`],
    ]) {
      const r = await cli(args);
      expect({ args, status: r.status }).toEqual({ args, status: 2 });
      expect(r.stderr).toContain("ACP_RI_TOKEN");
      expect(r.stdout).toBe("");
    }
    expect((await cli(["fault", "list", "--hub", `http://evil.example:${url.port}`])).status).toBe(2);

    // The rendezvous file's token goes to the hub that file names, and only to it.
    expect((await cli(["fault", "list", "--hub", url.origin])).status).toBe(0);
    // ACP_RI_TOKEN, when set, is the token: a wrong one is refused by the hub.
    const wrong = await cli(["fault", "list"], { ACP_RI_TOKEN: "nope" });
    expect(wrong.status).toBe(1);
    expect(wrong.stderr).toContain("token");

    // A hub this CLI cannot find through a rendezvous file: only ACP_RI_TOKEN gets in.
    const elsewhere = { ACP_RETRY_INSPECTOR_RUNTIME_DIR: join(dir, "elsewhere") };
    const none = await cli(["fault", "list", "--hub", url.origin], elsewhere);
    expect(none.status).toBe(1);
    expect(none.stderr).toContain("ACP_RI_TOKEN");
    const link = createHubLink({ header: tapHeader, hub: { port: Number(url.port), token } });
    links.push(link);
    await nextAttach(link, true);
    const armed = await cli(["fault", "kill-agent", "--hub", url.origin], {
      ...elsewhere,
      ACP_RI_TOKEN: token,
    });
    expect(armed.status).toBe(0);
    expect(armed.stdout).toContain("Kill the agent now");
  });

  it("refuses to start a second hub while one runs", async () => {
    await serve(join(dir, "traces"));
    const second = await cli(["serve", "--traces-dir", join(dir, "t2")]);
    expect(second.status).toBe(1);
    expect(second.stderr).toContain("already running");
  });

  it("a hub link survives its hub's death and re-attaches to a new hub process", async () => {
    const hub1 = await serve(join(dir, "traces"));
    const header = {
      format: TRACE_FORMAT,
      version: 1,
      tool: "test",
      startedAt: new Date().toISOString(),
    } as const;
    const link = createHubLink({
      header,
      rendezvousPath: join(runDir, "hub.json"),
      retryMinMs: 50,
      retryMaxMs: 300,
    });
    links.push(link);
    const firstAttach = nextAttach(link, true);
    const trace1 = await firstAttach;
    for (let i = 1; i <= 100; i++) link.send(frame(i));

    // rules armed on hub 1 reach the tap
    const rulesSeen = nextRules(link, (r) => r.length === 1);
    expect((await cli(["fault", "kill-agent", "--method", "session/prompt"])).status).toBe(0);
    expect((await rulesSeen)[0]).toMatchObject({ action: "kill-agent", match: { method: "session/prompt" } });

    const detached = nextAttach(link, false);
    const rulesCleared = nextRules(link, (r) => r.length === 0);
    hub1.child.kill("SIGKILL");
    await detached;
    await rulesCleared; // a dead hub's rules stop applying
    for (let i = 101; i <= 200; i++) link.send(frame(i)); // the session goes on without a hub
    expect(link.stats().attached).toBe(false);

    const reattached = nextAttach(link, true);
    const hub2 = await serve(join(dir, "traces")); // same folder; replaces the stale rendezvous file
    const trace2 = await reattached;
    expect(trace2).toBeDefined();
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("backlog not acked")), 10_000);
      const poll = setInterval(() => {
        if (link.stats().backlog > 0) return;
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      }, 20);
    });
    await link.close();
    hub2.child.kill("SIGTERM");
    expect(await exited(hub2.child)).toBe(0);

    // the second hub continues the same file: header once, then every seq exactly once, in order
    expect(trace2).toBe(trace1);
    expect(readdirSync(join(dir, "traces"))).toEqual([`${trace1}.jsonl`]);
    const lines = readFileSync(join(dir, "traces", `${trace1}.jsonl`), "utf8")
      .trimEnd()
      .split("\n");
    expect(JSON.parse(lines[0] as string)).toEqual(header);
    const seqs = lines.slice(1).map((l) => JSON.parse(l).seq as number);
    expect(seqs).toEqual(Array.from({ length: 200 }, (_, i) => i + 1));
  });
});
