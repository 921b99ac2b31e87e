import type { DiffSide } from "../../shared/diff/diff-side.js";
import { summarizeSide } from "../../shared/diff/diff-side.js";
import { SetupCollector } from "../../shared/diff/setup-collector.js";
import { analyzeTraceFile } from "./analyze-trace-file.js";

/**
 * Analyses one trace file (any format `analyze` reads) and summarises it for `diff`; the model is
 * let go once summarised, so two traces are never held whole at once. Throws `TraceReadError` when
 * the file is not a readable trace.
 */
export async function diffSideOfFile(path: string): Promise<DiffSide> {
  const setup = new SetupCollector();
  const { model } = await analyzeTraceFile(path, { observe: (r) => setup.observe(r) });
  if (model.header) setup.observeHeader(model.header);
  return summarizeSide(model, setup.facts());
}
