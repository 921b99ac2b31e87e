/**
 * The tap's side of the `--otlp` export when it runs in a worker thread (export-worker.ts): span
 * steps are posted to the worker as they are planned; the SDK, its batch queue, the encoding and
 * the HTTP requests all run there. Posting is bounded: past `maxQueue` spans the worker has not
 * taken yet, new spans are dropped here and counted (their later steps are ignored by the worker).
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { SpanOp } from "../../shared/otel/span-description.js";
import type { TraceHeader } from "../../shared/trace/record.js";
import type { OtlpTarget } from "./otlp-endpoint.js";
import {
  type AnalysisEntry,
  describeCounts,
  type ExportCounts,
  type ExportNotices,
  OTLP_CLOSE_WAIT_MS,
  type RecordAnalysis,
  type SpanExport,
  type SpanStepApplier,
} from "./span-export.js";

/** What the worker is started with. */
export interface ExportWorkerData {
  readonly target: OtlpTarget;
  readonly maxQueue: number;
}

/** The tap's thread to the worker. */
export type WorkerRequest =
  | { readonly type: "ops"; readonly trace: number; readonly ops: readonly SpanOp[]; readonly spans: number }
  | {
      readonly type: "trace";
      readonly trace: number;
      readonly header: TraceHeader;
      readonly includePrompts: boolean;
    }
  | {
      readonly type: "records";
      readonly trace: number;
      readonly records: readonly AnalysisEntry[];
      /** Their frames' text length, given back in `taken`. */
      readonly bytes: number;
    }
  | { readonly type: "end"; readonly trace: number }
  | { readonly type: "close"; readonly waitMs: number };

/** The worker to the tap's thread. */
export type WorkerReply =
  | { readonly type: "ack"; readonly spans: number }
  | {
      readonly type: "taken";
      readonly records: number;
      readonly bytes: number;
      /** The export's counts once it took them (null while the SDK is not loaded). */
      readonly counts: ExportCounts | null;
    }
  | { readonly type: "warn"; readonly message: string }
  | { readonly type: "failed"; readonly message: string }
  | { readonly type: "closed"; readonly counts: ExportCounts; readonly loaded: boolean };

/** The bundled worker beside this bundle (`dist/otlp-worker.js`), or null when running from source. */
export function exportWorkerPath(): string | null {
  const path = fileURLToPath(new URL("./otlp-worker.js", import.meta.url));
  return existsSync(path) ? path : null;
}

/**
 * Records (and bytes of frame text) handed to the worker's analysis that it has not taken yet, at
 * most: past either, that trace's span export stops (told once); the trace file has everything.
 */
export const OTLP_MAX_RECORDS_BEHIND = 100_000;
export const OTLP_MAX_BYTES_BEHIND = 32 * 1024 * 1024;
/** How long closing waits for the worker to analyse the records it has not taken yet, at most. */
export const OTLP_CATCH_UP_MS = 10_000;

/** Spans an op creates (an `open` or a whole `span`); the others change spans already created. */
function spansIn(ops: readonly SpanOp[]): number {
  let n = 0;
  for (const o of ops) if (o.op === "open" || o.op === "span") n++;
  return n;
}

/** A span export whose SDK runs in a worker thread. */
export class WorkerExport implements SpanExport {
  readonly counts: ExportCounts = { ended: 0, sent: 0, failed: 0, dropped: 0, firstError: null };
  private readonly worker: Worker;
  /** Spans posted that the worker has not applied yet. */
  private inFlight = 0;
  private posted = 0;
  private droppedHere = 0;
  private nextTrace = 1;
  private closing: Promise<ExportCounts> | null = null;
  private closedReply: ((m: WorkerReply & { type: "closed" }) => void) | null = null;
  private dead = false;
  private unsent = false;

  constructor(
    readonly target: OtlpTarget,
    path: string,
    private readonly notices: ExportNotices,
    private readonly maxQueue: number,
  ) {
    const data: ExportWorkerData = { target, maxQueue };
    this.worker = new Worker(path, { workerData: data });
    // The worker never keeps the process up; `close` holds it while it waits for the last spans.
    this.worker.unref();
    this.worker.on("message", (m: WorkerReply) => this.received(m));
    this.worker.on("error", (err) => {
      if (!this.dead) notices.warn(`otlp: the export stopped (${err.message}); going on without it`);
      this.dead = true;
      this.closedReply?.({ type: "closed", counts: { ...this.counts }, loaded: false });
    });
  }

  steps(): SpanStepApplier {
    const trace = this.nextTrace++;
    return { apply: (ops) => this.post(trace, ops) };
  }

  /** Records handed to the worker's analysis and not yet taken, and their frames' text length. */
  private recordsBehind = 0;
  private bytesBehind = 0;
  /** The worker's export counts as it last told them (with each batch of records it took). */
  private workerCounts: ExportCounts | null = null;
  /** Records the worker had not analysed when `close` stopped waiting. */
  private unanalysed = 0;
  /** While closing: restarts the wait once the worker has taken every record. */
  private caughtUp: (() => void) | null = null;

  /** One trace analysed in the worker: batches are posted as they come, bounded by what the worker has not taken. */
  analyze(header: TraceHeader, options: { includePrompts: boolean }): RecordAnalysis {
    const trace = this.nextTrace++;
    let open = !this.dead && !this.closing;
    if (open)
      this.worker.postMessage({
        type: "trace",
        trace,
        header,
        includePrompts: options.includePrompts,
      } satisfies WorkerRequest);
    const end = () => {
      if (!open) return;
      open = false;
      if (!this.dead && !this.closing)
        this.worker.postMessage({ type: "end", trace } satisfies WorkerRequest);
    };
    return {
      write: (records) => {
        if (!open || records.length === 0) return;
        if (this.dead || this.closing) {
          open = false;
          return;
        }
        let bytes = 0;
        for (const r of records) if (typeof r !== "number" && r.type === "frame") bytes += r.raw.length;
        if (
          this.recordsBehind + records.length > OTLP_MAX_RECORDS_BEHIND ||
          this.bytesBehind + bytes > OTLP_MAX_BYTES_BEHIND
        ) {
          this.notices.warn(
            `otlp: the span analysis fell ${this.recordsBehind} records behind the session; span export stopped for this trace, the trace file still has everything`,
          );
          end();
          return;
        }
        this.recordsBehind += records.length;
        this.bytesBehind += bytes;
        this.worker.postMessage({ type: "records", trace, records, bytes } satisfies WorkerRequest);
      },
      finish: end,
    };
  }

  private post(trace: number, ops: readonly SpanOp[]): void {
    if (ops.length === 0 || this.dead || this.closing) return;
    let spans = spansIn(ops);
    let send = ops;
    const room = this.maxQueue - this.inFlight;
    if (spans > room) {
      // The worker is behind: spans past the room are dropped here; the steps of spans it has
      // (events, ends) still go, and the worker ignores those of dropped spans.
      let left = Math.max(0, room);
      send = ops.filter((o) => (o.op !== "open" && o.op !== "span") || left-- > 0);
      if (this.droppedHere === 0)
        this.notices.warn(
          `otlp: the span queue is full (${this.maxQueue} spans waiting for ${this.target.url}); dropping spans, counted; the trace file still has everything`,
        );
      this.droppedHere += spans - Math.max(0, room);
      spans = Math.max(0, room);
      if (send.length === 0) return;
    }
    this.inFlight += spans;
    this.posted += spans;
    const m: WorkerRequest = { type: "ops", trace, ops: send, spans };
    this.worker.postMessage(m);
  }

  private received(m: WorkerReply): void {
    switch (m.type) {
      case "ack":
        this.inFlight -= m.spans;
        break;
      case "taken":
        this.recordsBehind -= m.records;
        this.bytesBehind -= m.bytes;
        if (m.counts) this.workerCounts = m.counts;
        if (this.recordsBehind === 0) this.caughtUp?.();
        break;
      case "warn":
        this.notices.warn(m.message);
        break;
      case "failed":
        this.dead = true;
        this.notices.warn(`otlp: cannot start the export (${m.message}); going on without it`);
        break;
      case "closed":
        this.closedReply?.(m);
        break;
    }
  }

  /** Sends what is queued, waiting at most about `waitMs`, then stops the worker; returns the counts. */
  close(waitMs = OTLP_CLOSE_WAIT_MS): Promise<ExportCounts> {
    this.closing ??= new Promise<ExportCounts>((resolve) => {
      this.worker.ref();
      const finish = (m: (WorkerReply & { type: "closed" }) | null) => {
        clearTimeout(timer);
        this.closedReply = null;
        this.caughtUp = null;
        if (m) Object.assign(this.counts, m.counts);
        else {
          // No answer in time: what was posted, or ended in the worker as it last said, is not known to be sent.
          if (this.workerCounts) Object.assign(this.counts, this.workerCounts);
          this.counts.ended = Math.max(this.counts.ended, this.posted);
          this.unsent = this.counts.ended > this.counts.sent + this.counts.failed;
          this.unanalysed = this.recordsBehind;
        }
        this.counts.dropped += this.droppedHere;
        void this.worker.terminate();
        resolve(this.counts);
      };
      // The worker's own wait is bounded by `waitMs` (and 100 ms per SDK step after it). Records it
      // has not analysed yet come first (it takes messages in order): up to OTLP_CATCH_UP_MS for
      // them, then the same wait from the moment it took the last.
      const patience = () => setTimeout(() => finish(null), waitMs + 1_000);
      let timer = this.recordsBehind > 0 ? setTimeout(() => finish(null), OTLP_CATCH_UP_MS) : patience();
      this.caughtUp = () => {
        clearTimeout(timer);
        timer = patience();
      };
      this.closedReply = finish;
      if (this.dead) finish({ type: "closed", counts: { ...this.counts }, loaded: false });
      else this.worker.postMessage({ type: "close", waitMs } satisfies WorkerRequest);
    });
    return this.closing;
  }

  describe(): string {
    const said = describeCounts(this.target, this.counts);
    return this.unanalysed > 0 ? `${said}, ${this.unanalysed} records not analysed before exit` : said;
  }

  get unfinished(): boolean {
    return (
      this.unsent || this.unanalysed > 0 || this.counts.ended - this.counts.sent - this.counts.failed > 0
    );
  }
}
