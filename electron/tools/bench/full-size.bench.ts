/**
 * Issue 12's held lines at their full size (the tests hold them at smaller sizes: a 33 MiB line in
 * `proxy.test.ts`, a 100 MB trace in `trace-reader.test.ts`):
 *
 * - one 200 MB line through a real `proxy` (an echo agent behind it), both ways, compared byte for
 *   byte by length and SHA-256, and recorded as one `oversize` frame of 200 MB each way;
 * - a 3.1 GB trace of large frames (1,000 keyed prompts, each answered after three 1 MiB agent
 *   updates) analysed by the real `analyze`, its peak RSS read by `/usr/bin/time`: the reader
 *   streams, so memory stays flat however large the file;
 * - the bench generator's prompt-dense trace (a keyed prompt every few frames; 1M frames by default,
 *   `ACP_RI_BENCH_DENSE_FRAMES`) analysed the same way: the model keeps every submission, so its
 *   memory grows with the number of requests, not the bytes; the row says how much per submission.
 *
 * Not part of `npm run bench` by default (it writes 3.1 GB): `npm run bench -- fullsize`, with 4 GB
 * free under the temp folder. `ACP_RI_BENCH_FULL_GB` sets the trace size. Everything it writes is
 * deleted at the end.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { once } from "node:events";
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { TRACE_FORMAT, TRACE_FORMAT_VERSION } from "../../../shared/trace/record.js";
import { readTrace } from "../../trace/trace-reader.js";
import type { Bench, BenchRow } from "./bench-row.js";
import { writeBenchTrace } from "./bench-trace.js";

const LINE_BYTES = 200_000_000;
const TRACE_GB = Number(process.env.ACP_RI_BENCH_FULL_GB ?? 3.1);
const DENSE_FRAMES = Number(process.env.ACP_RI_BENCH_DENSE_FRAMES ?? 1_000_000);
const RSS_GOAL_MB = 200;
/** The large-frame trace's agent updates: 1 MiB of text each, three per prompt. */
const UPDATE_BYTES = 1 << 20;
const UPDATES_PER_PROMPT = 3;

const cli = () => join(process.cwd(), "dist", "cli.js");

/** 200 MB of one line (ASCII, two- and three-byte UTF-8, no newline) then a newline, in 1 MiB chunks. */
function* lineChunks(): Generator<Buffer> {
  const unit = Buffer.from('{"jsonrpc":"2.0","method":"big","params":"é€ abc '.repeat(20_000));
  let left = LINE_BYTES;
  while (left > 0) {
    const n = Math.min(left, unit.length);
    yield unit.subarray(0, n);
    left -= n;
  }
  yield Buffer.from("\n");
}

async function hugeLine(dir: string): Promise<BenchRow> {
  const trace = join(dir, "line.jsonl");
  const child = spawn(
    process.execPath,
    [
      cli(),
      "proxy",
      "--no-hub",
      "--trace",
      trace,
      "--",
      process.execPath,
      "-e",
      "process.stdin.pipe(process.stdout)",
    ],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  const sent = createHash("sha256");
  const got = createHash("sha256");
  let sentBytes = 0;
  let gotBytes = 0;
  child.stdout.on("data", (d: Buffer) => {
    got.update(d);
    gotBytes += d.length;
  });
  const t0 = performance.now();
  for (const chunk of lineChunks()) {
    sent.update(chunk);
    sentBytes += chunk.length;
    if (!child.stdin.write(chunk)) await new Promise((r) => child.stdin.once("drain", r));
  }
  child.stdin.end();
  const code = await new Promise<number | null>((r) => child.once("exit", r));
  const seconds = (performance.now() - t0) / 1000;
  const same = sentBytes === gotBytes && sent.digest("hex") === got.digest("hex");
  const frames: { dir: string; bytes?: number; flags?: readonly string[] }[] = [];
  for await (const ev of readTrace(trace))
    if (ev.kind === "record" && ev.record.type === "frame")
      frames.push({ dir: ev.record.dir, bytes: ev.record.bytes, flags: ev.record.flags });
  const recorded = frames.map((f) => `${f.dir} ${f.flags?.join(",") ?? "-"} ${f.bytes ?? "-"}`).join("; ");
  const ok =
    same &&
    code === 0 &&
    frames.length === 2 &&
    frames.every((f) => f.flags?.includes("oversize") && f.bytes === LINE_BYTES);
  return {
    name: `one ${LINE_BYTES / 1e6} MB line through proxy -- echo agent, both ways (${seconds.toFixed(1)} s)`,
    measured: `${same ? "byte-exact" : "DIFFERENT"} (${gotBytes.toLocaleString("en")} of ${sentBytes.toLocaleString("en")} bytes, sha256 ${same ? "equal" : "differs"}), exit ${code}; recorded: ${recorded}`,
    baseline: "",
    ratio: same ? 1 : 0,
    goal: "byte for byte, one oversize frame each way",
    met: ok,
  };
}

/** Writes `prompts` keyed prompts, each answered after its 1 MiB updates; returns the frame count. */
async function writeLargeFrameTrace(path: string, prompts: number): Promise<number> {
  const out = createWriteStream(path, { highWaterMark: 1 << 22 });
  let seq = 0;
  let ts = 1_700_000_000_000;
  let frames = 0;
  const line = async (r: object) => {
    if (!out.write(`${JSON.stringify(r)}\n`)) await once(out, "drain");
  };
  const frame = (dir: "client->agent" | "agent->client", message: object) => {
    frames++;
    return line({ type: "frame", seq: ++seq, ts: ++ts, conn: 1, dir, raw: JSON.stringify(message) });
  };
  await line({
    format: TRACE_FORMAT,
    version: TRACE_FORMAT_VERSION,
    tool: "bench",
    startedAt: new Date(ts).toISOString(),
  });
  await line({ type: "agent-spawn", seq: ++seq, ts, pid: 4242, command: ["bench-agent"] });
  await line({ type: "conn-open", seq: ++seq, ts, conn: 1, transport: "stdio" });
  await frame("client->agent", {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: 2 },
  });
  await frame("agent->client", { jsonrpc: "2.0", id: 0, result: { protocolVersion: 2 } });
  const text = "x".repeat(UPDATE_BYTES);
  for (let i = 1; i <= prompts; i++) {
    const sessionId = "sess-1";
    await frame("client->agent", {
      jsonrpc: "2.0",
      id: i,
      method: "session/prompt",
      params: { sessionId, idempotencyKey: `key-${i}`, prompt: [{ type: "text", text: `prompt ${i}` }] },
    });
    for (let j = 0; j < UPDATES_PER_PROMPT; j++)
      await frame("agent->client", {
        jsonrpc: "2.0",
        method: "session/update",
        params: {
          sessionId,
          update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text } },
        },
      });
    await frame("agent->client", {
      jsonrpc: "2.0",
      id: i,
      result: { stopReason: "end_turn", messageId: `msg-${i}` },
    });
  }
  out.end();
  await once(out, "finish");
  return frames;
}

/** `analyze --json` of `path` under `/usr/bin/time`: exit status, seconds, peak RSS and stderr's start. */
function analyzeRss(path: string) {
  const t0 = performance.now();
  const r = spawnSync("/usr/bin/time", ["-f", "%M", process.execPath, cli(), "analyze", path, "--json"], {
    stdio: ["ignore", "ignore", "pipe"],
    maxBuffer: 1 << 20,
  });
  const lines = r.stderr.toString().trim().split("\n");
  return {
    status: r.status,
    seconds: (performance.now() - t0) / 1000,
    rssMb: (Number(lines.at(-1)) * 1024) / 1e6,
    problem: r.status === 0 ? "" : `; stderr: ${lines.slice(0, -1).join(" ").slice(0, 300)}`,
  };
}

async function hugeTrace(dir: string): Promise<BenchRow> {
  const path = join(dir, "big.trace.jsonl");
  const prompts = Math.round((TRACE_GB * 1e9) / (UPDATES_PER_PROMPT * UPDATE_BYTES + 300));
  const frames = await writeLargeFrameTrace(path, prompts);
  const gb = statSync(path).size / 1e9;
  const a = analyzeRss(path);
  return {
    name: `analyze of a ${gb.toFixed(2)} GB trace of large frames (${frames.toLocaleString("en")} frames, ${prompts} prompts), ${a.seconds.toFixed(0)} s`,
    measured: `exit ${a.status}, peak RSS ${a.rssMb.toFixed(0)} MB${a.problem}`,
    baseline: "",
    ratio: a.rssMb,
    goal: `<= ${RSS_GOAL_MB} MB peak RSS (156 MB measured before)`,
    met: a.status === 0 && a.rssMb <= RSS_GOAL_MB,
  };
}

async function denseTrace(dir: string): Promise<BenchRow> {
  const path = join(dir, "dense.trace.jsonl");
  const frames = await writeBenchTrace(path, DENSE_FRAMES);
  const gb = statSync(path).size / 1e9;
  const a = analyzeRss(path);
  return {
    name: `analyze of the bench generator's prompt-dense ${gb.toFixed(2)} GB trace (${(frames / 1e6).toFixed(1)}M frames), ${a.seconds.toFixed(0)} s`,
    measured: `exit ${a.status}, peak RSS ${a.rssMb.toFixed(0)} MB${a.problem} (the model keeps every submission)`,
    baseline: "",
    ratio: a.rssMb,
    goal: "a figure: memory grows with the requests, not the bytes",
    met: a.status === 0,
  };
}

/** The full-size runs, each in a temp folder deleted at the end. */
export const fullSizeBench: Bench = async () => {
  const rows: BenchRow[] = [];
  for (const run of [hugeLine, hugeTrace, denseTrace]) {
    const dir = mkdtempSync(join(tmpdir(), "acp-ri-full-"));
    try {
      const row = await run(dir);
      process.stderr.write(`full-size: ${row.name}: ${row.measured}\n`);
      rows.push(row);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
};
