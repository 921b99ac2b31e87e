import { spawn } from "node:child_process";
import { describe, expect, test } from "vitest";
import { cliPath } from "../testing/cli.js";
import { runConformance } from "./run-conformance.js";
import { STUB_AGENT, stdioOptions, tempDir } from "./testing/conformance-fixtures.js";

const stub = (mode: string) => [process.execPath, STUB_AGENT, mode];

describe.concurrent("agents the suite cannot pass", () => {
  test("an agent that never answers a prompt fails each case with a clear timeout reason, within the limit", async () => {
    const started = Date.now();
    const report = await runConformance(
      stdioOptions(stub("stall-prompts"), {
        only: ["retry-same-connection", "cancel-held"],
        caseTimeoutMs: 8000,
      }),
    );
    expect(report.probe.status).toBe("v2");
    expect(report.cases.map((c) => [c.name, c.status])).toEqual([
      ["retry-same-connection", "fail"],
      ["cancel-held", "fail"],
    ]);
    expect(report.cases[0]?.reason).toBe(
      "timed out after 8000 ms waiting for the answer to the original prompt (request id 3 on connection #1)",
    );
    expect(report.cases[1]?.reason).toMatch(
      /^timed out after 8000 ms waiting for the answer to the first prompt/,
    );
    expect(report.summary.exitStatus).toBe(1);
    // Two cases side by side, each bounded by 8 s, plus process start-up and cleanup.
    expect(Date.now() - started).toBeLessThan(40_000);
  }, 60_000);

  test("an agent that never answers initialize fails the run with exit 1 and says so", async () => {
    const report = await runConformance(stdioOptions(stub("silent"), { caseTimeoutMs: 2000 }));
    expect(report.probe.status).toBe("failed");
    expect(report.probe.problem).toBe(
      "initialize failed: timed out after 2000 ms waiting for the answer to initialize on connection #1",
    );
    expect(report.cases.every((c) => c.status === "fail" && c.reason === report.probe.problem)).toBe(true);
    expect(report.summary.exitStatus).toBe(1);
  }, 60_000);

  test("a v1-only agent is reported as 'v2 not supported' with exit 3, every case skipped", async () => {
    const traces = tempDir("traces");
    const child = spawn(
      process.execPath,
      [cliPath(), "conformance", "--traces-dir", traces, "--", ...stub("v1")],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString("utf8");
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(3);
    expect(stdout).toContain(
      "NOT RUN: v2 not supported: the agent answered initialize with protocolVersion 1",
    );
    expect(stdout).toContain("0 passed, 0 failed (0 required), 11 skipped");
  }, 60_000);

  test("usage errors exit 2", async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [cliPath(), "conformance", ...args], {
          stdio: ["ignore", "ignore", "pipe"],
        });
        let stderr = "";
        child.stderr.on("data", (c: Buffer) => {
          stderr += c.toString("utf8");
        });
        child.on("close", (code) => resolve({ code, stderr }));
      });
    expect(await run([])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("give either --url URL or -- <agent command...>"),
    });
    expect(await run(["--only", "nope", "--", "x"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("unknown case 'nope'"),
    });
    expect(await run(["--restart-cmd", "x", "--", "y"])).toMatchObject({ code: 2 });
  }, 30_000);
});
