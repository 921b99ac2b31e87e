/**
 * The Latency tab: p50/p95/p99/max of the time from each request to its answer, per method and per
 * connection, for the shown trace (`shared/analyzer/latency.ts`, the same figures as `analyze`).
 * Says what the numbers are: the answerer's time as the tap saw it; a dropped answer is the Agent's
 * time, not what the Client waited (the Client never got it).
 */
import { useMemo } from "react";
import {
  type ConnectionLatency,
  type LatencyStats,
  latencyReport,
  type MethodLatency,
} from "../../../shared/analyzer/latency.js";
import { durationText } from "../../../shared/analyzer/waterfall.js";
import { EmptyState } from "../../kit/EmptyState.js";
import { useInspector, useInspectorContext } from "../../model/store/inspector-store.js";
import "./latency.css";

const ms = (v: number | null) => (v === null ? "–" : durationText(v));

/** What a row's samples leave out or include apart, in words. */
function apartText(s: LatencyStats): string {
  return [
    s.dropped > 0 && `${s.dropped} answer${s.dropped === 1 ? "" : "s"} dropped (agent's time)`,
    s.inspector > 0 && `${s.inspector} by the inspector`,
    s.noAnswer > 0 && `${s.noAnswer} no answer`,
  ]
    .filter(Boolean)
    .join(" · ");
}

/** A bar from 0 to max on a shared scale, with p50 and p95 marked. */
function SpreadBar({ s, scale }: { s: LatencyStats; scale: number }) {
  if (s.max === null || !(scale > 0)) return null;
  const at = (v: number | null) => `${((v ?? 0) / scale) * 100}%`;
  return (
    <span className="lat-bar" role="img" aria-label={`p50 ${ms(s.p50)}, p95 ${ms(s.p95)}, max ${ms(s.max)}`}>
      <span className="lat-bar__range" style={{ width: at(s.max) }} />
      <span className="lat-bar__p95" style={{ width: at(s.p95) }} />
      <span className="lat-bar__p50" style={{ width: at(s.p50) }} />
    </span>
  );
}

/** One table of groups (by method, or by connection and method). */
function LatencyTable({
  label,
  rows,
}: {
  label: string;
  rows: readonly (MethodLatency | ConnectionLatency)[];
}) {
  const scale = Math.max(0, ...rows.map((r) => r.max ?? 0));
  const byConn = rows.some((r) => "conn" in r);
  return (
    <table className="lat-table" aria-label={label}>
      <thead>
        <tr>
          {byConn && <th scope="col">Conn</th>}
          <th scope="col">Method</th>
          <th scope="col">Answered</th>
          <th scope="col">p50</th>
          <th scope="col">p95</th>
          <th scope="col">p99</th>
          <th scope="col">max</th>
          <th scope="col">Spread</th>
          <th scope="col">Counted apart</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={"conn" in r ? `${r.conn} ${r.method}` : r.method}>
            {byConn && <td>#{"conn" in r ? r.conn : ""}</td>}
            <td className="lat-table__method" title={r.method}>
              {r.method}
            </td>
            <td>
              {r.samples} of {r.requests}
            </td>
            <td>{ms(r.p50)}</td>
            <td>{ms(r.p95)}</td>
            <td>{ms(r.p99)}</td>
            <td>{ms(r.max)}</td>
            <td>
              <SpreadBar s={r} scale={scale} />
            </td>
            <td className="muted">{apartText(r)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The Latency tab's content for the shown trace. */
export function LatencyPanel() {
  const { catalog } = useInspectorContext();
  const traceId = useInspector((s) => s.traceId);
  const count = useInspector((s) => s.view.records);
  const session = traceId === undefined ? undefined : catalog.get(traceId);
  // The session's model grows in place: the record count is the change signal.
  // biome-ignore lint/correctness/useExhaustiveDependencies: count is the change signal for the in-place model
  const report = useMemo(() => (session ? latencyReport(session.timelineModel()) : null), [session, count]);
  if (!report || report.byMethod.length === 0) {
    return (
      <EmptyState title="Latency">
        <p>
          p50, p95, p99 and max of the time from each request to its answer, per method and per connection.
          Nothing answered with real timestamps in this trace yet.
        </p>
      </EmptyState>
    );
  }
  const conns = new Set(report.byConnection.map((c) => c.conn)).size;
  return (
    <div className="latency">
      <h2>Latency per method</h2>
      <p className="latency__note">
        Time from each request to its answer, as the tap recorded both: the answerer's time (the agent's; the
        client's for requests the agent sent). session/prompt is answered at insertion in v2, at the end of
        the turn in v1. <strong>A dropped answer counts as the agent's time</strong>: the agent did answer,
        but the client never got that answer and went on waiting, so it is not what the client waited.
        Requests the inspector made count too; both are named under "Counted apart". Requests with no answer
        (pending, lost, not delivered) have no latency and are only counted.
      </p>
      <LatencyTable label="Latency per method" rows={report.byMethod} />
      {conns > 1 && (
        <>
          <h2>Per connection</h2>
          <LatencyTable label="Latency per connection" rows={report.byConnection} />
        </>
      )}
      {(report.overflow > 0 || report.negative > 0) && (
        <p className="muted">
          {report.overflow > 0 &&
            `${report.overflow} request(s) of methods past the first 500 are not broken out. `}
          {report.negative > 0 &&
            `${report.negative} answer(s) timestamped before their request (a clock went back) are left out.`}
        </p>
      )}
    </div>
  );
}
