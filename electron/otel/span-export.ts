/**
 * The OpenTelemetry SDK side of `--otlp`: one tracer provider per process, a batch processor with
 * a bounded queue, and an OTLP/HTTP exporter (protobuf or JSON). Span steps from `shared/otel/`
 * become SDK spans here. Nothing here ever waits on the collector while the session runs.
 */
// Types only at the top: the SDK (about half a second to load) is imported when an export starts.
import type { Context, Span, Tracer } from "@opentelemetry/api";
import type {
  BasicTracerProvider,
  ReadableSpan,
  SpanExporter,
  SpanProcessor,
} from "@opentelemetry/sdk-trace-base";
import type { SpanAttributes, SpanOp, SpanStatusDescription } from "../../shared/otel/span-description.js";
import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import { TOOL_VERSION } from "../platform/version.js";
import type { OtlpTarget } from "./otlp-endpoint.js";

/** Spans held for export at most (queued or being sent); one more is dropped and counted. */
export const OTLP_MAX_QUEUE = 2048;
/** How long a batch may wait before it is sent. */
const BATCH_DELAY_MS = 1_000;
/** How long one export request may take, retries included. */
const EXPORT_TIMEOUT_MS = 5_000;
/** How long closing waits for the last spans to reach the collector. */
export const OTLP_CLOSE_WAIT_MS = 1_000;

/** What became of the spans: sent, refused or unreachable, dropped on a full queue. */
export interface ExportCounts {
  ended: number;
  sent: number;
  failed: number;
  dropped: number;
  /** The first export error, when one failed. */
  firstError: string | null;
}

/** Applies the span steps of one trace. */
export interface SpanStepApplier {
  apply(ops: readonly SpanOp[]): void;
}

/** One entry of a batch of records for the span analysis: a record, or the `ts` of a frame the tap found skippable. */
export type AnalysisEntry = TraceRecord | number;

/** One trace's records analysed where the export runs: the tap's thread only hands batches over. */
export interface RecordAnalysis {
  /** The next records of the trace, in seq order. */
  write(batch: readonly AnalysisEntry[]): void;
  /** The trace ended: every open span ends. */
  finish(): void;
}

/**
 * A running span export: `OtelExport` in this thread, or `WorkerExport` (worker-export.ts), which
 * runs an `OtelExport` in a worker thread.
 */
export interface SpanExport {
  readonly target: OtlpTarget;
  readonly counts: ExportCounts;
  /** A fresh step applier for one trace. */
  steps(): SpanStepApplier;
  /** Where the export can analyse a trace's records itself (its worker thread): the analysis of one trace. */
  analyze?(header: TraceHeader, options: { includePrompts: boolean }): RecordAnalysis;
  /** Sends what is queued, waiting at most about `waitMs`, then stops; returns the counts. */
  close(waitMs?: number): Promise<ExportCounts>;
  /** One line on what the export did, for stderr at the end of a run. */
  describe(): string;
  /** True when spans were still queued or in flight when `close` stopped waiting. */
  readonly unfinished: boolean;
}

/** Counts what the exporter sent and what failed, and tells of the first failure once. */
class CountingExporter implements SpanExporter {
  constructor(
    private readonly inner: SpanExporter,
    private readonly counts: ExportCounts,
    private readonly onFirstFailure: (message: string) => void,
  ) {}

  export(spans: ReadableSpan[], done: Parameters<SpanExporter["export"]>[1]): void {
    this.inner.export(spans, (result) => {
      if (result.code === 0) this.counts.sent += spans.length;
      else {
        this.counts.failed += spans.length;
        if (this.counts.firstError === null) {
          this.counts.firstError = result.error?.message ?? "export failed";
          this.onFirstFailure(this.counts.firstError);
        }
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}

/** Bounds the spans held (queued or in flight): past `max`, an ended span is dropped and counted. */
class BoundedProcessor implements SpanProcessor {
  constructor(
    private readonly inner: SpanProcessor,
    private readonly counts: ExportCounts,
    private readonly max: number,
    private readonly onFirstDrop: () => void,
  ) {}

  onStart(span: Parameters<SpanProcessor["onStart"]>[0], parent: Context): void {
    this.inner.onStart(span, parent);
  }

  onEnd(span: ReadableSpan): void {
    const held = this.counts.ended - this.counts.sent - this.counts.failed;
    if (held >= this.max) {
      if (this.counts.dropped++ === 0) this.onFirstDrop();
      return;
    }
    this.counts.ended++;
    this.inner.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

/** Settles after `ms` at the latest (the timer never keeps the process up). */
function within(p: Promise<unknown>, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    timer.unref();
    p.then(
      () => resolve(),
      () => resolve(),
    ).finally(() => clearTimeout(timer));
  });
}

/** Resolves when a TCP connection to the URL's host and port fails; never when it succeeds. */
async function refusesConnections(url: string): Promise<void> {
  const { connect } = await import("node:net");
  const u = new URL(url);
  const port = Number(u.port || (u.protocol === "https:" ? 443 : 80));
  return new Promise((resolve) => {
    const socket = connect({ host: u.hostname.replace(/^\[|\]$/g, ""), port });
    socket.unref();
    socket.once("connect", () => socket.destroy());
    socket.once("error", () => resolve());
  });
}

/** How an `OtelExport` tells the user about trouble (stderr, a trace note). */
export interface ExportNotices {
  warn(message: string): void;
}

function copyAttributes(attrs: SpanAttributes): Record<string, string | number | boolean | string[]> {
  const out: Record<string, string | number | boolean | string[]> = {};
  for (const [k, v] of Object.entries(attrs))
    out[k] = Array.isArray(v) ? [...v] : (v as string | number | boolean);
  return out;
}

type Api = typeof import("@opentelemetry/api");

function statusOf(api: Api, s: SpanStatusDescription): { code: number; message?: string } {
  return s.code === "error"
    ? { code: api.SpanStatusCode.ERROR, ...(s.message !== undefined && { message: s.message }) }
    : { code: api.SpanStatusCode.UNSET };
}

/** Starts spans for the steps of one trace; its open spans are found by their planner refs. */
export class SpanSteps implements SpanStepApplier {
  private readonly spans = new Map<number, Span>();

  constructor(
    private readonly api: Api,
    private readonly tracer: Tracer,
  ) {}

  /** Applies the steps in order. */
  apply(ops: readonly SpanOp[]): void {
    for (const op of ops) {
      switch (op.op) {
        case "open": {
          const span = this.tracer.startSpan(op.span.name, {
            kind: op.span.kind === "client" ? this.api.SpanKind.CLIENT : this.api.SpanKind.INTERNAL,
            startTime: op.span.startTime,
            attributes: copyAttributes(op.span.attributes),
          });
          this.spans.set(op.ref, span);
          break;
        }
        case "event":
          this.spans.get(op.ref)?.addEvent(op.event.name, copyAttributes(op.event.attributes), op.event.time);
          break;
        case "close": {
          const span = this.spans.get(op.ref);
          if (!span) break;
          span.setAttributes(copyAttributes(op.attributes));
          span.setStatus(statusOf(this.api, op.status));
          span.end(op.endTime);
          break;
        }
        case "span": {
          const parent = op.parent === null ? undefined : this.spans.get(op.parent);
          const root = this.api.ROOT_CONTEXT;
          const ctx = parent ? this.api.trace.setSpan(root, parent) : root;
          const span = this.tracer.startSpan(
            op.span.name,
            {
              kind: op.span.kind === "client" ? this.api.SpanKind.CLIENT : this.api.SpanKind.INTERNAL,
              startTime: op.span.startTime,
              attributes: copyAttributes(op.span.attributes),
              root: parent === undefined,
            },
            ctx,
          );
          for (const e of op.span.events) span.addEvent(e.name, copyAttributes(e.attributes), e.time);
          span.setStatus(statusOf(this.api, op.span.status));
          span.end(op.span.endTime);
          break;
        }
      }
    }
  }
}

/** The SDK modules, loaded by `OtelExport.start`. */
interface Sdk {
  readonly api: Api;
  readonly trace: typeof import("@opentelemetry/sdk-trace-base");
  readonly resources: typeof import("@opentelemetry/resources");
  readonly semconv: typeof import("@opentelemetry/semantic-conventions");
}

/** The process's span export: one provider, one bounded batch queue, one OTLP/HTTP exporter. */
export class OtelExport implements SpanExport {
  readonly counts: ExportCounts = { ended: 0, sent: 0, failed: 0, dropped: 0, firstError: null };
  private readonly provider: BasicTracerProvider;
  private closed = false;

  private constructor(
    readonly target: OtlpTarget,
    private readonly sdk: Sdk,
    exporter: SpanExporter,
    notices: ExportNotices,
    maxQueue: number,
  ) {
    const { BasicTracerProvider, BatchSpanProcessor } = sdk.trace;
    const counting = new CountingExporter(exporter, this.counts, (m) =>
      notices.warn(`otlp: sending spans to ${target.url} failed (${m}); the trace file still has everything`),
    );
    const batch = new BatchSpanProcessor(counting, {
      maxQueueSize: maxQueue,
      maxExportBatchSize: Math.min(512, maxQueue),
      scheduledDelayMillis: BATCH_DELAY_MS,
      exportTimeoutMillis: EXPORT_TIMEOUT_MS,
    });
    const bounded = new BoundedProcessor(batch, this.counts, maxQueue, () =>
      notices.warn(
        `otlp: the span queue is full (${maxQueue} spans waiting for ${target.url}); dropping spans, counted; the trace file still has everything`,
      ),
    );
    this.provider = new BasicTracerProvider({
      resource: sdk.resources.resourceFromAttributes({
        [sdk.semconv.ATTR_SERVICE_NAME]: "acp-retry-inspector",
        [sdk.semconv.ATTR_SERVICE_VERSION]: TOOL_VERSION,
      }),
      spanProcessors: [bounded],
    });
  }

  /** An export to `target` (the exporter module for its protocol is loaded only now). */
  static async start(
    target: OtlpTarget,
    notices: ExportNotices,
    maxQueue = OTLP_MAX_QUEUE,
  ): Promise<OtelExport> {
    const config = { url: target.url, timeoutMillis: EXPORT_TIMEOUT_MS };
    const exporter =
      target.protocol === "http/json"
        ? new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter(config)
        : new (await import("@opentelemetry/exporter-trace-otlp-proto")).OTLPTraceExporter(config);
    const sdk: Sdk = {
      api: await import("@opentelemetry/api"),
      trace: await import("@opentelemetry/sdk-trace-base"),
      resources: await import("@opentelemetry/resources"),
      semconv: await import("@opentelemetry/semantic-conventions"),
    };
    return new OtelExport(target, sdk, exporter, notices, maxQueue);
  }

  /** A fresh step applier for one trace. */
  steps(): SpanSteps {
    return new SpanSteps(this.sdk.api, this.provider.getTracer("acp-retry-inspector", TOOL_VERSION));
  }

  /** Sends what is queued, waiting at most `waitMs`, then stops; returns the counts. */
  async close(waitMs = OTLP_CLOSE_WAIT_MS): Promise<ExportCounts> {
    if (!this.closed) {
      this.closed = true;
      // A collector that refused everything so far, or whose port refuses a connection now, gets
      // no wait at exit: the SDK would retry for seconds.
      const unreachable = this.counts.failed > 0 && this.counts.sent === 0;
      const flushed = this.provider.forceFlush();
      await within(
        unreachable ? flushed : Promise.race([flushed, refusesConnections(this.target.url)]),
        unreachable ? 100 : waitMs,
      );
      await within(this.provider.shutdown(), 100);
    }
    return this.counts;
  }

  /** One line on what the export did, for stderr at the end of a run. */
  describe(): string {
    return describeCounts(this.target, this.counts);
  }

  /** True when spans were still queued or in flight when `close` stopped waiting. */
  get unfinished(): boolean {
    return this.counts.ended - this.counts.sent - this.counts.failed > 0;
  }
}

/** One line on what the export did, for stderr at the end of a run. */
export function describeCounts(target: OtlpTarget, c: ExportCounts): string {
  const lost = c.ended - c.sent - c.failed;
  const parts = [`${c.sent} spans sent to ${target.url}`];
  if (c.failed > 0) parts.push(`${c.failed} failed (${c.firstError ?? "?"})`);
  if (c.dropped > 0) parts.push(`${c.dropped} dropped on a full queue`);
  if (lost > 0) parts.push(`${lost} not sent before exit`);
  return `otlp: ${parts.join(", ")}`;
}
