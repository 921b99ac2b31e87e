import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import type { TapSummary } from "../../../shared/hub/tap-summary.js";
import { TOKEN_ENV } from "../../hub-client/hub-client.js";
import { cliPath } from "../../tools/testing/cli.js";
import { TERMINAL_CONTROL } from "../../tools/testing/terminal-controls.js";
import { tapTable } from "./taps.js";

const tap: TapSummary = {
  traceId: "20260131T114010Z-77c01d2e3f40",
  tapId: "t1",
  // A tap names itself in its trace header: any process with the hub's token can send any text.
  name: "evil\u001b[2J\u001b]52;c;SGVsbG8=\u0007",
  startedAt: "2026-01-31T11:40:10.000Z",
  transport: "stdio",
  command: ["my-agent", "--x=\u001b[8m", "line\nbreak"],
  cwd: "/home/u",
  tapPid: 4242,
  status: "running",
  attached: true,
  agentPids: [4243],
  lastExit: null,
  connections: { open: 1, total: 1 },
  records: 10,
  attachedAt: "2026-01-31T11:40:10.000Z",
  detachedAt: null,
};

describe("taps table", () => {
  it("shows what the taps sent escaped: one line per tap, nothing a terminal acts on", () => {
    const table = tapTable([tap]);
    expect(table).not.toMatch(TERMINAL_CONTROL);
    expect(table.split("\n")).toHaveLength(2);
    expect(table).toContain("evil\\x1b[2J\\x1b]52;c;SGVsbG8=\\x07");
    expect(table).toContain("my-agent --x=\\x1b[8m line\\nbreak");
  });
});

describe("taps against a server that is not a hub", () => {
  /** Runs `taps` against a loopback server that answers every request with `body`. */
  async function tapsAgainst(body: string, ...args: string[]) {
    const server = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(body);
    });
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const { port } = server.address() as AddressInfo;
    try {
      return await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(
          process.execPath,
          [cliPath(), "taps", "--hub", `http://127.0.0.1:${port}`, ...args],
          { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, [TOKEN_ENV]: "not-a-real-token" } },
        );
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (c: Buffer) => {
          stdout += c.toString();
        });
        child.stderr.on("data", (c: Buffer) => {
          stderr += c.toString();
        });
        child.on("close", (code) => resolve({ code, stdout, stderr }));
      });
    } finally {
      server.close();
    }
  }

  it("exits 1 with a clear error when the answer is `{}` (no list of taps), never a crash", async () => {
    for (const args of [[], ["--json"]]) {
      const r = await tapsAgainst("{}", ...args);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/answered without a list of taps/);
      expect(r.stderr).not.toMatch(/TypeError|at .*\.js/);
    }
  });

  it("lists the entries that are taps and counts the others on stderr", async () => {
    const r = await tapsAgainst(
      JSON.stringify({ taps: [tap, { traceId: 5 }, null, { ...tap, connections: "x" }] }),
    );
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n").filter((l) => l !== "")).toHaveLength(2);
    expect(r.stdout).toContain(tap.traceId);
    expect(r.stderr).toContain("3 entries of the hub's answer are not a tap: left out");
  });
});
