/** A frame of the shown trace: where it went and its bytes, pretty-printed, as text only. */
import { useEffect, useState } from "react";
import type { FrameRecord, TraceRecord } from "../../../shared/trace/record.js";
import { Clock } from "../../kit/ImportedTrace.js";
import { RawFrameView } from "../../kit/RawFrameView.js";
import { describeRecord } from "../../model/filter/describe-record.js";
import { useBridge, useInspector } from "../../model/store/inspector-store.js";
import { visibleText } from "../../model/text/visible-text.js";

/** `1.5 MiB`, `300 KiB`, `812 bytes`. */
export function byteSize(n: number): string {
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MiB`;
  if (n >= 1 << 10) return `${Math.round(n / (1 << 10))} KiB`;
  return `${n} bytes`;
}

/**
 * A large frame the hub sent as a preview: says so, and fetches the whole frame from the hub's
 * trace file when asked (the `readFrame` operation).
 */
function PreviewNote({ record, onFull }: { record: FrameRecord; onFull: (f: FrameRecord) => void }) {
  const bridge = useBridge();
  const traceId = useInspector((s) => s.traceId);
  const [state, setState] = useState<{ busy: boolean; error?: string }>({ busy: false });
  const load = async () => {
    if (traceId === undefined) return;
    setState({ busy: true });
    try {
      const { frame } = await bridge.readFrame({ trace: traceId, seq: record.seq });
      setState({ busy: false });
      onFull(frame);
    } catch (err) {
      setState({ busy: false, error: err instanceof Error ? err.message : String(err) });
    }
  };
  return (
    <p className="frame-preview">
      Preview of {byteSize(record.previewOf ?? 0)} ({record.previewOf} bytes): long strings are cut.{" "}
      <button type="button" disabled={state.busy} onClick={() => void load()}>
        {state.busy ? "Loading…" : "Load full frame"}
      </button>
      {state.error ? <span className="muted"> Could not load it: {state.error}</span> : null}
    </p>
  );
}

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
  const [full, setFull] = useState<FrameRecord | undefined>(undefined);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new record drops the full frame loaded for the old one
  useEffect(() => setFull(undefined), [record]);
  if (!record) {
    return <p className="muted">{label}: not held in this window (cleared, or sent before it subscribed).</p>;
  }
  if (record.type !== "frame") {
    return (
      <>
        <p>
          #{record.seq} at <Clock ts={record.ts} />: {visibleText(describeRecord(record))}
        </p>
        <RawFrameView raw={JSON.stringify(record)} label={`${label} (trace record)`} />
      </>
    );
  }
  const shown = full ?? record;
  return (
    <>
      <p>
        #{record.seq} at <Clock ts={record.ts} />, connection #{record.conn},{" "}
        {record.dir === "client->agent" ? "client → agent" : "agent → client"}
        {record.flags?.length ? `, flagged: ${visibleText(record.flags.join(", "))}` : ""}
        {record.dropped ? ", dropped by fault injection" : ""}
        {visibleText(originText(record))}
      </p>
      {record.previewOf !== undefined && !full ? <PreviewNote record={record} onFull={setFull} /> : null}
      {full ? (
        <p className="muted">The full frame, {byteSize(utf8Bytes(full.raw))}, from the hub's trace file.</p>
      ) : null}
      <RawFrameView
        raw={shown.raw}
        label={shown.encoding === "base64" ? `${label} (base64, not UTF-8)` : label}
      />
    </>
  );
}

function utf8Bytes(s: string): number {
  return new TextEncoder().encode(s).length;
}
