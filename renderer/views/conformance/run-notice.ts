/**
 * The toolbar notice of a conformance run started from this window: "started; the cases tick
 * below" while it runs, then what became of it once the hub's board says it ended. Pure.
 */
import { type ConformanceRunStatus, isActive } from "../../../shared/conformance/conformance-run.js";
import type { Notice } from "../../model/store/view-slice.js";

/** What the notice says right after the hub accepted the start. */
export const RUN_STARTED = "started; the cases tick below";

/**
 * Which run a start made here began: the run id the hub's start reply named, and the one the board
 * showed when Run was pressed (for a hub whose reply names none).
 */
export interface StartedRun {
  readonly runId?: string;
  readonly before?: string;
}

/**
 * The notice to show instead of `notice` now that `run` has ended, or undefined to keep it: only a
 * notice that still says the run started is replaced, so a later notice is never overwritten, and
 * only when the board shows the very run started here ended (`started.runId`): any other run on
 * the board (the previous one, or one another window started) is not this run. With no run id in
 * the reply (an older hub), any run but the one the board showed before counts.
 */
export function settledRunNotice(
  notice: Notice | undefined,
  run: ConformanceRunStatus,
  started: StartedRun | undefined,
): Notice | undefined {
  if (!notice?.text.endsWith(`: ${RUN_STARTED}`) || isActive(run.state) || run.state === "idle")
    return undefined;
  if (!started) return undefined;
  if (started.runId !== undefined ? run.runId !== started.runId : run.runId === started.before)
    return undefined;
  const label = notice.text.slice(0, -`: ${RUN_STARTED}`.length);
  const s = run.summary;
  const counts = s
    ? `${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped${s.notRun > 0 ? `, ${s.notRun} not run` : ""}`
    : "";
  switch (run.state) {
    case "done":
      return { tone: "info", text: `${label}: finished: ${counts}` };
    case "cancelled":
      return { tone: "info", text: `${label}: cancelled${counts ? `: ${counts}` : ""}` };
    case "error":
      return { tone: "error", text: `${label}: broke off: ${run.error ?? "unknown error"}` };
  }
  return undefined;
}
