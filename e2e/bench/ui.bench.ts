/**
 * `npm run bench:ui`: the UI in Chromium against a real `serve`.
 * 1. import a 100k-frame trace: time to the first timeline rows (goal ≤ 2 s) and to the last record;
 * 2. a free-text filter on it: time from the keystroke to the updated table (goal ≤ 150 ms). The
 *    first search (the first term, once) builds the search text; then every term is searched
 *    `BENCH_SEARCH_ROUNDS` times (3 unless set), and "slowest later" is the slowest term's median
 *    (one search is one sample, and the frame it waits for moves it by up to 16 ms);
 * 3. 2,000 frames/s streamed live for 30 s through a tap's hub link: how far behind the UI's
 *    record count ever was (goal: never more than 1 s). The stream runs `BENCH_LIVE_ROUNDS` times
 *    (3 unless set) on each build, each time in a fresh tab of a fresh `serve`; with a baseline the
 *    rounds alternate (new, baseline; baseline, new; new, baseline, …). A round's max lag is one
 *    sample, and two runs of the same build differ by more than 1.2x (docs/benchmarks.md, session
 *    12), so the ratio is taken of the rounds' median; the goal holds for the worst round;
 *    Then, a figure to watch with no goal: one round per build at 20,000 frames/s for 10 s
 *    (`BENCH_FAST_LIVE_RATE`, `BENCH_FAST_LIVE_SECONDS`; a rate of 0 skips it): max lag and renderer CPU;
 * 4. (its own test, a fresh tab) import a 1M-frame trace: first rows (goal ≤ 1 s), fully analysed
 *    (goal ≤ 8 s, issue 36), search (goal ≤ 100 ms, timed as on the 100k import) and the tab's memory
 *    (goal ≤ 1.5 GB; tab-memory.ts).
 * Figures only: a missed goal prints MISSED and never fails the run.
 * With `BENCH_UI_BASELINE=/path/to/checkout` (a built checkout of an older commit) each test runs its
 * steps against that checkout's `serve` too, in a fresh tab, right after this build's, and the
 * figures list gives each figure for both and the ratio new/baseline (bench-builds.ts);
 * `BENCH_UI_BASELINE_1M=0` leaves the baseline out of the 1M test.
 * For looking into the figures: `BENCH_UI_PARTS=live` runs only the live part of the 100k test (on
 * each build, the same steps); `BENCH_PROFILE=/tmp/x` writes a V8 CPU profile and `BENCH_TRACE=/tmp/x`
 * a Chrome trace (`BENCH_TRACE_INVALIDATIONS=1`: with style and layout invalidations) of each
 * phase; `BENCH_LAG_LOG=1` prints every live lag sample.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { writeBenchTrace } from "../../electron/tools/bench/bench-trace.js";
import { TRACE_FORMAT, TRACE_FORMAT_VERSION } from "../../shared/trace/record.js";
import { startServe } from "../harness/serve-process.js";
import { type BenchBuild, benchBuilds } from "./bench-builds.js";
import { produce } from "./live-producer.js";
import { MB, TabMemory } from "./tab-memory.js";

const IMPORT_FRAMES = 100_000;
const BIG_IMPORT_FRAMES = Number(process.env.BENCH_BIG_FRAMES ?? 1_000_000);
const LIVE_RATE = 2_000;
const LIVE_SECONDS = Number(process.env.BENCH_LIVE_SECONDS ?? 30);
/** A figure to watch, with no goal (issue 33): one round per build at this rate (`BENCH_FAST_LIVE_RATE=0` skips it). */
const FAST_LIVE_RATE = Number(process.env.BENCH_FAST_LIVE_RATE ?? 20_000);
const FAST_LIVE_SECONDS = Number(process.env.BENCH_FAST_LIVE_SECONDS ?? 10);
const LIVE_ROUNDS = Math.max(1, Number(process.env.BENCH_LIVE_ROUNDS ?? 3));
/** `BENCH_UI_PARTS=live`: the 100k test runs only its live part (on each build), not the import and searches. */
const LIVE_ONLY = process.env.BENCH_UI_PARTS === "live";

/** The search terms timed on each import (each changes the row count). */
const SEARCH_TERMS = ["file-42.ts", "msg-1234", "careful answer", "sess-3"];
/** How many times each search term is timed after the first search. */
const SEARCH_ROUNDS = Math.max(1, Number(process.env.BENCH_SEARCH_ROUNDS ?? 3));

/** One figure, measured on this build and (with a baseline) on the baseline's. */
interface Figure {
  readonly unit: string;
  readonly goal: number | undefined;
  readonly values: Partial<Record<BenchBuild["name"], { value: number; note: string }>>;
}
const figures = new Map<string, Figure>();
let withBaseline = false;

function shown(value: number, unit: string): string {
  return value.toFixed(unit === "ms" || unit === "MB" ? 0 : unit === "s" ? 2 : 1);
}

/**
 * Notes `value` as figure `name` of `build` (`note`: what this run's figure counted, e.g. rows) and
 * prints it, with MET or MISSED when the figure has a goal.
 */
function report(
  build: BenchBuild,
  name: string,
  value: number,
  unit: string,
  goal?: number,
  note = "",
): void {
  let f = figures.get(name);
  if (!f) {
    f = { unit, goal, values: {} };
    figures.set(name, f);
  }
  f.values[build.name] = { value, note };
  const verdict = goal === undefined ? "" : ` (goal ≤ ${goal} ${unit}) ${value <= goal ? "MET" : "MISSED"}`;
  const who = withBaseline ? `${build.name}: ` : "";
  console.log(`[bench:ui] ${who}${name}${note && ` (${note})`}: ${shown(value, unit)} ${unit}${verdict}`);
}

/**
 * In the tab: notes in `window.__benchImport` the ms from the file input's change event to the
 * first timeline row (`first`) and to the import's "… records" notice with no import progress bar
 * left (`done`), checked on every DOM mutation.
 */
function watchImport(fileName: string): void {
  const out: Record<string, number> = {};
  (window as unknown as { __benchImport: Record<string, number> }).__benchImport = out;
  const input = document.querySelector<HTMLInputElement>('input[aria-label="Import trace file"]');
  if (!input) throw new Error("no import input");
  let t0 = 0;
  input.addEventListener(
    "change",
    () => {
      t0 = performance.now();
    },
    { capture: true, once: true },
  );
  const mo = new MutationObserver(() => {
    if (t0 === 0) return;
    if (out.first === undefined && document.querySelector('[aria-label="Timeline"] .vtable__row'))
      out.first = performance.now() - t0;
    const notice = [...document.querySelectorAll('output, [role="status"]')].some(
      (e) => e.textContent?.includes(`Import ${fileName}`) && e.textContent.includes("records"),
    );
    if (notice && !document.querySelector('[aria-label^="Importing"]')) {
      out.done = performance.now() - t0;
      out.first ??= out.done;
      mo.disconnect();
    }
  });
  mo.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
}

/** Sets the search box and resolves with ms until the table's row count changed and a frame painted. */
function timeFilter(page: Page, term: string): Promise<number> {
  return page.evaluate(async (t) => {
    const input = document.querySelector<HTMLInputElement>('input[type="search"]');
    const grid = document.querySelector('[aria-label="Timeline"]');
    if (!input || !grid) throw new Error("no search box or timeline");
    const before = grid.getAttribute("aria-rowcount");
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
    const t0 = performance.now();
    const changed = new Promise<void>((resolve) => {
      const mo = new MutationObserver(() => {
        if (grid.getAttribute("aria-rowcount") !== before) {
          mo.disconnect();
          resolve();
        }
      });
      mo.observe(grid, { attributes: true });
    });
    setValue?.call(input, t);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    await changed;
    await new Promise<void>((r) => requestAnimationFrame(() => r()));
    return performance.now() - t0;
  }, term);
}

/** The in-tab times watchImport noted (ms from the file's choice), polled once a second. */
async function importTimes(page: Page, timeout: number): Promise<{ first: number; done: number }> {
  const handle = await page.waitForFunction(
    () => {
      const t = (window as unknown as { __benchImport: Record<string, number> }).__benchImport;
      return t.done !== undefined && t;
    },
    undefined,
    { polling: 1_000, timeout },
  );
  return (await handle.jsonValue()) as { first: number; done: number };
}

/**
 * With `BENCH_PROFILE=/path/x.cpuprofile`: a V8 CPU profile of one phase of a tab, written to
 * `/path/x.cpuprofile.<phase>[.baseline].cpuprofile` by `stop()`; without it, nothing.
 */
async function profiler(page: Page, build: BenchBuild, phase: string): Promise<{ stop(): Promise<void> }> {
  const base = process.env.BENCH_PROFILE;
  if (!base) return { stop: async () => undefined };
  const session = await page.context().newCDPSession(page);
  await session.send("Profiler.enable");
  await session.send("Profiler.setSamplingInterval", { interval: 500 });
  await session.send("Profiler.start");
  return {
    async stop() {
      const { profile } = await session.send("Profiler.stop");
      const path = `${base}.${phase}${build.name === "new" ? "" : `.${build.name}`}.cpuprofile`;
      writeFileSync(path, JSON.stringify(profile));
      console.log(`[bench:ui] CPU profile (${build.name}, ${phase}) written to ${path}`);
      await session.detach();
    },
  };
}

/** Times one search and clears the filter again. */
async function searchOnce(page: Page, term: string): Promise<number> {
  const ms = await timeFilter(page, term);
  await page.getByRole("button", { name: "Clear filters" }).click();
  return ms;
}

/**
 * Times the first search (the first term, once), then every term `SEARCH_ROUNDS` times over; logs
 * every time by its term (a log line, not a figure), and reports the first search and the slowest
 * term's median of its later searches against `goal`.
 */
async function timeSearches(page: Page, build: BenchBuild, what: string, goal: number): Promise<void> {
  const first = await searchOnce(page, SEARCH_TERMS[0]!);
  const later: number[][] = SEARCH_TERMS.map(() => []);
  for (let round = 0; round < SEARCH_ROUNDS; round++)
    for (const [i, term] of SEARCH_TERMS.entries()) later[i]!.push(await searchOnce(page, term));
  const each = SEARCH_TERMS.map((t, i) => `"${t}" ${later[i]!.map((ms) => shown(ms, "ms")).join(" / ")} ms`);
  console.log(
    `[bench:ui] ${withBaseline ? `${build.name}: ` : ""}${what} searches: first "${SEARCH_TERMS[0]}" ${shown(first, "ms")} ms; then ${each.join(", ")}`,
  );
  const medians = later.map(median);
  const slowest = medians.indexOf(Math.max(...medians));
  report(build, `${what} search, first (builds the search text)`, first, "ms", goal);
  report(
    build,
    `${what} search, slowest later (the slowest term's median of ${SEARCH_ROUNDS})`,
    medians[slowest]!,
    "ms",
    goal,
    `"${SEARCH_TERMS[slowest]}"`,
  );
}

/**
 * With `BENCH_TRACE=/path/x`: a Chrome trace (the DevTools timeline's categories) of one phase of
 * a tab, written to `/path/x.<phase>[.baseline].json` by `stop()`; without it, nothing.
 */
async function tracer(
  browser: Browser,
  page: Page,
  build: BenchBuild,
  phase: string,
): Promise<{ stop(): Promise<void> }> {
  const base = process.env.BENCH_TRACE;
  if (!base) return { stop: async () => undefined };
  const path = `${base}.${phase}${build.name === "new" ? "" : `.${build.name}`}.json`;
  await browser.startTracing(page, {
    path,
    categories: [
      "devtools.timeline",
      "disabled-by-default-devtools.timeline",
      ...(process.env.BENCH_TRACE_INVALIDATIONS
        ? ["disabled-by-default-devtools.timeline.invalidationTracking"]
        : []),
    ],
  });
  return {
    async stop() {
      await browser.stopTracing();
      console.log(`[bench:ui] Chrome trace (${build.name}, ${phase}) written to ${path}`);
    },
  };
}

/**
 * The 100k import and its searches (unless `BENCH_UI_PARTS=live`), then one round of 2,000 frames/s
 * live, on a fresh `serve` of one build, each in a fresh tab.
 */
async function bench100k(
  build: BenchBuild,
  browser: Browser,
  file: string,
  frames: number,
  round: number,
): Promise<LiveRound> {
  const hub = await startServe(15_000, [], () => ({}), build.checkout);
  const context = await browser.newContext();
  try {
    if (!LIVE_ONLY && round === 1) await bench100kImport(build, context, hub.url, file, frames);
    return await benchLive(build, browser, context, hub, round, LIVE_RATE, LIVE_SECONDS);
  } finally {
    await context.close();
    await hub.stop();
  }
}

/** The 100k import and its searches, in a fresh tab. */
async function bench100kImport(
  build: BenchBuild,
  context: BrowserContext,
  url: string,
  file: string,
  frames: number,
): Promise<void> {
  const page = await context.newPage();
  await page.goto(url);
  await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");

  const grid = page.getByRole("treegrid", { name: "Timeline" });
  // Timed in the tab, as the 1M import is (watchImport): Playwright's polling (100, 250, 500,
  // 1000 ms apart) would round these figures up to its next look.
  const profile = await profiler(page, build, "100k");
  await page.evaluate(watchImport, "bench-100k.jsonl");
  await page.getByLabel("Import trace file").setInputFiles(file);
  const { first: firstRows, done: allRecords } = await importTimes(page, 120_000);
  await profile.stop();
  await expect(grid.getByRole("row").nth(1)).toBeVisible();
  await expect(page.getByLabel(/^Importing/)).toHaveCount(0);
  const rows = Number(await grid.getAttribute("aria-rowcount")) - 1;
  report(build, `import ${frames} frames: first rows`, firstRows, "ms", 2_000);
  report(
    build,
    `import ${frames} frames: all records analyzed and shown`,
    allRecords,
    "ms",
    undefined,
    `${rows} timeline rows`,
  );

  const searchProfile = await profiler(page, build, "100k-search");
  await timeSearches(page, build, "100k text filter", 150);
  await searchProfile.stop();
  await page.close();
}

/** What one live round measured. */
interface LiveRound {
  readonly maxLagMs: number;
  readonly cpuSeconds: number;
  /** Records sent, samples taken, and (when the tab never caught up) what it showed. */
  readonly note: string;
}

/** 2,000 frames/s live through a tap's hub link, in a fresh tab that follows the newest live tap. */
async function benchLive(
  build: BenchBuild,
  browser: Browser,
  context: BrowserContext,
  hub: { url: string; port: number; token: string },
  round: number,
  rate: number,
  seconds: number,
): Promise<LiveRound> {
  const live = await context.newPage();
  await live.goto(hub.url);
  await expect(live.getByRole("status", { name: "Connection" })).toContainText("connected");
  const link = build.createHubLink({
    header: {
      format: TRACE_FORMAT,
      version: TRACE_FORMAT_VERSION,
      tool: "bench",
      startedAt: new Date().toISOString(),
    },
    hub: { port: hub.port, token: hub.token },
    maxBacklog: 200_000,
  });
  const sentAt: number[] = [];
  let maxLagMs = 0;
  let samples = 0;
  let stop = false;
  const lagLog: number[] = [];
  const sampler = (async () => {
    while (!stop) {
      const text = (await live.locator(".trace-size").textContent()) ?? "0";
      const shown = Number.parseInt(text, 10) || 0;
      const now = Date.now();
      // Lag: how long ago the first record the UI does not show yet was sent.
      const firstMissing = sentAt[shown + 1];
      if (firstMissing !== undefined) maxLagMs = Math.max(maxLagMs, now - firstMissing);
      if (process.env.BENCH_LAG_LOG && firstMissing !== undefined) lagLog.push(now - firstMissing);
      samples++;
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  // Profiles and traces: of the first round only.
  const phase = rate !== LIVE_RATE ? `live-${rate}` : round === 1 ? "live" : `live-round-${round}`;
  const liveProfile = round === 1 ? await profiler(live, build, phase) : { stop: async () => undefined };
  const liveTrace = round === 1 ? await tracer(browser, live, build, phase) : { stop: async () => undefined };
  const liveCpu = await TabMemory.open(live, browser);
  const cpuBefore = await liveCpu.rendererCpuSeconds();
  const sent = await produce(link, rate, seconds, sentAt);
  // A figure, not a test: on a busy machine the window may need long to catch up; the lag keeps
  // being sampled until it did (or 120 s passed, when the figure is a lower bound).
  const caughtUp = await live
    .waitForFunction((n) => document.querySelector(".trace-size")?.textContent === `${n} records`, sent, {
      polling: 250,
      timeout: 120_000,
    })
    .then(
      () => true,
      () => false,
    );
  stop = true;
  await sampler;
  const cpuUsed = (await liveCpu.rendererCpuSeconds()) - cpuBefore;
  await liveCpu.close();
  await liveProfile.stop();
  await liveTrace.stop();
  await link.close(2_000);
  const shownAtEnd = (await live.locator(".trace-size").textContent()) ?? "";
  if (process.env.BENCH_LAG_LOG)
    console.log(`[bench:ui] ${build.name} round ${round} lag samples (ms): ${lagLog.join(" ")}`);
  const note = `${sent} records, ${samples} samples${caughtUp ? "" : `; at least: not caught up 120 s after the last record, ${shownAtEnd} shown`}`;
  console.log(
    `[bench:ui] ${build.name} live ${rate}/s round ${round}: max lag ${shown(maxLagMs / 1000, "s")} s (${note}), renderer CPU ${shown(cpuUsed, "s")} s`,
  );
  await live.screenshot({ path: test.info().outputPath(`bench-live-${rate}-${build.name}-${round}.png`) });
  return { maxLagMs, cpuSeconds: cpuUsed, note };
}

/** The middle value (the lower middle of an even count). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** Reports one build's live rounds: the worst round against the goal, the median for the ratio. */
function reportLive(
  build: BenchBuild,
  rounds: readonly LiveRound[],
  rate = LIVE_RATE,
  seconds = LIVE_SECONDS,
  goal: number | undefined = 1,
): void {
  const lags = rounds.map((r) => r.maxLagMs / 1000);
  const each = `rounds: ${lags.map((l) => shown(l, "s")).join(", ")} s`;
  const worst = rounds.reduce((a, b) => (b.maxLagMs > a.maxLagMs ? b : a));
  const name = `live ${rate} frames/s for ${seconds} s`;
  report(build, `${name}: max lag, median of ${rounds.length} rounds`, median(lags), "s", undefined, each);
  report(build, `${name}: max lag, worst round`, worst.maxLagMs / 1000, "s", goal, worst.note);
  report(
    build,
    `${name}: renderer CPU time while streaming and catching up, median of ${rounds.length} rounds (every renderer of the browser; the steadier figure on a busy machine)`,
    median(rounds.map((r) => r.cpuSeconds)),
    "s",
  );
}

test("UI bench: 100k-frame import, text filter, 2,000 frames/s live", async ({ browser }) => {
  const builds = await benchBuilds();
  withBaseline = builds.length > 1;
  test.setTimeout((240_000 + 150_000 * LIVE_ROUNDS) * builds.length);
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-bench-ui-"));
  try {
    const file = join(dir, "bench-100k.jsonl");
    const frames = LIVE_ONLY ? 0 : await writeBenchTrace(file, IMPORT_FRAMES);
    const rounds = new Map<BenchBuild["name"], LiveRound[]>(builds.map((b) => [b.name, []]));
    for (let round = 1; round <= LIVE_ROUNDS; round++) {
      // Alternate which build streams first, so neither always has the warmer (or busier) machine.
      const order = round % 2 === 1 ? builds : [...builds].reverse();
      for (const build of order)
        rounds.get(build.name)!.push(await bench100k(build, browser, file, frames, round));
    }
    for (const build of builds) reportLive(build, rounds.get(build.name)!);
    if (FAST_LIVE_RATE > 0)
      for (const build of builds) {
        const hub = await startServe(15_000, [], () => ({}), build.checkout);
        const context = await browser.newContext();
        try {
          const fast = await benchLive(build, browser, context, hub, 1, FAST_LIVE_RATE, FAST_LIVE_SECONDS);
          reportLive(build, [fast], FAST_LIVE_RATE, FAST_LIVE_SECONDS, undefined);
        } finally {
          await context.close();
          await hub.stop();
        }
      }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** The 1M import and its searches on one build's `serve`, in a fresh tab (its own browser context). */
async function bench1m(build: BenchBuild, browser: Browser, file: string, frames: number): Promise<void> {
  const bytes = statSync(file).size;
  const hub = await startServe(15_000, [], () => ({}), build.checkout);
  const context = await browser.newContext();
  const page = await context.newPage();
  const memory = await TabMemory.open(page, browser);
  try {
    await page.goto(hub.url);
    await expect(page.getByRole("status", { name: "Connection" })).toContainText("connected");

    const profiling =
      process.env.BENCH_PROFILE &&
      `${process.env.BENCH_PROFILE}${build.name === "new" ? "" : `.${build.name}`}`;
    if (profiling) await memory.startProfile();
    memory.sampleEvery(250);
    const grid = page.getByRole("treegrid", { name: "Timeline" });
    // Timed in the tab (performance.now() from the file input's change event), and waited for by a
    // once-a-second poll of a variable: Playwright's own waits (locators, toContainText) would run
    // their DOM scans on the tab's main thread many times a second and slow the import they time.
    await page.evaluate(watchImport, "bench-1m.jsonl");
    const cpuBefore = await memory.rendererCpuSeconds();
    await page.getByLabel("Import trace file").setInputFiles(file);
    const times = async (key: "first" | "done") => {
      const handle = await page.waitForFunction(
        (k) => (window as unknown as { __benchImport: Record<string, number> }).__benchImport[k],
        key,
        { polling: 1_000, timeout: 600_000 },
      );
      return (await handle.jsonValue()) as number;
    };
    const firstRows = await times("first");
    const analysed = await times("done");
    const importCpu = (await memory.rendererCpuSeconds()) - cpuBefore;
    await expect(grid.getByRole("row").nth(1)).toBeVisible();
    if (profiling) {
      writeFileSync(profiling, JSON.stringify(await memory.stopProfile()));
      console.log(`[bench:ui] CPU profile of the 1M import written to ${profiling}`);
    }
    const rows = Number(await grid.getAttribute("aria-rowcount")) - 1;
    const shownRecords = (await page.locator(".trace-size").textContent()) ?? "";
    const size = `${(bytes / MB).toFixed(0)} MB`;
    report(build, `import ${frames} frames (${size}): first rows`, firstRows, "ms", 1_000);
    report(
      build,
      `import ${frames} frames: fully analysed and shown`,
      analysed,
      "ms",
      8_000,
      `${rows} timeline rows, ${shownRecords}`,
    );
    report(
      build,
      `import ${frames} frames: renderer CPU time from the file's choice to fully analysed (the wall time above includes waiting for a busy machine's cores)`,
      importCpu,
      "s",
    );

    const imported = await memory.peak();
    console.log(
      `[bench:ui] ${withBaseline ? `${build.name}: ` : ""}1M tab memory at the end of the import, before the searches: JS heap peak ${shown(imported.jsHeapUsed / MB, "MB")} MB, renderer peak resident ${shown(imported.rendererRss / MB, "MB")} MB`,
    );

    if (profiling) await memory.startProfile();
    const searchTrace = await tracer(browser, page, build, "1m-search");
    await timeSearches(page, build, "1M", 100);
    await searchTrace.stop();
    if (profiling)
      writeFileSync(`${profiling}.search.cpuprofile`, JSON.stringify(await memory.stopProfile()));

    memory.stop();
    const peak = await memory.peak();
    await memory.collectGarbage();
    const after = await memory.read();
    report(
      build,
      "1M tab memory: JS heap used, peak while importing and searching (sampled every 250 ms)",
      peak.jsHeapUsed / MB,
      "MB",
      1_500,
    );
    report(
      build,
      "1M tab memory: renderer process peak resident (VmHWM, largest renderer)",
      peak.rendererRss / MB,
      "MB",
      1_500,
      `of ${peak.renderers} renderers`,
    );
    report(build, "1M tab memory after a full GC: JS heap used", after.jsHeapUsed / MB, "MB");
    report(build, "1M tab memory after a full GC: renderer resident", after.rendererRss / MB, "MB");
  } finally {
    await memory.close();
    await context.close();
    await hub.stop();
  }
}

test("UI bench: 1M-frame import in a fresh tab", async ({ browser }) => {
  const builds = (await benchBuilds()).filter(
    (b) => b.name === "new" || process.env.BENCH_UI_BASELINE_1M !== "0",
  );
  withBaseline = builds.length > 1 || withBaseline;
  test.setTimeout(900_000 * builds.length);
  const dir = mkdtempSync(join(tmpdir(), "acp-ri-bench-ui-1m-"));
  try {
    const file = join(dir, "bench-1m.jsonl");
    const genAt = Date.now();
    const frames = await writeBenchTrace(file, BIG_IMPORT_FRAMES);
    console.log(
      `[bench:ui] wrote ${frames} frames (${(statSync(file).size / MB).toFixed(0)} MB) in ${Date.now() - genAt} ms`,
    );
    for (const build of builds) await bench1m(build, browser, file, frames);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.afterAll(() => {
  const lines: string[] = [];
  for (const [name, f] of figures) {
    const one = (v: { value: number; note: string } | undefined) =>
      v === undefined ? "not measured" : `${shown(v.value, f.unit)} ${f.unit}${v.note && ` (${v.note})`}`;
    const mine = f.values.new;
    const goal =
      f.goal === undefined || mine === undefined
        ? ""
        : ` (goal ≤ ${f.goal} ${f.unit}) ${mine.value <= f.goal ? "MET" : "MISSED"}`;
    if (!withBaseline) {
      lines.push(`${name}: ${one(mine)}${goal}`);
      continue;
    }
    const base = f.values.baseline;
    const ratio =
      mine && base && base.value > 0
        ? `ratio new/baseline ${(mine.value / base.value).toFixed(2)}`
        : "no ratio";
    lines.push(`${name}: new ${one(mine)}${goal}; baseline ${one(base)}; ${ratio}`);
  }
  const what = withBaseline ? ` (baseline: ${process.env.BENCH_UI_BASELINE})` : "";
  console.log(`\n[bench:ui] figures${what}\n${lines.map((l) => `  ${l}`).join("\n")}`);
});
