import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, test } from "vitest";
import { CONFORMANCE_CASES } from "../../shared/conformance/case-catalogue.js";
import type { CaseName, ConformanceReport } from "../../shared/conformance/conformance-result.js";
import { toTckReport } from "../../shared/conformance/tck-report.js";
import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import { cliPath } from "../tools/testing/cli.js";
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

const remotes: RemoteDemoAgent[] = [];
afterAll(async () => {
  await Promise.all(remotes.map((r) => r.stop()));
});

/** A remote demo agent in `mode`, stopped after the file's tests. */
async function remote(mode: string): Promise<RemoteDemoAgent> {
  const agent = await startRemoteDemoAgent(mode);
  remotes.push(agent);
  return agent;
}

/** A case trace: its header, records, and how many lines could not be read. */
async function caseTrace(
  file: string,
): Promise<{ header?: TraceHeader; records: TraceRecord[]; problems: number }> {
  const out: { header?: TraceHeader; records: TraceRecord[]; problems: number } = {
    records: [],
    problems: 0,
  };
  for await (const ev of readTrace(file)) {
    if (ev.kind === "header") out.header = ev.header;
    else if (ev.kind === "record") out.records.push(ev.record);
    else out.problems++;
  }
  return out;
}

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
      const outcome = (name: CaseName, id: string) =>
        report.cases.find((c) => c.name === name)?.outcomes.find((o) => o.id === id);
      // An agent that ignores keys: an insert after an error proves nothing about the key.
      expect(outcome("retry-after-error", "idem.error.key-unused")).toMatchObject({
        status: "skip",
        message: expect.stringMatching(/^not applicable: the agent does not recognise keys in this session/),
      });
      expect(outcome("retry-after-error", "idem.retry.original-message-id")?.status).toBe("fail");
      // Each retry got a messageId of neither session: the retry rule broke, not the session scope.
      expect(outcome("same-key-other-session", "idem.retry.original-message-id")?.status).toBe("fail");
      expect(outcome("same-key-other-session", "idem.scope.session")?.status).not.toBe("fail");
    },
    RUN_TIMEOUT_MS,
  );

  test(
    "--mode per-connection at concurrency 3: the reasons name the real cause, never a key rule a timeout kept from being tested",
    async () => {
      // Turns longer than a case's limit: waiting for the turn to end may take half of what is left,
      // so the reconnect, the resume and the retry keep the rest; starting each connection (the
      // agent's spawn and initialize, ~4 s on a loaded machine) is not counted against the limit.
      const report = await runConformance(
        stdioOptions(demoAgentCommand("per-connection", 10_000), {
          caseTimeoutMs: 8000,
          concurrency: 3,
          only: ["retry-after-resume", "retry-after-restart", "retry-after-error"],
        }),
      );
      const why = report.cases.map((c) => `${c.name}: ${c.status}: ${c.reason}`).join("\n");
      for (const name of ["retry-after-resume", "retry-after-restart"] as const) {
        const c = report.cases.find((x) => x.name === name);
        expect(c?.status, why).toBe("fail");
        const retained = c?.outcomes.find((o) => o.id.startsWith("idem.retained."));
        // The real reason (a new messageId on the new connection), on a loaded machine too: the
        // agents' starts do not eat the case's limit. Never "not reached", never another rule.
        expect(c?.reason, why).not.toMatch(/^not reached/);
        expect(retained?.status, why).toBe("fail");
        expect(retained?.message, why).toMatch(/got messageId .*, not the original/);
        expect(
          c?.outcomes.filter((o) => o.status === "fail").map((o) => o.id),
          why,
        ).toEqual([retained?.id]);
      }
      for (const c of report.cases)
        for (const o of c.outcomes)
          if (o.status === "fail") expect(o.message, `${c.name} ${o.id}`).not.toMatch(/timed out/);
      // The same connection keeps its keys: the error in the session left the key unused.
      const error = report.cases.find((c) => c.name === "retry-after-error");
      expect(error?.outcomes.find((o) => o.id === "idem.error.key-unused")?.message, why).toMatch(
        /^after error -32602 in the same session the key was inserted as /,
      );
      // The TCK report carries the capabilities the agent sent.
      const tck = toTckReport(report);
      expect(tck.agent_capabilities, why).toMatchObject({ session: expect.any(Object) });
    },
    RUN_TIMEOUT_MS,
  );

  test(
    "--mode forgetful over a URL fails only the restart case (the agent outlives connections)",
    async () => {
      const agent = await remote("forgetful");
      const report = await runConformance({
        agent: { kind: "url", url: agent.ws, restartCommand: agent.restartCommand },
        cliCommand: [process.execPath, cliPath()],
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
    "default mode over Streamable HTTP passes every case, each traced by its own remote front (the tap)",
    async () => {
      const agent = await remote("correct");
      const report = await runConformance({
        agent: { kind: "url", url: agent.http, restartCommand: agent.restartCommand },
        cliCommand: [process.execPath, cliPath()],
        tracesDir: tempDir("traces"),
        concurrency: 4,
        caseTimeoutMs: CASE_TIMEOUT_MS,
      });
      expect(failing(report), JSON.stringify(report.cases, null, 1)).toEqual([]);
      // Every case passes. Only cancel-held may be not applicable, with its reason: on a loaded
      // machine each POST of the chain client -> front -> agent can take most of a turn, and then
      // the suite cannot show that its cancel arrived while the prompt was still held.
      expect(
        report.cases.map((c) => (c.name === "cancel-held" && c.status === "skip" ? c.reason : c.status)),
      ).toEqual(
        CONFORMANCE_CASES.map((c) =>
          c.name === "cancel-held"
            ? expect.stringMatching(
                /^pass$|^not applicable: the session\/list sent after \$\/cancel_request was answered only after the held prompt was inserted/,
              )
            : "pass",
        ),
      );
      for (const c of report.cases) {
        expect(c.traceFile).toBe(`${report.tracesDir}/${c.name}.jsonl`);
        const { header, records, problems } = await caseTrace(c.traceFile as string);
        // Written by `proxy --listen --agent-url`, not by the suite: the front's header and note,
        // and each connection opened by a client at a loopback address, carried over HTTP.
        expect(header).toMatchObject({
          tool: expect.stringMatching(/^acp-retry-inspector \S+$/),
          transport: "ws+http",
        });
        expect(records[0]).toMatchObject({ type: "note", text: `forwarding to the agent at ${agent.http}` });
        const opens = records.filter((r) => r.type === "conn-open");
        expect(opens.length).toBeGreaterThan(0);
        for (const [i, open] of opens.entries())
          expect(open).toMatchObject({
            conn: i + 1,
            transport: "http",
            peer: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
          });
        const frames = records.filter((r) => r.type === "frame");
        expect(frames.filter((f) => f.dir === "client->agent").length).toBeGreaterThan(0);
        expect(frames.filter((f) => f.dir === "agent->client").length).toBeGreaterThan(0);
        expect(frames.every((f) => opens.some((o) => o.type === "conn-open" && o.conn === f.conn))).toBe(
          true,
        );
        expect(problems).toBe(0);
      }
      // A case that reconnects has both connections in its one trace, numbered as it opened them.
      const resumed = await caseTrace(`${report.tracesDir}/retry-after-resume.jsonl`);
      const resumes = resumed.records.filter(
        (r) => r.type === "frame" && r.dir === "client->agent" && r.raw.includes('"session/resume"'),
      );
      expect(resumes.map((r) => (r.type === "frame" ? r.conn : 0))).toEqual([2]);
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
