/** For tests: a window's inspector on timers, files that stream their bytes in cut chunks, and what an import left. */
import { expect, vi } from "vitest";
import type { InspectorBridge } from "../../bridge/inspector-bridge.js";
import { createInspector } from "../../store/inspector-store.js";
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

/** A window's inspector whose frames run on timers (the pump's and the import's). */
export function inspector() {
  return createInspector(
    { shell: "browser" } as unknown as InspectorBridge,
    { theme: "dark", largeText: false },
    (cb) => setTimeout(cb, 0),
  );
}

/** What an import left in its window: the result, the trace's records and flagged entries, the rows. */
export async function imported(run: (ctx: ReturnType<typeof inspector>) => Promise<ImportResult>) {
  const ctx = inspector();
  const result = await run(ctx);
  // The import resolves once its last records are in and their rows shown: nothing is left to wait for.
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
  };
}
