/** For tests: a `TraceScript`'s records ingested into a fresh imported `LoadedTrace`, published. */
import type { TraceScript } from "../../../../shared/analyzer/testing/trace-script.js";
import { LoadedTrace } from "../loaded-trace.js";

export function scriptedTrace(sc: TraceScript): LoadedTrace {
  const s = new LoadedTrace("t", "t", "imported");
  s.setHeader(sc.header());
  for (const r of sc.records) s.ingest(r);
  s.publish();
  return s;
}
