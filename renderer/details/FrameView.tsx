/** A frame of the shown trace: where it went and its bytes, pretty-printed, as text only. */
import type { FrameRecord, TraceRecord } from "../../shared/trace/record.js";
import { RawFrameView } from "../components/RawFrameView.js";
import { Clock } from "../traces/imported-trace.js";
import { describeRecord } from "./describe-record.js";

/** What the tap or the inspector had to do with a frame, in words (empty for the peers' own frames). */
function originText(r: FrameRecord): string {
  const copied =
    r.replaces !== undefined
      ? `, a copy of ${r.copyOf !== undefined ? `#${r.copyOf}` : "a frame"} with id ${JSON.stringify(r.replaces)} replaced`
      : "";
  if (r.origin === "tap") return ", written or consumed by the tap (restart replay), not the client's";
  if (r.origin !== "inspector") return "";
  if (r.dir === "client->agent") return `, a retry by the inspector${copied}`;
  return r.replaces !== undefined
    ? `, the inspector's retry answer as forwarded to the client${copied}`
    : ", the answer to a retry by the inspector, received by the inspector";
}

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
        {originText(record)}
      </p>
      <RawFrameView
        raw={record.raw}
        label={record.encoding === "base64" ? `${label} (base64, not UTF-8)` : label}
      />
    </>
  );
}
