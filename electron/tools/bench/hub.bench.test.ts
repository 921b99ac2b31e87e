import { describe, expect, it } from "vitest";
import { cliPath } from "../testing/cli.js";
import { runHubBench } from "./hub.bench.js";

describe("hub bench (quick run)", () => {
  it("streams from several real hub links into a serve process and reports throughput and RSS", async () => {
    const rows = await runHubBench({ seconds: 1.5, taps: 3, cli: cliPath() });
    expect(rows.map((r) => r.goal)).toEqual([">= 10000 frames/s", ">= 0.9 of ingest", "<= 400 MB"]);
    const [ingest, push, rss] = rows;
    expect(ingest?.ratio).toBeGreaterThan(1_000);
    expect(ingest?.name).toContain("0 dropped");
    expect(push?.ratio).toBeGreaterThan(0.5);
    expect(push?.name).toMatch(/; \d+ gaps\)$/);
    if (process.platform === "linux") expect(ingest?.name).toMatch(/; hub CPU \d+\.\d us\/frame\)$/);
    expect(rss?.ratio).toBeGreaterThan(10);
  });
});
