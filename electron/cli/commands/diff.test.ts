/**
 * `diff A B` end to end: demo-client → the real tap (`proxy --fault
 * lose-and-retry:method=session/prompt`) → demo-agent, recorded against the correct agent twice and
 * against `--mode naive` once (real processes over real pipes), then compared as a CI job would.
 */
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TraceDiff } from "../../../shared/diff/diff-model.js";
import { Scratch } from "../../tap/testing/peers.js";
import { traceRecords } from "../../tap/testing/proxy-run.js";
import { cliPath } from "../../tools/testing/cli.js";

const run = promisify(execFile);

let scratch: Scratch;
const traces: Record<string, string> = {};

/** Records one run: two prompts, one at a time; the first one's answer is lost and retried by the tap. */
async function record(name: string, agentArgs: readonly string[]): Promise<string> {
  const trace = scratch.path(`${name}.jsonl`);
  const agent = [
    process.execPath,
    cliPath(),
    "demo-agent",
    "--store",
    scratch.path(`store-${name}`),
    "--turn-ms",
    "100",
  ];
  const tap = [
    process.execPath,
    cliPath(),
    "proxy",
    "--no-hub",
    "--trace",
    trace,
    "--fault",
    "lose-and-retry:method=session/prompt",
  ];
  await run(
    process.execPath,
    [
      cliPath(),
      "demo-client",
      "--json",
      "--quiet",
      "--pending",
      scratch.path(`pending-${name}.json`),
      "--prompt",
      "deploy it",
      "--prompt",
      "and then this",
      "--one-at-a-time",
      "--no-wait-idle",
      "--timeout",
      "10000",
      "--",
      ...tap,
      "--",
      ...agent,
      ...agentArgs,
    ],
    { timeout: 60_000, env: scratch.env },
  );
  // The client can exit before its proxy child wrote the agent's exit: wait for the end of the trace.
  for (let i = 0; i < 200; i++) {
    const records = await traceRecords(trace).catch(() => []);
    if (records.some((r) => r.type === "agent-exit")) return trace;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${trace}: the tap never recorded its agent's exit`);
}

/** `diff ARGS...`: its stdout, stderr and exit status. */
async function diff(args: readonly string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const r = await run(process.execPath, [cliPath(), "diff", ...args], {
      timeout: 30_000,
      env: scratch.env,
    });
    return { ...r, code: 0 };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; code?: number };
    return { stdout: e.stdout ?? "", stderr: e.stderr ?? "", code: e.code ?? -1 };
  }
}

beforeAll(async () => {
  scratch = new Scratch();
  traces.correct = await record("correct", []);
  traces.naive = await record("naive", ["--mode", "naive"]);
  traces.correct2 = await record("correct2", []);
}, 180_000);
afterAll(() => scratch.cleanup());

describe("diff on traces the real tap recorded", { timeout: 60_000 }, () => {
  it("correct → naive: the key went from deduplicated to duplicate-insert, exit 1", async () => {
    const r = await diff([traces.correct as string, traces.naive as string]);
    expect(r.code).toBe(1);
    // The keys differ between the two demo-client runs: the pair is made by session position and prompt.
    expect(r.stdout).toMatch(
      /\[worse\] session #1 "deploy it" {2}\(matched by session position and prompt\)/,
    );
    expect(r.stdout).toContain("verdicts [worse]: deduplicated → duplicate-insert");
    expect(r.stdout).toContain("inserts [worse]: 1 → 2");
    expect(r.stdout).toMatch(/\[same\] session #1 "and then this"/);
    expect(r.stdout).toContain("Exit 1: a verdict got worse in 1 submission(s) (--fail-on worse)");

    const json = await diff(["--json", traces.correct as string, traces.naive as string]);
    expect(json.code).toBe(1);
    const doc = JSON.parse(json.stdout) as TraceDiff & { exitStatus: number };
    expect(doc.exitStatus).toBe(1);
    expect(doc.totals).toMatchObject({ matchedByPosition: 2, worse: 1, same: 1, verdictsWorse: 1 });
    const worse = doc.submissions.find((s) => s.mark === "worse");
    expect(worse?.a?.verdicts.map((v) => v.name)).toEqual(["deduplicated"]);
    expect(worse?.b?.verdicts.map((v) => v.name)).toEqual(["duplicate-insert"]);
    expect((await diff(["--fail-on", "never", traces.correct as string, traces.naive as string])).code).toBe(
      0,
    );
  });

  it("correct → correct again: everything the same, exit 0, also with --fail-on any-change", async () => {
    const r = await diff([traces.correct as string, traces.correct2 as string]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Totals: 0 worse, 0 better, 0 changed, 2 same");
    expect(r.stdout).toMatch(/protocolVersion {2}2\n/);
    expect(r.stdout).toContain('agentInfo  {"name":"acp-retry-inspector-demo-agent"');
    const any = await diff(["--fail-on", "any-change", traces.correct as string, traces.correct2 as string]);
    expect(any.code).toBe(0);
    // naive → correct is better: the default gate passes, any-change fails.
    expect((await diff([traces.naive as string, traces.correct as string])).code).toBe(0);
    expect(
      (await diff(["--fail-on", "any-change", traces.naive as string, traces.correct as string])).code,
    ).toBe(1);
  });

  it("text from the wire is shown escaped, never as terminal control", async () => {
    const hostile = scratch.path("hostile.jsonl");
    // The recorded prompt text and the agent's name, with an ESC[2J (clear screen) and a bidi override.
    const text = readFileSync(traces.correct as string, "utf8")
      .replaceAll('\\"text\\":\\"deploy it\\"', '\\"text\\":\\"deploy \\\\u001b[2J it\\\\u202e\\"')
      .replace('acp-retry-inspector-demo-agent\\"', 'evil\\\\u001b]52;c;AAAA\\\\u0007\\"');
    writeFileSync(hostile, text);
    const r = await diff([traces.correct as string, hostile]);
    expect(r.code).toBe(0);
    for (const c of ["\u001b", "\u0007", "\u202e"]) expect(r.stdout).not.toContain(c);
    // The same key with another prompt: a change, B's prompt escaped.
    expect(r.stdout).toContain(
      "prompt [changed]: deploy it → deploy \\x1b[2J it\\u202e  (the same key with another prompt)",
    );
    expect(r.stdout).toContain("evil\\u001b]52;c;AAAA\\u0007");
  });

  it("usage errors and unreadable traces exit 2 with a clear message", async () => {
    const one = await diff([traces.correct as string]);
    expect(one.code).toBe(2);
    expect(one.stderr).toContain("diff: expected two trace files, A and B");
    const bad = await diff(["--fail-on", "sometimes", traces.correct as string, traces.naive as string]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--fail-on takes worse, any-change, never, not 'sometimes'");
    const missing = await diff([traces.correct as string, scratch.path("nope.jsonl")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("diff: B: ");
    const empty = scratch.path("empty.jsonl");
    writeFileSync(empty, "");
    expect((await diff([empty, traces.correct as string])).code).toBe(2);
    expect((await diff(["--bogus", traces.correct as string, traces.naive as string])).code).toBe(2);
  });
});
