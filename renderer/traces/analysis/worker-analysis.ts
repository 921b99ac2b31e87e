/**
 * An imported file's analysis in a worker, on the other core. The window's thread reads and decodes
 * the file and keeps its records; it hands the worker the file's bytes as it reads them
 * (transferred: no copy; cloning a million decoded records would cost the window about what
 * analysing them does, and even the text's copy costs a second of it), or a converted file's lines
 * as text, and says how many entries it has taken. The worker decodes them again and analyses them,
 * and answers each ask for changes with the rows of exactly the records the window held at the ask.
 * A worker that cannot start or fails leaves the trace to be analysed in the window (`failed`),
 * with the same rows.
 */
import type { TimelineChanges } from "../../../shared/analyzer/timeline-model.js";
import type { TraceHeader } from "../../../shared/trace/record.js";
import type { AnalysisPort, FromAnalysis, ToAnalysis } from "./analysis-wire.js";
import { LocalAnalysis, type TraceAnalysis } from "./trace-analysis.js";

/** Entries taken between two words to the worker that it may go on. */
const TOLD_EVERY = 4_000;
/**
 * Entries the worker may be behind the window before the window stops reading: the lines of the
 * file the worker holds unanalysed (about 20 MB of a typical trace) stay few.
 */
const MAX_BEHIND = 50_000;

/** Makes a trace's analysis; `failed` is called (once) when it cannot go on where it runs. */
export type AnalysisFactory = (failed: (why: string) => void) => TraceAnalysis;

/** The analysis in this thread (live traces, and where no worker can run). */
export const analyseHere: AnalysisFactory = () => new LocalAnalysis();

/** A worker's port as the window uses it, with the worker's end. */
export type WorkerPort = AnalysisPort<FromAnalysis, ToAnalysis> & { terminate?(): void };

/** The window's side of one worker's analysis. */
export class WorkerAnalysis implements TraceAnalysis {
  /** Entries taken, and taken when the worker was last told. */
  private taken = 0;
  private told = 0;
  /** Entries taken since the last ask. */
  private unasked = 0;
  private readonly asks: { readonly ask: number; readonly apply: (c: TimelineChanges) => void }[] = [];
  private lastAsk = 0;
  private finished = false;
  private closed = false;
  /** Entries the worker says it has analysed, and the reader waiting for it to catch up. */
  private analysed = 0;
  private roomWaiter: (() => void) | undefined;

  constructor(
    private readonly port: WorkerPort,
    private readonly failed: (why: string) => void,
  ) {
    port.addEventListener("message", ({ data }) => this.answer(data));
  }

  get waiting(): number {
    return this.asks.length;
  }

  ingestHeader(header: TraceHeader): void {
    this.post({ t: "header", header });
  }

  readLines(lines: readonly string[]): void {
    this.post({ t: "lines", text: lines.join("\n") });
  }

  readBytes(bytes: Uint8Array): void {
    // Transferred: the window has decoded them already. A view into a larger buffer is copied first.
    const own =
      bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();
    this.post({ t: "bytes", bytes: own }, [own.buffer]);
  }

  bytesEnded(): void {
    this.post({ t: "end" });
  }

  ingest(): void {
    this.take();
  }

  ingestInvalid(): void {
    this.take();
  }

  takeChanges(apply: (changes: TimelineChanges) => void): void {
    if (this.closed) return;
    this.unasked = 0;
    this.told = this.taken;
    const ask = ++this.lastAsk;
    this.asks.push({ ask, apply });
    this.post({ t: "take", ask, count: this.taken });
  }

  room(): Promise<void> {
    if (this.closed || this.told - this.analysed <= MAX_BEHIND) return Promise.resolve();
    return new Promise((resolve) => {
      this.roomWaiter = resolve;
    });
  }

  model(): undefined {
    return undefined;
  }

  finish(): void {
    this.finished = true;
    if (this.asks.length === 0 && this.unasked === 0) this.close();
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.asks.length = 0;
    this.wakeReader();
    this.port.terminate?.();
  }

  /** The worker failed or could not start: it is dropped and `failed` hears why. */
  fail(why: string): void {
    if (this.closed) return;
    this.close();
    this.failed(why);
  }

  /** One more entry (a record or an invalid line) taken; the worker hears of them in batches. */
  private take(): void {
    this.taken++;
    this.unasked++;
    if (this.taken - this.told >= TOLD_EVERY) {
      this.told = this.taken;
      this.post({ t: "fed", count: this.taken });
    }
  }

  private wakeReader(): void {
    const w = this.roomWaiter;
    this.roomWaiter = undefined;
    w?.();
  }

  private answer(m: FromAnalysis): void {
    if (this.closed) return;
    if (m.t === "analysed") {
      this.analysed = m.count;
      if (this.told - this.analysed <= MAX_BEHIND) this.wakeReader();
      return;
    }
    const head = this.asks[0];
    if (m.t === "failed" || head?.ask !== m.ask) {
      this.fail(m.t === "failed" ? m.message : `answer ${m.ask} came for ask ${head?.ask ?? "none"}`);
      return;
    }
    this.asks.shift();
    head.apply(m.changes);
    if (this.finished && this.asks.length === 0 && this.unasked === 0) this.close();
  }

  private post(m: ToAnalysis, transfer?: Transferable[]): void {
    if (this.closed) return;
    try {
      if (transfer) this.port.postMessage(m, transfer);
      else this.port.postMessage(m);
    } catch (err) {
      this.fail(`could not post to the analysis worker: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
}

/** Workers that failed before an import took them (their script did not load). */
const broken = new WeakSet<Worker>();

/** A new analysis worker, or undefined where workers cannot run (Node, a refused script). */
function startWorker(): Worker | undefined {
  if (typeof Worker === "undefined") return undefined;
  try {
    const worker = new Worker(new URL("./analysis-worker.ts", import.meta.url), {
      type: "module",
      name: "analysis",
    });
    worker.addEventListener("error", () => broken.add(worker));
    return worker;
  } catch {
    return undefined;
  }
}

/**
 * Imports analysed in a worker each, or in this thread where workers cannot run. One worker is
 * started ahead (now, and again each time one is taken), so an import's first rows do not wait
 * for a worker to load its script.
 */
export function workerAnalyses(): AnalysisFactory {
  let spare = startWorker();
  return (failed) => {
    const worker = spare ?? startWorker();
    spare = worker && startWorker();
    if (!worker || broken.has(worker)) return new LocalAnalysis();
    return inWorker(worker, failed);
  };
}

function inWorker(worker: Worker, failed: (why: string) => void): WorkerAnalysis {
  const analysis = new WorkerAnalysis(worker as unknown as WorkerPort, failed);
  worker.addEventListener("error", (e) =>
    analysis.fail(`the analysis worker failed: ${e.message || "no reason given"}`),
  );
  worker.addEventListener("messageerror", () =>
    analysis.fail("the analysis worker got a message it could not read"),
  );
  return analysis;
}
