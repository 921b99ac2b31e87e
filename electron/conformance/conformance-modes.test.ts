import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, test } from "vitest";
import { CONFORMANCE_CASES } from "../../shared/conformance/case-catalogue.js";
import type { CaseName, ConformanceReport } from "../../shared/conformance/conformance-result.js";
import { cliPath } from "../testing/cli.js";
import { readTrace } from "../trace/trace-reader.js";
import { runConformance } from "./run-conformance.js";
import {
  demoAgentCommand,
  type RemoteDemoAgent,
  startRemoteDemoAgent,
  stdioOptions,
  tempDir,
} from "./testing/conformance-fixtures.js";

const RETRY_CASES = CONFORMANCE_CASES.filter((c) => c.retry).map((c) => c.name);

function statuses(report: ConformanceReport): Record<string, string> {
  return Object.fromEntries(report.cases.map((c) => [c.name, c.status]));
}

function failing(report: ConformanceReport): CaseName[] {
  return report.cases.filter((c) => c.status === "fail").map((c) => c.name);
}

function runCli(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cliPath(), "conformance", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (c: Buffer) => {
    stdout += c.toString("utf8");
  });
  child.stderr.on("data", (c: Buffer) => {
    stderr += c.toString("utf8");
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout, stderr })));
}

let remote: RemoteDemoAgent | undefined;
afterAll(async () => {
  await remote?.stop();
});

// One mode at a time, four cases at a time: every stdio connection starts two node processes (tap
// and agent), so overlapping the runs only makes them fight for the CPU. The case limit is generous
// because a loaded CI machine can take seconds to start a process; a timeout fails with its reason.
const CASE_TIMEOUT_MS = 60_000;
const RUN_TIMEOUT_MS = 180_000;

describe("the demo agent's modes", () => {
  test(
    "default mode passes every case, through the CLI, with JSON, JUnit, progress and a trace per case",
    async () => {
      const traces = tempDir("traces");
      const junit = `${tempDir("junit")}/conformance.xml`;
      const { code, stdout, stderr } = await runCli([
        "--json",
        "--junit",
        junit,
        "--traces-dir",
        traces,
        "--concurrency",
        "4",
        "--case-timeout-ms",
        String(CASE_TIMEOUT_MS),
        "--",
        ...demoAgentCommand("correct"),
      ]);
      const report = JSON.parse(stdout) as ConformanceReport;
      expect(failing(report), stdout).toEqual([]);
      expect(report.cases.map((c) => c.status)).toEqual(CONFORMANCE_CASES.map(() => "pass"));
      expect(code).toBe(0);
      expect(report.summary).toMatchObject({ passed: 11, failed: 0, ok: true, exitStatus: 0 });
      expect(stderr).toContain(`conformance: traces: ${traces}`);
      expect(stderr).toContain("[11/11]");
      const xml = readFileSync(junit, "utf8");
      expect(xml.match(/<testcase /g)).toHaveLength(11);
      expect(xml).toContain('failures="0"');
      for (const c of report.cases) {
        expect(c.traceFile).toBe(`${traces}/${c.name}.jsonl`);
        const kinds = new Set<string>();
        for await (const ev of readTrace(c.traceFile as string))
          kinds.add(ev.kind === "record" ? ev.record.type : ev.kind);
        expect(kinds).toContain("frame");
        expect(kinds).not.toContain("problem");
      }
    },
    RUN_TIMEOUT_MS,
  );

  test(
    "--mode naive fails every retry case",
    async () => {
      const report = await runConformance(
        stdioOptions(demoAgentCommand("naive"), { caseTimeoutMs: CASE_TIMEOUT_MS }),
      );
      expect(failing(report).sort()).toEqual([...RETRY_CASES, "key-validation"].sort());
      expect(statuses(report)["keys-private"]).toBe("pass");
      expect(report.summary.exitStatus).toBe(1);
      const validation = report.cases.find((c) => c.name === "key-validation");
      expect(validation?.reason).toMatch(/empty key was answered with messageId .*expected error -32602/);
      expect(validation?.analyzerViolations).toContain("invalid-key-accepted");
    },
    RUN_TIMEOUT_MS,
  );

  test(
    "--mode forgetful over a URL fails only the restart case (the agent outlives connections)",
    async () => {
      remote = await startRemoteDemoAgent("forgetful");
      const report = await runConformance({
        agent: { kind: "url", url: remote.ws, restartCommand: remote.restartCommand },
        tracesDir: tempDir("traces"),
        concurrency: 4,
        caseTimeoutMs: CASE_TIMEOUT_MS,
      });
      expect(failing(report)).toEqual(["retry-after-restart"]);
      expect(report.cases.find((c) => c.name === "retry-after-restart")?.reason).toMatch(
        /after the restart \(ran the restart command .*\) the retry got messageId .*, not the original/,
      );
      expect(report.summary.skipped).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  test(
    "--mode strict passes, rejecting the reused key with -32602",
    async () => {
      const report = await runConformance(
        stdioOptions(demoAgentCommand("strict"), { caseTimeoutMs: CASE_TIMEOUT_MS }),
      );
      expect(failing(report)).toEqual([]);
      expect(report.summary.exitStatus).toBe(0);
      expect(report.cases.find((c) => c.name === "different-prompt")?.reason).toMatch(/rejected with -32602/);
    },
    RUN_TIMEOUT_MS,
  );
});
