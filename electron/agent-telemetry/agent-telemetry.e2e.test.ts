/**
 * Issue 15 item 2, `proxy --collect-agent-telemetry`, with real processes: the demo agent's real
 * OpenTelemetry SDK exporter (protobuf, and JSON) reaches the tap's receiver and its spans are
 * recorded and nest under the attempt; the OTEL_* variables reach the agent (stdio and --listen);
 * bad OTLP requests are refused with a reason while the session stays byte-exact.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { attemptWindows, matchAgentSpans } from "../../shared/agent-telemetry/span-matching.js";
import { Analyzer } from "../../shared/analyzer/analyzer.js";
import type { AgentSpanRecord, TraceRecord } from "../../shared/trace/record.js";
import { demoAgent, Scratch, startFront, stopFront, tapped } from "../tap/testing/peers.js";
import { startProxy, traceRecords, within } from "../tap/testing/proxy-run.js";
import { cliPath } from "../tools/testing/cli.js";

const run = promisify(execFile);
const POKING_AGENT = fileURLToPath(new URL("./testing/otlp-poking-agent.mjs", import.meta.url));

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.cleanup());

const spansOf = (records: readonly TraceRecord[]) =>
  records.filter((r): r is AgentSpanRecord => r.type === "agent-span");

/** demo-client → proxy --collect-agent-telemetry → demo-agent --otel; resolves with the client's stderr (the proxy's stderr comes through it). */
async function clientThroughProxy(trace: string, env: NodeJS.ProcessEnv, prompts = 1): Promise<string> {
  const { stderr } = await run(
    process.execPath,
    [
      cliPath(),
      "demo-client",
      "--json",
      "--timeout",
      "30000",
      ...Array.from({ length: prompts }, (_, i) => ["--prompt", `deploy ${i + 1}`]).flat(),
      "--",
      ...tapped(trace, ["--collect-agent-telemetry"], demoAgent(scratch, "--otel", "--turn-ms", "50")),
    ],
    { timeout: 60_000, env },
  );
  return stderr;
}

/** Checks the turn trees and that each nests under the attempt it happened in. */
function expectTurnsUnderAttempts(records: readonly TraceRecord[], turns: number, stderr: string): void {
  const spans = spansOf(records);
  const roots = spans.filter((s) => s.name === "prompt turn");
  expect(roots, `${stderr}\n${records.map((r) => r.type).join(" ")}`).toHaveLength(turns);
  for (const root of roots) {
    expect(root.parentSpanId).toBeUndefined();
    expect(root.service).toBe("demo-agent");
    expect(root.conn).toBe(1);
    expect(root.endMs).toBeGreaterThan(root.startMs);
    const children = spans.filter((s) => s.parentSpanId === root.spanId);
    expect(children.map((c) => c.name).sort()).toEqual(["dedup lookup", "insert"]);
    for (const c of children) expect(c.traceId).toBe(root.traceId);
    expect(children.find((c) => c.name === "dedup lookup")?.attributes).toEqual({
      "acp.dedup.result": "new",
    });
  }
  const analyzer = new Analyzer();
  for (const r of records) analyzer.ingest(r);
  const model = analyzer.model();
  const byseq = new Map(records.map((r) => [r.seq, r]));
  const matching = matchAgentSpans(
    attemptWindows(model.submissions, (n) => byseq.get(n)),
    spans,
  );
  expect(matching.unmatched).toEqual([]);
  expect(model.submissions).toHaveLength(turns);
  for (const s of model.submissions) {
    const mine = matching.byAttempt.get(`s${s.id}.a0`);
    expect(mine?.count).toBe(3);
    expect(mine?.trees.map((t) => [t.root.span.name, t.by])).toEqual([["prompt turn", "time"]]);
    // The turn's jsonrpc id is the attempt's: the match by time found the right one.
    expect(mine?.trees[0]?.root.span.attributes?.["jsonrpc.request.id"]).toBe(String(s.attempts[0]?.id));
  }
}

describe("proxy --collect-agent-telemetry", { timeout: 90_000 }, () => {
  it("records the spans the demo agent's OTel SDK sends in protobuf, nested under their attempts", async () => {
    const trace = scratch.path("proto.jsonl");
    const stderr = await clientThroughProxy(trace, scratch.env, 2);
    expect(stderr).toMatch(/agent telemetry: receiving OTLP\/HTTP on http:\/\/127\.0\.0\.1:\d+/);
    expect(stderr).toMatch(
      /agent telemetry: 6 agent spans recorded from \d+ requests? \(\d+ protobuf, 0 JSON\)/,
    );
    expectTurnsUnderAttempts(await traceRecords(trace), 2, stderr);
  });

  it("records them in OTLP/JSON when the environment asks for http/json", async () => {
    const trace = scratch.path("json.jsonl");
    const stderr = await clientThroughProxy(trace, {
      ...scratch.env,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    });
    expect(stderr).toMatch(
      /agent telemetry: 3 agent spans recorded from (\d+) requests? \(0 protobuf, \1 JSON\)/,
    );
    expectTurnsUnderAttempts(await traceRecords(trace), 1, stderr);
  });

  it("gives the agent the OTEL_* variables and a token in the env only; refuses bad requests; the session stays byte-exact", async () => {
    const trace = scratch.path("bad.jsonl");
    const env = {
      ...scratch.env,
      OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=users-own-collector-secret",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector.example:4318/v1/traces",
      OTEL_SERVICE_NAME: "users-service",
    };
    const proxy = startProxy(
      ["--no-hub", "--trace", trace, "--collect-agent-telemetry"],
      [process.execPath, POKING_AGENT, "bad"],
      env,
    );
    // Lines a tap must pass on exactly: JSON-RPC, not JSON at all, odd bytes.
    const input = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n'),
      Buffer.from("not json \u001b[31m\n"),
      Buffer.from([0xff, 0xfe, 0x0a]),
      Buffer.from(`${JSON.stringify({ jsonrpc: "2.0", method: "x", params: { s: "é".repeat(1000) } })}\n`),
    ]);
    proxy.child.stdin.write(input);
    proxy.child.stdin.end();
    const done = await within(proxy.done, 30_000, "the proxy to exit");
    expect(done.code).toBe(0);
    expect(done.stdout.equals(input)).toBe(true);

    const lines = done.stderr
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map(
        (l) =>
          JSON.parse(l) as { env?: Record<string, string>; poke?: string; status?: number; body?: string },
      );
    const agentEnv = lines.find((l) => l.env)?.env ?? {};
    const endpoint = /receiving OTLP\/HTTP on (http:\/\/127\.0\.0\.1:\d+)/.exec(done.stderr)?.[1];
    expect(endpoint).toBeDefined();
    expect(agentEnv.OTEL_EXPORTER_OTLP_ENDPOINT).toBe(endpoint);
    expect(agentEnv.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT).toBe(`${endpoint}/v1/traces`);
    expect(agentEnv.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT).toBe(`${endpoint}/v1/metrics`);
    expect(agentEnv.OTEL_EXPORTER_OTLP_LOGS_ENDPOINT).toBe(`${endpoint}/v1/logs`);
    expect(agentEnv.OTEL_EXPORTER_OTLP_PROTOCOL).toBe("http/protobuf");
    expect(agentEnv.OTEL_EXPORTER_OTLP_HEADERS).toMatch(/^authorization=Bearer%20[0-9a-f]{64}$/);
    expect(agentEnv.OTEL_EXPORTER_OTLP_TRACES_HEADERS).toBe(agentEnv.OTEL_EXPORTER_OTLP_HEADERS);
    expect(agentEnv.OTEL_SERVICE_NAME).toBe("users-service"); // the user's own name is kept
    expect(done.stderr).toContain(
      "agent telemetry: replaced the inherited OTEL_EXPORTER_OTLP_HEADERS, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT for the agent",
    );
    const token = (agentEnv.OTEL_EXPORTER_OTLP_HEADERS ?? "").slice("authorization=Bearer%20".length);
    // The token is in the agent's environment only: the trace has it only where this agent itself
    // printed its environment (its stderr), not in argv or notes; the proxy never says it.
    const traceLines = readFileSync(trace, "utf8").split("\n");
    expect(traceLines.filter((l) => l.includes(token) && !l.includes('"type":"agent-stderr"'))).toEqual([]);
    expect(done.stderr.split("\n").filter((l) => l.includes(token) && !l.startsWith("{"))).toEqual([]);

    const status = Object.fromEntries(lines.filter((l) => l.poke).map((l) => [l.poke, l.status]));
    expect(status).toEqual({
      "garbage protobuf": 400,
      "not OTLP JSON": 400,
      "not JSON": 400,
      "wrong token": 401,
      "no token": 401,
      "wrong host": 421,
      GET: 405,
      "text/plain": 415,
      "good JSON": 200,
      metrics: 200,
    });
    const reason = (name: string) => JSON.parse(lines.find((l) => l.poke === name)?.body ?? "{}").message;
    expect(reason("garbage protobuf")).toBe(
      "not an OTLP traces request: protobuf: a length runs past the end of the body",
    );
    expect(reason("not OTLP JSON")).toBe("not an OTLP traces request: traceId must be a string");
    expect(reason("not JSON")).toBe("not an OTLP traces request: the body is not JSON");

    const records = await traceRecords(trace);
    const spans = spansOf(records);
    expect(spans).toHaveLength(1);
    expect(spans[0]).toMatchObject({
      name: "<b>not markup</b>\u001b[31m",
      traceId: "5b8efff798038103d269b633813fc60c",
      spanId: "eee19b7ec3c1b174",
      kind: 1,
      status: "error",
      statusMessage: "it broke",
      service: "poking-agent",
      conn: 1,
      attributes: { n: 42, list: ["a", true] },
    });
    const notes = records.filter((r) => r.type === "note" && r.text.startsWith("agent telemetry: refused"));
    expect(notes).toHaveLength(5);
    expect(notes.map((n) => (n.type === "note" ? n.level : ""))).toEqual([
      "warn",
      "warn",
      "warn",
      "warn",
      "warn",
    ]);
    expect(done.stderr).toContain(
      "agent telemetry: 1 agent span recorded from 1 request (0 protobuf, 1 JSON); 1 metrics and 0 logs requests accepted, not recorded; 8 rejected (first: 400 not an OTLP traces request: protobuf: a length runs past the end of the body)",
    );
  });

  it("takes the token percent-encoded as Claude Code sends it (Bearer%20TOKEN), compared once decoded", async () => {
    const trace = scratch.path("claude-code.jsonl");
    const proxy = startProxy(
      ["--no-hub", "--trace", trace, "--collect-agent-telemetry"],
      [process.execPath, POKING_AGENT, "claude-code"],
      scratch.env,
    );
    const input = Buffer.from('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}\n');
    proxy.child.stdin.end(input);
    const done = await within(proxy.done, 30_000, "the proxy to exit");
    expect(done.code).toBe(0);
    expect(done.stdout.equals(input)).toBe(true);
    const pokes = done.stderr
      .split("\n")
      .filter((l) => l.startsWith('{"poke"'))
      .map((l) => JSON.parse(l) as { poke: string; status: number });
    expect(Object.fromEntries(pokes.map((p) => [p.poke, p.status]))).toEqual({
      "encoded traces": 200,
      "encoded logs": 200,
      "encoded wrong token": 401,
      "broken escape": 401,
    });
    const spans = spansOf(await traceRecords(trace));
    expect(spans.map((s) => [s.spanId, s.conn])).toEqual([["eee19b7ec3c1b174", 1]]);
    expect(done.stderr).toContain(
      "agent telemetry: 1 agent span recorded from 1 request (0 protobuf, 1 JSON); 0 metrics and 1 logs requests accepted, not recorded; 2 rejected (first: 401 no valid Authorization: Bearer token)",
    );
  });

  it("with --listen, gives each connection's agent its own token, and its spans carry that connection", async () => {
    const trace = scratch.path("front.jsonl");
    const front = await startFront(
      scratch,
      ["--no-hub", "--trace", trace, "--collect-agent-telemetry"],
      demoAgent(scratch, "--otel", "--turn-ms", "50"),
    );
    for (const prompt of ["one", "two"]) {
      const { stdout } = await run(
        process.execPath,
        [
          cliPath(),
          "demo-client",
          "--json",
          "--quiet",
          "--prompt",
          prompt,
          "--url",
          front.wsUrl,
          "--token-file",
          front.tokenFile,
        ],
        { timeout: 30_000, env: scratch.env },
      );
      expect(JSON.parse(stdout).ok).toBe(true);
    }
    await stopFront(front.child);
    const spans = spansOf(await traceRecords(trace));
    const turns = spans.filter((s) => s.name === "prompt turn");
    expect(turns.map((s) => s.conn).sort(), front.stderr()).toEqual([1, 2]);
    expect(front.stderr()).toMatch(/agent telemetry: 6 agent spans recorded/);
  });
});
