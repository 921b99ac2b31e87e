/** For tests: a window's inspector on timers, files that stream their bytes in cut chunks, and what an import left. */
import { MessageChannel } from "node:worker_threads";
import { expect, vi } from "vitest";
import type { InspectorBridge } from "../../bridge/inspector-bridge.js";
import { createInspector } from "../../store/inspector-store.js";
import { serveAnalysis } from "../analysis/analysis-service.js";
import type { AnalysisPort, FromAnalysis, ToAnalysis } from "../analysis/analysis-wire.js";
import { type AnalysisFactory, WorkerAnalysis, type WorkerPort } from "../analysis/worker-analysis.js";
import type { ImportResult } from "../import-trace.js";

/** A file whose stream hands out its UTF-8 bytes `every` bytes at a time (cutting lines and characters). */
export function fileOf(name: string, text: string, every: number): File {
  const bytes = new TextEncoder().encode(text);
  return {
    name,
    size: bytes.length,
    stream: () =>
      new ReadableStream<Uint8Array>({
        start(c) {
          for (let at = 0; at < bytes.length; at += every) c.enqueue(bytes.slice(at, at + every));
          c.close();
        },
      }),
  } as unknown as File;
}

/**
 * The analysis worker's code on the far end of a real MessageChannel (Node has no Worker; the
 * channel clones and transfers as a worker's does). `lossy` drops the window's messages it matches
 * (a worker that reads what the window sent differently). `started` counts the analyses made.
 */
export function channelAnalysis(
  started: { count: number },
  lossy?: (m: ToAnalysis) => boolean,
): AnalysisFactory {
  return (failed) => {
    started.count++;
    const { port1, port2 } = new MessageChannel();
    serveAnalysis(port2 as unknown as AnalysisPort<ToAnalysis, FromAnalysis>);
    const window: WorkerPort = {
      postMessage: (m, transfer) => {
        if (!lossy?.(m)) port1.postMessage(m, transfer as never);
      },
      addEventListener: (type, listener) =>
        port1.addEventListener(type, listener as unknown as (e: Event) => void),
      terminate: () => {
        port1.close();
        port2.close();
      },
    };
    return new WorkerAnalysis(window, failed);
  };
}

/** A window's inspector whose frames run on timers (the pump's and the import's); `analyse`: where imports are analysed. */
export function inspector(analyse?: AnalysisFactory) {
  return createInspector(
    { shell: "browser" } as unknown as InspectorBridge,
    { theme: "dark", largeText: false },
    (cb) => setTimeout(cb, 0),
    undefined,
    analyse,
  );
}

/** What an import left in its window: the result, the trace's records and flagged entries, the rows. */
export async function imported(
  run: (ctx: ReturnType<typeof inspector>) => Promise<ImportResult>,
  analyse?: AnalysisFactory,
) {
  const ctx = inspector(analyse);
  const result = await run(ctx);
  // The import resolves once its last lines are queued: it is done once they are in, with every row shown.
  await vi.waitFor(
    () => {
      expect(ctx.catalog.get(result.traceId)?.imported).toBe(true);
      expect(ctx.store.getState().importing).toBeUndefined();
    },
    { timeout: 10_000 },
  );
  await new Promise((r) => setTimeout(r, 10));
  const trace = ctx.catalog.get(result.traceId);
  if (!trace) throw new Error("no trace");
  const view = ctx.store.getState().view;
  return {
    result: { records: result.records, problems: result.problems },
    records: trace.records,
    flagged: trace.flagged.map((f) => f.faults),
    submissions: view.submissions.map((s) => [s.key, s.verdicts.map((v) => v.name)]),
    requests: view.requests.length,
    records_shown: view.records,
    analysedHereBecause: trace.analysedHereBecause,
    view,
  };
}
