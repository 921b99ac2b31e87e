/**
 * Every column of the selected Timeline row with its whole text, hidden columns included, for the
 * Details pane: what a narrow column cuts (connections "#1 #2", ids "10, 11", outcome words) is
 * readable here, also without a pointer.
 */
import { useMemo } from "react";
import { columnName } from "../../kit/virtual-columns.js";
import { useInspector, useInspectorContext } from "../../model/store/inspector-store.js";
import { rowOfKey, topRows } from "../../model/timeline/timeline-rows.js";
import { eventsOf } from "../../model/timeline/trace-events.js";
import { useTimesUnknown } from "../../model/traces/imported-trace.js";
import { cellText } from "./cell-text.js";
import { rowFacts } from "./row-facts.js";
import { TIMELINE_COLUMNS } from "./timeline-columns.js";

const FIELDS = TIMELINE_COLUMNS.filter((c) => c.id !== "menu").map((c) => ({
  id: c.id as string,
  name: columnName(c.header, c.id as string),
}));

/** The list of the selected row's columns; nothing for a row that is not the Timeline's. */
export function RowFields({ selectedKey }: { selectedKey: string }) {
  const { catalog } = useInspectorContext();
  const traceId = useInspector((s) => s.traceId);
  const view = useInspector((s) => s.view);
  const timesKnown = !useTimesUnknown();
  const fields = useMemo(() => {
    const session = traceId === undefined ? undefined : catalog.get(traceId);
    if (!session) return [];
    const recordOf = (seq: number) => session.recordBySeq(seq);
    const events = eventsOf(session);
    const row = rowOfKey(selectedKey, view, (seq) => events.at(seq), recordOf);
    if (!row) return [];
    const facts = rowFacts({
      timesKnown,
      tsOf: (seq) => recordOf(seq)?.ts,
      events,
      rows: topRows(view),
      now: session.records[session.records.length - 1]?.ts,
    });
    return FIELDS.map((f) => ({ ...f, text: cellText(f.id, row, facts) })).filter((f) => f.text !== "");
  }, [catalog, traceId, view, selectedKey, timesKnown]);
  if (fields.length === 0) return null;
  return (
    <>
      <h3>All columns</h3>
      <ul className="row-fields" aria-label="All columns of this row">
        {fields.map((f) => (
          <li key={f.id}>
            <strong>{f.name}</strong>: {f.text}
          </li>
        ))}
      </ul>
    </>
  );
}
