/**
 * Issue 30 items 1 and 2 end to end, through the real CLI, tap and reference peers: after the
 * inspector's own retry (`lose-and-retry`, `restart-and-retry`) the client got the retry's answer
 * under its own id, and `analyze` says so (words, `clientMessageId`); an unkeyed retry that inserts
 * again gets a verdict; a prompt a delay held while the agent restarted belongs to the restarted
 * agent, so the seed-7 stress schedule passes against the correct demo-agent.
 */

import { execFile } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Submission } from "../../../shared/analyzer/timeline-model.js";
import { cliPath } from "../../tools/testing/cli.js";
import { analyze, demoAgent, demoClient, Scratch, tapped } from "../testing/peers.js";
import { traceRecords } from "../testing/proxy-run.js";

const run = promisify(execFile);

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.cleanup());

/** `proxy --no-hub --trace T --fault F -- demo-agent --store S ...` as an agent command line. */
function proxied(trace: string, fault: string, agentArgs: string[]): string[] {
  return [...tapped(trace, ["--fault", fault], demoAgent(scratch, ...agentArgs))];
}

function only(submissions: readonly Submission[]): Submission {
  expect(submissions).toHaveLength(1);
  return submissions[0] as Submission;
}

/** `analyze TRACE` as text (exit 1 on a violation is still a report). */
async function analyzeText(trace: string): Promise<string> {
  const r = await run(process.execPath, [cliPath(), "analyze", trace], { env: scratch.env }).catch(
    (e: { stdout: string }) => e,
  );
  return r.stdout;
}

describe("the inspector's own retries are what the client saw", { timeout: 90_000 }, () => {
  it.each([
    ["lose-and-retry:method=session/prompt", "correct", ["deduplicated"]],
    ["lose-and-retry:method=session/prompt", "naive", ["duplicate-insert"]],
    ["restart-and-retry", "correct", ["deduplicated"]],
  ] as const)(
    "%s, %s agent: clientMessageId is the messageId the client printed",
    async (fault, mode, verdicts) => {
      const trace = scratch.path("t.jsonl");
      const report = await demoClient(scratch, [
        "--retries",
        "0",
        "--timeout",
        "20000",
        "--no-wait-idle",
        "--",
        ...proxied(trace, fault, ["--mode", mode, "--turn-ms", "100"]),
      ]);
      expect(report.ok).toBe(true);
      const got = report.submissions[0]?.messageId;
      expect(got).toEqual(expect.any(String));
      const s = only((await analyze(scratch, trace)).submissions);
      expect(s.clientMessageId).toBe(got);
      expect(s.clientAnswered).toBe(true);
      expect(s.verdicts.map((v) => v.name)).toEqual(verdicts);
      const [client, retry] = s.attempts;
      expect(client?.clientSaw).toMatchObject({ kind: "forwarded", clientId: client?.id, messageId: got });
      expect(retry?.sender).toMatchObject({ kind: "inspector", role: "retry", replaces: client?.id });
      const text = await analyzeText(trace);
      expect(text).not.toMatch(/never saw an answer/);
      expect(text).toMatch(
        new RegExp(`the client got its retry's answer \\(messageId ${got}\\) under its id`),
      );
    },
  );

  it("an unkeyed prompt the inspector retried: a correct agent inserts it again, and the verdict says so", async () => {
    const trace = scratch.path("unkeyed.jsonl");
    const report = await demoClient(scratch, [
      "--retries",
      "0",
      "--timeout",
      "20000",
      "--no-wait-idle",
      "--no-key",
      "--",
      ...proxied(trace, "lose-and-retry:method=session/prompt", ["--turn-ms", "100"]),
    ]);
    expect(report.ok).toBe(true);
    const s = only((await analyze(scratch, trace)).submissions);
    expect(s.inserts).toBe(2);
    expect(s.verdicts.map((v) => v.name)).toEqual(["unkeyed-retry-inserted"]);
    expect(s.clientMessageId).toBe(report.submissions[0]?.messageId);
  });
});

describe("a held prompt belongs to the agent it is delivered to", { timeout: 120_000 }, () => {
  it("the seed-7 schedule (delay held across restart-and-retry) passes 3 of 3 against the correct demo-agent", async () => {
    const traces = scratch.path("traces");
    const r = await run(
      process.execPath,
      [
        cliPath(),
        "conformance",
        "--stress",
        "3",
        "--seed",
        "7",
        "--schedule",
        "2p:delay@2.request+50,restart-and-retry@1.response",
        "--traces-dir",
        traces,
        "--keep-traces",
        "--json",
        "--",
        ...demoAgent(scratch, "--turn-ms", "50"),
      ],
      { env: scratch.env, timeout: 100_000 },
    ).catch((e: { stdout: string; stderr: string; code: number }) => e);
    const out = JSON.parse(r.stdout) as { summary: { passed: number; failed: number } };
    expect(out.summary, r.stderr).toMatchObject({ passed: 3, failed: 0 });
    // Where the agent was killed while prompt 2 was held, the released prompt is the restarted agent's.
    for (const name of readdirSync(traces).filter((f) => f.startsWith("run-"))) {
      const records = await traceRecords(join(traces, name));
      const exitSeq = records.find((x) => x.type === "agent-exit")?.seq ?? Number.POSITIVE_INFINITY;
      const release = records.find((x) => x.type === "fault" && x.fate === "released");
      if (release === undefined || release.seq < exitSeq) continue;
      const heldSeq = release.type === "fault" ? release.frameSeq : undefined;
      const model = await analyze(scratch, join(traces, name));
      const held = model.submissions.find((s) => s.attempts.some((a) => a.requestSeq === heldSeq));
      expect(held?.attempts[0]?.agentEffect.kind, name).toBe("inserted");
      expect(held?.attempts[0]?.clientSaw.kind, name).toBe("answer");
    }
  });
});
