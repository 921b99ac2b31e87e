/**
 * The text of `diff A B`: setup, submissions (changed ones with every field that differs, same ones
 * in one line), other requests by method, totals and the gate's reason. Every value that came from
 * a trace goes through `terminalSafe`.
 */
import {
  type FailOn,
  type FieldDiff,
  MATCH_WORDS,
  type MethodDiff,
  type MethodFigures,
  type SubmissionDiff,
  type SubmissionRef,
  type TraceDiff,
} from "../../../shared/diff/diff-model.js";
import { terminalSafe } from "../../platform/terminal-text.js";

/** Same submissions are listed one line each, at most this many (the rest counted). */
const MAX_SAME_LINES = 50;

/** The whole text report of a diff. */
export function renderDiff(
  fileA: string,
  fileB: string,
  diff: TraceDiff,
  failOn: FailOn,
  exit: number,
): string {
  const out: string[] = [`Diff A: ${terminalSafe(fileA)}`, `     B: ${terminalSafe(fileB)}`, "", "Setup"];
  for (const s of diff.setup) {
    if (s.mark === "same") out.push(`  ${s.field}  ${value(s.a)}`);
    else out.push(`  ${s.field}  [changed${s.gated ? "" : ", not gated"}]  A ${value(s.a)}  B ${value(s.b)}`);
  }
  const t = diff.totals;
  out.push(
    "",
    `Submissions (${t.matchedByKey + t.matchedByPosition} matched: ${t.matchedByKey} by key, ${t.matchedByPosition} by session position and prompt; ${t.onlyA} only in A, ${t.onlyB} only in B)`,
  );
  let sameShown = 0;
  let sameHidden = 0;
  for (const d of diff.submissions) {
    if (d.mark !== "same") out.push(...submissionLines(d));
    else if (sameShown < MAX_SAME_LINES) {
      sameShown++;
      out.push(`  ${heading(d)}`);
    } else sameHidden++;
  }
  if (sameHidden > 0) out.push(`  … and ${sameHidden} more the same`);
  if (diff.unlisted > 0)
    out.push(`  … and ${diff.unlisted} more compared, not listed (counted in the totals)`);
  out.push("", "Other requests by method (latency is shown, never judged)");
  for (const m of diff.methods) out.push(methodLine(m));
  for (const b of diff.bounded) out.push("", `Note: ${terminalSafe(b)}`);
  out.push(
    "",
    `Totals: ${t.worse} worse, ${t.better} better, ${t.changed} changed, ${t.same} same; verdicts worse in ${t.verdictsWorse}, better in ${t.verdictsBetter}`,
    exitWords(diff, failOn, exit),
  );
  return `${out.join("\n")}\n`;
}

function value(v: string | null): string {
  return v === null ? "(none)" : terminalSafe(v);
}

function heading(d: SubmissionDiff): string {
  const key = (r: SubmissionRef | null, side: string) =>
    r ? `${side} ${r.key ? `key ${terminalSafe(r.key)}` : "no key"} seq ${r.firstSeq}` : `${side} -`;
  return `[${d.mark}] session #${d.session + 1} "${terminalSafe(d.prompt)}"  (${MATCH_WORDS[d.match]})  ${key(d.a, "A")}  ${key(d.b, "B")}`;
}

function submissionLines(d: SubmissionDiff): string[] {
  const lines = [`  ${heading(d)}`];
  for (const f of d.fields) if (f.mark !== "same") lines.push(`    ${fieldLine(f)}`);
  const verdicts = (r: SubmissionRef) =>
    r.verdicts.length === 0 ? "no verdict" : r.verdicts.map((v) => v.name).join(", ");
  if (d.a) lines.push(`    A: ${terminalSafe(d.a.result)}  [${verdicts(d.a)}]`);
  if (d.b) lines.push(`    B: ${terminalSafe(d.b.result)}  [${verdicts(d.b)}]`);
  return lines;
}

function fieldLine(f: FieldDiff): string {
  return `${f.field} [${f.mark}]: ${terminalSafe(f.a)} → ${terminalSafe(f.b)}  (${terminalSafe(f.reason)})`;
}

function ms(v: number | null): string {
  return v === null ? "-" : `${Math.round(v)}`;
}

function delta(a: number | null, b: number | null): string {
  if (a === null || b === null) return "";
  const d = Math.round(b - a);
  return ` (${d >= 0 ? "+" : ""}${d})`;
}

function methodLine(m: MethodDiff): string {
  const f = (x: MethodFigures | null) =>
    x ? `${x.requests} req, ${x.errors} err, ${x.noAnswer} no answer` : "-";
  const lat = `p50 ${ms(m.a?.p50 ?? null)} → ${ms(m.b?.p50 ?? null)} ms${delta(m.a?.p50 ?? null, m.b?.p50 ?? null)}, p99 ${ms(m.a?.p99 ?? null)} → ${ms(m.b?.p99 ?? null)} ms${delta(m.a?.p99 ?? null, m.b?.p99 ?? null)}`;
  return `  ${terminalSafe(m.method)}  [${m.mark}]  A ${f(m.a)}  B ${f(m.b)}  ${lat}  (${terminalSafe(m.reason)})`;
}

function exitWords(diff: TraceDiff, failOn: FailOn, exit: number): string {
  if (exit === 0) return `Exit 0 (--fail-on ${failOn})`;
  if (diff.totals.verdictsWorse > 0)
    return `Exit 1: a verdict got worse in ${diff.totals.verdictsWorse} submission(s) (--fail-on ${failOn})`;
  return `Exit 1: something changed (--fail-on ${failOn})`;
}
