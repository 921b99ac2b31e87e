/**
 * The schema check in the app: a "⚠ schema" badge on a Timeline row whose frames break the official
 * ACP schema, and the Details section that says where and what the schema says
 * (docs/analyzer.md#schema-check). Paths and messages are shown through `visibleText`.
 */
import type { FrameSchemaReport } from "../../shared/schema/schema-report.js";
import { frameSeqsOf } from "../model/filter/timeline-filter.js";
import { visibleText } from "../model/text/visible-text.js";
import type { TimelineRow } from "../model/timeline/timeline-rows.js";
import { useSchemaReports } from "../model/traces/schema-reports.js";

/** The reports among `seqs`, in seq order. */
function reportsOf(
  bySeq: ReadonlyMap<number, FrameSchemaReport>,
  seqs: readonly number[],
): FrameSchemaReport[] {
  const out: FrameSchemaReport[] = [];
  for (const seq of [...seqs].sort((a, b) => a - b)) {
    const r = bySeq.get(seq);
    if (r) out.push(r);
  }
  return out;
}

/** The frame seqs of a Timeline row that has its own frames (submission, request, malformed, attempt, frame). */
function rowSeqs(r: TimelineRow): readonly number[] {
  if (r.kind === "submission" || r.kind === "request" || r.kind === "malformed") return frameSeqsOf(r);
  if (r.kind === "attempt") return r.attempt.frameSeqs;
  if (r.kind === "frame") return [r.seq];
  return [];
}

/** "⚠ schema" on a row whose frames break the ACP schema; nothing otherwise. */
export function RowSchemaBadge({ r }: { r: TimelineRow }) {
  const bySeq = useSchemaReports();
  if (bySeq.size === 0) return null;
  const found = reportsOf(bySeq, rowSeqs(r));
  if (found.length === 0) return null;
  const n = found.reduce((k, x) => k + x.violations.length, 0);
  const title = `${found.length} frame${found.length === 1 ? "" : "s"} of this row break${found.length === 1 ? "s" : ""} the ACP schema (${n} violation${n === 1 ? "" : "s"}); Details says where`;
  return (
    <>
      <span className="badge badge--warn schema-badge" title={title}>
        <span aria-hidden="true">⚠</span> schema
      </span>{" "}
    </>
  );
}

/** The Details section for frames `seqs`: each frame that breaks the schema, its paths and what the schema says. */
export function SchemaViolations({ seqs }: { seqs: readonly number[] }) {
  const bySeq = useSchemaReports();
  const found = reportsOf(bySeq, seqs);
  if (found.length === 0) return null;
  return (
    <section className="schema-violations" aria-label="Schema violations">
      <h3>⚠ Breaks the ACP schema</h3>
      {found.map((r) => (
        <div key={r.seq}>
          <p>
            Frame #{r.seq} ({r.dir}, {visibleText(r.method ?? "no method")} {r.kind}) checked as{" "}
            <code>{visibleText(r.type ?? "")}</code> against the {visibleText(r.schema)} schema:
          </p>
          <ul>
            {r.violations.map((v) => (
              <li key={`${v.path}\n${v.message}`}>
                <code>{visibleText(v.path || "/")}</code>: {visibleText(v.message)}
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
