/**
 * Issue 11 item 4 end to end: retries made by the inspector (`retry`, `lose-and-retry`,
 * `restart-and-retry`), through a real proxy between real reference peers, with clients that never
 * retry, judged by the real analyzer.
 */

import type { ChildProcess } from "node:child_process";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Attempt, Submission } from "../../../shared/analyzer/timeline-model.js";
import type { FrameRecord, NoteRecord, TraceRecord } from "../../../shared/trace/record.js";
import { cliPath } from "../../tools/testing/cli.js";
import { analyze, demoAgent, demoClient, exited, Scratch, startHub } from "../testing/peers.js";
import { traceRecords, within } from "../testing/proxy-run.js";
import { RETRY_ID_PREFIX } from "./inspector-retry.js";

const run = promisify(execFile);

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.cleanup());

/** `proxy --trace T [--no-hub] --fault ... -- demo-agent ...` as an agent command line. */
function proxied(trace: string, faults: string[], agentArgs: string[], hub = false): string[] {
  return [
    process.execPath,
    cliPath(),
    "proxy",
    ...(hub ? [] : ["--no-hub"]),
    "--trace",
    trace,
    ...faults.flatMap((f) => ["--fault", f]),
    "--",
    ...demoAgent(scratch, ...agentArgs),
  ];
}

/** The demo client with no retries of its own: one attempt per submission, waiting up to 20 s. */
function neverRetries(extra: string[] = []): string[] {
  return ["--retries", "0", "--timeout", "20000", "--no-wait-idle", ...extra, "--"];
}

function only(submissions: readonly Submission[]): Submission {
  expect(submissions).toHaveLength(1);
  return submissions[0] as Submission;
}

const frames = (records: TraceRecord[]) => records.filter((r): r is FrameRecord => r.type === "frame");
const verdicts = (s: Submission) => s.verdicts.map((v) => v.name);
const droppedAnswerId = (a: Attempt | undefined) =>
  a?.outcome.kind === "dropped" && a.outcome.answer?.kind === "inserted" ? a.outcome.answer.messageId : null;

/** A JSON-RPC client speaking raw lines to a spawned proxy: every byte it gets is kept. */
class RawClient {
  readonly lines: string[] = [];
  private buf = "";
  private watchers: (() => void)[] = [];
  private nextId = 1;

  constructor(readonly child: ChildProcess) {
    child.stdout?.on("data", (d: Buffer) => {
      this.buf += d.toString("utf8");
      let nl = this.buf.indexOf("\n");
      while (nl >= 0) {
        this.lines.push(this.buf.slice(0, nl));
        this.buf = this.buf.slice(nl + 1);
        nl = this.buf.indexOf("\n");
      }
      for (const w of this.watchers) w();
    });
  }

  send(method: string, params: unknown): number {
    const id = this.nextId++;
    this.child.stdin?.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return id;
  }

  /** Every message received that answers `id`. */
  answers(id: number): Record<string, unknown>[] {
    return this.lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((m) => m.id === id && !("method" in m));
  }

  until(pred: () => boolean, what: string, ms = 20_000): Promise<void> {
    if (pred()) return Promise.resolve();
    return within(
      new Promise<void>((resolve) => {
        const w = () => {
          if (!pred()) return;
          this.watchers = this.watchers.filter((x) => x !== w);
          resolve();
        };
        this.watchers.push(w);
      }),
      ms,
      what,
    );
  }

  async call(method: string, params: unknown): Promise<Record<string, unknown>> {
    const id = this.send(method, params);
    await this.until(() => this.answers(id).length > 0, method);
    return this.answers(id)[0] as Record<string, unknown>;
  }

  async open(cwd: string): Promise<string> {
    await this.call("initialize", {
      protocolVersion: 2,
      info: { name: "raw", version: "1" },
      capabilities: {},
    });
    const r = await this.call("session/new", { cwd });
    return (r.result as { sessionId: string }).sessionId;
  }

  /** Counts `session/update` state_update idle notifications received so far. */
  idles(): number {
    return this.lines.filter((l) => l.includes('"state_update"') && l.includes('"idle"')).length;
  }
}

/** What the client should have received: every agent->client frame the tap forwarded, in order. */
function forwardedToClient(records: TraceRecord[]): string[] {
  return frames(records)
    .filter(
      (f) => f.dir === "agent->client" && !f.dropped && (f.origin === undefined || f.replaces !== undefined),
    )
    .map((f) => f.raw);
}

describe("lose-and-retry, with a client that never retries", { timeout: 90_000 }, () => {
  it.each([
    ["correct", "deduplicated", 1],
    ["naive", "duplicate-insert", 2],
  ] as const)(
    "%s agent: the client gets one answer under its own id; the analyzer says %s",
    async (mode, verdict, inserts) => {
      const trace = scratch.path(`lose-${mode}.jsonl`);
      const report = await demoClient(scratch, [
        ...neverRetries(),
        ...proxied(trace, ["lose-and-retry"], ["--mode", mode, "--turn-ms", "100"]),
      ]);
      expect(report.ok).toBe(true);
      const seen = report.submissions[0];
      expect(seen?.attempts).toHaveLength(1); // the client sent one request and got one answer
      const model = await analyze(scratch, trace);
      const s = only(model.submissions);
      expect(s.attempts.map((a) => a.origin ?? "client")).toEqual(["client", "inspector"]);
      expect(s.attempts[0]?.id).toBe(seen?.attempts[0]?.requestId);
      expect(String(s.attempts[1]?.id)).toMatch(new RegExp(`^${RETRY_ID_PREFIX}\\d+$`));
      expect(s.attempts[1]?.forwarded).toBe(true);
      expect(s.inserts).toBe(inserts);
      expect(verdicts(s)).toContain(verdict);
      const original = droppedAnswerId(s.attempts[0]);
      if (mode === "correct")
        expect(seen?.messageId).toBe(original); // the original messageId
      else expect(seen?.messageId).not.toBe(original);

      const records = await traceRecords(trace);
      const retry = frames(records).find((f) => f.origin === "inspector" && f.dir === "client->agent");
      const clientPrompt = frames(records).find((f) => f.seq === s.attempts[0]?.requestSeq);
      expect(retry).toMatchObject({ replaces: s.attempts[0]?.id, copyOf: clientPrompt?.seq });
      // The resent request is the client's bytes with only the id changed.
      expect(retry?.raw).toBe(
        clientPrompt?.raw.replace(
          `"id":${JSON.stringify(s.attempts[0]?.id)}`,
          `"id":${JSON.stringify(s.attempts[1]?.id)}`,
        ),
      );
      const rewritten = frames(records).find((f) => f.dir === "agent->client" && f.replaces !== undefined);
      expect(rewritten).toMatchObject({ origin: "inspector", replaces: s.attempts[1]?.id });
      expect(JSON.parse(rewritten?.raw ?? "{}").id).toBe(s.attempts[0]?.id);
    },
  );

  it("raw client: exactly one answer to the prompt, and every byte the client got is in the trace as forwarded", async () => {
    const trace = scratch.path("lose-raw.jsonl");
    const [cmd, ...args] = proxied(trace, ["lose-and-retry"], ["--turn-ms", "100"]);
    const child = scratch.spawnCli(args.slice(1));
    expect(cmd).toBe(process.execPath);
    const client = new RawClient(child);
    const sessionId = await client.open(scratch.dir);
    const key = "k-raw-1";
    const answer = await client.call("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "deploy it" }],
      idempotencyKey: key,
    });
    await client.until(() => client.idles() >= 1, "the turn to end");
    child.stdin?.end();
    await within(exited(child), 15_000, "the proxy to exit");
    expect(client.answers(3)).toHaveLength(1);
    const records = await traceRecords(trace);
    expect(client.lines).toEqual(forwardedToClient(records));
    const model = await analyze(scratch, trace);
    const s = only(model.submissions);
    expect((answer.result as { messageId: string }).messageId).toBe(droppedAnswerId(s.attempts[0]));
    expect(verdicts(s)).toEqual(["deduplicated"]);
  });

  it("unkeyed prompt: the retry still runs; the trace and analyze say a correct agent inserts it again", async () => {
    const trace = scratch.path("lose-unkeyed.jsonl");
    const report = await demoClient(scratch, [
      ...neverRetries(["--no-key"]),
      ...proxied(trace, ["lose-and-retry"], ["--turn-ms", "100"]),
    ]);
    expect(report.ok).toBe(true);
    expect(report.submissions[0]?.attempts).toHaveLength(1);
    const model = await analyze(scratch, trace);
    const s = only(model.submissions); // the inspector's copy joins the client's unkeyed submission
    expect(s.keyStatus).toBe("absent");
    expect(s.attempts.map((a) => a.origin ?? "client")).toEqual(["client", "inspector"]);
    expect(s.inserts).toBe(2);
    expect(verdicts(s)).not.toContain("unkeyed-resend"); // not the client's resend
    const records = await traceRecords(trace);
    const notes = records.filter((r): r is NoteRecord => r.type === "note");
    expect(
      notes.some(
        (n) => n.level === "warn" && /no idempotencyKey.*inserts the user message again/.test(n.text),
      ),
    ).toBe(true);
    const { stdout } = await run(process.execPath, [cliPath(), "analyze", trace], { env: scratch.env }).catch(
      (e: { stdout: string }) => e,
    );
    expect(stdout).toMatch(/retry by the inspector/);
    expect(stdout).toMatch(/has no valid key: .*inserts the user message again, even on a correct agent/);
  });
});

describe("restart-and-retry: RFD trace 3 with a client that has no retry logic", { timeout: 90_000 }, () => {
  it("demo-agent --store: one answer, deduplicated, two agent pids and a session/resume in the trace", async () => {
    const trace = scratch.path("restart-retry.jsonl");
    const report = await demoClient(scratch, [
      ...neverRetries(),
      ...proxied(trace, ["restart-and-retry"], ["--turn-ms", "100"]),
    ]);
    expect(report.ok).toBe(true);
    expect(report.connections).toBe(1);
    expect(report.submissions[0]?.attempts).toHaveLength(1);
    const records = await traceRecords(trace);
    const pids = records.flatMap((r) => (r.type === "agent-spawn" ? [r.pid] : []));
    expect(new Set(pids).size).toBe(2);
    expect(records.find((r) => r.type === "agent-exit")).toMatchObject({ signal: "SIGKILL" });
    const tapFrames = frames(records).filter((f) => f.origin === "tap" && f.dir === "client->agent");
    expect(tapFrames.map((f) => JSON.parse(f.raw).method)).toEqual(["initialize", "session/resume"]);
    expect(JSON.parse(tapFrames[1]?.raw ?? "{}").params.sessionId).toBe(report.sessionId);
    const model = await analyze(scratch, trace);
    const s = only(model.submissions);
    expect(s.attempts.map((a) => a.origin ?? "client")).toEqual(["client", "inspector"]);
    expect(s.attempts[1]?.outcome).toMatchObject({ kind: "inserted" }); // not -32002: the session was resumed
    expect(s.inserts).toBe(1);
    expect(verdicts(s)).toEqual(["deduplicated"]);
    expect(report.submissions[0]?.messageId).toBe(droppedAnswerId(s.attempts[0]));
  });

  it("a v1 session: the tap sends session/load (the agent advertises loadSession), and the resent prompt reaches the loaded session", async () => {
    const trace = scratch.path("restart-retry-v1.jsonl");
    const child = scratch.spawnCli(proxied(trace, ["restart-and-retry"], ["--turn-ms", "100"]).slice(2));
    const client = new RawClient(child);
    const init = await client.call("initialize", {
      protocolVersion: 1,
      clientCapabilities: {},
      clientInfo: { name: "raw-v1", version: "1" },
    });
    expect(init.result).toMatchObject({ protocolVersion: 1, agentCapabilities: { loadSession: true } });
    const created = await client.call("session/new", { cwd: scratch.dir, mcpServers: [] });
    const sessionId = (created.result as { sessionId: string }).sessionId;
    const answer = await client.call("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "deploy it (v1)" }],
    });
    // One answer, under the client's id, from the restarted agent: a stop reason, not -32002.
    expect(answer).toMatchObject({ id: 3, result: { stopReason: "end_turn" } });
    child.stdin?.end();
    await within(exited(child), 15_000, "the proxy to exit");
    expect(client.answers(3)).toHaveLength(1);
    const records = await traceRecords(trace);
    expect(new Set(records.flatMap((r) => (r.type === "agent-spawn" ? [r.pid] : []))).size).toBe(2);
    const tapSent = frames(records).filter((f) => f.origin === "tap" && f.dir === "client->agent");
    expect(tapSent.map((f) => JSON.parse(f.raw).method)).toEqual(["initialize", "session/load"]);
    const resent = frames(records).filter((f) => f.origin === "inspector" && f.dir === "client->agent");
    expect(resent.map((f) => JSON.parse(f.raw).method)).toEqual(["session/prompt"]);
    expect(JSON.parse(tapSent[0]?.raw ?? "{}").params.protocolVersion).toBe(1);
    expect(JSON.parse(tapSent[1]?.raw ?? "{}").params).toMatchObject({ sessionId, cwd: scratch.dir });
    // The load replayed the stored conversation to the tap (not forwarded): the client's first prompt.
    const replayed = frames(records).filter(
      (f) => f.origin === "tap" && f.dir === "agent->client" && f.raw.includes('"user_message_chunk"'),
    );
    expect(replayed.some((f) => f.raw.includes("deploy it (v1)"))).toBe(true);
    expect(records.some((r) => r.type === "note" && /cannot be given back/.test(r.text))).toBe(false);
    expect(client.lines).toEqual(forwardedToClient(records));
  });

  it("restart-agent resumes the client's open sessions, not only initialize", async () => {
    const trace = scratch.path("restart-agent.jsonl");
    const report = await demoClient(scratch, [
      "--timeout",
      "4000",
      "--no-wait-idle",
      "--",
      ...proxied(trace, ["restart-agent:method=session/prompt,on=response"], ["--turn-ms", "100"]),
    ]);
    expect(report.ok).toBe(true);
    const records = await traceRecords(trace);
    const tap = frames(records).filter((f) => f.origin === "tap");
    expect(tap.map((f) => [f.dir, JSON.parse(f.raw).method ?? "answer"])).toEqual([
      ["client->agent", "initialize"],
      ["agent->client", "answer"],
      ["client->agent", "session/resume"],
      ["agent->client", "session/update"], // the resume's state snapshot: the tap's, not forwarded
      ["agent->client", "answer"],
    ]);
    const model = await analyze(scratch, trace);
    const s = only(model.submissions);
    expect(s.attempts[1]?.outcome).toMatchObject({ kind: "inserted" });
    expect(verdicts(s)).toEqual(["deduplicated"]);
  });
});

describe("proxy --fault retry: each matching prompt is resent right after the client's", {
  timeout: 90_000,
}, () => {
  it("keyed: the client gets one answer, the inspector's copy gets the same messageId, deduplicated", async () => {
    const trace = scratch.path("retry-local.jsonl");
    const report = await demoClient(scratch, [
      ...neverRetries(),
      ...proxied(trace, ["retry"], ["--turn-ms", "100"]),
    ]);
    expect(report.ok).toBe(true);
    expect(report.submissions[0]?.attempts).toHaveLength(1);
    const model = await analyze(scratch, trace);
    const s = only(model.submissions);
    expect(s.attempts.map((a) => a.origin ?? "client")).toEqual(["client", "inspector"]);
    expect(s.attempts[1]?.forwarded).toBe(false);
    expect(s.attempts[1]?.outcome).toMatchObject({
      kind: "inserted",
      messageId: report.submissions[0]?.messageId,
    });
    expect(verdicts(s)).toEqual(["deduplicated"]);
    const records = await traceRecords(trace);
    expect(records.filter((r) => r.type === "fault")).toMatchObject([
      { action: "retry", ruleId: "cli-1", frameSeq: s.attempts[0]?.requestSeq },
    ]);
  });
});

/** Arms `retry` on the hub (with `args`) until the hub reports it reached the one proxy; its stdout and stderr. */
async function retryViaHub(args: string[]): Promise<{ stdout: string; stderr: string }> {
  for (let i = 0; i < 50; i++) {
    // Exit 1 ("no tap is attached") until the proxy has attached; then the rule is acknowledged by it.
    const out = await run(process.execPath, [cliPath(), "fault", "retry", ...args], {
      env: scratch.env,
    }).catch(() => null);
    if (out && /\btaps? /.test(out.stdout)) return out;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the proxy never attached to the hub");
}

describe("retry (immediate), armed on the hub", { timeout: 90_000 }, () => {
  it("while the original is held by a busy agent: one answer to the client, the retry's recorded, deduplicated", async () => {
    await startHub(scratch, scratch.path("hub-traces"));
    const trace = scratch.path("retry-held.jsonl");
    const args = proxied(trace, [], ["--turn-ms", "5000"], true);
    const child = scratch.spawnCli(args.slice(2));
    const client = new RawClient(child);
    const sessionId = await client.open(scratch.dir);
    const first = client.send("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "first" }],
      idempotencyKey: "k-first",
    });
    await client.until(() => client.answers(first).length === 1, "the first prompt's insert");
    const held = client.send("session/prompt", {
      sessionId,
      prompt: [{ type: "text", text: "second" }],
      idempotencyKey: "k-held",
    });
    const out = await retryViaHub(["--key", "k-held"]);
    expect(out.stdout).toMatch(/Resend the latest session\/prompt with key k-held now/);
    expect(out.stderr).not.toMatch(/idempotencyKey/); // a keyed retry needs no warning
    expect(client.answers(held)).toHaveLength(0); // still held when the retry went out
    await client.until(() => client.answers(held).length === 1, "the held prompt's insert");
    const idlesThen = client.idles();
    await client.until(() => client.idles() > idlesThen, "the held prompt's turn to end");
    child.stdin?.end();
    await within(exited(child), 15_000, "the proxy to exit");
    expect(client.answers(held)).toHaveLength(1);
    const model = await analyze(scratch, trace);
    const s = model.submissions.find((x) => x.key === "k-held") as Submission;
    expect(s.attempts.map((a) => a.origin ?? "client")).toEqual(["client", "inspector"]);
    expect(s.attempts[1]?.forwarded).toBe(false); // recorded, not forwarded: the client never asked
    expect(s.attempts[1]?.outcome).toMatchObject({ kind: "inserted", messageId: s.finalMessageId });
    expect(s.inserts).toBe(1);
    expect(verdicts(s)).toEqual(["deduplicated"]);
    const records = await traceRecords(trace);
    expect(records.filter((r) => r.type === "fault")).toMatchObject([
      { action: "retry", frameSeq: s.attempts[0]?.requestSeq },
    ]);
    const retryAnswer = frames(records).find((f) => f.seq === s.attempts[1]?.responseSeq);
    expect(retryAnswer).toMatchObject({ dir: "agent->client", origin: "inspector" });
    expect(retryAnswer?.replaces).toBeUndefined();
    expect(client.lines).toEqual(forwardedToClient(records));
  });

  it("unkeyed prompt: the retry inserts again on a correct agent, and fault says so before it is sent", async () => {
    await startHub(scratch, scratch.path("hub-traces"));
    const trace = scratch.path("retry-unkeyed.jsonl");
    const child = scratch.spawnCli(proxied(trace, [], ["--turn-ms", "100"], true).slice(2));
    const client = new RawClient(child);
    const sessionId = await client.open(scratch.dir);
    const id = client.send("session/prompt", { sessionId, prompt: [{ type: "text", text: "unkeyed" }] });
    await client.until(() => client.answers(id).length === 1 && client.idles() >= 1, "the prompt's turn");
    const { stderr } = await retryViaHub([]);
    expect(stderr).toMatch(
      /without an idempotencyKey.*inserts the user message again, even on a correct agent/,
    );
    await client.until(() => client.idles() >= 2, "the retry's turn");
    child.stdin?.end();
    await within(exited(child), 15_000, "the proxy to exit");
    const model = await analyze(scratch, trace);
    const s = only(model.submissions);
    expect(s.attempts.map((a) => a.origin ?? "client")).toEqual(["client", "inspector"]);
    expect(s.inserts).toBe(2);
    expect(client.answers(id)).toHaveLength(1);
    expect(model.verdictCounts["unkeyed-resend"]).toBe(0);
  });
});
