/**
 * Issue 34 item 4: `acp-retry-inspector mcp` driven by the MCP SDK's own client over stdio, the
 * server being the built CLI in its own process. Its traces are real: the demo client through the
 * proxy to the demo agent, with a secret in the prompt. It answers only about the traces folder and
 * its command-line files, and nothing it says carries the secret.
 */
import { copyFileSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyze, demoAgent, demoClient, Scratch, tapped } from "../tap/testing/peers.js";
import { traceRecords } from "../tap/testing/proxy-run.js";
import { cliPath } from "../tools/testing/cli.js";

const SECRET = "hunter2-sk-live-4f9a";

let scratch: Scratch;
let client: Client;
let outside: string;
let onCommandLine: string;
const CORRECT = "20260102T000000Z-correct.jsonl";
const NAIVE = "20260103T000000Z-naive.jsonl";

/** Records one run into `trace`: the tap loses the first prompt's answer and retries it; waits for the trace's end. */
async function recordLostAndRetried(trace: string, agentArgs: readonly string[]): Promise<void> {
  await demoClient(scratch, [
    "--prompt",
    `deploy with the token ${SECRET}`,
    "--one-at-a-time",
    "--",
    ...tapped(trace, ["--fault", "lose-and-retry:method=session/prompt"], demoAgent(scratch, ...agentArgs)),
  ]);
  // The client can exit before its proxy child wrote the agent's exit.
  for (let i = 0; i < 200; i++) {
    if ((await traceRecords(trace).catch(() => [])).some((r) => r.type === "agent-exit")) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${trace}: the tap never recorded its agent's exit`);
}

beforeAll(async () => {
  scratch = new Scratch();
  const folder = scratch.path("traces");
  mkdirSync(folder);
  const recorded = join(folder, "20260101T000000Z-1.jsonl");
  await demoClient(scratch, [
    "--prompt",
    `deploy with the token ${SECRET}`,
    "--",
    ...tapped(recorded, [], demoAgent(scratch)),
  ]);
  mkdirSync(scratch.path("elsewhere"));
  onCommandLine = scratch.path("elsewhere/given.jsonl");
  outside = scratch.path("elsewhere/not-given.jsonl");
  copyFileSync(recorded, onCommandLine);
  copyFileSync(recorded, outside);
  // A link in the traces folder to a file outside it is not one of the folder's traces.
  symlinkSync(outside, join(folder, "link.jsonl"));
  // The same session against the correct agent, then against one that inserts a retried prompt again.
  await recordLostAndRetried(join(folder, CORRECT), []);
  await recordLostAndRetried(join(folder, NAIVE), ["--mode", "naive"]);

  const env = { ...scratch.env, ACP_RETRY_INSPECTOR_TRACE_DIR: folder } as Record<string, string>;
  client = new Client({ name: "mcp-test", version: "1.0.0" });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [cliPath(), "mcp", onCommandLine],
      env,
      stderr: "pipe",
    }),
  );
}, 180_000);

afterAll(async () => {
  await client?.close();
  scratch?.cleanup();
});

/** A tool's text answer, and whether it is an error. */
async function call(name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as {
    content: { type: string; text: string }[];
    isError?: boolean;
  };
  const text = result.content.map((c) => c.text).join("");
  // Nothing the server says carries the prompt's secret.
  expect(text).not.toContain(SECRET);
  return { text, isError: result.isError === true, json: () => JSON.parse(text) };
}

describe("acp-retry-inspector mcp", () => {
  it("offers the read-only tools", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([
      "diff_traces",
      "get_submission",
      "list_traces",
      "list_violations",
      "search",
      "summarize_trace",
    ]);
    for (const t of tools) expect(t.annotations?.readOnlyHint, t.name).toBe(true);
  });

  it("lists the traces folder's files and the command line's, not a link out of the folder", async () => {
    const listed = (await call("list_traces")).json();
    expect(listed.traces.map((t: { name: string; source: string }) => [t.name, t.source])).toEqual([
      [onCommandLine, "command-line"],
      [NAIVE, "traces-folder"],
      [CORRECT, "traces-folder"],
      ["20260101T000000Z-1.jsonl", "traces-folder"],
    ]);
  });

  it("summarises a trace redacted, with the same verdicts analyze finds", async () => {
    const summary = (await call("summarize_trace", { trace: "20260101T000000Z-1.jsonl" })).json();
    expect(summary.header.redacted).toBe(true);
    expect(summary.submissions).toBe(2);
    expect(summary.firstSubmissions).toHaveLength(2);
    expect(summary.firstSubmissions[0]).toMatchObject({ keyStatus: "valid", attempts: 1 });
    expect(summary.schemaViolations).toMatch(/list_violations/);
    // analyze on the unredacted file: redaction keeps every verdict.
    const model = await analyze(scratch, onCommandLine);
    const counted = Object.fromEntries(Object.entries(model.verdictCounts).filter(([, n]) => n > 0));
    expect(summary.verdictCounts).toEqual(counted);
    expect(summary.submissions).toBe(model.submissions.length);
  });

  it("returns a submission with its attempts and redacted frames, by id and by key", async () => {
    const summary = (await call("summarize_trace", { trace: "20260101T000000Z-1.jsonl" })).json();
    const second = summary.firstSubmissions[1];
    const byId = (await call("get_submission", { trace: "20260101T000000Z-1.jsonl", id: second.id })).json();
    const byKey = (
      await call("get_submission", { trace: "20260101T000000Z-1.jsonl", key: second.key })
    ).json();
    expect(byKey).toEqual(byId);
    const frames = byId.submission.attempts[0].frames as { raw: string; dir: string }[];
    expect(frames.length).toBeGreaterThanOrEqual(2);
    const request = frames.find((f) => f.raw.includes('"session/prompt"'));
    expect(request?.raw).toContain(second.key);
    expect(request?.raw).toMatch(/redacted/i);
    const missing = await call("get_submission", { trace: "20260101T000000Z-1.jsonl", id: 999_999 });
    expect(missing).toMatchObject({
      isError: true,
      text: expect.stringContaining("no submission with id 999999"),
    });
  });

  it("searches with the app's filter syntax, in the redacted text only", async () => {
    const trace = "20260101T000000Z-1.jsonl";
    const prompts = (await call("search", { trace, query: "method:session/prompt" })).json();
    expect(prompts.matches).toBe(2);
    expect(prompts.rows.every((r: { kind: string }) => r.kind === "submission")).toBe(true);
    const notPrompts = (await call("search", { trace, query: "-method:session/prompt" })).json();
    expect(notPrompts.rows.map((r: { method: string }) => r.method)).toContain("initialize");
    expect((await call("search", { trace, query: SECRET.slice(0, 12) })).json().matches).toBe(0);
    const bad = await call("search", { trace, query: "methd:session/prompt" });
    expect(bad.isError).toBe(true);
  });

  it("lists schema violations: none on the reference peers' trace, the v2 schema's RFD extension said", async () => {
    const clean = (await call("list_violations", { trace: "20260101T000000Z-1.jsonl" })).json();
    expect(clean.summary.framesWithViolations).toBe(0);
    expect(clean.summary.checked).toBeGreaterThan(4);
    expect(clean.frames).toEqual([]);
    expect(clean.summary.notes.join(" ")).toContain("idempotencyKey");
    const marked = (
      await call("list_violations", { trace: "20260101T000000Z-1.jsonl", extensions: true })
    ).json();
    expect(marked.frames.length).toBe(marked.summary.framesWithExtensions);
    const refused = await call("list_violations", { trace: outside });
    expect(refused).toMatchObject({ isError: true, text: expect.stringContaining("no trace named") });
  });

  it("diffs two traces: the lost-and-retried key went from deduplicated to duplicate-insert, gate worse", async () => {
    const diff = (await call("diff_traces", { a: CORRECT, b: NAIVE })).json();
    expect(diff).toMatchObject({ a: CORRECT, b: NAIVE, gate: { failOn: "worse", verdict: "worse" } });
    expect(diff.totals.verdictsWorse).toBeGreaterThanOrEqual(1);
    // Both prompts pair (redacted by one redactor, equal prompts have one placeholder in both traces).
    expect(diff.totals).toMatchObject({ matchedByPosition: 2, onlyA: 0, onlyB: 0 });
    type Row = { a: { verdicts: { name: string }[] }; b: { verdicts: { name: string }[] }; mark: string };
    const broken = (diff.submissions as Row[]).find(
      (s) =>
        s.a?.verdicts.some((v) => v.name === "deduplicated") &&
        s.b?.verdicts.some((v) => v.name === "duplicate-insert"),
    );
    expect(broken?.mark).toBe("worse");
    // The prompts are the redacted previews (the call helper checks the secret is nowhere).
    expect(JSON.stringify(diff.submissions)).toMatch(/redacted/i);
    // The same trace twice: nothing got worse.
    const same = (await call("diff_traces", { a: CORRECT, b: CORRECT })).json();
    expect(same.gate.verdict).toBe("same");
    expect(same.totals.verdictsWorse).toBe(0);
    // A bounded listing says what it left off.
    const one = (await call("diff_traces", { a: CORRECT, b: NAIVE, limit: 1 })).json();
    expect(one.submissions).toHaveLength(1);
    expect(one.submissionsLeftOff).toBe(diff.submissions.length - 1);
  });

  it("refuses a diff with a trace it was not given, on either side", async () => {
    for (const [a, b] of [
      [CORRECT, outside],
      [outside, NAIVE],
      [CORRECT, "../elsewhere/not-given.jsonl"],
      ["link.jsonl", NAIVE],
    ]) {
      const answer = await call("diff_traces", { a, b });
      expect(answer, `${a} ${b}`).toMatchObject({
        isError: true,
        text: expect.stringContaining("no trace named"),
      });
    }
    // A command-line file is one it may read.
    expect((await call("diff_traces", { a: onCommandLine, b: NAIVE })).isError).toBe(false);
  });

  it("refuses every trace it was not given: a path outside, a relative escape, a link, a made-up name", async () => {
    for (const name of [outside, "../elsewhere/not-given.jsonl", "link.jsonl", "nope.jsonl", "/etc/passwd"]) {
      const answer = await call("summarize_trace", { trace: name });
      expect(answer, name).toMatchObject({ isError: true, text: expect.stringContaining("no trace named") });
    }
  });
});
