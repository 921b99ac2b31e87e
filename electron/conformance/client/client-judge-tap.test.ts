/**
 * The client judge on traces the real tap records (issue 30 item 3): demo-client through
 * `proxy --fault lose-and-retry` / `restart-and-retry`, the reference agent behind it. The inspector
 * forwarded its retry's answer under the client's id, so the client saw an answer: nothing was lost,
 * nothing needed a resend, and the same text sent again afterwards under a new key is a new
 * submission, never "a resend under a new key".
 */

import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Analyzer } from "../../../shared/analyzer/analyzer.js";
import { clientRunEvidence, judgeClientCase } from "../../../shared/conformance/client/client-judge.js";
import { demoAgent, demoClient, Scratch } from "../../tap/testing/peers.js";
import { traceRecords } from "../../tap/testing/proxy-run.js";
import { cliPath } from "../../tools/testing/cli.js";

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.cleanup());

describe("the client judge on a real tap's trace", { timeout: 90_000 }, () => {
  it.each(["lose-and-retry:method=session/prompt", "restart-and-retry"])(
    "%s: the answer the inspector forwarded counts as seen; the second submission is no resend",
    async (fault) => {
      const trace = scratch.path("t.jsonl");
      // The helper gives the first --prompt.
      const report = await demoClient(scratch, [
        "--prompt",
        "deploy it",
        "--one-at-a-time",
        "--retries",
        "0",
        "--timeout",
        "20000",
        "--no-wait-idle",
        "--",
        process.execPath,
        cliPath(),
        "proxy",
        "--no-hub",
        "--trace",
        trace,
        "--fault",
        fault,
        "--",
        ...demoAgent(scratch, "--turn-ms", "100"),
      ]);
      expect(report.ok).toBe(true);
      const records = await traceRecords(trace);
      const analyzer = new Analyzer();
      for (const r of records) analyzer.ingest(r);
      const run = clientRunEvidence(records, analyzer.model());
      const [first, second] = run.wire.prompts;
      // The client saw the retry's answer under its own id: no loss, and who forwarded it.
      expect(first?.got).toMatchObject({ kind: "answer", ok: true, forwardedBy: expect.any(String) });
      // The second submission went out after that answer (one at a time).
      expect(second?.got).toMatchObject({ kind: "answer", ok: true });
      expect(second?.seq).toBeGreaterThan(
        first?.got.kind === "answer" ? first.got.seq : Number.POSITIVE_INFINITY,
      );
      expect(first?.key).not.toEqual(second?.key);
      const why = (name: Parameters<typeof judgeClientCase>[0]) => judgeClientCase(name, run);
      for (const name of ["retry-same-key", "resend-lost-answer", "restart-same-key"] as const)
        expect(why(name), name).toMatchObject({
          status: "skip",
          message: "not applicable: no prompt lost its answer in this run",
        });
      expect(why("new-key-same-text").status, why("new-key-same-text").message).toBe("pass");
      expect(run.verdicts.map((v) => v.name)).not.toContain("new-key-on-resend");
    },
  );
});
