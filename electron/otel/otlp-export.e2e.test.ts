/**
 * Issue 15, `proxy --otlp`: spans reach a real OTLP/HTTP receiver (started here on loopback) from
 * a real proxy between the reference peers, in protobuf and in JSON; with the collector's port
 * dead, the tap still forwards every byte unchanged.
 */
import { createServer } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { keyHash } from "../../shared/otel/span-mapping.js";
import { demoAgent, demoClient, exited, printed, Scratch } from "../tap/testing/peers.js";
import { scriptedAgent, startProxy, traceRecords, within } from "../tap/testing/proxy-run.js";
import { cliPath } from "../tools/testing/cli.js";
import { type OtlpReceiver, type ReceivedSpan, startOtlpReceiver } from "./testing/otlp-receiver.js";

let scratch: Scratch;
let receiver: OtlpReceiver;
beforeEach(async () => {
  scratch = new Scratch();
  receiver = await startOtlpReceiver();
});
afterEach(async () => {
  await receiver.close();
  scratch.cleanup();
});

/** The demo client's stdio agent command: the proxy with `proxyArgs`, dropping the first prompt answer. */
function proxied(trace: string, proxyArgs: string[], hub = false): string[] {
  return [
    "--",
    process.execPath,
    cliPath(),
    "proxy",
    ...(hub ? [] : ["--no-hub"]),
    "--trace",
    trace,
    "--fault",
    "drop-response:method=session/prompt",
    ...proxyArgs,
    "--",
    ...demoAgent(scratch, "--turn-ms", "100"),
  ];
}

/** The key the demo client sent, read from the trace file (polled: the proxy may still be writing it). */
async function sentKey(trace: string): Promise<string> {
  let seen = "";
  for (let i = 0; i < 100; i++) {
    const records = await traceRecords(trace).catch(() => []);
    for (const r of records) {
      if (r.type !== "frame" || r.dir !== "client->agent" || !r.raw.includes('"session/prompt"')) continue;
      const key = (JSON.parse(r.raw) as { params?: { idempotencyKey?: unknown } }).params?.idempotencyKey;
      if (typeof key === "string") return key;
    }
    seen = records.map((r) => (r.type === "frame" ? `${r.dir} ${r.raw.slice(0, 80)}` : r.type)).join("\n");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no keyed prompt in the trace; it holds:\n${seen}`);
}

function byName(spans: readonly ReceivedSpan[], name: string): ReceivedSpan[] {
  return spans.filter((s) => s.name === name);
}

/** Waits for the root span (sent when the submission settles) and for both attempts. */
async function submissionSpans(): Promise<{ root: ReceivedSpan; attempts: ReceivedSpan[] }> {
  await within(
    (async () => {
      while (
        byName(receiver.spans, "session/prompt").length < 2 ||
        !receiver.spans.some((s) => s.name.startsWith("invoke_agent"))
      )
        await receiver.waitForSpans(receiver.spans.length + 1);
    })(),
    30_000,
    "the submission's spans",
  );
  const root = receiver.spans.find((s) => s.name.startsWith("invoke_agent")) as ReceivedSpan;
  return { root, attempts: byName(receiver.spans, "session/prompt") };
}

describe("proxy --otlp", { timeout: 90_000 }, () => {
  it("sends a keyed retry as one trace in protobuf: root, two attempts, the fault as an event", async () => {
    const trace = scratch.path("otlp-proto.jsonl");
    const report = await demoClient(scratch, [
      "--timeout",
      "4000",
      "--no-wait-idle",
      ...proxied(trace, ["--otlp", receiver.endpoint]),
    ]);
    expect(report.ok).toBe(true);
    const { root, attempts } = await submissionSpans();
    const key = await sentKey(trace);
    expect(receiver.contentTypes[0]).toBe("application/x-protobuf");
    expect(root.encoding).toBe("protobuf");
    expect(root.parentSpanId).toBe("");
    expect(root.resource["service.name"]).toBe("acp-retry-inspector");
    expect(root.attributes).toMatchObject({
      "gen_ai.operation.name": "invoke_agent",
      "acp.idempotency_key.status": "valid",
      "acp.idempotency_key.sha1": keyHash(key),
      "acp.retry_class": "keyed",
      "acp.verdict": "deduplicated",
      "acp.inserts": 1,
      "acp.attempts": 2,
      "acp.settled": true,
    });
    expect(typeof root.attributes["acp.session.id"]).toBe("string");
    expect(root.attributes["gen_ai.conversation.id"]).toBe(root.attributes["acp.session.id"]);
    expect(root.events.map((e) => [e.name, e.attributes["acp.fault.action"]])).toContainEqual([
      "acp.fault",
      "drop-response",
    ]);
    for (const a of attempts) {
      expect(a.traceId).toBe(root.traceId);
      expect(a.parentSpanId).toBe(root.spanId);
      expect(a.kind).toBe(3);
      expect(a.attributes).toMatchObject({
        "rpc.system.name": "jsonrpc",
        "rpc.method": "session/prompt",
        "jsonrpc.protocol.version": "2.0",
        "acp.origin": "client",
        "acp.retry_class": "keyed",
      });
      expect(typeof a.attributes["jsonrpc.request.id"]).toBe("string");
      expect(typeof a.attributes["acp.connection"]).toBe("number");
      expect(a.endMs).toBeGreaterThanOrEqual(a.startMs);
    }
    expect(attempts.map((a) => a.attributes["acp.outcome"]).sort()).toEqual(["dropped", "inserted"]);
    const messageIds = new Set(attempts.map((a) => a.attributes["acp.message_id"]));
    expect(messageIds.size).toBe(1);
    expect(root.attributes["acp.message_id"]).toBe([...messageIds][0]);
    // Other requests carry their retry class; nothing carries the key or the prompt text.
    expect(byName(receiver.spans, "session/new")[0]?.attributes["acp.retry_class"]).toBe("duplicating");
    expect(byName(receiver.spans, "initialize")[0]?.attributes["acp.retry_class"]).toBe("safe");
    const everything = JSON.stringify(receiver.spans);
    expect(everything).not.toContain(key);
    expect(everything).not.toContain("deploy it");
  });

  it("sends JSON to OTEL_EXPORTER_OTLP_ENDPOINT with OTEL_EXPORTER_OTLP_PROTOCOL=http/json, prompts on request", async () => {
    const trace = scratch.path("otlp-json.jsonl");
    scratch.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.endpoint;
    scratch.env.OTEL_EXPORTER_OTLP_PROTOCOL = "http/json";
    const report = await demoClient(scratch, [
      "--timeout",
      "4000",
      "--no-wait-idle",
      ...proxied(trace, ["--otlp-include-prompts"]),
    ]);
    expect(report.ok).toBe(true);
    const { root, attempts } = await submissionSpans();
    expect(receiver.contentTypes[0]).toBe("application/json");
    expect(root.encoding).toBe("json");
    expect(root.attributes).toMatchObject({
      "acp.verdict": "deduplicated",
      "acp.inserts": 1,
      "acp.idempotency_key.sha1": keyHash(await sentKey(trace)),
      "acp.prompt.preview": "deploy it",
    });
    expect(attempts.every((a) => a.parentSpanId === root.spanId && a.traceId === root.traceId)).toBe(true);
    expect(attempts.map((a) => a.attributes["acp.outcome"]).sort()).toEqual(["dropped", "inserted"]);
  });
});

describe("serve --otlp", { timeout: 90_000 }, () => {
  it("exports the sessions of the taps it serves, from the records the hub received", async () => {
    const hub = scratch.spawnCli([
      "serve",
      "--traces-dir",
      scratch.path("hub-traces"),
      "--otlp",
      receiver.endpoint,
    ]);
    await printed(hub, "stdout", /^http:\/\/\S+\n/, "the hub's URL");
    const trace = scratch.path("via-hub.jsonl");
    const report = await demoClient(scratch, [
      "--timeout",
      "4000",
      "--no-wait-idle",
      ...proxied(trace, [], true),
    ]);
    expect(report.ok).toBe(true);
    const { root, attempts } = await submissionSpans();
    expect(root.attributes).toMatchObject({
      "acp.verdict": "deduplicated",
      "acp.inserts": 1,
      "acp.idempotency_key.sha1": keyHash(await sentKey(trace)),
    });
    expect(attempts.every((a) => a.parentSpanId === root.spanId)).toBe(true);
    expect(root.events.some((e) => e.attributes["acp.fault.action"] === "drop-response")).toBe(true);
    hub.kill("SIGTERM");
    await within(exited(hub), 15_000, "the hub to exit");
  });
});

/** A loopback port nothing listens on. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("proxy --otlp at a dead port", { timeout: 60_000 }, () => {
  it("forwards every byte unchanged, records every frame and says the spans were not sent", async () => {
    const trace = scratch.path("dead.jsonl");
    const port = await deadPort();
    const run = startProxy(
      ["--no-hub", "--trace", trace, "--otlp", `http://127.0.0.1:${port}`],
      scriptedAgent("echo"),
      scratch.env,
    );
    const lines: Buffer[] = [];
    for (let i = 0; i < 2_000; i++) {
      const kind = i % 4;
      const text =
        kind === 0
          ? JSON.stringify({
              jsonrpc: "2.0",
              id: i,
              method: "session/prompt",
              params: { sessionId: "s", prompt: [] },
            })
          : kind === 1
            ? JSON.stringify({ jsonrpc: "2.0", id: i, result: { messageId: `m${i}` } })
            : kind === 2
              ? JSON.stringify({ jsonrpc: "2.0", method: "session/update", params: { sessionId: "s", n: i } })
              : `not json ${i} \u00e9`;
      lines.push(Buffer.from(`${text}\n`));
    }
    lines.push(Buffer.from([0xff, 0xfe, 0x0a]));
    const input = Buffer.concat(lines);
    run.child.stdin.end(input);
    const done = await within(run.done, 30_000, "the proxy to exit");
    expect(done.code).toBe(0);
    expect(Buffer.compare(done.stdout, input)).toBe(0);
    const frames = (await traceRecords(trace)).filter((r) => r.type === "frame");
    expect(frames).toHaveLength(2 * lines.length);
    expect(done.stderr).toMatch(/otlp: exporting spans to http:\/\/127\.0\.0\.1:\d+\/v1\/traces/);
    expect(done.stderr).toMatch(/otlp: 0 spans sent to .*(failed|not sent before exit)/);
  });

  it("refuses an --otlp value that is not an http(s) URL, before starting anything", async () => {
    const run = startProxy(
      ["--no-hub", "--otlp", "grpc://127.0.0.1:4317"],
      scriptedAgent("echo"),
      scratch.env,
    );
    const done = await within(run.done, 15_000, "the proxy to exit");
    expect(done.code).toBe(2);
    expect(done.stderr).toContain("--otlp must be an http:// or https:// URL");
  });
});
