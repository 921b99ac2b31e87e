/** demo-client (the CLI) against demo-agent over stdio, WebSocket and Streamable HTTP, with --json output. */

import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliPath } from "../../tools/testing/cli.js";
import { startRemoteAgent, tempStore } from "../testing/raw-agent.js";
import type { ClientReport } from "./demo-client.js";

const run = promisify(execFile);

async function client(args: string[]): Promise<ClientReport> {
  const pending = join(tempStore(), "pending.json");
  const { stdout } = await run(
    process.execPath,
    [
      cliPath(),
      "demo-client",
      "--json",
      "--quiet",
      "--pending",
      pending,
      "--prompt",
      "one",
      "--prompt",
      "two",
      ...args,
    ],
    { timeout: 30_000 },
  );
  return JSON.parse(stdout) as ClientReport;
}

function expectAnswered(report: ClientReport): void {
  expect(report.ok).toBe(true);
  expect(report.submissions).toHaveLength(2);
  for (const s of report.submissions) {
    expect(s.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(s.status).toBe("answered");
    expect(s.messageIds).toEqual([s.messageId]);
  }
  expect(report.observed.deploys).toEqual(["deploy #1", "deploy #2"]);
}

describe("demo-client against demo-agent", () => {
  it("over stdio", async () => {
    const store = tempStore();
    const report = await client([
      "--",
      process.execPath,
      cliPath(),
      "demo-agent",
      "--store",
      store,
      "--turn-ms",
      "50",
    ]);
    expect(report.transport).toBe("stdio");
    expectAnswered(report);
  });

  describe("remote", () => {
    let remote: Awaited<ReturnType<typeof startRemoteAgent>>;
    beforeAll(async () => {
      remote = await startRemoteAgent(tempStore(), ["--turn-ms", "50"]);
    });
    afterAll(async () => {
      await remote.stop();
    });

    it("over WebSocket", async () => {
      const report = await client(["--url", remote.wsUrl]);
      expect(report.transport).toBe("ws");
      expectAnswered(report);
    });

    it("over Streamable HTTP", async () => {
      const report = await client(["--url", remote.httpUrl]);
      expect(report.transport).toBe("http");
      expectAnswered(report);
    });
  });
});
