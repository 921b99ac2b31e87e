import { describe, expect, test } from "vitest";
import type { ConformanceReport } from "../../shared/conformance/conformance-result.js";
import type { TraceRecord } from "../../shared/trace/record.js";
import { readTrace } from "../trace/trace-reader.js";
import { runConformance } from "./run-conformance.js";
import { demoAgentCommand, stdioOptions } from "./testing/conformance-fixtures.js";

const CASE_TIMEOUT_MS = 60_000;
const RUN_TIMEOUT_MS = 300_000;

/** Each case's status and its requirements' statuses: what "judged the same" compares. */
function verdicts(report: ConformanceReport): Array<[string, string, string[]]> {
  return report.cases.map((c) => [c.name, c.status, c.outcomes.map((o) => `${o.id}=${o.status}`)]);
}

async function updateKinds(file: string): Promise<Set<string>> {
  const kinds = new Set<string>();
  for await (const ev of readTrace(file)) {
    const r = ev.kind === "record" ? (ev.record as TraceRecord) : undefined;
    if (r?.type !== "frame" || r.dir !== "agent->client") continue;
    const m = /"sessionUpdate":"([a-z_]+)"/.exec(r.raw);
    if (m) kinds.add(m[1] as string);
  }
  return kinds;
}

// One mode at a time (each run starts many processes on a 2-core machine).
describe("an agent that announces inserts only with user_message_chunk is judged exactly like one that sends user_message", () => {
  for (const mode of ["correct", "naive"]) {
    test(
      `--mode ${mode}`,
      async () => {
        const message = await runConformance(
          stdioOptions(demoAgentCommand(mode), { caseTimeoutMs: CASE_TIMEOUT_MS }),
        );
        const chunks = await runConformance(
          stdioOptions([...demoAgentCommand(mode), "--user-messages", "chunks"], {
            caseTimeoutMs: CASE_TIMEOUT_MS,
          }),
        );
        expect(verdicts(chunks)).toEqual(verdicts(message));
        expect(chunks.summary).toEqual(message.summary);
        // The runs really differ in shape: only chunks in one, only whole messages in the other.
        const chunkKinds = await updateKinds(chunks.cases[1]?.traceFile as string);
        const messageKinds = await updateKinds(message.cases[1]?.traceFile as string);
        expect(chunkKinds.has("user_message_chunk") && !chunkKinds.has("user_message")).toBe(true);
        expect(messageKinds.has("user_message") && !messageKinds.has("user_message_chunk")).toBe(true);
        if (mode === "correct") expect(chunks.summary).toMatchObject({ failed: 0, exitStatus: 0 });
        else expect(chunks.summary.requiredFailed).toBeGreaterThan(0);
      },
      RUN_TIMEOUT_MS,
    );
  }
});
