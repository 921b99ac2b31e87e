/**
 * The shown trace's schema check: a live trace's from the hub (the `checkSchema` operation), a trace
 * imported into this window checked in the page (page-schema-check.ts, the same check with the
 * validators generated at build time). Shared by every row badge and the Details pane: one check
 * per trace, again when the trace has grown, at most every REFRESH_MS. A trace the hub cannot check
 * (one too large, a hub error) shows no badge.
 */
import { useEffect, useSyncExternalStore } from "react";
import type { FrameSchemaReport } from "../../../shared/schema/schema-report.js";
import type { InspectorBridge } from "../bridge/inspector-bridge.js";
import { useInspector, useInspectorContext } from "../store/inspector-store.js";
import type { LoadedTrace } from "./loaded-trace.js";
import { GrowingSchemaCheck, loadSchemaCheck } from "./page-schema-check.js";

/** The least time between two checks of a growing trace. */
const REFRESH_MS = 3000;
/**
 * A growing trace is checked again only after ten times the last check's time has passed (at least
 * REFRESH_MS): a hub check reads the whole file, so a live trace streaming fast would otherwise keep
 * the hub busy re-checking it and its feed behind (bench:ui's live figures, issue 33).
 */
const WAIT_PER_CHECK_MS = 10;

/** Reports by frame seq, for the trace `traceId`. */
interface SchemaState {
  readonly traceId: string | undefined;
  readonly bySeq: ReadonlyMap<number, FrameSchemaReport>;
}

let state: SchemaState = { traceId: undefined, bySeq: new Map() };
const listeners = new Set<() => void>();
let inFlight: string | undefined;
let lastAt = 0;
let lastSize = -1;
/** How long the last check took, from asking to the answer. */
let lastTook = 0;
/** The import whose end a check waits for. */
let waitingImport: string | undefined;
/** The imported trace checked in the page, fed only its new records each time. */
let pageCheck: { traceId: string; check: GrowingSchemaCheck } | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;

function publish(next: SchemaState): void {
  state = next;
  for (const l of listeners) l();
}

/** The frames of `reports` that break the schema, by seq. */
function violationsBySeq(reports: readonly FrameSchemaReport[]): Map<number, FrameSchemaReport> {
  return new Map(reports.filter((r) => r.violations.length > 0).map((r) => [r.seq, r]));
}

/**
 * Checks `traceId` (in the page when `trace` was imported here, else by the hub) unless a check is
 * running or the last is recent and the trace has not grown.
 */
function refresh(
  bridge: InspectorBridge,
  traceId: string,
  size: number,
  trace: LoadedTrace | undefined,
): void {
  if (state.traceId !== traceId) {
    publish({ traceId, bySeq: new Map() });
    lastSize = -1;
    lastAt = 0;
    lastTook = 0;
  }
  if (inFlight === traceId || size === lastSize) return;
  const wait = lastAt + Math.max(REFRESH_MS, WAIT_PER_CHECK_MS * lastTook) - Date.now();
  if (wait > 0) {
    if (timer === undefined)
      timer = setTimeout(() => {
        timer = undefined;
        refresh(bridge, traceId, size, trace);
      }, wait);
    return;
  }
  if (trace?.source === "imported" && !trace.importDone) {
    // An import is checked once it has all its records: checking while it reads would slow the import.
    if (waitingImport !== traceId) {
      waitingImport = traceId;
      loadSchemaCheck().catch(() => undefined);
      void trace.whenImported().then(() => {
        waitingImport = undefined;
        if (state.traceId === traceId) refresh(bridge, traceId, trace.records.length, trace);
      });
    }
    return;
  }
  if (trace?.source === "imported") {
    inFlight = traceId;
    lastAt = Date.now();
    lastSize = size;
    if (pageCheck?.traceId !== traceId) pageCheck = { traceId, check: new GrowingSchemaCheck() };
    pageCheck.check
      .checkNew(trace.records, () => state.traceId === traceId)
      .then(
        (reports) => {
          inFlight = undefined;
          lastTook = Date.now() - lastAt;
          if (reports && state.traceId === traceId) publish({ traceId, bySeq: violationsBySeq(reports) });
        },
        () => {
          // the check's chunk could not be loaded (the server that served the page is gone): try again later
          inFlight = undefined;
          lastSize = -1;
          if (timer === undefined)
            timer = setTimeout(() => {
              timer = undefined;
              if (state.traceId === traceId) refresh(bridge, traceId, trace.records.length, trace);
            }, REFRESH_MS);
        },
      );
    return;
  }
  // a bridge without the operation (an older hub's, a test's) shows no badge
  if (typeof bridge.checkSchema !== "function") return;
  inFlight = traceId;
  lastAt = Date.now();
  lastSize = size;
  bridge.checkSchema({ id: traceId }).then(
    ({ reports }) => {
      inFlight = undefined;
      lastTook = Date.now() - lastAt;
      if (state.traceId !== traceId) return;
      publish({ traceId, bySeq: violationsBySeq(reports) });
    },
    () => {
      inFlight = undefined;
    },
  );
}

/** The shown trace's frames that break the schema, by seq (empty until the check answered). */
export function useSchemaReports(): ReadonlyMap<number, FrameSchemaReport> {
  const { bridge, catalog } = useInspectorContext();
  const traceId = useInspector((s) => s.traceId);
  const size = useInspector((s) => s.view.records);
  useEffect(() => {
    if (traceId !== undefined) refresh(bridge, traceId, size, catalog.get(traceId));
  }, [bridge, catalog, traceId, size]);
  const current = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => state,
  );
  return current.traceId === traceId ? current.bySeq : EMPTY;
}

const EMPTY: ReadonlyMap<number, FrameSchemaReport> = new Map();
