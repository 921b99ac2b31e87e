/** The active tab's content. The Sequence tab is the mount point of `renderer/sequence/` (another branch). */
import { EmptyState } from "../components/EmptyState.js";
import { useInspector } from "../store/inspector-store.js";
import { FilterBar } from "../timeline/FilterBar.js";
import { TimelineTable } from "../timeline/TimelineTable.js";
import { ConformanceView } from "./ConformanceView.js";
import { RecordsView } from "./RecordsView.js";

/**
 * SEQUENCE VIEW MOUNT POINT: `renderer/sequence/SequenceView.tsx` will export
 * `SequenceView(props: { model: TimelineModel; records: readonly TraceRecord[]; onSelectSeq(seq: number): void })`;
 * render it here in place of this explanation.
 */
function SequencePlaceholder() {
  return (
    <EmptyState title="Sequence view">
      <p>
        Swimlanes for client, inspector and agent, with every attempt of a prompt drawn as arrows between
        them. It arrives with the sequence view.
      </p>
    </EmptyState>
  );
}

/** The panel for the selected tab. */
export function TabPanel() {
  const tab = useInspector((s) => s.tab);
  return (
    <section id={`panel-${tab}`} role="tabpanel" aria-labelledby={`tab-${tab}`}>
      {tab === "timeline" ? (
        <>
          <FilterBar />
          <TimelineTable />
        </>
      ) : tab === "records" ? (
        <RecordsView />
      ) : tab === "sequence" ? (
        <SequencePlaceholder />
      ) : (
        <ConformanceView />
      )}
    </section>
  );
}
