import { describe, expect, it } from "vitest";
import { Analyzer } from "./analyzer.js";
import { latencyReport, MAX_LATENCY_GROUPS, percentile } from "./latency.js";
import { TraceScript } from "./testing/trace-script.js";

function model(sc: TraceScript) {
  const a = new Analyzer();
  a.ingestHeader(sc.header());
  for (const r of sc.records) a.ingest(r);
  return a.model();
}

describe("percentile (nearest rank)", () => {
  it("gives known values on known samples", () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1); // 1..100
    expect([50, 95, 99, 100].map((p) => percentile(hundred, p))).toEqual([50, 95, 99, 100]);
    expect([50, 95, 99].map((p) => percentile([10, 20, 30, 40], p))).toEqual([20, 40, 40]);
    expect(percentile([7], 50)).toBe(7);
    expect(percentile([], 50)).toBeNull();
  });
});

describe("latencyReport", () => {
  it("takes p50/p95/p99/max per method and per connection from request/answer timestamps", () => {
    // session/list on conn 1 answered after 10, 20, 30, 40 ms; on conn 2 after 100 ms.
    const sc = new TraceScript(1_700_000_000_000, 0);
    [10, 20, 30, 40].forEach((ms, i) => {
      sc.request(1, "client->agent", i, "session/list", {}).wait(ms).result(1, "agent->client", i, {});
    });
    sc.request(2, "client->agent", 9, "session/list", {}).wait(100).result(2, "agent->client", 9, {});
    const r = latencyReport(model(sc));
    expect(r.byMethod).toEqual([
      expect.objectContaining({
        method: "session/list",
        requests: 5,
        samples: 5,
        p50: 30,
        p95: 100,
        p99: 100,
        max: 100,
      }),
    ]);
    expect(r.byConnection.map((c) => [c.conn, c.method, c.p50, c.max])).toEqual([
      [1, "session/list", 20, 40],
      [2, "session/list", 100, 100],
    ]);
  });

  it("counts a dropped answer's latency as the Agent's (apart), and gives none to a lost or undelivered request", () => {
    const sc = new TraceScript(1_700_000_000_000, 0)
      .prompt(1, 1, "s", "deploy", "K")
      .wait(50)
      .inserted(1, 1, "m1", { dropped: true }) // the Agent answered in 50 ms; the Client never got it
      .wait(1000)
      .prompt(1, 2, "s", "deploy", "K")
      .wait(70)
      .inserted(1, 2, "m1")
      .prompt(1, 3, "s", "other", "K2", { dropped: true }) // never delivered
      .prompt(1, 4, "s", "third", "K3")
      .wait(5)
      .close(1); // lost with its connection
    const [prompt] = latencyReport(model(sc)).byMethod;
    expect(prompt).toMatchObject({
      method: "session/prompt",
      requests: 4,
      samples: 2,
      dropped: 1,
      noAnswer: 2,
      p50: 50,
      max: 70,
    });
  });

  it("counts the inspector's own requests apart", () => {
    const sc = new TraceScript(1_700_000_000_000, 0)
      .prompt(1, 1, "s", "deploy", "K")
      .wait(10)
      .inserted(1, 1, "m1", { dropped: true })
      .record({
        type: "frame",
        conn: 1,
        dir: "client->agent",
        raw: JSON.stringify({
          jsonrpc: "2.0",
          id: "acp-retry-inspector:retry:1",
          method: "session/prompt",
          params: { sessionId: "s", prompt: [{ type: "text", text: "deploy" }], idempotencyKey: "K" },
        }),
        origin: "inspector",
        replaces: 1,
      } as never)
      .wait(30)
      .inserted(1, "acp-retry-inspector:retry:1", "m1");
    const [prompt] = latencyReport(model(sc)).byMethod;
    expect(prompt).toMatchObject({ requests: 2, samples: 2, dropped: 1, inspector: 1, max: 30 });
  });

  it("bounds the groups of untrusted method names and leaves out negative latencies", () => {
    const sc = new TraceScript(1_700_000_000_000, 0);
    for (let i = 0; i < MAX_LATENCY_GROUPS + 20; i++)
      sc.request(1, "client->agent", i, `x/${i}`, {}).wait(1).result(1, "agent->client", i, {});
    const r = latencyReport(model(sc));
    expect(r.byMethod).toHaveLength(MAX_LATENCY_GROUPS);
    expect(r.overflow).toBe(20);
    // A clock that went back: the answer's ts is before the request's.
    const back = new TraceScript(1_700_000_000_000, 0);
    back.request(1, "client->agent", 1, "session/list", {});
    back.record({
      type: "frame",
      conn: 1,
      dir: "agent->client",
      raw: '{"jsonrpc":"2.0","id":1,"result":{}}',
    } as never);
    const last = back.records[back.records.length - 1] as { ts: number };
    last.ts -= 500;
    const neg = latencyReport(model(back));
    expect(neg.negative).toBe(1);
    expect(neg.byMethod).toEqual([]);
  });
});
