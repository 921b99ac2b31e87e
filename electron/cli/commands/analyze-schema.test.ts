/**
 * `analyze`'s schema check through the built CLI: by default one "Schema check" line with the count
 * of frames that break the official ACP schema and how to list them; `--schema` lists each (seq,
 * direction, method, JSON path, what the schema says); `--no-schema` skips it; in --json "schema".
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import { cliPath } from "../../tools/testing/cli.js";

const dir = mkdtempSync(join(tmpdir(), "acp-ri-analyze-schema-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** v2: a prompt answered without the messageId v2 requires, and one keyed 256 code points long. */
const file = join(dir, "broken.trace.jsonl");
writeFileSync(
  file,
  new TraceScript()
    .open(1)
    .request(1, "client->agent", 0, "initialize", {
      protocolVersion: 2,
      capabilities: {},
      info: { name: "c", version: "1" },
    })
    .result(1, "agent->client", 0, {
      protocolVersion: 2,
      capabilities: {},
      info: { name: "a", version: "1" },
    })
    .prompt(1, 1, "s1", "one", "key-1")
    .result(1, "agent->client", 1, { stopReason: "end_turn" })
    .prompt(1, 2, "s1", "two", "😀".repeat(256))
    .inserted(1, 2, "m2")
    .jsonl(),
);

function analyze(...args: string[]) {
  const r = spawnSync(process.execPath, [cliPath(), "analyze", ...args, file], {
    encoding: "utf8",
    timeout: 30_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("analyze's schema check", () => {
  it("prints the count by default and says how to list the frames", () => {
    const r = analyze();
    expect(r.status).toBe(1); // the Agent accepted the over-long key: an RFD violation, not the schema check
    expect(r.stdout).toContain(
      "Schema check: 6 frames checked against the official ACP schema, 2 break it; list them with analyze --schema (or validate TRACE)",
    );
    expect(r.stdout).not.toContain("must have required property 'messageId'");
  });

  it("lists each frame with --schema: seq, direction, method, path and what the schema says", () => {
    const r = analyze("--schema");
    expect(r.status).toBe(1); // the Agent accepted the over-long key: an RFD violation, not the schema check
    expect(r.stdout).toContain(
      "#5 conn #1 agent->client session/prompt result (PromptResponse, v2 (+ RFD idempotencyKey))",
    );
    expect(r.stdout).toContain("✗ /result: must have required property 'messageId'");
    expect(r.stdout).toContain("#6 conn #1 client->agent session/prompt request");
    expect(r.stdout).toContain("✗ /params/idempotencyKey: must NOT have more than 255 characters");
  });

  it("skips the check with --no-schema", () => {
    const r = analyze("--no-schema");
    expect(r.status).toBe(1); // the Agent accepted the over-long key: an RFD violation, not the schema check
    expect(r.stdout).not.toContain("Schema check");
    expect(JSON.parse(analyze("--json", "--no-schema").stdout).schema).toBeUndefined();
  });

  it("puts the counts in --json, and the frames with --schema", () => {
    const counts = JSON.parse(analyze("--json").stdout).schema;
    expect(counts).toMatchObject({ checked: 6, framesWithViolations: 2, listed: false });
    expect(counts.frames).toBeUndefined();
    const listed = JSON.parse(analyze("--json", "--schema").stdout).schema;
    expect(listed.listed).toBe(true);
    expect(
      listed.frames
        .filter((f: { violations: unknown[] }) => f.violations.length > 0)
        .map((f: { seq: number }) => f.seq),
    ).toEqual([5, 6]);
  });
});
