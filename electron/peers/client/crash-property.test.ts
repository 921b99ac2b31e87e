/**
 * The crash property: while a client submits keyed prompts and retries until answered, the agent
 * is killed with SIGKILL at random moments. After every run: exactly one insert and one side
 * effect per key, the same messageId on every success, no lost submission. The same harness
 * finds duplicates in `--mode naive`, and in `--mode forgetful` only across restarts.
 */

import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cliPath } from "../../tools/testing/cli.js";
import { readSessionFile } from "../agent/session-file.js";
import { tempStore } from "../testing/raw-agent.js";
import { type ClientReport, runDemoClient } from "./demo-client.js";

/**
 * How one spawned agent dies: `kill -9` from outside some ms after its first output, or by its own
 * SIGKILL right after its Nth insert is flushed and before it answers (the lost-response case).
 */
type Crash = { readonly afterMs: number } | { readonly afterInserts: number };

/** One randomized run: how many prompts, and how each successive agent process crashes. */
interface Scenario {
  readonly prompts: number;
  readonly crashes: readonly Crash[];
}

interface RunResult {
  readonly scenario: Scenario;
  readonly report: ClientReport;
  readonly kills: number;
  /** Per submission: stored user messages with its key (keyed) or its text (naive), and their side effects. */
  readonly inserts: number[];
  readonly effects: number[];
}

async function run(scenario: Scenario, mode: string): Promise<RunResult> {
  const store = tempStore();
  let spawned = 0;
  let kills = 0;
  const prompts = Array.from({ length: scenario.prompts }, (_, i) => `prompt ${i}`);
  const report = await runDemoClient({
    target: {
      kind: "stdio",
      command: [
        process.execPath,
        cliPath(),
        "demo-agent",
        "--store",
        store,
        "--turn-ms",
        "20",
        "--mode",
        mode,
      ],
    },
    prompts,
    cwd: "/tmp",
    attemptTimeoutMs: 5_000,
    maxAttempts: 30,
    maxConnections: 30,
    reconnectDelayMs: 5,
    // A session/new lost in a crash is sent again (harmless here: the lost session is never
    // prompted), so every run gets through; by default the client does not resend it.
    misbehave: "resend-session-new",
    agentArgs(conn) {
      const crash = scenario.crashes[conn - 1];
      return crash && "afterInserts" in crash ? ["--crash-after-inserts", String(crash.afterInserts)] : [];
    },
    onSpawn(child) {
      const crash = scenario.crashes[spawned++];
      child.once("exit", (_code, signal) => {
        if (signal === "SIGKILL") kills++;
      });
      if (!crash || !("afterMs" in crash)) return;
      const delay = crash.afterMs;
      // The clock starts at the agent's first output (its initialize response), so kills land in
      // the protocol exchange, not in process startup.
      let timer: NodeJS.Timeout | undefined;
      child.stdout?.once("data", () => {
        timer = setTimeout(() => {
          if (child.exitCode === null) child.kill("SIGKILL");
        }, delay);
      });
      child.once("exit", () => clearTimeout(timer));
    },
  });
  const records = report.sessionId
    ? (readSessionFile(join(store, "sessions", `${report.sessionId}.jsonl`))?.records ?? [])
    : [];
  const inserts: number[] = [];
  const effects: number[] = [];
  for (const s of report.submissions) {
    const text = (s.prompt[0] as { text: string }).text;
    const mine = records.filter(
      (r) =>
        r.t === "user" &&
        (mode === "naive" || mode === "forgetful"
          ? (r.content[0] as { text: string }).text === text
          : r.key === s.key),
    );
    inserts.push(mine.length);
    effects.push(
      records.filter(
        (r) => r.t === "effect" && mine.some((m) => m.t === "user" && m.messageId === r.messageId),
      ).length,
    );
  }
  return { scenario, report, kills, inserts, effects };
}

const scenarios = fc.record({
  prompts: fc.integer({ min: 1, max: 3 }),
  crashes: fc.array(
    fc.oneof(
      fc.record({ afterMs: fc.integer({ min: 0, max: 120 }) }),
      fc.record({ afterInserts: fc.integer({ min: 1, max: 3 }) }),
    ),
    { maxLength: 2 },
  ),
});

async function runAll(list: readonly Scenario[], mode: string, parallel: number): Promise<RunResult[]> {
  const results: RunResult[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < list.length) {
        const scenario = list[next++] as Scenario;
        results.push(await run(scenario, mode));
      }
    }),
  );
  return results;
}

describe("crash property (kill -9 at random moments)", () => {
  it("correct mode: one insert and one side effect per key, one messageId, nothing lost (200 runs)", async () => {
    const list = fc.sample(scenarios, { numRuns: 200, seed: 20261113 });
    const results = await runAll(list, "correct", 6);
    const kills = results.reduce((n, r) => n + r.kills, 0);
    console.log(`crash property: ${results.length} runs, ${kills} kill -9, all checked`);
    expect(results).toHaveLength(200);
    expect(kills).toBeGreaterThan(60);
    for (const r of results) {
      const context = JSON.stringify({
        scenario: r.scenario,
        kills: r.kills,
        inserts: r.inserts,
        effects: r.effects,
      });
      expect(r.report.ok, context).toBe(true);
      for (const s of r.report.submissions) {
        expect(s.status, context).toBe("answered");
        expect(s.messageIds, context).toHaveLength(1);
      }
      expect(r.inserts, context).toEqual(r.report.submissions.map(() => 1));
      expect(r.effects, context).toEqual(r.report.submissions.map(() => 1));
    }
  }, 600_000);

  it("naive mode: the same harness observes duplicate inserts", async () => {
    const list = fc.sample(scenarios, { numRuns: 20, seed: 7 });
    const results = await runAll(list, "naive", 4);
    const duplicated = results.filter((r) => r.inserts.some((n) => n > 1));
    console.log(`naive: ${duplicated.length} of ${results.length} runs inserted a submission twice or more`);
    expect(duplicated.length).toBeGreaterThan(0);
  }, 300_000);

  it("forgetful mode: duplicates only across restarts", async () => {
    const list = fc.sample(scenarios, { numRuns: 20, seed: 11 });
    const results = await runAll(list, "forgetful", 4);
    const duplicated = results.filter((r) => r.inserts.some((n) => n > 1));
    console.log(
      `forgetful: ${duplicated.length} of ${results.length} runs inserted a submission twice or more`,
    );
    for (const r of results) if (r.kills === 0) expect(r.inserts.every((n) => n === 1)).toBe(true);
    expect(duplicated.length).toBeGreaterThan(0);
    expect(duplicated.every((r) => r.kills > 0)).toBe(true);
  }, 300_000);
});
