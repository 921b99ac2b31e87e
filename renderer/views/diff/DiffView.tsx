/**
 * The Diff tab: two loaded traces compared by submission in the page (diff-rows.ts over shared/diff,
 * bounded as `diff A B` is), side by side, each side a link to its Timeline row; then other requests
 * by method and the setup. Every string from a trace is rendered as text through `visibleText`.
 */
import { useMemo } from "react";
import type { DiffMark, MethodFigures } from "../../../shared/diff/diff-model.js";
import { EmptyState } from "../../kit/EmptyState.js";
import { useInspector, useInspectorContext } from "../../model/store/inspector-store.js";
import { visibleText } from "../../model/text/visible-text.js";
import { useDiffPair } from "./diff-pair.js";
import { type DiffRow, diffLoaded, diffRows, fieldWords, type RowLink } from "./diff-rows.js";
import "./diff.css";

function Mark({ mark }: { mark: DiffMark }) {
  return <span className={`diff-mark diff-mark--${mark}`}>{mark}</span>;
}

function Side({ side, label }: { side: RowLink | null; label: string }) {
  const selectTrace = useInspector((s) => s.selectTrace);
  const select = useInspector((s) => s.select);
  const setTab = useInspector((s) => s.setTab);
  if (!side) return <td className="diff-side muted">not in {label}</td>;
  return (
    <td className="diff-side">
      <button
        type="button"
        className="diff-side__link"
        title={`Show ${label}'s Timeline row (seq ${side.seq})`}
        onClick={() => {
          selectTrace(side.traceId);
          select({ key: side.rowKey, seq: side.seq });
          setTab("timeline");
        }}
      >
        {label} seq {side.seq}
      </button>
      <span className="diff-side__line">{visibleText(side.keyText)}</span>
      <span className="diff-side__line">
        {visibleText(side.result)} · {visibleText(side.verdicts)}
      </span>
    </td>
  );
}

function SubmissionRow({ row }: { row: DiffRow }) {
  return (
    <tr className={`diff-row diff-row--${row.mark}`} data-testid="diff-row">
      <td>
        <Mark mark={row.mark} />
      </td>
      <td className="diff-what">
        <span>
          {row.session} “{visibleText(row.prompt)}”
        </span>
        <span className="muted"> ({row.match})</span>
        {row.changed.length > 0 ? (
          <ul className="diff-fields">
            {row.changed.map((f) => (
              <li key={f.field} className={`diff-field diff-field--${f.mark}`}>
                {visibleText(fieldWords(f))}
              </li>
            ))}
          </ul>
        ) : null}
      </td>
      <Side side={row.a} label="A" />
      <Side side={row.b} label="B" />
    </tr>
  );
}

/** A latency as people read it: one decimal under 10 ms, whole milliseconds above. */
const ms = (v: number | null | undefined) =>
  v == null ? "–" : v < 10 ? v.toFixed(1) : String(Math.round(v));

const fig = (m: MethodFigures | null) =>
  m
    ? `${m.requests} req, ${m.errors} err, ${m.noAnswer} unanswered, p50 ${ms(m.p50)} / p99 ${ms(m.p99)} ms`
    : "–";

/** The Diff tab's panel. */
export function DiffView() {
  const { catalog } = useInspectorContext();
  const { a, b } = useDiffPair();
  // Recomputed when either trace got records (a live replay grows).
  const countA = useInspector((s) => s.traces.find((t) => t.id === a)?.records ?? 0);
  const countB = useInspector((s) => s.traces.find((t) => t.id === b)?.records ?? 0);
  const labelA = useInspector((s) => s.traces.find((t) => t.id === a)?.label ?? a);
  const labelB = useInspector((s) => s.traces.find((t) => t.id === b)?.label ?? b);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the counts are the change signal of the in-place record arrays
  const diff = useMemo(() => {
    const sa = a === undefined ? undefined : catalog.get(a);
    const sb = b === undefined ? undefined : catalog.get(b);
    if (!sa || !sb) return undefined;
    return diffLoaded(
      { header: sa.header, records: sa.records, model: sa.timelineModel() },
      { header: sb.header, records: sb.records, model: sb.timelineModel() },
    );
  }, [catalog, a, b, countA, countB]);
  if (!diff || a === undefined || b === undefined)
    return (
      <EmptyState title="Diff">
        <p>
          Pick “Compare with…” beside the trace picker to compare the shown trace with another, submission by
          submission, as <code>acp-retry-inspector diff A B</code> does.
        </p>
      </EmptyState>
    );
  const rows = diffRows(diff, a, b);
  const t = diff.totals;
  return (
    <div className="diff-view">
      <p className="diff-view__head">
        A <strong>{visibleText(labelA ?? "")}</strong> → B <strong>{visibleText(labelB ?? "")}</strong>
      </p>
      <p className="diff-view__totals">
        {t.worse} worse, {t.better} better, {t.changed} changed, {t.same} same; verdicts worse in{" "}
        {t.verdictsWorse}, better in {t.verdictsBetter} ({t.matchedByKey} matched by key,{" "}
        {t.matchedByPosition} by session position and prompt, {t.onlyA} only in A, {t.onlyB} only in B)
      </p>
      <table className="diff-table" aria-label="Submissions compared">
        <thead>
          <tr>
            <th>mark</th>
            <th>submission</th>
            <th>A</th>
            <th>B</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <SubmissionRow key={r.id} row={r} />
          ))}
        </tbody>
      </table>
      {diff.unlisted > 0 ? <p className="muted">… and {diff.unlisted} more compared, not listed</p> : null}
      <h3>Other requests by method</h3>
      <table className="diff-table" aria-label="Other requests by method">
        <tbody>
          {diff.methods.map((m) => (
            <tr key={m.method}>
              <td>
                <Mark mark={m.mark} />
              </td>
              <td>{visibleText(m.method)}</td>
              <td>{fig(m.a)}</td>
              <td>{fig(m.b)}</td>
              <td className="muted">{visibleText(m.reason)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Setup</h3>
      <table className="diff-table" aria-label="Setup">
        <tbody>
          {diff.setup.map((s) => (
            <tr key={s.field}>
              <td>
                <Mark mark={s.mark} />
              </td>
              <td>{s.field}</td>
              <td className="diff-value">{visibleText(s.a ?? "(none)")}</td>
              <td className="diff-value">{visibleText(s.b ?? "(none)")}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {diff.bounded.map((n) => (
        <p key={n} className="muted">
          Note: {visibleText(n)}
        </p>
      ))}
    </div>
  );
}
