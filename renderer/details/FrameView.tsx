/** A frame of the shown trace: where it went and its bytes, pretty-printed, as text only. */
import type { TraceRecord } from "../../shared/trace/record.js";
import { RawFrameView } from "../components/RawFrameView.js";
import { Clock } from "../traces/imported-trace.js";
import { describeRecord } from "./describe-record.js";

/** One record in full; a frame shows its raw bytes with a copy button. */
export function FrameView({ record, label }: { record: TraceRecord | undefined; label: string }) {
  if (!record) {
    return <p className="muted">{label}: not held in this window (cleared, or sent before it subscribed).</p>;
  }
  if (record.type !== "frame") {
    return (
      <>
        <p>
          #{record.seq} at <Clock ts={record.ts} />: {describeRecord(record)}
        </p>
        <RawFrameView raw={JSON.stringify(record)} label={`${label} (trace record)`} />
      </>
    );
  }
  return (
    <>
      <p>
        #{record.seq} at <Clock ts={record.ts} />, connection #{record.conn},{" "}
        {record.dir === "client->agent" ? "client → agent" : "agent → client"}
        {record.flags?.length ? `, flagged: ${record.flags.join(", ")}` : ""}
        {record.dropped ? ", dropped by fault injection" : ""}
      </p>
      <RawFrameView
        raw={record.raw}
        label={record.encoding === "base64" ? `${label} (base64, not UTF-8)` : label}
      />
    </>
  );
}
