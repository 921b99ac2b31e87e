import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, test } from "vitest";
import type { CaseName, ConformanceReport } from "../../shared/conformance/conformance-result.js";
import type { TraceRecord } from "../../shared/trace/record.js";
import { cliPath } from "../tools/testing/cli.js";
import { readTrace } from "../trace/trace-reader.js";
import { runConformance } from "./run-conformance.js";
import { stdioOptions, tempDir } from "./testing/conformance-fixtures.js";

const TEARDOWN_AGENT = fileURLToPath(new URL("./testing/teardown-agent.mjs", import.meta.url));
const CASE_TIMEOUT_MS = 60_000;
const RUN_TIMEOUT_MS = 180_000;

/**
 * The demo agent in `mode` behind `teardown-agent.mjs`: on a closed input it writes a stack trace
 * to stderr and (`cut-loses-session`) loses every session whose turn was still running, as a real
 * adapter that exits mid-turn does. `linger` never exits on its own.
 */
function wrapped(wrapper: string, mode: string): string[] {
  return [
    process.execPath,
    TEARDOWN_AGENT,
    wrapper,
    cliPath(),
    "--store",
    tempDir("store"),
    "--turn-ms",
    "300",
    "--mode",
    mode,
  ];
}

async function records(file: string): Promise<TraceRecord[]> {
  const out: TraceRecord[] = [];
  for await (const ev of readTrace(file)) if (ev.kind === "record") out.push(ev.record);
  return out;
}

function caseOf(report: ConformanceReport, name: CaseName) {
  const found = report.cases.find((c) => c.name === name);
  if (!found) throw new Error(`no ${name} in the report`);
  return found;
}

function runCli(args: readonly string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [cliPath(), ...args], { stdio: ["ignore", "pipe", "pipe"] });
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

const THREE: CaseName[] = ["retry-same-connection", "retry-after-resume", "keys-private"];

describe("cases judge the rule they check", () => {
  for (const concurrency of [1, 3]) {
    test(
      `retry-after-resume fails for the right reason at --concurrency ${concurrency} against an agent that forgets keys across connections`,
      async () => {
        const report = await runConformance(
          stdioOptions(wrapped("cut-loses-session", "forgetful"), {
            only: THREE,
            concurrency,
            caseTimeoutMs: CASE_TIMEOUT_MS,
          }),
        );
        const resume = caseOf(report, "retry-after-resume");
        expect(resume.status).toBe("fail");
        // Not "session/resume failed: -32002": connection #1 was closed only once its turn was idle.
        expect(resume.reason).not.toMatch(/-32002|session\/resume failed/);
        expect(resume.reason).toMatch(
          /^the retry after session\/resume got messageId \S+, not the original \S+ \[breaks idem\.retained\.across-connections: the key MUST be recognised on a new connection after session\/resume; frames #1 id 3 \(seq \d+, \d+\), #2 id 3 \(seq \d+, \d+\)\]$/,
        );
        const [broken, once] = resume.outcomes;
        expect(broken).toMatchObject({ id: "idem.retained.across-connections", status: "fail" });
        expect(broken?.frames?.map((f) => [f.conn, f.dir])).toEqual([
          [1, "client->agent"],
          [1, "agent->client"],
          [2, "client->agent"],
          [2, "agent->client"],
        ]);
        expect(once).toMatchObject({ id: "idem.insert.once", status: "skip" });
        // The named seqs are the frames' seqs in the case's trace.
        const trace = await records(resume.traceFile as string);
        for (const f of broken?.frames ?? [])
          expect(trace.find((r) => r.seq === f.seq)).toMatchObject({
            type: "frame",
            conn: f.conn,
            raw: f.raw,
          });
        // The other cases are on one connection: the forgetful agent passes them. (`keys-private`
        // once failed here at --concurrency 3: its session/list read the store the cases share while
        // retry-after-resume's cut session was deleted, and the agent's list threw ENOENT; see
        // session-store.test.ts.)
        expect(caseOf(report, "retry-same-connection").status).toBe("pass");
        expect(caseOf(report, "keys-private")).toMatchObject({ status: "pass" });
      },
      RUN_TIMEOUT_MS,
    );
  }

  test(
    "the correct demo agent passes retry-after-resume at --concurrency 3, even one that loses cut sessions",
    async () => {
      const report = await runConformance(
        stdioOptions(wrapped("cut-loses-session", "correct"), {
          only: THREE,
          concurrency: 3,
          caseTimeoutMs: CASE_TIMEOUT_MS,
        }),
      );
      expect(report.cases.map((c) => [c.name, c.status, c.reason])).toEqual(
        THREE.map((name) => [name, "pass", expect.any(String)]),
      );
      expect(caseOf(report, "retry-after-resume").outcomes.map((o) => o.status)).toEqual(["pass", "pass"]);
    },
    RUN_TIMEOUT_MS,
  );
});

describe("teardown is on the record", () => {
  test(
    "stderr written after the suite closed a connection is flagged teardown; the agent exited on its own",
    async () => {
      const report = await runConformance(
        stdioOptions(wrapped("noisy", "correct"), {
          only: ["retry-after-resume"],
          caseTimeoutMs: CASE_TIMEOUT_MS,
        }),
      );
      const [resume] = report.cases;
      expect(resume?.status).toBe("pass");
      const trace = await records(resume?.traceFile as string);
      const stderr = trace.filter((r) => r.type === "agent-stderr");
      // Two lines per connection, each written after its input closed.
      expect(stderr.map((r) => (r.type === "agent-stderr" ? [r.conn, r.teardown] : []))).toEqual([
        [1, true],
        [1, true],
        [2, true],
        [2, true],
      ]);
      const notes = trace.flatMap((r) => (r.type === "note" ? [r.text] : []));
      for (const conn of [1, 2]) {
        expect(notes).toContain(
          `connection #${conn}: the suite closed the agent's input (teardown); the agent's stderr from here on is marked teardown`,
        );
        expect(
          notes.some((t) =>
            new RegExp(
              `^connection #${conn}: the agent exited on its own \\d+ ms after its input closed$`,
            ).test(t),
          ),
        ).toBe(true);
      }
      // Agent records carry their connection's number in the joined trace.
      expect(
        trace.filter((r) => r.type === "agent-exit").map((r) => (r.type === "agent-exit" ? r.conn : 0)),
      ).toEqual([1, 2]);
    },
    RUN_TIMEOUT_MS,
  );

  test(
    "an agent that does not exit after its input closed is stopped, and the trace says so",
    async () => {
      const report = await runConformance(
        stdioOptions(wrapped("linger", "correct"), {
          only: ["retry-same-connection"],
          caseTimeoutMs: CASE_TIMEOUT_MS,
        }),
      );
      const [only] = report.cases;
      expect(only?.status).toBe("pass");
      const notes = (await records(only?.traceFile as string)).flatMap((r) =>
        r.type === "note" ? [r.text] : [],
      );
      expect(
        notes.some((t) =>
          /^connection #1: the agent had not exited \d+ ms after its input closed; the suite stopped it with SIGTERM$/.test(
            t,
          ),
        ),
      ).toBe(true);
      expect(notes.some((t) => /exited on its own/.test(t))).toBe(false);
    },
    RUN_TIMEOUT_MS,
  );
});

describe("a startup failure is reported once, and the cases are not run", () => {
  test(
    "a command that does not exist: the spawn error once at the top (text, JSON, JUnit); analyze keeps the note",
    async () => {
      const traces = tempDir("traces");
      const junit = `${tempDir("junit")}/c.xml`;
      const text = await runCli([
        "conformance",
        "--traces-dir",
        traces,
        "--junit",
        junit,
        "--",
        "/nonexistent/agent",
      ]);
      expect(text.code).toBe(1);
      expect(text.stdout).toContain(
        "AGENT DID NOT START: the agent could not be started: cannot start agent '/nonexistent/agent': command not found (ENOENT)",
      );
      expect(text.stdout.match(/ENOENT/g)).toHaveLength(1);
      expect(text.stdout).toContain("11 case(s) not run: NOT CONFORMANT");
      expect(text.stdout).not.toMatch(/closed before initialize/);
      const xml = readFileSync(junit, "utf8");
      expect(xml).toContain('tests="12" failures="1" skipped="11"');
      expect(xml).toContain('<testcase classname="conformance" name="probe"');
      expect(xml.match(/<failure /g)).toHaveLength(1);
      expect(xml.match(/<skipped message="not run: the agent did not answer initialize"\/>/g)).toHaveLength(
        11,
      );

      const json = await runCli([
        "conformance",
        "--json",
        "--quiet",
        "--traces-dir",
        tempDir("traces"),
        "--",
        "/nonexistent/agent",
      ]);
      const report = JSON.parse(json.stdout) as ConformanceReport;
      expect(report.probe).toMatchObject({
        status: "failed",
        startup: {
          spawnError: "cannot start agent '/nonexistent/agent': command not found (ENOENT)",
          stderr: [],
        },
      });
      expect(report.cases.every((c) => c.status === "not-run" && !c.reason.includes("ENOENT"))).toBe(true);
      expect(report.summary).toMatchObject({ failed: 0, notRun: 11, exitStatus: 1 });

      const analyzed = await runCli(["analyze", `${traces}/probe.jsonl`]);
      expect(analyzed.stdout).toMatch(
        /Trace notes \(1\)\n {2}seq \d+ error: cannot start agent '\/nonexistent\/agent': command not found \(ENOENT\)/,
      );
      const analyzedJson = JSON.parse((await runCli(["analyze", "--json", `${traces}/probe.jsonl`])).stdout);
      expect(analyzedJson.traceNotes.map((n: { text: string }) => n.text)).toEqual([
        "cannot start agent '/nonexistent/agent': command not found (ENOENT)",
      ]);
    },
    RUN_TIMEOUT_MS,
  );

  test(
    "an agent that exits on a bad environment: its exit and stderr lines once at the top",
    async () => {
      const agent = [
        process.execPath,
        "-e",
        "console.error('FATAL: MY_AGENT_TOKEN is not set'); console.error('  at config.js:3'); process.exit(1)",
      ];
      const { code, stdout } = await runCli([
        "conformance",
        "--traces-dir",
        tempDir("traces"),
        "--",
        ...agent,
      ]);
      expect(code).toBe(1);
      expect(stdout).toContain(
        "AGENT DID NOT START: the agent exited with code 1 before answering initialize; its stderr: FATAL: MY_AGENT_TOKEN is not set\nmore of the agent's stderr:\n    at config.js:3\n",
      );
      // Once, below the header line (which shows the command, and so the script's text).
      expect(
        stdout
          .split("\n")
          .slice(1)
          .join("\n")
          .match(/MY_AGENT_TOKEN/g),
      ).toHaveLength(1);
      const report = await runConformance(stdioOptions(agent, { only: ["key-validation"] }));
      expect(report.probe.startup).toEqual({
        exit: "exited with code 1",
        stderr: ["FATAL: MY_AGENT_TOKEN is not set", "  at config.js:3"],
      });
      expect(report.cases).toMatchObject([{ name: "key-validation", status: "not-run" }]);
    },
    RUN_TIMEOUT_MS,
  );
});
