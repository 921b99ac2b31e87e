/**
 * The cases of a conformance run, ticking as the suite reports them: state, case, required or
 * informative, the one-line reason, time, and a button that opens the case's trace in the
 * timeline. Pure: props in, callbacks out.
 */
import type { CaseRow, CaseRunState } from "../../shared/conformance/conformance-run.js";

/** What the table shows. */
export interface CaseTableProps {
  readonly cases: readonly CaseRow[];
  onOpenTrace(row: CaseRow): void;
}

const STATE_TEXT: Record<CaseRunState, string> = {
  waiting: "waiting",
  running: "running…",
  pass: "pass",
  fail: "FAIL",
  skip: "skipped",
};

/** The case table. */
export function CaseTable({ cases, onOpenTrace }: CaseTableProps) {
  return (
    <table className="case-table" aria-label="Conformance cases">
      <thead>
        <tr>
          <th scope="col">Result</th>
          <th scope="col">Case</th>
          <th scope="col">Reason</th>
          <th scope="col">Time</th>
          <th scope="col">Trace</th>
        </tr>
      </thead>
      <tbody>
        {cases.map((c) => (
          <tr key={c.name} data-case={c.name} data-state={c.state}>
            <td>
              <span className={`case-state case-state--${c.state}`}>{STATE_TEXT[c.state]}</span>
            </td>
            <th scope="row" title={`RFD: ${c.rule}`}>
              <span className="case-table__name">{c.name}</span>
              {c.required ? null : <span className="muted"> (informative)</span>}
              <div className="muted">{c.title}</div>
            </th>
            <td className="case-table__reason">{c.reason ?? ""}</td>
            <td>{c.durationMs === undefined ? "" : `${(c.durationMs / 1000).toFixed(1)} s`}</td>
            <td>
              <button
                type="button"
                disabled={c.traceId === undefined}
                title={c.traceId === undefined ? "The trace appears when the case ends" : `Open ${c.traceId}`}
                onClick={() => onOpenTrace(c)}
              >
                Open trace
              </button>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
