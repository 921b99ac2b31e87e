/**
 * The trace reader on very long lines (issue 31, "the reader is linear"), through the real
 * `analyze` (dist/cli.js) under `/usr/bin/time` for its peak RSS:
 *
 * - one 500 MB record line, over the reader's 256 MiB cap (MAX_LINE_BYTES): reported as oversize by
 *   its line number and skipped unread, against five 100 MB lines read whole (the baseline). Before
 *   the fix the 500 MB line took 169 s and 3.65 GB (the reader re-flattened the growing line on
 *   every 1 MiB chunk: quadratic).
 * - one 250 MB line, under the cap, read whole: its time per MB against the five 100 MB lines' (a
 *   linear reader gives about 1), and its peak RSS per byte of the line (the reader holds the line's
 *   bytes, then its text, then its text and the parsed record: about 2x; the analyzer then parses the
 *   frame's JSON once more).
 * - one `session/prompt` whose text is a single 100 MB JSON string (issue 31's fuzz size, here
 *   because it is slow): through `analyze --json`, redacted `export` and `export --full`, time and
 *   peak RSS each, exit 0 expected; `analyze --json` within 4x the line's bytes.
 *
 * Times are CPU seconds (user + system) from `/usr/bin/time`, wall time beside them. Set ACP_RI_CLI
 * to a built cli.js to measure that one instead of dist/cli.js.
 *
 * `npm run bench -- reader`; writes about 1.25 GB under the temp folder and deletes it.
 */
import { spawnSync } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { TRACE_FORMAT, TRACE_FORMAT_VERSION } from "../../../shared/trace/record.js";
import { MAX_LINE_BYTES } from "../../trace/trace-reader.js";
import type { Bench, BenchRow } from "./bench-row.js";

const MB = 1_000_000;
const TIME_GOAL = 2;
const RSS_GOAL_MB = 1500;
const RATE_GOAL = 1.5;
/** `analyze --json` of a 100 MB prompt string: peak RSS per byte of the line (a session/update of it: 3.2x). */
const STRING_RSS_GOAL = 4;

/** The CLI measured: ACP_RI_CLI, or the build in dist/. */
const cli = () => process.env.ACP_RI_CLI ?? join(process.cwd(), "dist", "cli.js");

/**
 * Writes a trace of one `session/update` frame per entry of `lineBytes`, each record line about that
 * many bytes, in 1 MiB writes.
 */
async function writeLongLines(
  path: string,
  lineBytes: readonly number[],
  frame: "update" | "prompt" = "update",
): Promise<void> {
  const out = createWriteStream(path);
  const header = {
    format: TRACE_FORMAT,
    version: TRACE_FORMAT_VERSION,
    tool: "reader bench",
    startedAt: new Date().toISOString(),
  };
  out.write(`${JSON.stringify(header)}\n`);
  // ASCII with a Latin-1 letter: V8 keeps such text one byte a character (text outside Latin-1, say
  // CJK or emoji, takes two bytes a character in memory, so twice the figures below)
  const unit = Buffer.from("abc déf ghijk lmnop ".repeat(55_000)); // about 1.1 MB, no JSON escapes
  let seq = 0;
  for (const bytes of lineBytes) {
    seq++;
    const head =
      frame === "update"
        ? `{"seq":${seq},"ts":${1000 + seq},"type":"frame","conn":1,"dir":"agent->client","raw":"{\\"jsonrpc\\":\\"2.0\\",\\"method\\":\\"session/update\\",\\"params\\":{\\"sessionId\\":\\"s1\\",\\"update\\":{\\"sessionUpdate\\":\\"agent_message_chunk\\",\\"content\\":{\\"type\\":\\"text\\",\\"text\\":\\"`
        : `{"seq":${seq},"ts":${1000 + seq},"type":"frame","conn":1,"dir":"client->agent","raw":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":${seq},\\"method\\":\\"session/prompt\\",\\"params\\":{\\"sessionId\\":\\"s1\\",\\"prompt\\":[{\\"type\\":\\"text\\",\\"text\\":\\"`;
    const tail = frame === "update" ? `\\"}}}}"}\n` : `\\"}]}}"}\n`;
    out.write(head);
    let left = bytes - head.length - tail.length;
    while (left > 0) {
      // cut on a character boundary: the unit's ASCII letters
      let n = Math.min(left, unit.length);
      while (n < unit.length && n > 0 && (unit[n] as number) >= 0x80) n--;
      if (!out.write(unit.subarray(0, n))) await once(out, "drain");
      left -= n;
    }
    out.write(tail);
  }
  out.end();
  await once(out, "finish");
}

/**
 * `analyze --json` of `path` under `/usr/bin/time`: exit status, CPU seconds (user + system: far less
 * skewed than wall time by other load on a shared machine), wall seconds, peak RSS in MB.
 */
function analyzeRss(path: string): ReturnType<typeof timed> {
  return timed(["analyze", path, "--json"]);
}

/** The CLI (ACP_RI_CLI, or dist/cli.js) with `args` under `/usr/bin/time`: exit status, CPU seconds, wall seconds, peak RSS in MB. */
export function timed(args: readonly string[]): {
  status: number | null;
  seconds: number;
  wall: number;
  rssMb: number;
  stderr: string;
} {
  const t0 = performance.now();
  const r = spawnSync("/usr/bin/time", ["-f", "%M %U %S", process.execPath, cli(), ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    maxBuffer: 1 << 20,
  });
  const lines = r.stderr.toString().trim().split("\n");
  const [rssKb, user, sys] = (lines.at(-1) ?? "").split(" ").map(Number);
  return {
    status: r.status,
    seconds: (user ?? Number.NaN) + (sys ?? Number.NaN),
    wall: (performance.now() - t0) / 1000,
    rssMb: ((rssKb ?? Number.NaN) * 1024) / MB,
    stderr: lines.slice(0, -1).join(" ").slice(0, 200),
  };
}

/**
 * Issue 31's 100 MB strings: one `session/prompt` whose prompt text is one 100 MB JSON string, through
 * `analyze --json`, `export` (redacted: the text becomes a placeholder) and `export --full`; each
 * must exit 0. Rows: time and peak RSS each; no goal but that nothing crashes.
 */
async function hugeStringRows(dir: string): Promise<BenchRow[]> {
  const path = join(dir, "prompt-100mb-string.jsonl");
  await writeLongLines(path, [100 * MB + 400], "prompt");
  const runs: [string, string[], string | undefined][] = [
    ["analyze --json", ["analyze", path, "--json"], undefined],
    [
      "export (redacted) -o FILE",
      ["export", path, "-o", join(dir, "redacted.jsonl")],
      join(dir, "redacted.jsonl"),
    ],
    [
      "export --full -o FILE",
      ["export", path, "--full", "-o", join(dir, "full.jsonl")],
      join(dir, "full.jsonl"),
    ],
  ];
  return runs.map(([what, args, out]) => {
    const r = timed(args);
    const size =
      out === undefined
        ? ""
        : `, wrote ${(statSync(out, { throwIfNoEntry: false })?.size ?? 0).toLocaleString("en")} bytes`;
    if (out !== undefined) rmSync(out, { force: true });
    const ratio = r.rssMb / (statSync(path).size / MB);
    // The analyzer holds one copy of a prompt at most (a long canonical form is hashed as it is written).
    const analyzed = out === undefined;
    return {
      name: `one 100 MB JSON string (a session/prompt's text) through ${what}`,
      measured: `${r.seconds.toFixed(2)} s CPU (${r.wall.toFixed(1)} s wall), peak RSS ${r.rssMb.toFixed(0)} MB, exit ${r.status}${size}${r.status === 0 ? "" : ` ${r.stderr}`}`,
      baseline: `${(statSync(path).size / MB).toFixed(0)} MB trace`,
      ratio,
      goal: analyzed
        ? `exit 0, peak RSS <= ${STRING_RSS_GOAL}x the line (ratio)`
        : "exit 0, nothing crashes (peak RSS per byte of the line as ratio)",
      met: r.status === 0 && (!analyzed || ratio <= STRING_RSS_GOAL),
    };
  });
}

/** One 500 MB line (over the cap) and one 250 MB line (under it) against five 100 MB lines, through `analyze`; then a 100 MB string. */
export const readerBench: Bench = async () => {
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-bench-reader-"));
  try {
    const five = join(dir, "five-100mb.jsonl");
    const huge = join(dir, "one-500mb.jsonl");
    const whole = join(dir, "one-250mb.jsonl");
    await writeLongLines(
      five,
      [100, 100, 100, 100, 100].map((n) => n * MB),
    );
    await writeLongLines(huge, [500 * MB]);
    await writeLongLines(whole, [250 * MB]);
    const mbOf = (p: string) => statSync(p).size / MB;
    const b = analyzeRss(five);
    const h = analyzeRss(huge);
    const w = analyzeRss(whole);
    const fig = (r: ReturnType<typeof analyzeRss>) =>
      `${r.seconds.toFixed(2)} s CPU (${r.wall.toFixed(1)} s wall), peak RSS ${r.rssMb.toFixed(0)} MB${r.status === 0 ? "" : `, exit ${r.status} ${r.stderr}`}`;
    const wholeMb = mbOf(whole);
    const fiveMb = mbOf(five);
    const rateRatio = w.seconds / wholeMb / (b.seconds / fiveMb);
    for (const p of [five, huge, whole]) rmSync(p, { force: true });
    const strings = await hugeStringRows(dir);
    return [
      {
        name: `analyze, one 500 MB line (over the ${MAX_LINE_BYTES / 2 ** 20} MiB cap: oversize, skipped unread)`,
        measured: fig(h),
        baseline: `five 100 MB lines read whole: ${fig(b)}`,
        ratio: h.seconds / b.seconds,
        goal: `<= ${TIME_GOAL}x the five lines' time (169 s before)`,
        met: h.status === 0 && b.status === 0 && h.seconds <= TIME_GOAL * b.seconds,
      },
      {
        name: "analyze, one 500 MB line: peak RSS",
        measured: `${h.rssMb.toFixed(0)} MB`,
        baseline: "",
        ratio: h.rssMb,
        goal: `<= ${RSS_GOAL_MB} MB (3,650 MB before)`,
        met: h.status === 0 && h.rssMb <= RSS_GOAL_MB,
      },
      {
        name: "analyze, one 250 MB line read whole: time per MB against the five 100 MB lines'",
        measured: `${fig(w)}, ${((w.seconds * 1000) / wholeMb).toFixed(1)} ms/MB`,
        baseline: `${((b.seconds * 1000) / fiveMb).toFixed(1)} ms/MB`,
        ratio: rateRatio,
        goal: `<= ${RATE_GOAL} (linear in the line's length)`,
        met: w.status === 0 && rateRatio <= RATE_GOAL,
      },
      {
        name: "analyze, one 250 MB line read whole: peak RSS per byte of the line",
        measured: `${w.rssMb.toFixed(0)} MB`,
        baseline: `${wholeMb.toFixed(0)} MB line`,
        ratio: w.rssMb / wholeMb,
        goal: `<= ${RSS_GOAL_MB} MB (the reader holds about 2x the line; the analyzer parses the frame once more)`,
        met: w.status === 0 && w.rssMb <= RSS_GOAL_MB,
      },
      ...strings,
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
