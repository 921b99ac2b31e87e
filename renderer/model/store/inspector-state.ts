import type { ColumnsSlice } from "./columns-slice.js";
import type { ConformanceSlice } from "./conformance-slice.js";
import type { ConnectionSlice } from "./connection-slice.js";
import type { DemoSlice } from "./demo-slice.js";
import type { TracesSlice } from "./traces-slice.js";
import type { ViewSlice } from "./view-slice.js";

/** The whole renderer state: one slice per domain. */
export type InspectorState = TracesSlice &
  ConnectionSlice &
  ViewSlice &
  DemoSlice &
  ConformanceSlice &
  ColumnsSlice;
