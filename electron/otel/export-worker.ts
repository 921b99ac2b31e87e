/**
 * The `--otlp` export's worker thread (bundled as `otlp-worker.js` beside `cli.js`): it loads the
 * OpenTelemetry SDK, turns the span steps the tap's thread posts into SDK spans, and runs the
 * batch queue, the serialisation and the HTTP requests (retries, timeouts, connection attempts to
 * a dead collector), so none of that runs on the thread that forwards the frames. Since issue 36
 * it also runs the analysis that plans the spans (record-spans.ts): the tap's thread only posts
 * each event-loop turn's records.
 */
import { readlinkSync } from "node:fs";
import { constants, setPriority } from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { RecordSpans } from "./record-spans.js";
import { type ExportCounts, OtelExport, type SpanSteps } from "./span-export.js";
import type { ExportWorkerData, WorkerReply, WorkerRequest } from "./worker-export.js";

const port = parentPort;
if (!port) throw new Error("export-worker.ts runs as a worker thread");
const data = workerData as ExportWorkerData;
const reply = (m: WorkerReply) => port.postMessage(m);

// This thread runs at the lowest CPU priority: on a busy machine the export gets what the tap, the
// agent and the client leave (Linux sets a nice value per thread; /proc/thread-self names this
// one). Elsewhere it keeps the process's priority.
try {
  const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, constants.priority.PRIORITY_LOW);
} catch {
  // Not Linux, or not allowed: the normal priority.
}

let exporter: OtelExport | null = null;
let failed = false;
/** Messages that came while the SDK was loading, in order. */
const waiting: WorkerRequest[] = [];
const traces = new Map<number, SpanSteps>();

const analyses = new Map<number, RecordSpans>();
const warn = (message: string) => reply({ type: "warn", message });

async function handle(m: WorkerRequest): Promise<void> {
  if (m.type === "trace") {
    if (exporter)
      analyses.set(
        m.trace,
        new RecordSpans(m.header, exporter.steps(), { includePrompts: m.includePrompts }, warn),
      );
    return;
  }
  if (m.type === "records") {
    analyses.get(m.trace)?.write(m.records);
    reply({
      type: "taken",
      records: m.records.length,
      bytes: m.bytes,
      counts: exporter ? { ...exporter.counts } : null,
    });
    return;
  }
  if (m.type === "end") {
    analyses.get(m.trace)?.finish();
    analyses.delete(m.trace);
    return;
  }
  if (m.type === "ops") {
    if (exporter) {
      let steps = traces.get(m.trace);
      if (!steps) {
        steps = exporter.steps();
        traces.set(m.trace, steps);
      }
      steps.apply(m.ops);
    }
    reply({ type: "ack", spans: m.spans });
    return;
  }
  const counts: ExportCounts = exporter
    ? await exporter.close(m.waitMs)
    : { ended: 0, sent: 0, failed: 0, dropped: 0, firstError: null };
  reply({ type: "closed", counts: { ...counts }, loaded: exporter !== null });
}

let chain = Promise.resolve();
port.on("message", (m: WorkerRequest) => {
  if (exporter === null && !failed) waiting.push(m);
  else chain = chain.then(() => handle(m));
});

OtelExport.start(data.target, { warn }, data.maxQueue).then(
  (e) => {
    exporter = e;
    for (const m of waiting.splice(0)) chain = chain.then(() => handle(m));
  },
  (err: unknown) => {
    failed = true;
    reply({ type: "failed", message: err instanceof Error ? err.message : String(err) });
    for (const m of waiting.splice(0)) chain = chain.then(() => handle(m));
  },
);
