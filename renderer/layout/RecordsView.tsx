/** The Records tab: every record of the shown trace in arrival order, notifications and lifecycle events included. */
import { useCallback } from "react";
import type { TraceRecord } from "../../shared/trace/record.js";
import { Badge } from "../components/Badge.js";
import { EmptyState } from "../components/EmptyState.js";
import { VirtualTable, virtualColumnHelper } from "../components/VirtualTable.js";
import { describeRecord } from "../details/describe-record.js";
import { useInspector, useInspectorContext } from "../store/inspector-store.js";
import { Clock } from "../traces/imported-trace.js";

const col = virtualColumnHelper<TraceRecord>();

const RECORD_COLUMNS = col.columns([
  col.accessor((r) => r.seq, { id: "seq", header: "#", size: 70 }),
  col.display({
    id: "ts",
    header: "Time",
    size: 110,
    cell: (c) => <Clock ts={c.row.original.ts} unknown="unknown" />,
  }),
  col.accessor((r) => ("conn" in r && r.conn !== undefined ? `#${r.conn}` : ""), {
    id: "conn",
    header: "Conn",
    size: 60,
  }),
  col.display({
    id: "type",
    header: "Record",
    size: 150,
    cell: (c) => {
      const r = c.row.original;
      if (r.type === "frame") {
        const dir = r.dir === "client->agent" ? "client → agent" : "agent → client";
        return r.dropped ? <Badge tone="error">{`${dir} dropped`}</Badge> : dir;
      }
      return r.type === "fault" ? <Badge tone="warn">fault</Badge> : r.type;
    },
  }),
  col.display({
    id: "text",
    header: "Bytes / event",
    size: 400,
    cell: (c) => <code className="tl-raw">{describeRecord(c.row.original)}</code>,
  }),
]);

const getKey = (r: TraceRecord) => `rec${r.seq}`;

/** The records list of the shown trace. */
export function RecordsView() {
  const { catalog } = useInspectorContext();
  const traceId = useInspector((s) => s.traceId);
  const count = useInspector((s) => s.view.records);
  const selectedKey = useInspector((s) => s.selected?.key);
  const select = useInspector((s) => s.select);
  const largeText = useInspector((s) => s.largeText);
  const records = (traceId === undefined ? undefined : catalog.get(traceId)?.records) ?? [];
  const onSelect = useCallback((r: TraceRecord) => select({ key: getKey(r), seq: r.seq }), [select]);
  return (
    <VirtualTable
      label="Trace records"
      rows={records}
      count={count}
      getKey={getKey}
      columns={RECORD_COLUMNS}
      selectedKey={selectedKey}
      onSelect={onSelect}
      rowHeight={largeText ? 36 : 28}
      empty={
        <EmptyState title="No records yet">
          <p>
            Every frame of the shown trace, notifications included, plus connection, agent and fault events.
          </p>
        </EmptyState>
      }
    />
  );
}
