/**
 * The client suite with real processes: demo-client (the CLI) behind `{agent}`, the reference agent
 * behind the real tap, one client run per fault schedule. The correct client passes; each
 * `--misbehave` mode fails exactly the cases of the rule it breaks; a v1 client (acpx 0.19.1, when
 * installed) is reported as such with exit 3.
 */

import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { ClientCaseName, ConformanceReport } from "../../../shared/conformance/conformance-result.js";
import type { TckReport } from "../../../shared/conformance/tck-report.js";
import { cliPath } from "../../tools/testing/cli.js";
import { runClientConformance } from "./run-client-conformance.js";

const run = promisify(execFile);
const ACPX = "/work/peers/node_modules/.bin/acpx";

function dir(): string {
  return mkdtempSync(join(tmpdir(), "acp-ri-client-conf-"));
}

/** The attempt timeout the suite asks of demo-client through `{timeoutMs}`, ms. */
const CLIENT_TIMEOUT_MS = 4000;

/**
 * demo-client with three submissions (the same text twice, then another), the attempt timeout the
 * suite asks for; its pending file is the default one, in the run's own per-user folders.
 */
function demoClient(extra: readonly string[]): string[] {
  return [
    process.execPath,
    cliPath(),
    "demo-client",
    "--quiet",
    "--timeout",
    "{timeoutMs}",
    "--no-wait-idle",
    "--one-at-a-time",
    "--prompt",
    "hello",
    "--prompt",
    "hello",
    "--prompt",
    "bye",
    ...extra,
    "--",
    "{agent}",
  ];
}

async function suite(extra: readonly string[]): Promise<ConformanceReport<ClientCaseName>> {
  return runClientConformance({
    clientCommand: demoClient(extra),
    cliCommand: [process.execPath, cliPath()],
    cwd: tmpdir(),
    tracesDir: join(dir(), "traces"),
    clientTimeoutMs: CLIENT_TIMEOUT_MS,
  });
}

const failed = (r: ConformanceReport<ClientCaseName>) =>
  r.cases
    .filter((c) => c.status === "fail")
    .map((c) => c.name)
    .sort();

describe("conformance --client against demo-client", () => {
  it("passes the correct client on every case, in every report format", async () => {
    const out = dir();
    const tck = join(out, "tck.json");
    const junit = join(out, "junit.xml");
    const { stdout } = await run(
      process.execPath,
      [
        cliPath(),
        "conformance",
        "--client",
        "--json",
        "--quiet",
        "--tck-json",
        tck,
        "--junit",
        junit,
        "--traces-dir",
        join(out, "traces"),
        "--client-timeout",
        String(CLIENT_TIMEOUT_MS),
        "--",
        ...demoClient([]),
      ],
      { timeout: 120_000 },
    );
    const report = JSON.parse(stdout) as ConformanceReport<ClientCaseName>;
    expect(report.target.kind).toBe("client");
    expect(report.probe.status).toBe("v2");
    const why = report.cases.map((c) => `${c.name}: ${c.status}: ${c.reason}`).join("\n");
    expect(failed(report), why).toEqual([]);
    // Only the unkeyed case has nothing to judge: demo-client keys every prompt.
    expect(report.cases.filter((c) => c.status === "skip").map((c) => c.name)).toEqual([
      "unkeyed-not-resent",
    ]);
    expect(report.summary.exitStatus).toBe(0);
    for (const c of report.cases) expect(c.traceFile && existsSync(c.traceFile)).toBe(true);
    const t = JSON.parse(readFileSync(tck, "utf8")) as TckReport;
    expect(t.requirements.map((r) => r.id).every((id) => id.startsWith("client."))).toBe(true);
    expect(t.requirements.find((r) => r.id === "client.retry.same-key")?.tests).toHaveLength(3);
    expect(t.verdict.conformant).toBe(true);
    const xml = readFileSync(junit, "utf8");
    expect(xml).toContain('classname="conformance-client" name="retry-same-key"');
    expect(xml).not.toContain("<failure");
  }, 150_000);

  it("passes demo-client as a user runs it (default timeout and pending file), twice side by side", async () => {
    // `conformance --client -- acp-retry-inspector demo-client --prompt 'deploy it' -- {agent}`: the
    // client's own 30 s attempt timeout, its pending file in the per-user data folder. Two suites at
    // once load the machine; each run has its own HOME, so nothing one run leaves pending is resent
    // by the next, and the dropped answer's run waits past the client's timeout.
    const once = async () => {
      const out = dir();
      const { stdout } = await run(
        process.execPath,
        [
          cliPath(),
          "conformance",
          "--client",
          "--json",
          "--quiet",
          "--traces-dir",
          join(out, "traces"),
          "--",
          process.execPath,
          cliPath(),
          "demo-client",
          "--prompt",
          "deploy it",
          "--",
          "{agent}",
        ],
        { timeout: 170_000 },
      );
      return { traces: join(out, "traces"), report: JSON.parse(stdout) as ConformanceReport<ClientCaseName> };
    };
    const both = await Promise.all([once(), once()]);
    for (const { traces, report } of both) {
      const why = report.cases.map((c) => `${c.name}: ${c.status}: ${c.reason}`).join("\n");
      expect(failed(report), why).toEqual([]);
      expect(report.summary.exitStatus, why).toBe(0);
      const resend = report.cases.find((c) => c.name === "resend-lost-answer");
      expect(resend?.status, why).toBe("pass");
      // A skip in the dropped answer's run says how long the suite waited, and why that long.
      const unkeyed = report.cases.find((c) => c.name === "unkeyed-not-resent");
      expect(unkeyed?.reason).toMatch(
        /the suite waited \d+ ms for the client, and it ended by itself; it waits up to 50000 ms: its attempt timeout, taken as 30000 ms/,
      );
      // Each run kept its pending file in its own HOME.
      for (const r of ["plain", "lost-answer", "restart"])
        expect(
          existsSync(
            join(traces, r, "home", ".local", "share", "acp-retry-inspector", "demo-client", "pending.json"),
          ),
          r,
        ).toBe(true);
    }
  }, 180_000);

  const modes: [string, readonly string[], readonly ClientCaseName[]][] = [
    [
      "new-key-on-retry",
      ["--misbehave", "new-key-on-retry"],
      ["reconnect-same-key", "restart-same-key", "retry-same-key"],
    ],
    [
      "no-retry",
      ["--misbehave", "no-retry"],
      ["resend-lost-answer", "resume-after-disconnect", "resume-after-restart"],
    ],
    ["reuse-key", ["--misbehave", "reuse-key"], ["key-same-prompt", "new-key-same-text"]],
    ["bad-key", ["--misbehave", "bad-key"], ["key-length"]],
    ["no-resume", ["--misbehave", "no-resume"], ["resume-after-disconnect", "resume-after-restart"]],
    ["resend-session-new", ["--misbehave", "resend-session-new"], ["session-new-not-resent"]],
    ["--no-key", ["--no-key"], ["unkeyed-not-resent"]],
  ];
  for (const [name, extra, expected] of modes) {
    it(`${name} fails exactly ${expected.join(", ")}`, async () => {
      const report = await suite(extra);
      expect(report.probe.status).toBe("v2");
      const why = report.cases.map((c) => `${c.name}: ${c.status}: ${c.reason}`).join("\n");
      expect(failed(report), why).toEqual([...expected].sort());
      for (const c of report.cases.filter((x) => x.status === "fail")) {
        // The reason names the broken requirement and the frames (conn, id, seq) that broke it.
        expect(c.reason).toMatch(/\[breaks client\.[a-z.-]+: .*; frames #\d+ id \S+ \(seq \d+/);
        expect(c.outcomes[0]?.frames?.length).toBeGreaterThan(0);
      }
      const mandatory = report.cases.some((c) => c.status === "fail" && c.required);
      expect(report.summary.exitStatus).toBe(mandatory ? 1 : 0);
    }, 150_000);
  }

  it("refuses a client command without {agent} (usage error, nothing run)", async () => {
    const err = await run(process.execPath, [
      cliPath(),
      "conformance",
      "--client",
      "--",
      "some-client",
      "hi",
    ]).catch((e: { code: number; stderr: string }) => e);
    expect((err as { code: number }).code).toBe(2);
    expect((err as { stderr: string }).stderr).toContain("has no {agent}");
  });

  it("reports a client that cannot be started once, with the cause, and runs no case", async () => {
    const err = await run(
      process.execPath,
      [
        cliPath(),
        "conformance",
        "--client",
        "--quiet",
        "--traces-dir",
        join(dir(), "t"),
        "--",
        "/nonexistent/client",
        "{agent}",
      ],
      { timeout: 60_000 },
    ).catch((e: { code: number; stdout: string }) => e);
    expect((err as { code: number }).code).toBe(1);
    expect((err as { stdout: string }).stdout).toContain("CLIENT DID NOT REACH THE AGENT");
    expect((err as { stdout: string }).stdout).toContain("command not found (ENOENT)");
  }, 60_000);

  it.runIf(existsSync(ACPX))(
    "reports acpx 0.19.1 (a v1 client) as v2 not supported, exit 3",
    async () => {
      const err = await run(
        process.execPath,
        [
          cliPath(),
          "conformance",
          "--client",
          "--json",
          "--quiet",
          "--traces-dir",
          join(dir(), "t"),
          "--",
          ACPX,
          "--format",
          "quiet",
          "--timeout",
          "20",
          "--agent={agent}",
          "exec",
          "hello",
        ],
        { timeout: 90_000 },
      ).catch((e: { code: number; stdout: string }) => e);
      expect((err as { code: number }).code).toBe(3);
      const report = JSON.parse((err as { stdout: string }).stdout) as ConformanceReport<ClientCaseName>;
      expect(report.probe.status).toBe("not-v2");
      expect(report.probe.protocolVersion).toBe(1);
      expect(report.probe.info?.name).toBe("acpx");
      expect(report.cases.every((c) => c.status === "not-run")).toBe(true);
    },
    90_000,
  );
});
