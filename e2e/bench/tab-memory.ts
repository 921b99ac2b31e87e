/**
 * The UI bench's memory figures for one tab, two ways, sampled while a phase runs:
 * - the tab's JS heap, from the DevTools protocol (`Performance.getMetrics`: JSHeapUsedSize and
 *   JSHeapTotalSize), the memory our code holds (records, model, rows, strings);
 * - the resident memory of the largest renderer process (`SystemInfo.getProcessInfo` names the
 *   renderers; Linux `/proc/<pid>/status` gives VmRSS now and VmHWM, the peak since it started),
 *   which adds what the heap figure leaves out (the DOM, Blink's caches, the file's bytes while
 *   read). The bench gives the test its own fresh tab, so the largest renderer is that tab's.
 */
import { readFileSync } from "node:fs";
import type { Browser, CDPSession, Page } from "@playwright/test";

/** Megabytes (10^6 bytes: the goal is 1.5 GB). */
export const MB = 1_000_000;

/** What one read of the tab's memory gave, in bytes. */
export interface MemoryReading {
  readonly jsHeapUsed: number;
  readonly jsHeapTotal: number;
  /** VmRSS of the largest renderer process; 0 when /proc or the process list is not available. */
  readonly rendererRss: number;
}

function procKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status);
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Samples a tab's memory; `peak()` is the highest reading of each figure since `start`. */
export class TabMemory {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private peakHeap = 0;
  private peakRss = 0;
  private running = false;

  private constructor(
    private readonly page: CDPSession,
    private readonly browser: CDPSession | undefined,
  ) {}

  /** Opens the CDP sessions (page and, when Chromium allows it, browser) for `page`. */
  static async open(page: Page, browser: Browser): Promise<TabMemory> {
    const session = await page.context().newCDPSession(page);
    await session.send("Performance.enable");
    let browserSession: CDPSession | undefined;
    try {
      browserSession = await browser.newBrowserCDPSession();
    } catch {
      browserSession = undefined;
    }
    return new TabMemory(session, browserSession);
  }

  /** The renderer processes (empty when the browser does not say): pid and CPU seconds used so far. */
  async renderers(): Promise<{ id: number; cpuTime: number }[]> {
    if (!this.browser) return [];
    try {
      const info = (await this.browser.send("SystemInfo.getProcessInfo")) as {
        processInfo: { type: string; id: number; cpuTime: number }[];
      };
      return info.processInfo.filter((p) => p.type === "renderer");
    } catch {
      return [];
    }
  }

  /** The renderer processes' pids. */
  async rendererPids(): Promise<number[]> {
    return (await this.renderers()).map((p) => p.id);
  }

  /**
   * CPU seconds all renderer processes have used so far (the difference over a phase is its CPU
   * cost, which a busy shared machine inflates far less than the wall time).
   */
  async rendererCpuSeconds(): Promise<number> {
    return (await this.renderers()).reduce((sum, p) => sum + p.cpuTime, 0);
  }

  /** One reading now. */
  async read(): Promise<MemoryReading> {
    const { metrics } = (await this.page.send("Performance.getMetrics")) as {
      metrics: { name: string; value: number }[];
    };
    const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? 0;
    let rendererRss = 0;
    for (const pid of await this.rendererPids()) rendererRss = Math.max(rendererRss, procKb(pid, "VmRSS"));
    return {
      jsHeapUsed: metric("JSHeapUsedSize"),
      jsHeapTotal: metric("JSHeapTotalSize"),
      rendererRss,
    };
  }

  /** Starts sampling every `ms` (each read waits for the tab: a long task delays it). */
  sampleEvery(ms: number): void {
    this.running = true;
    const tick = async () => {
      if (!this.running) return;
      try {
        const r = await this.read();
        this.peakHeap = Math.max(this.peakHeap, r.jsHeapUsed);
        this.peakRss = Math.max(this.peakRss, r.rendererRss);
      } catch {
        // the tab is closing
      }
      if (this.running) this.timer = setTimeout(tick, ms);
    };
    void tick();
  }

  /** Stops sampling. */
  stop(): void {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
  }

  /**
   * Peak JS heap used among the samples, and the peak resident memory of the largest renderer
   * process (the tab's, in a bench that gives it its own): the kernel's VmHWM (a true peak, not
   * sampled), or the sampled peak of VmRSS when VmHWM is not readable.
   */
  async peak(): Promise<{ jsHeapUsed: number; rendererRss: number; renderers: number }> {
    const pids = await this.rendererPids();
    let hwm = 0;
    for (const pid of pids) hwm = Math.max(hwm, procKb(pid, "VmHWM"));
    return { jsHeapUsed: this.peakHeap, rendererRss: Math.max(hwm, this.peakRss), renderers: pids.length };
  }

  /** Runs a full garbage collection in the tab (so a reading after it is what is retained). */
  async collectGarbage(): Promise<void> {
    await this.page.send("HeapProfiler.collectGarbage");
  }

  /** Starts the V8 CPU profiler in the tab (for BENCH_PROFILE). */
  async startProfile(): Promise<void> {
    await this.page.send("Profiler.enable");
    await this.page.send("Profiler.setSamplingInterval", { interval: 500 });
    await this.page.send("Profiler.start");
  }

  /** Stops the profiler; the profile as DevTools saves it (`.cpuprofile`). */
  async stopProfile(): Promise<unknown> {
    const { profile } = (await this.page.send("Profiler.stop")) as { profile: unknown };
    return profile;
  }

  async close(): Promise<void> {
    this.stop();
    await this.page.detach().catch(() => undefined);
    await this.browser?.detach().catch(() => undefined);
  }
}
