import { type ChildProcessByStdio, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
// @ts-expect-error: plain ESM build script without type declarations
import { buildCli, projectRoot } from "../build/build-cli.mjs";
import type { Bench, BenchRow } from "./bench-row.js";
import { deadPort } from "./dead-port.js";

/*
 * `npm run bench -- otlp-prompts`: request-dense traffic through `proxy --otlp`. 20,000 keyed
 * `session/prompt` requests are written pipelined (all at once) through the proxy to the stand-in
 * agent's `rpc` mode, which answers each at once. Two figures: the time from the first byte
 * written to the last answer read, and the CPU time the tap's main thread (the one that forwards)
 * used meanwhile (/proc; steadier than wall time on a loaded machine). Three routes alternate in each round: the proxy without
 * `--otlp`, with `--otlp` at a live collector (an HTTP server in this process on 127.0.0.1 that
 * answers every POST 200), and with `--otlp` at a loopback port nothing listens on. Set ACP_RI_CLI
 * to an already built cli.js (with its otlp-worker.js beside it) to skip the build.
 */

const AGENT = join(projectRoot as string, "electron", "tap", "testing", "scripted-agent.mjs");
const PROMPTS = 20_000;
const ROUNDS = 3;

type Route = "plain" | "live" | "dead";
type Agentish = ChildProcessByStdio<Writable, Readable, null>;

/** A collector that takes every request and answers 200 with an empty OTLP response; counts the requests. */
async function liveCollector(): Promise<{ server: Server; url: string; requests: () => number }> {
  let requests = 0;
  const server = createHttpServer((req, res) => {
    req.resume();
    req.on("end", () => {
      requests++;
      res.writeHead(200, { "content-type": req.headers["content-type"] ?? "application/x-protobuf" });
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}`, requests: () => requests };
}

/**
 * A UUID-shaped key per prompt, as clients make them (deterministic here). Keys that share a long
 * tail (`key-00000001-bench`) would measure something else: see docs/benchmarks.md.
 */
function keyOf(id: number): string {
  const h = createHash("sha1").update(`otlp-prompts ${id}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

/** The 20,000 pipelined prompts, one keyed `session/prompt` each, as one text. */
function promptLines(): string {
  const lines: string[] = [];
  for (let id = 1; id <= PROMPTS; id++)
    lines.push(
      JSON.stringify({
        jsonrpc: "2.0",
        id,
        method: "session/prompt",
        params: {
          sessionId: "sess-bench",
          idempotencyKey: keyOf(id),
          prompt: [{ type: "text", text: `prompt number ${id} of the otlp bench` }],
        },
      }),
    );
  return `${lines.join("\n")}\n`;
}

/** CPU seconds the process's main thread (the one that forwards frames) has used so far, from /proc; null without it. */
function mainThreadCpu(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e9;
  } catch {
    return null;
  }
}

/**
 * Seconds from the first byte written to the last of the PROMPTS answers read, and the CPU seconds
 * the tap's main thread used meanwhile (what the forwarding turn costs, whatever the load).
 */
async function run(cli: string, dir: string, route: Route, otlp: Record<Route, string>, text: string) {
  const argv = [
    cli,
    "proxy",
    "--trace",
    join(dir, `${route}-${Date.now()}.jsonl`),
    ...(route === "plain" ? [] : ["--otlp", otlp[route]]),
    "--",
    process.execPath,
    AGENT,
    "rpc",
  ];
  const env = { ...process.env, XDG_RUNTIME_DIR: dir, XDG_CONFIG_HOME: dir };
  const child: Agentish = spawn(process.execPath, argv, { stdio: ["pipe", "pipe", "inherit"], env });
  const closed = new Promise<void>((resolve) => child.on("close", () => resolve()));
  // The tap is up once it answers a first request (its start is not what relaying costs).
  await new Promise<void>((resolve) => {
    child.stdout.once("data", () => resolve());
    child.stdin.write(
      '{"jsonrpc":"2.0","id":0,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}\n',
    );
  });
  let answers = 0;
  let last = 0;
  let cpuAtLast: number | null = null;
  const cpuAtStart = mainThreadCpu(child.pid);
  const t0 = performance.now();
  const all = new Promise<void>((resolve) =>
    child.stdout.on("data", (c: Buffer) => {
      for (let i = c.indexOf(10); i !== -1; i = c.indexOf(10, i + 1)) answers++;
      if (answers === PROMPTS) {
        last = performance.now();
        cpuAtLast = mainThreadCpu(child.pid);
        resolve();
      }
    }),
  );
  child.stdin.write(text);
  // Stdin ends only after the last answer: the stand-in agent exits when its stdin ends.
  await Promise.race([all, closed]);
  child.stdin.end();
  await closed;
  if (answers !== PROMPTS) throw new Error(`${route}: got ${answers} of ${PROMPTS} answers`);
  const cpu = cpuAtStart === null || cpuAtLast === null ? null : cpuAtLast - cpuAtStart;
  return { seconds: (last - t0) / 1000, cpu };
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

const secs = (s: number) => `${s.toFixed(2)} s`;

/** `--otlp` (live collector, then dead port) beside the proxy without it, on 20,000 pipelined keyed prompts. */
export const otlpPromptsBench: Bench = async () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-bench-"));
  const collector = await liveCollector();
  try {
    const cli: string = process.env.ACP_RI_CLI ?? (await buildCli(dir));
    const otlp: Record<Route, string> = {
      plain: "",
      live: collector.url,
      dead: `http://127.0.0.1:${await deadPort()}`,
    };
    const text = promptLines();
    const times: Record<Route, number[]> = { plain: [], live: [], dead: [] };
    const cpus: Record<Route, number[]> = { plain: [], live: [], dead: [] };
    const load = loadavg()[0]!.toFixed(2);
    for (let round = 0; round < ROUNDS; round++)
      for (const route of ["plain", "live", "dead"] as const) {
        const { seconds, cpu } = await run(cli, dir, route, otlp, text);
        times[route].push(seconds);
        if (cpu !== null) cpus[route].push(cpu);
      }
    // The collector's requests are told, not required: on a loaded machine the export's worker (nice 19) may send nothing before exit.
    const requests = collector.requests();
    const row = (
      route: "live" | "dead",
      what: string,
      xs: Record<Route, number[]>,
      kind: string,
    ): BenchRow => {
      const t = median(xs[route]);
      const plain = median(xs.plain);
      return {
        name: `${PROMPTS / 1000}k pipelined keyed prompts, ${kind}, proxy --otlp (${what}) vs without, median of ${ROUNDS} (load ${load}; ${xs[route].map(secs).join(", ")} vs ${xs.plain.map(secs).join(", ")}${route === "live" ? `; ${requests} collector requests` : ""})`,
        measured: secs(t),
        baseline: `${secs(plain)} proxy without --otlp`,
        ratio: t / plain,
        goal: "<= 1.3x without",
        met: t / plain <= 1.3,
      };
    };
    const rows = [
      row("live", "live collector", times, "first byte to last answer"),
      row("dead", "dead port", times, "first byte to last answer"),
    ];
    if (cpus.plain.length === ROUNDS && cpus.live.length === ROUNDS && cpus.dead.length === ROUNDS)
      rows.push(
        row("live", "live collector", cpus, "tap main-thread CPU"),
        row("dead", "dead port", cpus, "tap main-thread CPU"),
      );
    return rows;
  } finally {
    collector.server.close();
    rmSync(dir, { recursive: true, force: true });
  }
};
