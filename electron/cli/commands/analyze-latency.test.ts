/**
 * `analyze`'s latency section on a trace the real tap recorded: demo-client → `proxy --fault
 * lose-and-retry` → demo-agent, so the trace has a dropped answer and an inspector retry.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { LatencyReport } from "../../../shared/analyzer/latency.js";
import { demoAgent, demoClient, Scratch } from "../../tap/testing/peers.js";
import { cliPath } from "../../tools/testing/cli.js";

const run = promisify(execFile);

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.cleanup());

describe("analyze: latency per method", { timeout: 90_000 }, () => {
  it("lists p50/p95/p99/max per method, with the dropped answer and the inspector's retry counted apart", async () => {
    const trace = scratch.path("run.jsonl");
    const tap = [
      process.execPath,
      cliPath(),
      "proxy",
      "--no-hub",
      "--trace",
      trace,
      "--fault",
      "lose-and-retry",
    ];
    const report = await demoClient(scratch, ["--", ...tap, "--", ...demoAgent(scratch)]);
    expect(report.ok).toBe(true);

    const json = await run(process.execPath, [cliPath(), "analyze", "--json", trace], { env: scratch.env });
    const latency = (JSON.parse(json.stdout) as { latency: LatencyReport }).latency;
    const prompt = latency.byMethod.find((m) => m.method === "session/prompt");
    expect(prompt).toMatchObject({ requests: 2, samples: 2, dropped: 1, inspector: 1, noAnswer: 0 });
    expect(prompt?.max).toBeGreaterThanOrEqual(prompt?.p50 ?? Number.POSITIVE_INFINITY);
    expect(latency.byMethod.map((m) => m.method)).toEqual(
      expect.arrayContaining(["initialize", "session/new"]),
    );
    expect(latency.byConnection.every((c) => c.conn === 1)).toBe(true);

    const text = (await run(process.execPath, [cliPath(), "analyze", trace], { env: scratch.env })).stdout;
    const section = text.slice(text.indexOf("Latency per method"), text.indexOf("\nVerdicts"));
    expect(section).toMatch(
      /session\/prompt {2}p50 \d+ ms {2}p95 \d+ ms {2}p99 \d+ ms {2}max \d+ ms {2}\(2 answered of 2; 1 answer\(s\) dropped by the inspector: the agent's time, the client never got them; 1 sent by the inspector\)/,
    );
    expect(section).toMatch(/\n {2}initialize {2}p50 /);
  });
});
