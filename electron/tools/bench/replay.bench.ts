import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// @ts-expect-error: plain ESM build script without type declarations
import { buildCli } from "../build/build-cli.mjs";
import type { Bench, BenchRow } from "./bench-row.js";

/*
 * `replay --timing asap` of a recorded session of ~100k frames against demo-agent, beside the
 * tap's own throughput in the same run: a bare client (this process) sends the same client frames
 * (initialize, session/new, then keyed session/prompt requests back to back) through
 * `proxy --trace -- demo-agent` and reads every answer. The first of those runs is the recording
 * the replays play. Both sides are timed wall clock from spawn to exit, the tap's start-up and
 * trace writing included on both; frames/s counts the frame records of each run's trace.
 * Goal (issue 32): the replay costs at most 1.2x the tap alone (frames/s ratio >= 0.83).
 * Set ACP_RI_CLI to an already built cli.js to skip the build.
 */

/** Prompts of the recording: each is a request, its answer and ~5 updates (7 frames): ~100k frames. */
const PROMPTS = Number(process.env.ACP_RI_REPLAY_PROMPTS ?? 14_300);
/** Rounds (tap alone, then replay), alternating; the best of each is reported. One by default: a round is ~100k frames each way. */
const ROUNDS = Number(process.env.ACP_RI_REPLAY_ROUNDS ?? 1);

interface Run {
  readonly seconds: number;
  readonly frames: number;
}

/** Frame records in a trace file. */
function framesIn(trace: string): number {
  let n = 0;
  for (const line of readFileSync(trace, "utf8").split("\n")) if (line.includes('"type":"frame"')) n++;
  return n;
}

function demoAgent(cli: string, dir: string, store: string): string[] {
  return [process.execPath, cli, "demo-agent", "--turn-ms", "0", "--store", join(dir, store)];
}

/** The tap alone: this process is the client, sending every prompt without waiting, then reading every answer. */
async function tapAlone(cli: string, dir: string, trace: string, round: number): Promise<Run> {
  const start = performance.now();
  const child = spawn(
    process.execPath,
    [cli, "proxy", "--no-hub", "--trace", trace, "--", ...demoAgent(cli, dir, `tap-${round}`)],
    { stdio: ["pipe", "pipe", "inherit"], env: { ...process.env, XDG_RUNTIME_DIR: dir } },
  );
  const send = (m: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`);
  const answers = new Map<number, (v: unknown) => void>();
  let answered = 0;
  let carry = "";
  let allDone = () => {};
  const all = new Promise<void>((resolve) => {
    allDone = resolve;
  });
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (text: string) => {
    const lines = (carry + text).split("\n");
    carry = lines.pop() ?? "";
    for (const line of lines) {
      const m = JSON.parse(line) as { id?: number; result?: unknown; method?: string };
      if (m.method !== undefined || typeof m.id !== "number") continue;
      const w = answers.get(m.id);
      if (w) w(m.result);
      else if (m.id >= 10 && ++answered === PROMPTS) allDone();
    }
  });
  const ask = (id: number, method: string, params: object) =>
    new Promise<unknown>((resolve) => {
      answers.set(id, resolve);
      send({ id, method, params });
    });
  await ask(1, "initialize", { protocolVersion: 1, clientCapabilities: {} });
  const { sessionId } = (await ask(2, "session/new", { cwd: dir, mcpServers: [] })) as { sessionId: string };
  for (let i = 0; i < PROMPTS; i++) {
    const ok = send({
      id: 10 + i,
      method: "session/prompt",
      params: { sessionId, prompt: [{ type: "text", text: `p${i}` }], idempotencyKey: `bench-${round}-${i}` },
    });
    if (!ok) await new Promise((resolve) => child.stdin.once("drain", resolve));
  }
  await all;
  child.stdin.end();
  await new Promise((resolve) => child.on("close", resolve));
  return { seconds: (performance.now() - start) / 1000, frames: framesIn(trace) };
}

/** `replay SOURCE --timing asap -- demo-agent`, spawn to exit. */
async function replay(cli: string, dir: string, source: string, trace: string, round: number): Promise<Run> {
  const start = performance.now();
  const child = spawn(
    process.execPath,
    [
      cli,
      "replay",
      source,
      "--no-hub",
      "--timing",
      "asap",
      "--trace",
      trace,
      "--",
      ...demoAgent(cli, dir, `replay-${round}`),
    ],
    { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, XDG_RUNTIME_DIR: dir } },
  );
  let err = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (t: string) => {
    err = (err + t).slice(-4000);
  });
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  if (code !== 0) throw new Error(`replay exited ${code}: ${err}`);
  return { seconds: (performance.now() - start) / 1000, frames: framesIn(trace) };
}

/** `npm run bench -- replay`. */
export const replayBench: Bench = async () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-bench-replay-"));
  try {
    const cli: string = process.env.ACP_RI_CLI ?? (await buildCli(dir));
    const source = join(dir, "source.jsonl");
    const taps: Run[] = [];
    const replays: Run[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      taps.push(await tapAlone(cli, dir, round === 0 ? source : join(dir, `tap-${round}.jsonl`), round));
      replays.push(await replay(cli, dir, source, join(dir, `replay-${round}.jsonl`), round));
    }
    const rate = (r: Run) => r.frames / r.seconds;
    const best = (runs: Run[]) => runs.reduce((a, b) => (rate(b) > rate(a) ? b : a));
    const tap = best(taps);
    const rep = best(replays);
    const sourceFrames = framesIn(source);
    const ratio = rate(rep) / rate(tap);
    // A replay that stopped waiting for answers writes fewer frames: not a figure to compare.
    const complete = rep.frames >= 0.95 * sourceFrames;
    const row: BenchRow = {
      name: `replay --timing asap of ${sourceFrames} recorded frames vs the tap alone (best of ${ROUNDS}, spawn to exit)`,
      measured: `${Math.round(rate(rep))} frames/s (${rep.seconds.toFixed(1)} s, ${rep.frames} frames${complete ? "" : ", INCOMPLETE"})`,
      baseline: `${Math.round(rate(tap))} frames/s tap alone (${tap.seconds.toFixed(1)} s, ${tap.frames} frames)`,
      ratio,
      goal: ">= 0.83 of the tap alone (adds <= 20%)",
      met: complete && ratio >= 1 / 1.2,
    };
    return [row];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
