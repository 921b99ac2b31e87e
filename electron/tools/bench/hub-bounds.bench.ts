/**
 * Issue 12 item 2, measured: the hub bounded by bytes and by connections. Each part runs its own
 * `serve` process (so its peak RSS, VmHWM from /proc, is the part's own):
 *
 * - 5,000 frames of 1 MiB, then 200 frames of 32 MiB, streamed by a real hub link (the tap's
 *   code) with one UI subscribed: the hub must be alive after each with peak RSS <= 500 MiB;
 * - 20,000 idle TCP sockets opened and held against it by two helper processes (the hub keeps at
 *   most its TCP cap, dropping the oldest silent one): the authenticated API must answer within 1 s.
 *
 * A benchmark, not a test: no timed assertion anywhere. `npm run bench -- bounds`; the helpers
 * hold 10,000 sockets each, under a default `ulimit -n` of 20,000 (raise it if yours is lower).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { takeFragmentToken } from "../../../shared/hub/hub-auth.js";
import { TRACE_FORMAT, type TraceRecord } from "../../../shared/trace/record.js";
import { createHubLink, type HubLink } from "../../tap/hub-link/hub-link.js";
import { connectUiProbe } from "../testing/ui-probe.js";
import type { Bench, BenchRow } from "./bench-row.js";

const RSS_GOAL_MIB = 500;
const API_GOAL_MS = 1_000;
const IDLE_SOCKETS = Number(process.env.ACP_RI_BENCH_IDLE_SOCKETS ?? 20_000);
const HOLDERS = 2;

/** Peak and current RSS of process `pid` in MiB (Linux /proc). */
function rssOf(pid: number | undefined): { peak: number; now: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return { peak: kb("VmHWM") / 1024, now: kb("VmRSS") / 1024 };
}

async function startServe(
  cli: string,
  dir: string,
): Promise<{ child: ChildProcess; port: number; token: string }> {
  const child = spawn(process.execPath, [cli, "serve", "--traces-dir", join(dir, "traces")], {
    env: { ...process.env, ACP_RETRY_INSPECTOR_RUNTIME_DIR: join(dir, "run") },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const url = await new Promise<URL>((resolve, reject) => {
    let out = "";
    const timer = setTimeout(() => reject(new Error("serve printed no URL in 15 s")), 15_000);
    child.stdout?.on("data", (d) => {
      out += d;
      if (!out.includes("\n")) return;
      clearTimeout(timer);
      resolve(new URL(out.slice(0, out.indexOf("\n"))));
    });
    child.once("exit", (code) => reject(new Error(`serve exited ${code}`)));
  });
  return { child, port: Number(url.port), token: takeFragmentToken(url.hash).token as string };
}

/** `GET /api/hub` with the token: its status and how long the answer took. */
function apiCall(port: number, token: string, timeoutMs = 10_000): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/hub",
        headers: { Authorization: `Bearer ${token}` },
        agent: false,
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t0 }));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error("timeout")));
    req.on("error", () => resolve({ status: 0, ms: performance.now() - t0 }));
    req.end();
  });
}

/** A ~`bytes` agent->client session/update frame. */
function bigFrame(seq: number, bytes: number): TraceRecord {
  const head = JSON.stringify({
    jsonrpc: "2.0",
    method: "session/update",
    params: {
      sessionId: "bounds",
      update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "" } },
    },
  });
  const text = "x".repeat(Math.max(0, bytes - head.length));
  return {
    type: "frame",
    seq,
    ts: Date.now(),
    conn: 1,
    dir: "agent->client",
    raw: head.replace('"text":""', `"text":"${text}"`),
  };
}

/** Streams `count` frames of `bytes` through one hub link, at most `inFlight` unacknowledged, with one UI subscribed. */
async function streamFrames(count: number, bytes: number, inFlight: number): Promise<BenchRow> {
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-bounds-"));
  const cli = join(process.cwd(), "dist", "cli.js");
  const { child, port, token } = await startServe(cli, dir);
  let link: HubLink | undefined;
  try {
    const ui = await connectUiProbe(port, token, false);
    ui.send({ t: "subscribe", after: 0 });
    const header = {
      format: TRACE_FORMAT,
      version: 1,
      tool: "hub-bounds",
      startedAt: new Date().toISOString(),
    } as const;
    link = createHubLink({ header, hub: { port, token }, maxBacklog: 50_000 });
    const l = link;
    const wait = async (ok: () => boolean) => {
      while (!ok()) await new Promise((r) => setTimeout(r, 5));
    };
    await wait(() => l.stats().attached);
    const t0 = performance.now();
    // progress on stderr, so a long run that is stopped still shows how far it got
    const progress = setInterval(() => {
      const r = rssOf(child.pid);
      process.stderr.write(
        `hub-bounds: ${l.stats().acked}/${count} x ${bytes} B acked, hub peak RSS ${r.peak.toFixed(0)} MiB, now ${r.now.toFixed(0)} MiB\n`,
      );
    }, 30_000);
    for (let seq = 1; seq <= count; seq++) {
      await wait(() => seq - l.stats().acked <= inFlight);
      l.send(bigFrame(seq, bytes));
    }
    await wait(() => l.stats().acked >= count);
    clearInterval(progress);
    const seconds = (performance.now() - t0) / 1000;
    const alive = (await apiCall(port, token)).status === 200 && child.exitCode === null;
    const rss = rssOf(child.pid);
    ui.close();
    const mib = bytes / (1 << 20);
    return {
      name: `hub after ${count.toLocaleString("en")} x ${mib} MiB frames (one hub link, one UI subscribed), ${seconds.toFixed(0)} s`,
      measured: `${alive ? "alive" : "DEAD"}, peak RSS ${rss.peak.toFixed(0)} MiB (now ${rss.now.toFixed(0)} MiB)`,
      baseline: "",
      ratio: rss.peak,
      goal: `alive, peak RSS <= ${RSS_GOAL_MIB} MiB`,
      met: alive && rss.peak <= RSS_GOAL_MIB,
    };
  } finally {
    await link?.close(1_000);
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A helper process that opens `n` idle TCP sockets to `port` (500 at a time) and holds them, sending
 * nothing; prints `connected C open O` every 200 ms (C: sockets that connected so far, O: still open).
 */
function holder(port: number, n: number): ChildProcess {
  const code = `
    const net = require("node:net");
    let open = 0, connected = 0, started = 0;
    function one() {
      const s = net.connect({ host: "127.0.0.1", port: ${port} });
      s.on("connect", () => { open++; connected++; });
      s.on("error", () => {});
      s.on("close", () => { open = Math.max(0, open - 1); });
    }
    const batch = () => { for (let i = 0; i < 500 && started < ${n}; i++, started++) one(); if (started < ${n}) setTimeout(batch, 5); };
    batch();
    setInterval(() => console.log("connected " + connected + " open " + open), 200);
  `;
  return spawn(process.execPath, ["-e", code], { stdio: ["ignore", "pipe", "inherit"] });
}

/**
 * The API's answer times while `IDLE_SOCKETS` idle sockets are opened and held against the hub (it
 * keeps at most its TCP cap, dropping the oldest silent one for each new one): calls run from the
 * start of the flood until 5 s after every socket connected.
 */
async function idleSockets(): Promise<BenchRow> {
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-bounds-"));
  const cli = join(process.cwd(), "dist", "cli.js");
  const { child, port, token } = await startServe(cli, dir);
  const holders: ChildProcess[] = [];
  try {
    const connected: number[] = [];
    const open: number[] = [];
    for (let i = 0; i < HOLDERS; i++) {
      const h = holder(port, IDLE_SOCKETS / HOLDERS);
      holders.push(h);
      connected.push(0);
      open.push(0);
      h.stdout?.on("data", (d: Buffer) => {
        const m = /connected (\d+) open (\d+)/.exec(d.toString().trim().split("\n").at(-1) ?? "");
        if (m) {
          connected[i] = Number(m[1]);
          open[i] = Number(m[2]);
        }
      });
    }
    const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
    const times: number[] = [];
    let failed = 0;
    let allAt: number | undefined;
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline && (allAt === undefined || Date.now() < allAt + 5_000)) {
      const r = await apiCall(port, token);
      if (r.status === 200) times.push(r.ms);
      else failed++;
      if (allAt === undefined && sum(connected) >= IDLE_SOCKETS) allAt = Date.now();
      await new Promise((res) => setTimeout(res, 100));
    }
    const calls = times.length + failed;
    const worst = times.length > 0 ? Math.max(...times) : Number.POSITIVE_INFINITY;
    const median = times.sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? Number.NaN;
    const rss = rssOf(child.pid);
    return {
      name: `GET /api/hub while ${sum(connected).toLocaleString("en")} idle TCP sockets connected and were held (${sum(open).toLocaleString("en")} still open at the end), ${calls} calls`,
      measured: `worst ${worst.toFixed(0)} ms, median ${median.toFixed(0)} ms, ${failed} failed; hub peak RSS ${rss.peak.toFixed(0)} MiB`,
      baseline: "",
      ratio: worst,
      goal: `every call answered within ${API_GOAL_MS} ms`,
      met: failed === 0 && worst <= API_GOAL_MS && sum(connected) >= IDLE_SOCKETS,
    };
  } finally {
    for (const h of holders) h.kill("SIGKILL");
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The three measurements of the hub's bounds, one `serve` each. */
export const hubBoundsBench: Bench = async () => {
  const only = process.env.ACP_RI_BENCH_BOUNDS?.split(",");
  const rows: BenchRow[] = [];
  const row = (r: BenchRow) => {
    process.stderr.write(`hub-bounds: ${r.name}: ${r.measured}\n`);
    rows.push(r);
  };
  if (!only || only.includes("1mib")) row(await streamFrames(5_000, 1 << 20, 8));
  if (!only || only.includes("32mib")) row(await streamFrames(200, 32 << 20, 1));
  if (!only || only.includes("sockets")) row(await idleSockets());
  return rows;
};
