/** The active tab's content. */
import { useCallback, useMemo } from "react";
import { EmptyState, FirstSteps } from "../kit/EmptyState.js";
import { textScale } from "../kit/theme/text-scale.js";
import { useInspector, useInspectorContext } from "../model/store/inspector-store.js";
import { ConformanceView } from "../views/conformance/ConformanceView.js";
import { DiffView } from "../views/diff/DiffView.js";
import { LatencyPanel } from "../views/latency/LatencyPanel.js";
import { RecordsView } from "../views/records/RecordsView.js";
import { FilteredSequence } from "../views/sequence/FilteredSequence.js";
import { TimelineTable } from "../views/timeline/TimelineTable.js";

/** The Sequence tab: the shown trace as swimlanes; clicking an arrow selects its frame for the details pane. */
function SequenceTab() {
  const { catalog } = useInspectorContext();
  const traceId = useInspector((s) => s.traceId);
  const count = useInspector((s) => s.view.records);
  const selectedSeq = useInspector((s) => s.selected?.seq ?? null);
  const select = useInspector((s) => s.select);
  const largeText = useInspector((s) => s.largeText);
  const session = traceId === undefined ? undefined : catalog.get(traceId);
  // The session's record array grows in place: a new slice per published batch tells the view to re-lay out.
  // biome-ignore lint/correctness/useExhaustiveDependencies: count is the change signal for the in-place array
  const records = useMemo(() => session?.records.slice() ?? [], [session, count]);
  const onSelectSeq = useCallback((seq: number) => select({ key: `rec${seq}`, seq }), [select]);
  if (!session || records.length === 0) {
    return (
      <EmptyState title="Sequence view">
        <p>
          Swimlanes for client, inspector and agent: one arrow per frame, dropped frames crossed out at the
          inspector, connection breaks and agent restarts as markers. Start a session or import a trace to see
          it.
        </p>
      </EmptyState>
    );
  }
  return (
    <FilteredSequence
      model={session.timelineModel()}
      records={records}
      selectedSeq={selectedSeq}
      onSelectSeq={onSelectSeq}
      scale={textScale(largeText)}
    />
  );
}

/** The start screen: no trace on this hub yet, so the first three things to do. */
function StartScreen() {
  const demoHere = useInspector((s) => s.demo !== undefined);
  return (
    <div className="start-screen">
      <EmptyState title="No frames yet">
        <p>
          The Timeline shows one row per prompt submission (every attempt with the same sessionId and
          idempotencyKey), judged against the RFD. Get a first trace on screen:
        </p>
        <FirstSteps demoHere={demoHere} />
      </EmptyState>
    </div>
  );
}

/** The panel for the selected tab. */
export function TabPanel() {
  const tab = useInspector((s) => s.tab);
  const nothingYet = useInspector((s) => s.traceId === undefined && s.traces.length === 0);
  return (
    <section id={`panel-${tab}`} role="tabpanel" aria-labelledby={`tab-${tab}`}>
      {nothingYet && tab !== "conformance" ? (
        <StartScreen />
      ) : tab === "timeline" ? (
        <TimelineTable />
      ) : tab === "records" ? (
        <RecordsView />
      ) : tab === "sequence" ? (
        <SequenceTab />
      ) : tab === "latency" ? (
        <LatencyPanel />
      ) : tab === "diff" ? (
        <DiffView />
      ) : (
        <ConformanceView />
      )}
    </section>
  );
}
