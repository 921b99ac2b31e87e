import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliPath } from "../../tools/testing/cli.js";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "acp-ri-validate-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const trace = join(dir, "demo.trace.jsonl");

function validate(...args: string[]) {
  const r = spawnSync(process.execPath, [cliPath(), "validate", ...args], {
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

// A trace recorded by the real tap between the reference client and agent (v2, keyed prompts).
beforeAll(async () => {
  const cli = cliPath();
  await run(
    process.execPath,
    [
      cli,
      "demo-client",
      "--quiet",
      "--pending",
      join(dir, "pending.json"),
      "--prompt",
      "one",
      "--",
      process.execPath,
      cli,
      "proxy",
      "--trace",
      trace,
      "--",
      process.execPath,
      cli,
      "demo-agent",
      "--store",
      join(dir, "store"),
    ],
    { timeout: 30_000 },
  );
}, 40_000);

describe("validate", () => {
  it("passes a trace of the reference peers through the real tap (exit 0) and says the v2 schema was extended", () => {
    const r = validate(trace);
    expect(r.stderr).toBe("");
    expect(r.stdout).toMatch(/: \d+ frames checked, 0 break the schema/);
    expect(r.stdout).toContain("idempotencyKey");
    expect(r.status).toBe(0);
  });

  it("exits 1 on a copy whose prompt answer lost its messageId, naming the frame, path and rule", () => {
    const lines = readFileSync(trace, "utf8").split("\n");
    let broken = -1;
    const out = lines.map((line) => {
      if (broken >= 0 || !line.includes('\\"messageId\\"') || !line.includes('\\"result\\"')) return line;
      const rec = JSON.parse(line) as { raw: string; seq: number };
      const msg = JSON.parse(rec.raw) as { result?: Record<string, unknown> };
      if (!msg.result || !("messageId" in msg.result) || "sessionUpdate" in msg.result) return line;
      delete msg.result.messageId;
      broken = rec.seq;
      return JSON.stringify({ ...rec, raw: JSON.stringify(msg) });
    });
    expect(broken).toBeGreaterThan(0);
    const bad = join(dir, "broken.trace.jsonl");
    writeFileSync(bad, out.join("\n"));
    const r = validate(bad, trace);
    expect(r.status).toBe(1);
    expect(r.stdout).toContain(
      `#${broken} conn #1 agent->client session/prompt result (PromptResponse, v2 (+ RFD idempotencyKey))`,
    );
    expect(r.stdout).toContain("✗ /result: must have required property 'messageId'");
    const json = JSON.parse(validate("--json", bad).stdout) as {
      exitStatus: number;
      files: { reports: { seq: number; violations: { path: string; message: string }[] }[] }[];
    };
    expect(json.exitStatus).toBe(1);
    expect(json.files[0]?.reports.find((x) => x.seq === broken)?.violations).toContainEqual({
      path: "/result",
      message: "must have required property 'messageId'",
    });
    // analyze --schema lists the same frame, and its exit status stays about RFD verdicts only
    const analyzed = spawnSync(process.execPath, [cliPath(), "analyze", "--schema", bad], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(analyzed.stdout).toContain("Schema check: ");
    expect(analyzed.stdout).toContain(
      `#${broken} conn #1 agent->client session/prompt result (PromptResponse`,
    );
    const analyzedJson = JSON.parse(
      spawnSync(process.execPath, [cliPath(), "analyze", "--json", "--schema", bad], {
        encoding: "utf8",
        timeout: 30_000,
      }).stdout,
    ) as { schema: { framesWithViolations: number; frames: { seq: number }[] } };
    expect(analyzedJson.schema.framesWithViolations).toBe(1);
    expect(analyzedJson.schema.frames.map((f) => f.seq)).toContain(broken);
  });

  it("exits 2 on a usage error or an unreadable file", () => {
    expect(validate().status).toBe(2);
    expect(validate("--nope", trace).status).toBe(2);
    expect(validate(join(dir, "missing.jsonl")).status).toBe(2);
  });
});
