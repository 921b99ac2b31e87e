import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { cliPath } from "../../tools/testing/cli.js";
import { readTrace } from "../../trace/trace-reader.js";

/*
 * Record before forward, under SIGKILL: real processes (this test is the client, the built CLI
 * is the tap, kill-nine-agent.mjs streams small frames as fast as it can while the client streams
 * small frames the other way), the tap killed with SIGKILL at a seeded random moment within
 * KILL_WITHIN_MS of the first frame the client got. Every whole line the client read from the
 * tap's stdout, and every whole line the agent read from its stdin, must be a frame record of
 * its direction in the trace file the tap left behind.
 * ACP_RI_TEST_CLI points the test at another cli.js (e.g. one built from an older commit, to see
 * it fail there).
 */

const AGENT = fileURLToPath(new URL("./kill-nine-agent.mjs", import.meta.url));
const RUNS = 50;
/** Runs at a time (each is a tap and an agent process). */
const PARALLEL = 4;
const KILL_WITHIN_MS = 200;
/** More frames than any run gets to send before the kill. */
const AGENT_FRAMES = 1_000_000;
const SEED = 0x5eed31;

const dir = mkdtempSync(join(tmpdir(), "acp-ri-kill9-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A seeded xorshift32, so a failing run can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

/** What one run saw: the whole lines each peer received and the frames the trace holds. */
interface RunResult {
  readonly clientGot: string[];
  readonly agentGot: string[];
  readonly traced: { readonly "agent->client": Set<string>; readonly "client->agent": Set<string> };
  readonly problems: string[];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Reads the agent's log once it wrote `end` (it saw its stdin close); kills it if it never does. */
async function agentLog(path: string): Promise<string[]> {
  for (let waited = 0; waited < 10_000; waited += 20) {
    const lines = existsSync(path) ? readFileSync(path, "utf8").split("\n") : [];
    if (lines.includes("end")) return lines;
    await sleep(20);
  }
  const pid = /^pid (\d+)$/m.exec(readFileSync(path, "utf8"))?.[1];
  if (pid) process.kill(Number(pid), "SIGKILL");
  throw new Error(`the agent never saw its stdin end (${path})`);
}

async function run(index: number, killAfterMs: number): Promise<RunResult> {
  const trace = join(dir, `run-${index}.jsonl`);
  const log = join(dir, `agent-${index}.log`);
  const cli = process.env.ACP_RI_TEST_CLI ?? cliPath();
  const tap = spawn(
    process.execPath,
    [cli, "proxy", "--no-hub", "--trace", trace, "--", process.execPath, AGENT, log, String(AGENT_FRAMES)],
    { stdio: ["pipe", "pipe", "ignore"] },
  );
  const closed = new Promise<void>((resolve) => tap.on("close", () => resolve()));
  const clientGot: string[] = [];
  let carry = "";
  let first: () => void = () => {};
  const firstFrame = new Promise<void>((resolve) => {
    first = resolve;
  });
  tap.stdout.setEncoding("utf8");
  tap.stdout.on("data", (text: string) => {
    const parts = (carry + text).split("\n");
    carry = parts.pop() ?? "";
    for (const p of parts) clientGot.push(p);
    if (clientGot.length > 0) first();
  });
  // The client streams small frames too, as fast as the tap takes them, until the tap is gone.
  let sent = 0;
  let alive = true;
  tap.stdin.on("error", () => {
    alive = false;
  });
  const send = () => {
    while (alive) {
      let burst = "";
      for (let i = 0; i < 16; i++)
        burst += `{"jsonrpc":"2.0","method":"client/ping","params":{"n":${sent++}}}\n`;
      if (!tap.stdin.write(burst)) {
        tap.stdin.once("drain", send);
        return;
      }
      if (sent % 256 === 0) {
        setImmediate(send);
        return;
      }
    }
  };
  send();
  await Promise.race([firstFrame, closed]);
  await sleep(killAfterMs);
  tap.kill("SIGKILL");
  await closed;
  alive = false;
  const agentGot = (await agentLog(log)).filter((l) => l.startsWith("got ")).map((l) => l.slice(4));
  const traced = { "agent->client": new Set<string>(), "client->agent": new Set<string>() };
  const problems: string[] = [];
  for await (const ev of readTrace(trace)) {
    if (ev.kind === "record" && ev.record.type === "frame") traced[ev.record.dir].add(ev.record.raw);
    else if (ev.kind === "problem" && !ev.truncated) problems.push(ev.message);
    else if (ev.kind === "invalid") problems.push(ev.message);
  }
  return { clientGot, agentGot, traced, problems };
}

describe("a tap killed with SIGKILL mid-stream", () => {
  it(`leaves every frame either peer received in its trace (${RUNS} runs)`, {
    timeout: 240_000,
  }, async () => {
    const next = random(SEED);
    const delays = Array.from({ length: RUNS }, () => Math.floor(next() * KILL_WITHIN_MS));
    const results: RunResult[] = [];
    for (let at = 0; at < RUNS; at += PARALLEL) {
      const batch = delays.slice(at, at + PARALLEL).map((ms, i) => run(at + i, ms));
      results.push(...(await Promise.all(batch)));
    }
    const missing = results.map((r, i) => ({
      run: i,
      killedAfterMs: delays[i],
      clientGot: r.clientGot.length,
      agentGot: r.agentGot.length,
      toClientNotTraced: r.clientGot.filter((l) => !r.traced["agent->client"].has(l)).length,
      toAgentNotTraced: r.agentGot.filter((l) => !r.traced["client->agent"].has(l)).length,
      problems: r.problems,
    }));
    const bad = missing.filter((m) => m.toClientNotTraced + m.toAgentNotTraced + m.problems.length > 0);
    const lost = (k: "toClientNotTraced" | "toAgentNotTraced") => bad.reduce((n, m) => n + m[k], 0);
    expect(
      bad.length,
      `${bad.length} of ${RUNS} runs: ${lost("toClientNotTraced")} frames the client got and ${lost("toAgentNotTraced")} the agent got are not in the trace; first runs: ${JSON.stringify(bad.slice(0, 3))}`,
    ).toBe(0);
    // The kills really were mid-stream, in both directions: frames had flowed, the stream had not ended.
    expect(results.every((r) => r.clientGot.length > 0 && r.clientGot.length < AGENT_FRAMES)).toBe(true);
    expect(results.filter((r) => r.agentGot.length > 0).length).toBeGreaterThan(RUNS / 2);
  });
});
