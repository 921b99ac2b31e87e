/**
 * The page's schema check of an imported trace (page-schema-check.ts) against the CLI's `validate
 * --json` on the same trace file, run as a real process: the same frames reported with the same
 * violations (v1 and v2 connections, a 256-code-point key, an answer without its v2 messageId).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliPath } from "../../../electron/tools/testing/cli.js";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import { checkRecordsInPage, GrowingSchemaCheck } from "./page-schema-check.js";

const dir = mkdtempSync(join(tmpdir(), "acp-ri-page-schema-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Connection 1 speaks v1, connection 2 v2; each has frames that break its schema and frames that do not. */
function trace(): TraceScript {
  return new TraceScript()
    .open(1)
    .request(1, "client->agent", 0, "initialize", { protocolVersion: 1, clientCapabilities: {} })
    .result(1, "agent->client", 0, { protocolVersion: 1, agentCapabilities: {} })
    .prompt(1, 1, "s1", "v1 prompt")
    .result(1, "agent->client", 1, { stopReason: "sleepy" })
    .open(2)
    .request(2, "client->agent", 0, "initialize", {
      protocolVersion: 2,
      capabilities: {},
      info: { name: "c", version: "1" },
    })
    .result(2, "agent->client", 0, {
      protocolVersion: 2,
      capabilities: {},
      info: { name: "a", version: "1" },
    })
    .prompt(2, 1, "s2", "key of 255", "😀".repeat(255))
    .inserted(2, 1, "m1")
    .prompt(2, 2, "s2", "key of 256", "😀".repeat(256))
    .result(2, "agent->client", 2, { stopReason: "end_turn" });
}

describe("the page's schema check", () => {
  it("reports what the CLI's validate reports on the same trace", async () => {
    const t = trace();
    const file = join(dir, "t.trace.jsonl");
    writeFileSync(file, t.jsonl());
    const r = spawnSync(process.execPath, [cliPath(), "validate", "--json", file], {
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(r.status).toBe(1);
    const cli = JSON.parse(r.stdout).files[0].reports;
    const page = await checkRecordsInPage(t.records, () => true);
    expect(page).toEqual(cli);
    const broken = (page ?? []).filter((x) => x.violations.length > 0).map((x) => x.seq);
    // v1 stopReason "sleepy"; the 256-code-point key; the v2 answer without messageId
    expect(broken).toHaveLength(3);
    expect(JSON.stringify(page)).toContain("/params/idempotencyKey");
  });

  it("stops when the trace is no longer wanted", async () => {
    const many = new TraceScript().open(1);
    for (let i = 0; i < 5000; i++) many.prompt(1, i, "s", "p");
    let calls = 0;
    expect(await checkRecordsInPage(many.records, () => ++calls < 2)).toBeNull();
  });

  it("checks a growing import once in all: each call feeds only the new records, with the same reports", async () => {
    const t = trace();
    for (let i = 3; i < 3000; i++) t.prompt(2, i, "s2", `p${i}`, `k-${i}`);
    const all = t.records;
    const growing = new GrowingSchemaCheck();
    const cuts = [5, 1200, all.length - 7, all.length];
    let last: unknown = null;
    for (const cut of cuts) last = await growing.checkNew(all.slice(0, cut), () => true);
    expect(last).toEqual(await checkRecordsInPage(all, () => true));
    expect(growing.ingested).toBe(all.length);
    // a trace that no longer starts where it did (a Clear) is checked again from its first record
    const cleared = all.slice(10);
    expect(await growing.checkNew(cleared, () => true)).toEqual(
      await checkRecordsInPage(cleared, () => true),
    );
    expect(growing.ingested).toBe(all.length + cleared.length);
  });
});
