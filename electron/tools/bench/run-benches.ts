import { analyzerBench } from "./analyzer.bench.js";
import type { Bench, BenchRow } from "./bench-row.js";
import { diffBench } from "./diff.bench.js";
import { frontBench } from "./front.bench.js";
import { fullSizeBench } from "./full-size.bench.js";
import { hubBench } from "./hub.bench.js";
import { hubBoundsBench } from "./hub-bounds.bench.js";
import { otlpPromptsBench } from "./otlp-prompts.bench.js";
import { otlpBench, proxyBench, proxyCpuBench } from "./proxy.bench.js";
import { readerBench } from "./reader.bench.js";
import { realAgentsBench } from "./real-agents.bench.js";
import { replayBench } from "./replay.bench.js";
import { stressBench } from "./stress.bench.js";
import { traceFormatBench } from "./trace-format.bench.js";
import { truthBench } from "./truth.bench.js";

/** Every benchmark `npm run bench` runs, by name, in order. */
const benches: Record<string, Bench> = {
  proxy: proxyBench,
  analyzer: analyzerBench,
  hub: hubBench,
  bounds: hubBoundsBench,
  front: frontBench,
  stress: stressBench,
  truth: truthBench,
  fullsize: fullSizeBench,
  otlp: otlpBench,
  "otlp-prompts": otlpPromptsBench,
  "proxy-cpu": proxyCpuBench,
  reader: readerBench,
  "real-agents": realAgentsBench,
  diff: diffBench,
  replay: replayBench,
  "trace-format": traceFormatBench,
};

/**
 * Benches run only when named: `fullsize` writes 3.1 GB; `otlp` and `proxy-cpu` are parts of `proxy` measured alone;
 * `otlp-prompts` (20k pipelined keyed prompts with and without `--otlp`) is the request-dense OTLP figure;
 * `real-agents` needs agents installed outside the project (ACP_RI_REAL_AGENTS); `diff` writes two 300 MB traces;
 * `replay` records and replays a 100k-frame session three times each; `trace-format` measures a prototype format
 * (issue 36 item 3) on 1M frames of each of two shapes.
 */
const ON_REQUEST = new Set([
  "fullsize",
  "otlp",
  "otlp-prompts",
  "proxy-cpu",
  "real-agents",
  "diff",
  "replay",
  "trace-format",
]);

/** Renders rows as an aligned text table. */
export function formatRows(rows: readonly BenchRow[]): string {
  const header = ["measurement", "measured", "baseline", "ratio", "goal", "met"];
  const cells = rows.map((r) => [
    r.name,
    r.measured,
    r.baseline,
    r.ratio.toFixed(2),
    r.goal,
    r.met ? "yes" : "NO",
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? "").length)));
  const line = (c: readonly string[]) => c.map((v, i) => v.padEnd(widths[i] ?? 0)).join("  ");
  return [line(header), line(widths.map((w) => "-".repeat(w))), ...cells.map(line)].join("\n");
}

async function main(argv: string[]): Promise<void> {
  const only = argv.length > 0 ? argv : Object.keys(benches).filter((n) => !ON_REQUEST.has(n));
  const unknown = only.filter((n) => !(n in benches));
  if (unknown.length > 0) {
    process.stderr.write(
      `unknown bench: ${unknown.join(", ")} (known: ${Object.keys(benches).join(", ")})\n`,
    );
    process.exitCode = 2;
    return;
  }
  const all: BenchRow[] = [];
  for (const name of only) {
    process.stderr.write(`running ${name} bench...\n`);
    const rows = await (benches[name] as Bench)();
    all.push(...rows);
    process.stdout.write(`${formatRows(rows)}\n\n`);
  }
  process.stdout.write(`summary (${new Date().toISOString()}, ${only.join(", ")}):\n${formatRows(all)}\n`);
}

await main(process.argv.slice(2));
