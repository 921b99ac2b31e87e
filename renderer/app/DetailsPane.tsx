/** The right-hand pane: the selected record in full, its raw frame rendered as text only. */
import { EmptyState } from "../components/EmptyState.js";
import { RawFrameView } from "../components/RawFrameView.js";
import { useInspector } from "../store/inspector-store.js";
import { describeRecord } from "./record-columns.js";

/** Details of the selected record, or an explanation of what will appear here. */
export function DetailsPane() {
  const row = useInspector((s) =>
    s.selectedSeq === undefined ? undefined : s.rows.find((r) => r.seq === s.selectedSeq),
  );
  if (!row) {
    return (
      <EmptyState title="Nothing selected">
        <p>
          Select a row (click it, or focus the list and use the arrow keys) to see the frame exactly as it
          crossed the wire, pretty-printed, with a button to copy the original bytes.
        </p>
      </EmptyState>
    );
  }
  const r = row.record;
  return (
    <>
      <h2 className="panel-title">
        Record #{row.seq}:{" "}
        {r.type === "frame" ? `${row.frame?.kind ?? "frame"} ${row.frame?.method ?? ""}` : r.type}
      </h2>
      {r.type === "frame" ? (
        <>
          <p>
            Connection #{r.conn}, {r.dir === "client->agent" ? "client → agent" : "agent → client"}
            {r.flags?.length ? `, flagged: ${r.flags.join(", ")}` : ""}
            {r.dropped ? ", dropped by fault injection" : ""}
          </p>
          <RawFrameView
            raw={r.raw}
            label={r.encoding === "base64" ? "Raw bytes (base64, not UTF-8)" : "Raw frame"}
          />
        </>
      ) : (
        <>
          <p>{describeRecord(r)}</p>
          <RawFrameView raw={JSON.stringify(r)} label="Trace record" />
        </>
      )}
    </>
  );
}
