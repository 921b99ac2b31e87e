import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { TraceRecord } from "../../shared/trace/record.js";
import { readReadyLine } from "../tap/ready-line.js";
import { cliPath } from "../tools/testing/cli.js";
import { TERMINAL_CONTROL } from "../tools/testing/terminal-controls.js";
import { readTrace } from "../trace/trace-reader.js";
import { runConformance } from "./run-conformance.js";
import { STUB_AGENT, stdioOptions, tempDir } from "./testing/conformance-fixtures.js";

const stub = (mode: string) => [process.execPath, STUB_AGENT, mode];

/** A stub agent served remotely (by a front of its own, spawning it per connection); resolves with its URLs. */
async function remoteStub(mode: string): Promise<{ ws: string; http: string; stop(): Promise<void> }> {
  const child = spawn(
    process.execPath,
    [
      cliPath(),
      "proxy",
      "--listen",
      "ws://127.0.0.1:0",
      // The agent under test: the suite's own front connects to it without a token.
      "--no-auth",
      "--ready-json",
      "--no-hub",
      "--trace",
      join(tempDir("stub"), "t.jsonl"),
      "--",
      ...stub(mode),
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  const stop = async () => {
    child.kill("SIGKILL");
    await exited;
  };
  let err = "";
  child.stderr.on("data", (c: Buffer) => {
    err += c.toString("utf8");
  });
  const urls = await new Promise<{ ws: string; http: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the stub's front did not start: ${err}`)), 15_000);
    readReadyLine(child.stdout).then(
      (ready) => {
        clearTimeout(timer);
        if (ready.address) resolve(ready.address);
        else reject(new Error("the stub's front is ready without an address"));
      },
      (e: Error) => {
        clearTimeout(timer);
        reject(new Error(`the stub's front did not start (${e.message}): ${err}`));
      },
    );
  }).catch(async (e: unknown) => {
    await stop();
    throw e;
  });
  return { ...urls, stop };
}

async function records(file: string): Promise<TraceRecord[]> {
  const out: TraceRecord[] = [];
  for await (const ev of readTrace(file)) if (ev.kind === "record") out.push(ev.record);
  return out;
}

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
    // The reason says the rule was not reached (the prompt it needed was never answered), how long
    // that wait lasted and the frame it waited on, by seq in the case's trace; it blames no key rule.
    expect(report.cases[0]?.reason).toMatch(
      /^not reached: timed out after \d+ ms waiting for the answer to the original prompt \(request id 3 on connection #1\), when the case's 8000 ms limit ran out \(frames #1 id 3 \(seq \d+\)\)$/,
    );
    expect(report.cases[0]?.outcomes).toEqual([
      expect.objectContaining({
        id: "idem.retry.original-message-id",
        status: "skip",
        message: expect.stringMatching(/^not reached: timed out after/),
      }),
      expect.objectContaining({
        id: "idem.insert.once",
        status: "skip",
        message: expect.stringMatching(/^not reached: timed out after/),
      }),
    ]);
    expect(report.cases[1]?.reason).toMatch(
      /^not reached: timed out after \d+ ms waiting for the answer to the first prompt/,
    );
    expect(report.summary.exitStatus).toBe(1);
    // Two cases side by side, each bounded by 8 s, plus process start-up and cleanup.
    expect(Date.now() - started).toBeLessThan(40_000);
  }, 60_000);

  test("over a URL, a case that times out still stops its front (SIGTERM), whose trace is then complete", async () => {
    const agent = await remoteStub("stall-prompts");
    try {
      const report = await runConformance({
        agent: { kind: "url", url: agent.http },
        cliCommand: [process.execPath, cliPath()],
        tracesDir: tempDir("traces"),
        only: ["retry-same-connection"],
        // Long enough for the front, the upstream and session/new on a loaded 2-core machine; the stall is the prompt's.
        caseTimeoutMs: 10_000,
      });
      const [only] = report.cases;
      expect(only).toMatchObject({ name: "retry-same-connection", status: "fail" });
      expect(only?.reason).toMatch(
        /^not reached: timed out after \d+ ms waiting for the answer to the original prompt \(request id 3 on connection #1\), when the case's 10000 ms limit ran out \(frames #1 id 3 \(seq \d+\)\)$/,
      );
      const trace = await records(only?.traceFile as string);
      expect(
        trace.some((r) => r.type === "frame" && r.conn === 1 && r.raw.includes('"session/prompt"')),
      ).toBe(true);
      // The front's last words: it was stopped with SIGTERM and closed its trace itself.
      expect(trace.at(-1)).toMatchObject({
        type: "note",
        text: "received SIGTERM; closing every connection",
      });
    } finally {
      await agent.stop();
    }
  }, 60_000);

  test("over a URL, a front that cannot start fails the run with a one-line reason", async () => {
    const report = await runConformance({
      agent: { kind: "url", url: "ws://127.0.0.1:9/acp" },
      // Stands in for a CLI that dies at once, as a broken install would.
      cliCommand: [
        process.execPath,
        "-e",
        "console.error('acp-retry-inspector: out of luck'); process.exit(2)",
      ],
      tracesDir: tempDir("traces"),
      only: ["retry-same-connection"],
      caseTimeoutMs: 8000,
    });
    expect(report.probe.status).toBe("failed");
    expect(report.probe.problem).toBe(
      "initialize failed: cannot open connection #1: the tap (proxy --listen --agent-url) ended before listening (exit 2): out of luck",
    );
    expect(report.cases.map((c) => [c.status, c.reason])).toEqual([
      ["not-run", "not run: the agent did not answer initialize"],
    ]);
  }, 30_000);

  test("an agent that never answers initialize fails the run with exit 1 and says so", async () => {
    const report = await runConformance(stdioOptions(stub("silent"), { caseTimeoutMs: 2000 }));
    expect(report.probe.status).toBe("failed");
    expect(report.probe.problem).toMatch(
      /^initialize failed: timed out after \d+ ms waiting for the answer to initialize on connection #1 \(set-up may take 15000 ms besides the case's limit\)$/,
    );
    // The suite stopped the silent agent after the wait: that is teardown, not the cause.
    expect(report.probe.startup).toEqual({ stderr: [] });
    expect(report.cases.every((c) => c.status === "not-run")).toBe(true);
    expect(report.summary).toMatchObject({ failed: 0, notRun: 11, exitStatus: 1 });
  }, 60_000);

  test("a v1-only agent is reported as 'v2 not supported' with exit 3, in one line, every case not run", async () => {
    const traces = tempDir("traces");
    const child = spawn(
      process.execPath,
      [cliPath(), "conformance", "--traces-dir", traces, "--", ...stub("v1")],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString("utf8");
    });
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString("utf8");
    });
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(code).toBe(3);
    expect(stdout).toContain(
      "NOT RUN: v2 not supported: the agent answered initialize with protocolVersion 1",
    );
    expect(stdout).toContain("11 case(s) not run: NOT CONFORMANT");
    // One line on each stream (the report, the progress), not one per case.
    expect(stdout.match(/v2 not supported/g)).toHaveLength(1);
    expect(stderr.match(/v2 not supported/g)).toHaveLength(1);
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
    // trace files are never replaced, so a folder holding an earlier run's traces is refused up front
    const used = tempDir("used");
    writeFileSync(join(used, "probe.jsonl"), "");
    expect(await run(["--traces-dir", used, "--", "y"])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining("already holds the traces of a run; give a new or empty folder"),
    });
  }, 30_000);
});

// Apart from the concurrent block above, whose cases have timing limits a loaded machine can miss.
describe("what the suite prints", () => {
  test("an agent's name and error messages with escape sequences are printed escaped: table, progress and JSON", async () => {
    const conformance = (...args: string[]) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [cliPath(), "conformance", "--traces-dir", tempDir("traces"), "--only", "key-validation", ...args],
          { stdio: ["ignore", "pipe", "pipe"] },
        );
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (c: Buffer) => {
          stdout += c.toString("utf8");
        });
        child.stderr.on("data", (c: Buffer) => {
          stderr += c.toString("utf8");
        });
        child.on("close", (code) => resolve({ code, stdout, stderr }));
      });
    const table = await conformance("--verbose", "--", ...stub("hostile"));
    expect(table.code).toBe(1);
    expect(table.stdout).toContain("conformance of stub \\x1b[2J\\x1b]52;c;SGVsbG8=\\x07\\x1b[8m\\x9b2J\\n");
    expect(table.stdout).toContain("session/new failed: -32603 no \\x1b[2J");
    expect(table.stdout).not.toMatch(TERMINAL_CONTROL);
    expect(table.stdout.split("\n").some((l) => l.startsWith("  forged line"))).toBe(false);
    expect(table.stderr).toContain("(stub \\x1b[2J");
    expect(table.stderr).not.toMatch(TERMINAL_CONTROL);
    const json = await conformance("--json", "--", ...stub("hostile"));
    expect(json.stdout).not.toMatch(TERMINAL_CONTROL);
    expect(JSON.parse(json.stdout).probe.info.name.startsWith("stub \u001b[2J")).toBe(true);
  }, 60_000);
});
