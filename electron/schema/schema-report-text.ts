import type { FrameSchemaReport, SchemaCheckSummary } from "../../shared/schema/schema-report.js";
import { terminalSafe } from "../platform/terminal-text.js";

/**
 * The text of one trace's schema check, as `validate` and `analyze --schema` print it: totals and
 * notes, then each frame that breaks the schema (seq, connection, direction, method, kind, type and
 * schema; per violation the JSON path and what the schema says); with `extensions`, also the frames
 * that only carry extension fields and those not checked. Wire text is made terminal-safe.
 */
export function schemaCheckText(
  title: string,
  reports: readonly FrameSchemaReport[],
  s: SchemaCheckSummary,
  extensions: boolean,
): string {
  const lines = [`${title}: ${s.checked} frames checked, ${s.framesWithViolations} break the schema`];
  lines.push(`  ${s.framesWithExtensions} carry only extension fields, ${s.notChecked} not checked`);
  for (const n of s.notes) lines.push(`  note: ${n}`);
  for (const r of reports) {
    const shown = r.violations.length > 0 || (extensions && (r.extensions.length > 0 || r.notChecked));
    if (!shown) continue;
    const what = `#${r.seq} conn #${r.conn} ${r.dir} ${terminalSafe(r.method ?? "(no method)")} ${r.kind}`;
    lines.push(`  ${what}${r.type ? ` (${r.type}, ${r.schema})` : ""}`);
    if (r.notChecked) lines.push(`    not checked: ${terminalSafe(r.notChecked)}`);
    for (const v of r.violations)
      lines.push(`    ✗ ${terminalSafe(v.path || "/")}: ${terminalSafe(v.message)}`);
    if (extensions)
      for (const e of r.extensions)
        lines.push(`    extension (${e.kind === "meta" ? "_meta" : "undeclared"}): ${terminalSafe(e.path)}`);
  }
  if (s.reportsLeftOut > 0) lines.push(`  (${s.reportsLeftOut} more frames not listed)`);
  return `${lines.join("\n")}\n`;
}

/**
 * The one-line summary `analyze` prints by default (its check runs in "count" mode: listing every
 * violation costs several times the analysis, see the analyzer bench), saying how to see them all.
 */
export function schemaSummaryText(s: SchemaCheckSummary): string {
  const how = s.framesWithViolations > 0 ? "; list them with analyze --schema (or validate TRACE)" : "";
  const bound =
    s.framesPastBound !== undefined
      ? ` (the first frames only: ${s.framesPastBound} later frames not checked; analyze --schema or validate checks every frame)`
      : "";
  return `Schema check: ${s.checked} frames checked against the official ACP schema${bound}, ${s.framesWithViolations} break it${how} (--no-schema skips the check)\n`;
}
