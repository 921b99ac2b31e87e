import { describe, expect, it } from "vitest";
import {
  CONFORMANCE_WIRE_VERSION,
  type ConformanceRunStatus,
} from "../../../shared/conformance/conformance-run.js";
import { RUN_STARTED, settledRunNotice as settle } from "./run-notice.js";

/** The board showed run-1 when run-2 was started here; the hub's start reply named run-2. */
const settledRunNotice = (notice: Parameters<typeof settle>[0], status: ConformanceRunStatus) =>
  settle(notice, status, { runId: "run-2", before: "run-1" });

const started = { tone: "info" as const, text: `Conformance run on demo agent (correct): ${RUN_STARTED}` };
const summary = {
  passed: 9,
  failed: 1,
  skipped: 1,
  notRun: 0,
  requiredFailed: 1,
  ok: false,
  exitStatus: 1 as const,
};
const run = (
  state: ConformanceRunStatus["state"],
  extra: Partial<ConformanceRunStatus> = {},
): ConformanceRunStatus => ({
  v: CONFORMANCE_WIRE_VERSION,
  state,
  cases: [],
  runId: "run-2",
  ...extra,
});

describe("the notice of a conformance run started here", () => {
  it("keeps saying started while the run runs", () => {
    expect(settledRunNotice(started, run("running"))).toBeUndefined();
    expect(settledRunNotice(started, run("cancelling"))).toBeUndefined();
    expect(settledRunNotice(started, run("idle"))).toBeUndefined();
  });

  it("says how the run ended once it has, never 'the cases tick below'", () => {
    expect(settledRunNotice(started, run("done", { summary }))).toEqual({
      tone: "info",
      text: "Conformance run on demo agent (correct): finished: 9 passed, 1 failed, 1 skipped",
    });
    expect(settledRunNotice(started, run("cancelled", { summary: { ...summary, notRun: 3 } }))?.text).toBe(
      "Conformance run on demo agent (correct): cancelled: 9 passed, 1 failed, 1 skipped, 3 not run",
    );
    expect(settledRunNotice(started, run("error", { error: "the agent exited" }))).toEqual({
      tone: "error",
      text: "Conformance run on demo agent (correct): broke off: the agent exited",
    });
  });

  it("leaves any other notice alone", () => {
    expect(settledRunNotice(undefined, run("done", { summary }))).toBeUndefined();
    expect(
      settledRunNotice({ tone: "info", text: "Open case: shown in the timeline" }, run("done", { summary })),
    ).toBeUndefined();
  });

  it("never settles with the previous run's results, which the board shows until the new run's first update", () => {
    const previous = run("done", { runId: "run-1", summary });
    expect(settledRunNotice(started, previous)).toBeUndefined();
    expect(settledRunNotice(started, run("done", { summary }))?.text).toContain("finished: 9 passed");
    // Run pressed before this window had the board (it showed no run): the hub's last run, shown
    // when the board arrives, is still not the run started here.
    expect(settle(started, previous, { runId: "run-2", before: undefined })).toBeUndefined();
    // Nor is a run another window started after this one's ended.
    expect(settle(started, run("done", { runId: "run-3", summary }), { runId: "run-2" })).toBeUndefined();
    // Until the reply named a run, nothing settles.
    expect(settle(started, run("done", { summary }), undefined)).toBeUndefined();
  });

  it("with a hub whose start reply names no run: any run but the one the board showed before", () => {
    expect(settle(started, run("done", { runId: "run-1", summary }), { before: "run-1" })).toBeUndefined();
    expect(settle(started, run("done", { summary }), { before: "run-1" })?.text).toContain("finished");
    // The first run of this hub: nothing was on the board before.
    expect(settle(started, run("done", { summary }), {})?.text).toContain("finished");
  });
});
