/** Request/answer pairs for the Records list (record-pairs.ts). */
import { describe, expect, it } from "vitest";
import { Analyzer } from "./analyzer.js";
import { pairSentence, pairWords, recordPairs } from "./record-pairs.js";
import { TraceScript } from "./testing/trace-script.js";

describe("recordPairs", () => {
  it("pairs a prompt and a request with their answers, the method on both and the latency", () => {
    const t = new TraceScript().open(1);
    t.request(1, "client->agent", 0, "initialize", { protocolVersion: 2 }).wait(30);
    t.result(1, "agent->client", 0, { protocolVersion: 2 });
    t.prompt(1, 1, "s", "hi", "K");
    const a = new Analyzer();
    for (const r of t.records) a.ingest(r);
    const m = a.model();
    const pairs = recordPairs(m.submissions, m.requests);
    const [init, answer, prompt] = t.records.filter((r) => r.type === "frame").map((r) => r.seq);
    expect(pairs.get(init as number)).toMatchObject({ role: "request", method: "initialize", other: answer });
    expect(pairs.get(answer as number)).toMatchObject({ role: "answer", method: "initialize", other: init });
    expect(pairs.get(answer as number)?.latencyMs).toBeGreaterThanOrEqual(30);
    const p = pairs.get(prompt as number);
    expect(p && pairWords(p)).toBe("no answer yet");
    expect(pairWords(pairs.get(answer as number) as never)).toBe(`← #${init}`);
    expect(pairWords(pairs.get(init as number) as never)).toBe(`→ #${answer}`);
    expect(pairSentence(pairs.get(init as number) as never)).toMatch(
      new RegExp(`^initialize request, answered at #${answer} after \\d+ ms$`),
    );
  });
});
