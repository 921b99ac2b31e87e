/**
 * Issue 12 item 2, measured: the hub bounded by bytes and by connections. Each part runs its own
 * `serve` process (so its peak RSS, VmHWM from /proc, is the part's own):
 *
 * - 5,000 frames of 1 MiB, then 200 frames of 32 MiB, streamed by a real hub link (the tap's
 *   code) with one UI subscribed: the hub must be alive after each with peak RSS <= 500 MiB;
 * - 20,000 idle TCP sockets opened and held against it by two helper processes (the hub keeps at
 *   most its TCP cap, dropping the oldest silent one): the authenticated API must answer within 1 s,
 *   timed on a new connection per call (while the sockets arrive, and once all are held) and on a
 *   kept-alive one, with the kernel's count of SYNs it dropped on full listen queues.
 *
 * `ACP_RI_BENCH_BOUNDS=1mib,32mib,sockets` picks parts, `ACP_RI_BENCH_1MIB_FRAMES` the 1 MiB part's count
 * (default 5,000), `ACP_RI_CLI` a built cli.js other than dist/'s (e.g. one of an older commit).
 * A benchmark, not a test: no timed assertion anywhere. `npm run bench -- bounds`; the helpers
 * hold 10,000 sockets each, under a default `ulimit -n` of 20,000 (raise it if yours is lower).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { takeFragmentToken } from "../../../shared/hub/hub-auth.js";
import { TRACE_FORMAT, type TraceRecord } from "../../../shared/trace/record.js";
import { hubTransport } from "../../hub-client/hub-client.js";
import { createHubLink, type HubLink } from "../../tap/hub-link/hub-link.js";
import { connectUiProbe } from "../testing/ui-probe.js";
import type { Bench, BenchRow } from "./bench-row.js";

const RSS_GOAL_MIB = 500;
const API_GOAL_MS = 1_000;
const IDLE_SOCKETS = Number(process.env.ACP_RI_BENCH_IDLE_SOCKETS ?? 20_000);
const HOLDERS = 2;
/** Frames of the 1 MiB part (issue 36 item 5 measures 1,500). */
const ONE_MIB_FRAMES = Number(process.env.ACP_RI_BENCH_1MIB_FRAMES ?? 5_000);

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

/**
 * `GET /api/hub` with the token: its status and how long the answer took. `agent` undefined: a new
 * TCP connection for the call (as the CLI makes); else one kept alive between calls (as a page does).
 */
function apiCall(
  port: number,
  token: string,
  agent?: Agent,
  timeoutMs = 10_000,
): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path: "/api/hub",
        headers: { Authorization: `Bearer ${token}` },
        agent: agent ?? false,
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

/** `GET /api/hub` through the CLI's own transport (`hubTransport`: a new connection per call, attempts raced). */
async function cliCall(port: number, token: string): Promise<{ status: number; ms: number }> {
  const t0 = performance.now();
  try {
    const r = await hubTransport({ base: `http://127.0.0.1:${port}`, token })({
      method: "GET",
      path: "/api/hub",
    });
    return { status: r.status, ms: performance.now() - t0 };
  } catch {
    return { status: 0, ms: performance.now() - t0 };
  }
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
  const cli = process.env.ACP_RI_CLI ?? join(process.cwd(), "dist", "cli.js");
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
export function holder(port: number, n: number): ChildProcess {
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

/** The kernel's count of connections dropped because a listen queue was full (Linux, every socket of the machine). */
export function listenOverflows(): number {
  try {
    const lines = readFileSync("/proc/net/netstat", "utf8")
      .split("\n")
      .filter((l) => l.startsWith("TcpExt:"));
    const names = lines[0]?.split(/\s+/) ?? [];
    const values = lines[1]?.split(/\s+/) ?? [];
    return Number(values[names.indexOf("ListenOverflows")] ?? Number.NaN);
  } catch {
    return Number.NaN;
  }
}

/** One API call's phase, kind and outcome. */
interface Call {
  readonly phase: "arriving" | "held";
  readonly kind: "plain" | "cli" | "kept";
  readonly ok: boolean;
  readonly ms: number;
}

/** The row for the calls of `kind` in `phases`. */
function callRow(
  calls: readonly Call[],
  kind: Call["kind"],
  phases: readonly Call["phase"][],
  what: string,
): BenchRow {
  const mine = calls.filter((c) => c.kind === kind && phases.includes(c.phase));
  const times = mine
    .filter((c) => c.ok)
    .map((c) => c.ms)
    .sort((a, b) => a - b);
  const failed = mine.length - times.length;
  const worst = times.at(-1) ?? Number.POSITIVE_INFINITY;
  const median = times[Math.floor(times.length / 2)] ?? Number.NaN;
  return {
    name: `GET /api/hub ${what}, ${mine.length} calls`,
    measured: `worst ${worst.toFixed(0)} ms, median ${median.toFixed(0)} ms, ${failed} failed`,
    baseline: "",
    ratio: worst,
    goal: `every call answered within ${API_GOAL_MS} ms`,
    met: mine.length > 0 && failed === 0 && worst <= API_GOAL_MS,
  };
}

/**
 * The API's answer times while `IDLE_SOCKETS` idle sockets are opened and held against the hub (it
 * keeps at most its TCP cap, dropping the oldest silent one for each new one). Three callers run side
 * by side, one call every 100 ms each, from the start of the flood until 10 s after every socket
 * connected: one opens a new TCP connection per call with one SYN (a plain client), one is the
 * CLI's own transport (a new connection per call, with another attempt every 200 ms while none has
 * connected: `raceConnect`), and one keeps its connection alive between calls (as the UI's page does). Each call counts in the phase it started in: while
 * the sockets were still being opened ("arriving"), or once all had connected ("held"). A new
 * connection made while the flood arrives can find the kernel's listen queue full: its SYN is then
 * dropped and retried after 1 s, below anything the hub can do; the row of the kernel's
 * `ListenOverflows` during the run says how often that happened.
 */
async function idleSockets(): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-bounds-"));
  const cli = join(process.cwd(), "dist", "cli.js");
  const { child, port, token } = await startServe(cli, dir);
  const holders: ChildProcess[] = [];
  const kept = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const connected: number[] = [];
    const open: number[] = [];
    // the kept-alive caller's connection is made before the flood, as an open page's is
    await apiCall(port, token, kept);
    const overflowsBefore = listenOverflows();
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
    const calls: Call[] = [];
    let allAt: number | undefined;
    const t0 = Date.now();
    const deadline = t0 + 90_000;
    const going = () => Date.now() < deadline && (allAt === undefined || Date.now() < allAt + 10_000);
    const caller = async (kind: Call["kind"]) => {
      while (going()) {
        const phase = sum(connected) >= IDLE_SOCKETS ? "held" : "arriving";
        const r =
          kind === "cli"
            ? await cliCall(port, token)
            : await apiCall(port, token, kind === "kept" ? kept : undefined);
        calls.push({ phase, kind, ok: r.status === 200, ms: r.ms });
        await new Promise((res) => setTimeout(res, 100));
      }
    };
    const watch = setInterval(() => {
      if (allAt === undefined && sum(connected) >= IDLE_SOCKETS) allAt = Date.now();
    }, 20);
    await Promise.all([caller("plain"), caller("cli"), caller("kept")]);
    clearInterval(watch);
    const overflows = listenOverflows() - overflowsBefore;
    const rss = rssOf(child.pid);
    const flood = `${IDLE_SOCKETS.toLocaleString("en")} idle TCP sockets`;
    const arrived =
      allAt === undefined
        ? "never all connected"
        : `all connected ${((allAt - t0) / 1000).toFixed(1)} s after the first`;
    return [
      callRow(
        calls,
        "plain",
        ["arriving"],
        `on a new connection each call (one SYN), while the ${flood} were being opened (${arrived})`,
      ),
      callRow(
        calls,
        "plain",
        ["held"],
        `on a new connection each call (one SYN), in the 10 s after all ${flood} had connected`,
      ),
      callRow(
        calls,
        "cli",
        ["arriving"],
        `by the CLI's transport (a new connection each call, attempts raced), while the ${flood} were being opened`,
      ),
      callRow(calls, "cli", ["held"], `by the CLI's transport, in the 10 s after all ${flood} had connected`),
      callRow(
        calls,
        "kept",
        ["arriving", "held"],
        `on a kept-alive connection (as the UI's page), the whole run`,
      ),
      {
        name: `the hub and the kernel during the flood (${sum(connected).toLocaleString("en")} sockets connected, ${sum(open).toLocaleString("en")} still open on the flooders' side at the end)`,
        measured: `hub peak RSS ${rss.peak.toFixed(0)} MiB; ${Number.isNaN(overflows) ? "?" : overflows.toLocaleString("en")} SYNs dropped on full listen queues (ListenOverflows)`,
        baseline: "",
        ratio: rss.peak,
        goal: "every socket connected, the hub alive",
        met: sum(connected) >= IDLE_SOCKETS && child.exitCode === null,
      },
    ];
  } finally {
    kept.destroy();
    for (const h of holders) h.kill("SIGKILL");
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The measurements of the hub's bounds, one `serve` each. */
export const hubBoundsBench: Bench = async () => {
  const only = process.env.ACP_RI_BENCH_BOUNDS?.split(",");
  const rows: BenchRow[] = [];
  const row = (r: BenchRow) => {
    process.stderr.write(`hub-bounds: ${r.name}: ${r.measured}\n`);
    rows.push(r);
  };
  if (!only || only.includes("1mib")) row(await streamFrames(ONE_MIB_FRAMES, 1 << 20, 8));
  if (!only || only.includes("32mib")) row(await streamFrames(200, 32 << 20, 1));
  if (!only || only.includes("sockets")) for (const r of await idleSockets()) row(r);
  return rows;
};
