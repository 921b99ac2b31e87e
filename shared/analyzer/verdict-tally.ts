/**
 * Judging rows and counting their verdicts: every change of a row's verdicts goes through here, so
 * the count per verdict name always matches the verdicts the rows carry.
 */
import type { RowContext } from "./lifecycle.js";
import { insertCount, type SubmissionState } from "./submission-state.js";
import { judgeSubmission } from "./submission-verdicts.js";
import { describeSubmission } from "./submission-words.js";
import type { VerdictHit } from "./timeline-model.js";
import { VERDICT_NAMES, type VerdictName, verdictSeverity } from "./verdicts.js";

/** The verdicts of every row, counted by name. */
export class VerdictTally {
  private readonly counts = Object.fromEntries(VERDICT_NAMES.map((n) => [n, 0])) as Record<
    VerdictName,
    number
  >;

  constructor(private readonly ctx: Pick<RowContext, "revision" | "changes">) {}

  /** Re-judges a submission as its attempts stand now and marks its row changed. */
  judge(state: SubmissionState): void {
    const row = state.row;
    row.inserts = insertCount(state);
    describeSubmission(state);
    this.assign(row, judgeSubmission(state));
    row.rev = this.ctx.revision();
    this.ctx.changes.submissions.add(row);
  }

  /** Gives a row new verdicts in place of its old ones, keeping the counts in step. */
  assign(row: { verdicts: VerdictHit[] }, verdicts: VerdictHit[]): void {
    for (const v of row.verdicts) this.counts[v.name]--;
    for (const v of verdicts) this.counts[v.name]++;
    row.verdicts = verdicts;
  }

  /** A copy of the count of each verdict name. */
  snapshot(): Record<VerdictName, number> {
    return { ...this.counts };
  }

  /** True when any verdict of severity `violation` (an Agent breaking an RFD rule) is present. */
  hasViolations(): boolean {
    return VERDICT_NAMES.some((n) => verdictSeverity(n) === "violation" && this.counts[n] > 0);
  }
}
