/** The Timeline tab for now: every record in arrival order, until the analyzer's timeline lands. */
import { EmptyState } from "../components/EmptyState.js";
import { VirtualTable } from "../components/VirtualTable.js";
import { useInspector } from "../store/inspector-store.js";
import { RECORD_COLUMNS } from "./record-columns.js";

/** The records grid with its explanation while empty. */
export function RecordsView() {
  const rows = useInspector((s) => s.rows);
  const selectedSeq = useInspector((s) => s.selectedSeq);
  const select = useInspector((s) => s.select);
  const largeText = useInspector((s) => s.largeText);
  return (
    <VirtualTable
      label="Trace records"
      rows={rows}
      columns={RECORD_COLUMNS}
      selectedSeq={selectedSeq}
      onSelect={select}
      rowHeight={largeText ? 36 : 28}
      empty={
        <EmptyState title="No frames yet">
          <p>
            This list shows every message between the ACP client and the agent, in the order the inspector saw
            them, plus connection, agent and fault events.
          </p>
          <p>
            Frames appear as soon as a client talks to the agent through the inspector. To look at an earlier
            session, use <strong>Import…</strong> in the toolbar or drop a trace file (.jsonl) anywhere on
            this window.
          </p>
        </EmptyState>
      }
    />
  );
}
