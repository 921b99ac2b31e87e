/**
 * The cases of a conformance run, ticking as the suite reports them: state, case, required or
 * informative, the one-line reason, time, and a button that opens the case's trace in the
 * timeline. Pure: props in, callbacks out.
 */

import type { CaseRow, CaseRunState } from "../../../shared/conformance/conformance-run.js";
import { Badge, type BadgeTone } from "../../kit/Badge.js";
import { FoldedText } from "../../kit/FoldedText.js";
import { visibleText } from "../../model/text/visible-text.js";

/** What the table shows. */
export interface CaseTableProps {
  readonly cases: readonly CaseRow[];
  onOpenTrace(row: CaseRow): void;
}

const STATE_BADGE: Record<CaseRunState, { readonly text: string; readonly tone: BadgeTone }> = {
  waiting: { text: "waiting", tone: "neutral" },
  running: { text: "running…", tone: "info" },
  pass: { text: "pass", tone: "ok" },
  fail: { text: "FAIL", tone: "error" },
  skip: { text: "skipped", tone: "warn" },
  "not-run": { text: "not run", tone: "neutral" },
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
              <Badge tone={STATE_BADGE[c.state].tone}>{STATE_BADGE[c.state].text}</Badge>
            </td>
            <th scope="row" title={visibleText(`RFD: ${c.rule}`)}>
              <span className="case-table__name">{visibleText(c.name)}</span>
              {c.required ? null : <span className="muted"> (informative)</span>}
              <div className="muted">{visibleText(c.title)}</div>
            </th>
            <td className="case-table__reason">
              <FoldedText text={c.reason ?? ""} />
            </td>
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
