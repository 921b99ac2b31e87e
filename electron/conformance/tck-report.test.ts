import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { REQUIREMENTS } from "../../shared/conformance/requirement-catalogue.js";
import type { TckReport } from "../../shared/conformance/tck-report.js";
import { cliPath } from "../tools/testing/cli.js";
import { demoAgentCommand, STUB_AGENT, tempDir } from "./testing/conformance-fixtures.js";

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

/** Runs the CLI with --tck-json and --junit; returns the TCK report, the JUnit text and the exit code. */
async function tckRun(
  agent: readonly string[],
  only?: string,
): Promise<{ tck: TckReport; xml: string; code: number | null }> {
  const out = tempDir("tck");
  const { code } = await runCli([
    "--quiet",
    "--traces-dir",
    `${out}/traces`,
    "--tck-json",
    `${out}/tck.json`,
    "--junit",
    `${out}/junit.xml`,
    "--case-timeout-ms",
    "60000",
    ...(only ? ["--only", only] : []),
    "--",
    ...agent,
  ]);
  return {
    tck: JSON.parse(readFileSync(`${out}/tck.json`, "utf8")) as TckReport,
    xml: readFileSync(`${out}/junit.xml`, "utf8"),
    code,
  };
}

function statusOf(tck: TckReport): Record<string, string> {
  return Object.fromEntries(tck.requirements.map((r) => [r.id, r.status]));
}

const SORTED_IDS = REQUIREMENTS.map((r) => r.id).sort();

describe("--tck-json writes acp-tck's report shape, from real runs", () => {
  test("the naive demo agent: failing requirements carry a transcript of the frames that broke them", async () => {
    const { tck, xml, code } = await tckRun(
      demoAgentCommand("naive"),
      "key-validation,retry-same-connection,different-prompt",
    );
    expect(code).toBe(1);
    expect(Object.keys(tck).sort()).toEqual(
      [
        "agent_capabilities",
        "agent_command",
        "agent_info",
        "finished_at",
        "protocol_version",
        "requirements",
        "schema_revision",
        "started_at",
        "tck_version",
        "verdict",
      ].sort(),
    );
    expect(tck.protocol_version).toBe(2);
    expect(tck.agent_info?.name).toBe("acp-retry-inspector-demo-agent");
    expect(tck.requirements.map((r) => r.id)).toEqual(SORTED_IDS);
    for (const r of tck.requirements) {
      expect(Object.keys(r).sort()).toEqual([
        "capability",
        "citation",
        "id",
        "status",
        "tests",
        "text",
        "tier",
      ]);
      expect(["MANDATORY", "ADVISORY", "INFORMATIONAL"]).toContain(r.tier);
    }
    const s = statusOf(tck);
    for (const id of ["empty", "too-long", "number", "object"])
      expect(s[`idem.key-validation.${id}`]).toBe("FAIL");
    expect(s["idem.key-validation.max-length"]).toBe("PASS");
    expect(s["idem.key-validation.null"]).toBe("PASS");
    expect(s["idem.retry.original-message-id"]).toBe("FAIL");
    // Cases not selected: their requirements were never exercised.
    expect(s["idem.cancel.withdraws-all"]).toBe("NOT_TESTED");
    expect(s["idem.reuse.different-prompt"]).toBe("FAIL");
    expect(tck.requirements.find((r) => r.id === "idem.reuse.different-prompt")?.tier).toBe("INFORMATIONAL");

    const empty = tck.requirements.find((r) => r.id === "idem.key-validation.empty");
    const [outcome] = empty?.tests ?? [];
    expect(outcome).toMatchObject({
      nodeid: "acp-retry-inspector::conformance::key-validation",
      status: "FAIL",
      message: expect.stringMatching(
        /^the prompt with an empty key was answered with messageId .*, expected error -32602/,
      ),
      properties: { case: "key-validation", trace_file: expect.stringMatching(/key-validation\.jsonl$/) },
      stderr: null,
    });
    // The transcript: the request with the empty key, and the agent's answer, verbatim from the trace.
    expect(outcome?.transcript?.map((e) => e.dir)).toEqual(["sent", "received"]);
    const [sent, received] = (outcome?.transcript ?? []).map((e) => JSON.parse(e.raw));
    expect(sent).toMatchObject({ method: "session/prompt", params: { idempotencyKey: "" } });
    expect(received).toMatchObject({ id: sent.id, result: { messageId: expect.any(String) } });
    // Passing outcomes carry no transcript.
    expect(
      tck.requirements.find((r) => r.id === "idem.key-validation.null")?.tests[0]?.transcript,
    ).toBeNull();

    expect(tck.verdict.conformant).toBe(false);
    expect(tck.verdict.blocked_by_version_mismatch).toBe(false);
    const counted = Object.values(tck.verdict.tier_counts).flatMap((byStatus) => Object.values(byStatus));
    expect(counted.reduce((a, b) => a + b, 0)).toBe(REQUIREMENTS.length);
    expect(tck.verdict.tier_counts.MANDATORY.FAIL).toBe(5);
    // JUnit keeps working beside it.
    expect(xml.match(/<testcase /g)).toHaveLength(3);
    expect(xml).toContain('failures="2"');
  }, 240_000);

  test("the correct demo agent: every requirement passes and the verdict is conformant", async () => {
    const { tck, code } = await tckRun(demoAgentCommand("correct"));
    expect(code).toBe(0);
    expect(Object.values(statusOf(tck))).toEqual(SORTED_IDS.map(() => "PASS"));
    expect(tck.verdict.conformant).toBe(true);
    expect(tck.requirements.flatMap((r) => r.tests).every((t) => t.transcript === null)).toBe(true);
    // A requirement bound to several cases lists each as a test.
    const once = tck.requirements.find((r) => r.id === "idem.insert.once");
    expect(once?.tests.map((t) => t.properties.case).sort()).toEqual(
      [
        "key-validation",
        "retry-after-restart",
        "retry-after-resume",
        "retry-during-active-work",
        "retry-same-connection",
        "retry-while-held",
      ].sort(),
    );
  }, 240_000);

  test("a v1 agent: nothing tested, blocked by a version mismatch", async () => {
    const { tck, code } = await tckRun([process.execPath, STUB_AGENT, "v1"]);
    expect(code).toBe(3);
    expect(new Set(Object.values(statusOf(tck)))).toEqual(new Set(["NOT_TESTED"]));
    expect(tck.verdict).toMatchObject({ conformant: false, blocked_by_version_mismatch: true });
  }, 120_000);
});
