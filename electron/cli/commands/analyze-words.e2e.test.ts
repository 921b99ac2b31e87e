/**
 * The outcome words end to end: real demo peers through the real tap (real processes and pipes),
 * judged by `analyze` as a user runs it. Each case checks the text report and `--json` agree.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Submission } from "../../../shared/analyzer/timeline-model.js";
import { analyze, demoAgent, demoClient, Scratch, tapped } from "../../tap/testing/peers.js";
import { traceRecords } from "../../tap/testing/proxy-run.js";
import { cliPath } from "../../tools/testing/cli.js";

const run = promisify(execFile);

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.cleanup());

/** `analyze TRACE` as text (its exit status is not the point here). */
async function analyzeText(trace: string): Promise<string> {
  const r = await run(process.execPath, [cliPath(), "analyze", trace], {
    timeout: 30_000,
    env: scratch.env,
  }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? "" }));
  return r.stdout;
}

/**
 * `proxy --no-hub --trace T --fault F -- demo-agent ...` as the demo client's stdio agent command.
 * The client's --timeout is long: on a loaded machine a short one makes it respawn this command
 * before it prompts, and the respawned proxy (its trace file taken) runs untraced.
 */
function proxied(trace: string, fault: string, agentArgs: string[]): string[] {
  return ["--", ...tapped(trace, ["--fault", fault], demoAgent(scratch, ...agentArgs))];
}

/**
 * Waits until the tap has written the end of its trace (its agent-exit record): the client can exit
 * before its proxy child has flushed the last records.
 */
async function finishedTrace(trace: string): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const records = await traceRecords(trace).catch(() => []);
    if (records.some((r) => r.type === "agent-exit")) return trace;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${trace}: the tap never recorded its agent's exit`);
}

/** Every word the model says about its submissions, and a check that the text report says each. */
function expectSameWords(text: string, submissions: readonly Submission[]): void {
  for (const s of submissions) {
    expect(text).toContain(s.result);
    for (const a of s.attempts) expect(text).toContain(a.words);
  }
}

describe("analyze on real tap traces", { timeout: 90_000 }, () => {
  it("a dropped answer, then a keyed retry: inserted and never seen, then the original messageId", async () => {
    const trace = scratch.path("dedup.jsonl");
    const report = await demoClient(scratch, [
      "--timeout",
      "10000",
      "--no-wait-idle",
      ...proxied(trace, "drop-response:method=session/prompt", ["--turn-ms", "100"]),
    ]);
    expect(report.ok).toBe(true);
    const model = await analyze(scratch, await finishedTrace(trace));
    expect(model.submissions).toHaveLength(1);
    const s = model.submissions[0] as Submission;
    const m = s.finalMessageId as string;
    expect(s.attempts.map((a) => a.words)).toEqual([
      `inserted → messageId ${m}; answer dropped by the inspector: the client never saw it`,
      `answered with the original messageId ${m} (no new insert)`,
    ]);
    expect(s.attempts.map((a) => a.effect)).toEqual(["inserted", "original"]);
    expect(s.result).toBe(`inserted once → messageId ${m}`);
    expect(s.verdicts.map((v) => v.name)).toEqual(["deduplicated"]);
    expectSameWords(await analyzeText(trace), model.submissions);
  });

  it("a held prompt and its retry, cancelled: both -32800, withdrawn, nothing pending", async () => {
    const traces = scratch.path("conf");
    await run(
      process.execPath,
      [
        cliPath(),
        "conformance",
        "--only",
        "cancel-held",
        "--traces-dir",
        traces,
        "--quiet",
        "--",
        ...demoAgent(scratch),
      ],
      { timeout: 60_000, env: scratch.env },
    );
    const trace = `${traces}/cancel-held.jsonl`;
    const model = await analyze(scratch, trace);
    const held = model.submissions.find((s) => s.attempts.length === 2) as Submission;
    expect(held.attempts.map((a) => a.words)).toEqual([
      "cancelled (-32800) before insertion",
      "cancelled (-32800) before insertion",
    ]);
    expect(held.verdicts.map((v) => v.name)).toEqual(["withdrawn"]);
    expect(held.result).toBe("withdrawn: every attempt cancelled (-32800), nothing inserted");
    expect(model.verdictCounts.withdrawn).toBe(1);
    const text = await analyzeText(trace);
    expectSameWords(text, model.submissions);
    expect(text).toContain("[ok] withdrawn: all 2 attempts were answered -32800: nothing inserted");
    // The RFD quotes in the verdict totals say "pending request"; the submissions never read pending.
    expect(text.slice(0, text.indexOf("Other requests"))).not.toContain("pending");
  });

  it("the agent killed mid-turn: lost, and 'not inserted' is never claimed", async () => {
    const trace = scratch.path("killed.jsonl");
    // Two prompts: the first is inserted (its user message shows) when the agent is killed; the
    // second is held behind it and never answered; the client does not resend (--retries 0).
    const report = await demoClient(scratch, [
      "--prompt",
      "and then this",
      "--timeout",
      "10000",
      "--retries",
      "0",
      "--no-wait-idle",
      ...proxied(trace, "kill-agent:method=session/update", ["--turn-ms", "2000"]),
    ]).catch(() => null);
    expect(report).toBeNull(); // demo-client exits 1: no messageId
    const model = await analyze(scratch, await finishedTrace(trace));
    expect(model.submissions).toHaveLength(2);
    const [first, held] = model.submissions as [Submission, Submission];
    // The kill fires on the first user message; the first prompt's answer may slip out just before it.
    const m = first.messageIds[0];
    if (first.attempts[0]?.outcome.kind === "inserted") {
      expect(first.attempts[0]?.words).toBe(`inserted → messageId ${m}`);
      expect(first.result).toBe(`inserted once → messageId ${m}`);
    } else {
      expect(first.attempts[0]?.words).toBe(
        `lost: the agent died before answering, after a user message update showed it inserted → messageId ${m}`,
      );
      expect(first.result).toBe(`inserted → messageId ${m}, but the client never saw an answer`);
      expect(first.clientMessageId).toBeNull();
    }
    expect(held.attempts[0]?.words).toBe(
      "lost: the agent died before answering; whether it inserted is unknown",
    );
    expect(held.result).toBe("unknown: no answer reached the client; whether it inserted is unknown");
    expect(held.verdicts.map((v) => v.name)).toEqual(["unresolved"]);
    const text = await analyzeText(trace);
    expectSameWords(text, model.submissions);
    expect(text.slice(0, text.indexOf("Other requests"))).not.toContain("not inserted");
  });
});
