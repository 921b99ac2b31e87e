/**
 * demo-client (the CLI) against demo-agent over stdio, WebSocket and Streamable HTTP, with --json
 * output; and what it says and how it exits when the agent cannot be reached.
 */

import { execFile } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliPath } from "../../tools/testing/cli.js";
import { startRemoteAgent, tempStore } from "../testing/raw-agent.js";
import { type ClientReport, reconnectDelay, runDemoClient } from "./demo-client.js";

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

describe("demo-client tells the truth about itself", () => {
  /** The CLI's exit code, stdout and stderr (it may fail). */
  async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const pending = join(tempStore(), "pending.json");
    return run(process.execPath, [cliPath(), "demo-client", "--pending", pending, ...args], {
      timeout: 30_000,
    }).then(
      ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
  }

  it("exits 1 with a report naming the missing agent, with and without --json", async () => {
    const text = await cli(["--prompt", "hi", "--", "/nonexistent/agent"]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain("agent missing: cannot start '/nonexistent/agent' (ENOENT");
    expect(text.stderr).toContain("not reconnecting");
    const json = await cli(["--json", "--quiet", "--prompt", "hi", "--", "/nonexistent/agent"]);
    expect(json.code).toBe(1);
    const report = JSON.parse(json.stdout) as ClientReport;
    expect(report.ok).toBe(false);
    // A missing command cannot appear by retrying: one connection, not 50.
    expect(report.connections).toBe(1);
    expect(report.submissions[0]?.status).toBe("failed");
    expect(report.submissions[0]?.error?.message).toMatch(/^agent missing: .*ENOENT/);
  });

  it("says 401 when the remote agent refuses the token, over WebSocket and HTTP, and stops", async () => {
    const server = createServer((_req, res) => {
      res.writeHead(401, { "content-type": "text/plain" }).end("no");
    });
    server.on("upgrade", (_req, socket) => {
      socket.end("HTTP/1.1 401 Unauthorized\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      for (const url of [`ws://127.0.0.1:${port}/acp`, `http://127.0.0.1:${port}/acp`]) {
        const out = await cli(["--json", "--quiet", "--prompt", "hi", "--url", url]);
        expect(out.code, url).toBe(1);
        const report = JSON.parse(out.stdout) as ClientReport;
        expect(report.connections, url).toBe(1);
        expect(report.submissions[0]?.error?.message, url).toMatch(/^401: the server wants a token/);
      }
    } finally {
      server.close();
    }
  });

  it("names how the agent exited, and backs off between reconnects", async () => {
    const spawned: number[] = [];
    const lines: string[] = [];
    const report = await runDemoClient({
      target: { kind: "stdio", command: [process.execPath, "-e", "console.error('boom'); process.exit(3)"] },
      prompts: ["hi"],
      cwd: tempStore(),
      maxFailedConnections: 3,
      reconnectDelayMs: 100,
      onSpawn: () => spawned.push(Date.now()),
      log: (line) => lines.push(line),
    });
    expect(report.ok).toBe(false);
    expect(report.connections).toBe(3);
    expect(report.submissions[0]?.error?.message).toBe(
      "3 connections in a row failed; the last: agent exited with code 3; its last stderr line: boom",
    );
    expect(lines.filter((l) => l.includes("agent exited with code 3"))).toHaveLength(4);
    // The pause before reconnect n is at least 100 ms doubled n-2 times (lower bounds only: timers never fire early).
    expect((spawned[1] as number) - (spawned[0] as number)).toBeGreaterThanOrEqual(100 - 5);
    expect((spawned[2] as number) - (spawned[1] as number)).toBeGreaterThanOrEqual(200 - 5);
    expect([1, 2, 3, 4, 9].map((n) => reconnectDelay(n, 50, 5000))).toEqual([50, 100, 200, 400, 5000]);
  });
});
