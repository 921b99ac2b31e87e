import { type ChildProcessByStdio, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
// @ts-expect-error: plain ESM build script without type declarations
import { buildCli, projectRoot } from "../build/build-cli.mjs";
import type { Bench, BenchRow } from "./bench-row.js";
import { deadPort } from "./dead-port.js";

/*
 * Proxy benchmarks, each figure measured side by side with its baselines in the same run: the
 * same stand-in agent (electron/tap/testing/scripted-agent.mjs) is spawned directly, behind a bare
 * relay (`cat` in each direction: the limit for any process in the middle) and behind
 * `acp-retry-inspector proxy --trace <tmp file>` (the trace is really written; the proxy looks for
 * a hub in the bench's own folder, so it never attaches to one running on the machine).
 * Set ACP_RI_CLI to an already built cli.js to skip the build. Set ACP_RI_CLI_BEFORE to a cli.js
 * built from another commit (e.g. in a `git worktree` of it) to measure that proxy too, as route
 * `before`, alternating with the others: rows "proxy vs before" then compare the two builds
 * under the same machine state, and rows "tap CPU time ... vs before" compare the two taps' own CPU
 * time (from /proc) in short alternating pairs, which load barely moves.
 */

const AGENT = join(projectRoot as string, "electron", "tap", "testing", "scripted-agent.mjs");
const NOTIFICATIONS = 200_000;
const REQUESTS = 10_000;
const WARMUP_REQUESTS = 500;
const FLOOD_BYTES = 1024 ** 3;
const FLOOD_LINE_BYTES = 16 * 1024;
const ROUNDS = 3;
/** Alternating pairs (this build, then ACP_RI_CLI_BEFORE's, the order swapped every pair) of the CPU-time comparison. */
const CPU_PAIRS = 9;
/** Notifications and round trips of one CPU-time run: short, so the pairs see nearly the same machine state. */
const CPU_NOTIFICATIONS = 100_000;
/** Bursts of requests sent to each of the two running taps in turn, and the requests in one burst. */
const CPU_TRIP_BURSTS = 25;
const CPU_BURST_TRIPS = 1_000;

type Agentish = ChildProcessByStdio<Writable, Readable, null>;

/**
 * `proxy-otlp-dead`: the proxy with `--otlp` pointing at a loopback port nothing listens on;
 * `before`: the proxy of ACP_RI_CLI_BEFORE.
 */
type Route = "direct" | "relay" | "proxy" | "proxy-otlp-dead" | "before";
/** The cli.js of the `before` route, when asked for. */
const BEFORE_CLI = process.env.ACP_RI_CLI_BEFORE;
const ROUTES: readonly Route[] = ["direct", "relay", "proxy", ...(BEFORE_CLI ? (["before"] as const) : [])];
/** Throughput also measures the proxy exporting spans to a dead collector, beside the plain proxy. */
const THROUGHPUT_ROUTES: readonly Route[] = [...ROUTES, "proxy-otlp-dead"];

let otlpDeadUrl = "";

function launch(cli: string, dir: string, route: Route, agentArgs: string[]): Agentish {
  const agent = [process.execPath, AGENT, ...agentArgs];
  const argv =
    route === "direct"
      ? agent
      : route === "relay"
        ? ["sh", "-c", 'cat | "$0" "$@" | cat', ...agent]
        : [
            process.execPath,
            route === "before" && BEFORE_CLI ? BEFORE_CLI : cli,
            "proxy",
            "--trace",
            join(dir, `${route}-${Date.now()}.jsonl`),
            ...(route === "proxy-otlp-dead" ? ["--otlp", otlpDeadUrl] : []),
            "--",
            ...agent,
          ];
  const env = { ...process.env, XDG_RUNTIME_DIR: dir, XDG_CONFIG_HOME: dir };
  return spawn(argv[0]!, argv.slice(1), { stdio: ["pipe", "pipe", "inherit"], env });
}

function exited(child: Agentish): Promise<number | null> {
  return new Promise((resolve) => child.on("close", (code) => resolve(code)));
}

/** Clock ticks per second of the utime and stime fields of /proc/<pid>/stat (USER_HZ: 100 on Linux). */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system, all threads) the process has used so far, from /proc: the sum of
 * its threads' run time in /proc/<pid>/task/<tid>/schedstat (nanoseconds), else utime + stime
 * from /proc/<pid>/stat (10 ms ticks). `null` where there is no /proc or the process is gone.
 */
function cpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    let nanos = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      nanos += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    }
    if (Number.isFinite(nanos) && nanos > 0) return nanos / 1e9;
  } catch {
    // No schedstat (a kernel without CONFIG_SCHEDSTATS), or the process is gone: try stat.
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // The command name (field 2) may hold spaces and parentheses: count from its closing one.
    // After it: state is field 3, utime field 14, stime field 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** CPU seconds the process used between two `cpuSeconds` samples, or `null` if either failed. */
function cpuBetween(start: number | null, end: number | null): number | null {
  return start === null || end === null ? null : end - start;
}

/** A throughput run: bytes/s from first to last byte, and the route's own CPU seconds per MB meanwhile. */
interface Throughput {
  readonly bytesPerSecond: number;
  /** The relaying process's CPU seconds per 10^6 bytes passed (`null` for the direct pipe or without /proc). */
  readonly cpuPerMb: number | null;
}

/**
 * Reads every line of the child's stdout like a client would (JSON.parse each); bytes/s from first
 * to last byte, and the child's CPU time over the same span (sampled at the first byte and at the
 * last line, while the child is still up: its start and shutdown are not what it costs to relay).
 */
async function throughput(
  cli: string,
  dir: string,
  route: Route,
  count = NOTIFICATIONS,
): Promise<Throughput> {
  const child = launch(cli, dir, route, ["notify", String(count)]);
  child.stdin.end();
  let first = 0;
  let last = 0;
  let bytes = 0;
  let lines = 0;
  let carry = "";
  let cpuAtFirst: number | null = null;
  let cpuAtLast: number | null = null;
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (text: string) => {
    if (first === 0) {
      first = performance.now();
      cpuAtFirst = cpuSeconds(child.pid);
    }
    bytes += Buffer.byteLength(text);
    const parts = (carry + text).split("\n");
    carry = parts.pop() ?? "";
    for (const p of parts) {
      JSON.parse(p);
      lines++;
    }
    if (lines === count) {
      last = performance.now();
      cpuAtLast = cpuSeconds(child.pid);
    }
  });
  await exited(child);
  // From the first byte to the last line: the route's shutdown after it (a tap ending its trace
  // file, or its OTLP export's worker) is not part of how fast it relays.
  const seconds = (last - first) / 1000;
  if (lines !== count) throw new Error(`${route}: got ${lines} of ${count} notifications`);
  const cpu = cpuBetween(cpuAtFirst, cpuAtLast);
  return { bytesPerSecond: bytes / seconds, cpuPerMb: cpu === null ? null : cpu / (bytes / 1e6) };
}

/** A round-trip run: the median round trip in microseconds, and the route's own CPU seconds per round trip. */
interface RoundTrip {
  readonly medianMicros: number;
  /** The relaying process's CPU seconds per round trip (`null` without /proc). */
  readonly cpuPerTrip: number | null;
}

/** A route answering sequential requests, kept running so runs of it can be interleaved with another's. */
interface RpcSession {
  /** Sends `count` requests one after the other; their round trips and the route's CPU time meanwhile. */
  trips(count: number): Promise<RoundTrip>;
  close(): Promise<void>;
}

function rpcSession(cli: string, dir: string, route: Route): RpcSession {
  const child = launch(cli, dir, route, ["rpc"]);
  child.stdout.setEncoding("utf8");
  let carry = "";
  let waiting: (() => void) | null = null;
  child.stdout.on("data", (text: string) => {
    carry += text;
    if (carry.endsWith("\n")) {
      carry = "";
      waiting?.();
    }
  });
  const closed = exited(child);
  let id = 0;
  return {
    async trips(count) {
      const samples: number[] = [];
      const cpuAtStart = cpuSeconds(child.pid);
      for (let i = 0; i < count; i++) {
        const t0 = performance.now();
        await new Promise<void>((resolve) => {
          waiting = resolve;
          child.stdin.write(`{"jsonrpc":"2.0","id":${id++},"method":"ping","params":{}}\n`);
        });
        samples.push((performance.now() - t0) * 1000);
      }
      // Before stdin ends, so the child is certainly still up.
      const cpu = cpuBetween(cpuAtStart, cpuSeconds(child.pid));
      return { medianMicros: median(samples), cpuPerTrip: cpu === null ? null : cpu / count };
    },
    async close() {
      child.stdin.end();
      await closed;
    },
  };
}

/** Median round trip of sequential requests (after a warm-up), in microseconds, and the child's CPU time per trip. */
async function roundTrip(cli: string, dir: string, route: Route, requests = REQUESTS): Promise<RoundTrip> {
  const session = rpcSession(cli, dir, route);
  await session.trips(WARMUP_REQUESTS);
  const result = await session.trips(requests);
  await session.close();
  return result;
}

/** Passes FLOOD_BYTES agent->client through the proxy; returns its peak RSS (VmHWM) in bytes. */
async function peakRss(
  cli: string,
  dir: string,
  route: "proxy" | "before" = "proxy",
): Promise<{ peak: number; seconds: number }> {
  const t0 = performance.now();
  const child = launch(cli, dir, route, ["flood", String(FLOOD_BYTES), String(FLOOD_LINE_BYTES)]);
  child.stdin.end();
  let bytes = 0;
  child.stdout.on("data", (c: Buffer) => {
    bytes += c.length;
  });
  let peak = 0;
  const sample = () => {
    try {
      const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (m) peak = Math.max(peak, Number(m[1]) * 1024);
    } catch {
      // The process is gone; the last sample stands (VmHWM only grows).
    }
  };
  const timer = setInterval(sample, 20);
  await new Promise<void>((resolve) => child.stdout.on("end", () => resolve()));
  sample();
  clearInterval(timer);
  await exited(child);
  if (bytes < FLOOD_BYTES) throw new Error(`flood: got ${bytes} of ${FLOOD_BYTES} bytes`);
  return { peak, seconds: (performance.now() - t0) / 1000 };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const mb = (bytesPerSecond: number) => `${(bytesPerSecond / 1e6).toFixed(1)} MB/s`;

/** `measured` next to `baseline` as a row, with their ratio. */
function ratioRow(
  name: string,
  measured: number,
  baseline: number,
  baselineName: string,
  format: (x: number) => string,
  goal: { text: string; met: (ratio: number) => boolean },
): BenchRow {
  const ratio = measured / baseline;
  return {
    name,
    measured: format(measured),
    baseline: `${format(baseline)} ${baselineName}`,
    ratio,
    goal: goal.text,
    met: goal.met(ratio),
  };
}

/** Rounds of the `otlp` bench (the OTLP figure alone; the proxy bench measures it in ROUNDS). */
const OTLP_ROUNDS = 5;

/**
 * `npm run bench -- otlp`: only the proxy's throughput with `--otlp` at a dead port next to the
 * proxy without it, alternating, OTLP_ROUNDS rounds, the median of each (the same figure as the
 * proxy bench's row, without its round trips and 1 GiB flood).
 */
export const otlpBench: Bench = async () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-bench-"));
  try {
    const cli: string = process.env.ACP_RI_CLI ?? (await buildCli(dir));
    otlpDeadUrl = `http://127.0.0.1:${await deadPort()}`;
    const plain: number[] = [];
    const dead: number[] = [];
    for (let round = 0; round < OTLP_ROUNDS; round++) {
      plain.push((await throughput(cli, dir, "proxy")).bytesPerSecond);
      dead.push((await throughput(cli, dir, "proxy-otlp-dead")).bytesPerSecond);
    }
    return [
      ratioRow(
        `proxy --otlp at a dead port vs proxy without, ${NOTIFICATIONS / 1000}k agent->client notifications of ~300 B, median of ${OTLP_ROUNDS}`,
        median(dead),
        median(plain),
        "proxy without --otlp",
        mb,
        { text: ">= 0.95 of without", met: (x) => x >= 0.95 },
      ),
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

/**
 * `npm run bench -- proxy-cpu`: only the tap's CPU time next to ACP_RI_CLI_BEFORE's build (the
 * proxy bench's CPU rows, without its wall-clock rounds and 1 GiB floods).
 */
export const proxyCpuBench: Bench = async () => {
  if (!BEFORE_CLI)
    throw new Error("proxy-cpu compares two builds: set ACP_RI_CLI_BEFORE to the other cli.js");
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-bench-"));
  try {
    const cli: string = process.env.ACP_RI_CLI ?? (await buildCli(dir));
    return await cpuBeforeRows(cli, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const us = (micros: number) => `${micros.toFixed(0)} µs`;

/** The proxy next to the ACP_RI_CLI_BEFORE build: throughput, round trip, peak RSS (within 5%). */
function beforeRows(
  r: (route: Route) => number,
  t: (route: Route) => number,
  peak: number,
  beforePeak: number,
): BenchRow[] {
  const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  return [
    ratioRow("proxy throughput vs before", r("proxy"), r("before"), "before", mb, {
      text: ">= 0.95 of before",
      met: (x) => x >= 0.95,
    }),
    ratioRow("median round trip vs before", t("proxy"), t("before"), "before", us, {
      text: "<= 1.05x before",
      met: (x) => x <= 1.05,
    }),
    ratioRow("proxy peak RSS passing 1 GiB vs before", peak, beforePeak, "before", mib, {
      text: "<= 1.05x before",
      met: (x) => x <= 1.05,
    }),
  ];
}
const none = { text: "", met: () => true };
/** The median of per-pair ratios `after / before`, with the medians of each side and the ratios' range. */
interface PairedFigure {
  readonly after: number;
  readonly before: number;
  readonly ratio: number;
  readonly low: number;
  readonly high: number;
}

function paired(after: readonly number[], before: readonly number[]): PairedFigure {
  const ratios = after.map((a, i) => a / (before[i] as number));
  return {
    after: median([...after]),
    before: median([...before]),
    ratio: median(ratios),
    low: Math.min(...ratios),
    high: Math.max(...ratios),
  };
}

/**
 * The tap's own CPU time (from /proc: all its threads' run time) next to the ACP_RI_CLI_BEFORE
 * build's, per MB passed agent->client and per round trip, each as the median of per-pair ratios:
 * for MB, CPU_PAIRS short alternating runs of each build (the order swapped each pair); for round
 * trips, both taps kept running and CPU_TRIP_BURSTS bursts of CPU_BURST_TRIPS requests sent to each
 * in turn, so the two sides of a pair are a fraction of a second apart. CPU time is what a change
 * to the hot path adds or saves; under load, wall time is mostly the scheduler. `[]` without /proc.
 */
async function cpuBeforeRows(cli: string, dir: string): Promise<BenchRow[]> {
  const perMb: Record<"proxy" | "before", number[]> = { proxy: [], before: [] };
  const perTrip: Record<"proxy" | "before", number[]> = { proxy: [], before: [] };
  const order = (pair: number) =>
    pair % 2 === 0 ? (["proxy", "before"] as const) : (["before", "proxy"] as const);
  for (let pair = 0; pair < CPU_PAIRS; pair++) {
    for (const route of order(pair)) {
      const { cpuPerMb } = await throughput(cli, dir, route, CPU_NOTIFICATIONS);
      if (cpuPerMb === null) return [];
      perMb[route].push(cpuPerMb);
    }
  }
  const sessions = { proxy: rpcSession(cli, dir, "proxy"), before: rpcSession(cli, dir, "before") };
  try {
    for (const route of order(0)) await sessions[route].trips(WARMUP_REQUESTS);
    for (let pair = 0; pair < CPU_TRIP_BURSTS; pair++) {
      for (const route of order(pair)) {
        const { cpuPerTrip } = await sessions[route].trips(CPU_BURST_TRIPS);
        if (cpuPerTrip === null) return [];
        perTrip[route].push(cpuPerTrip);
      }
    }
  } finally {
    await Promise.all([sessions.proxy.close(), sessions.before.close()]);
  }
  const row = (name: string, f: PairedFigure, format: (seconds: number) => string): BenchRow => ({
    name: `${name} (pair ratios ${f.low.toFixed(2)} to ${f.high.toFixed(2)})`,
    measured: format(f.after),
    baseline: `${format(f.before)} before`,
    ratio: f.ratio,
    goal: "<= 1.05x before",
    met: f.ratio <= 1.05,
  });
  return [
    row(
      `tap CPU time per MB passed vs before, ${CPU_NOTIFICATIONS / 1000}k agent->client notifications, median of ${CPU_PAIRS} alternating pairs' ratios`,
      paired(perMb.proxy, perMb.before),
      (s) => `${(s * 1000).toFixed(1)} ms/MB`,
    ),
    row(
      `tap CPU time per round trip vs before, median of ${CPU_TRIP_BURSTS} alternating bursts' ratios of ${CPU_BURST_TRIPS} sequential requests`,
      paired(perTrip.proxy, perTrip.before),
      (s) => `${(s * 1e6).toFixed(1)} µs CPU`,
    ),
  ];
}

/**
 * The proxy figures of issue 2 §7 (throughput, round trip, peak RSS), each next to the direct
 * pipe and to the bare relay, and the relay next to the direct pipe.
 */
export const proxyBench: Bench = async () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-bench-"));
  try {
    const cli: string = process.env.ACP_RI_CLI ?? (await buildCli(dir));
    // Alternate the routes so all see the same machine state; keep the median of each.
    otlpDeadUrl = `http://127.0.0.1:${await deadPort()}`;
    const rate: Record<Route, number[]> = {
      direct: [],
      relay: [],
      proxy: [],
      "proxy-otlp-dead": [],
      before: [],
    };
    const rtt: Record<Route, number[]> = {
      direct: [],
      relay: [],
      proxy: [],
      "proxy-otlp-dead": [],
      before: [],
    };
    for (let round = 0; round < ROUNDS; round++) {
      for (const route of THROUGHPUT_ROUTES)
        rate[route].push((await throughput(cli, dir, route)).bytesPerSecond);
    }
    for (let round = 0; round < ROUNDS; round++) {
      for (const route of ROUTES) rtt[route].push((await roundTrip(cli, dir, route)).medianMicros);
    }
    const { peak, seconds } = await peakRss(cli, dir);
    const before = BEFORE_CLI ? await peakRss(cli, dir, "before") : null;
    const r = (route: Route) => median(rate[route]);
    const t = (route: Route) => median(rtt[route]);
    const notes = `${NOTIFICATIONS / 1000}k agent->client notifications of ~300 B`;
    const trips = `${REQUESTS / 1000}k sequential requests`;
    const rows: BenchRow[] = [
      ratioRow(`proxy throughput, ${notes}`, r("proxy"), r("direct"), "direct pipe", mb, {
        text: ">= 0.85 of direct",
        met: (x) => x >= 0.85,
      }),
      ratioRow(`proxy throughput vs relay (cat), ${notes}`, r("proxy"), r("relay"), "relay", mb, none),
      ratioRow(`relay (cat) throughput, ${notes}`, r("relay"), r("direct"), "direct pipe", mb, none),
      ratioRow(
        `proxy --otlp at a dead port vs proxy without, ${notes}`,
        r("proxy-otlp-dead"),
        r("proxy"),
        "proxy without --otlp",
        mb,
        { text: ">= 0.95 of without", met: (x) => x >= 0.95 },
      ),
      ratioRow(`median round trip, ${trips}`, t("proxy"), t("direct"), "direct", us, {
        text: "<= 2.0x direct",
        met: (x) => x <= 2.0,
      }),
      ratioRow(`median round trip vs relay (cat), ${trips}`, t("proxy"), t("relay"), "relay", us, none),
      ratioRow(`relay (cat) median round trip, ${trips}`, t("relay"), t("direct"), "direct", us, none),
      {
        name: `proxy peak RSS passing 1 GiB (${FLOOD_LINE_BYTES / 1024} KiB lines, traced, ${seconds.toFixed(1)} s)`,
        measured: `${(peak / 2 ** 20).toFixed(1)} MiB`,
        baseline: "",
        ratio: peak / 2 ** 20,
        goal: "< 150 MiB",
        met: peak < 150 * 2 ** 20,
      },
    ];
    if (before) rows.push(...beforeRows(r, t, peak, before.peak), ...(await cpuBeforeRows(cli, dir)));
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
