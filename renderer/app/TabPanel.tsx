/** The active tab's content; Sequence and Conformance explain what they will show. */
import { EmptyState } from "../components/EmptyState.js";
import { useInspector } from "../store/inspector-store.js";
import { RecordsView } from "./RecordsView.js";

/** The panel for the selected tab. */
export function TabPanel() {
  const tab = useInspector((s) => s.tab);
  return (
    <section id={`panel-${tab}`} role="tabpanel" aria-labelledby={`tab-${tab}`}>
      {tab === "timeline" ? (
        <RecordsView />
      ) : tab === "sequence" ? (
        <EmptyState title="Sequence view">
          <p>
            Swimlanes for client, inspector and agent, with every attempt of a prompt drawn as arrows between
            them. It is built on the analyzer's timeline and arrives with it.
          </p>
        </EmptyState>
      ) : (
        <EmptyState title="Conformance">
          <p>
            A checklist of the Idempotency Keys rules, each marked as shown, violated or not yet exercised by
            this session. It arrives with the analyzer.
          </p>
        </EmptyState>
      )}
    </section>
  );
}
