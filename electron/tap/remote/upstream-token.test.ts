/**
 * `proxy --agent-url URL --agent-token-file FILE` as real processes: a demo-client dials a tap
 * (`proxy --listen --agent-url`) whose remote agent is another `proxy --listen` front that requires a
 * token. Without the token file the 401 is said on the tap's stderr and in its trace, and the client
 * stops at once with "401: the server wants a token"; with it, the prompt is answered.
 */

import { execFile } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ClientReport } from "../../peers/client/demo-client.js";
import { cliPath } from "../../tools/testing/cli.js";
import { demoAgent, demoClient, Scratch, startFront, stopFront } from "../testing/peers.js";
import { traceRecords } from "../testing/proxy-run.js";
import { readUpstreamToken } from "./upstream-token.js";

const run = promisify(execFile);

let scratch: Scratch;
beforeEach(() => {
  scratch = new Scratch();
});
afterEach(() => scratch.cleanup());

/** `demo-client --json` that may fail: its exit code, report and stderr. */
async function clientRun(url: string): Promise<{ code: number; report: ClientReport; stderr: string }> {
  const args = [cliPath(), "demo-client", "--json", "--pending", scratch.path("p.json"), "--prompt", "hi"];
  const out = await run(process.execPath, [...args, "--url", url], {
    timeout: 60_000,
    env: scratch.env,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
  return { code: out.code, report: JSON.parse(out.stdout) as ClientReport, stderr: out.stderr };
}

describe("proxy --agent-url with --agent-token-file", { timeout: 90_000 }, () => {
  it("says 401 when the remote agent wants a token, and sends the token from the file", async () => {
    const remote = await startFront(
      scratch,
      ["--no-hub", "--trace", scratch.path("remote.jsonl")],
      demoAgent(scratch),
    );
    try {
      // Without a token: the tap reports the 401; the client stops after one connection.
      const tapTrace = scratch.path("tap.jsonl");
      const tap = await startFront(
        scratch,
        ["--no-hub", "--no-auth", "--trace", tapTrace, "--agent-url", remote.wsUrl],
        [],
      );
      const refused = await clientRun(tap.wsUrl);
      await stopFront(tap.child);
      expect(refused.code).toBe(1);
      expect(refused.report.connections).toBe(1);
      expect(refused.report.submissions[0]?.error?.message).toMatch(/^401: the server wants a token/);
      expect(refused.stderr).toContain("401: the server wants a token");
      expect(refused.stderr).toContain("not reconnecting");
      expect(tap.stderr()).toContain("conn #1: the remote agent wants a token (401): none was sent");
      const records = await traceRecords(tapTrace);
      expect(records).toContainEqual(
        expect.objectContaining({
          type: "note",
          level: "error",
          text: expect.stringContaining("wants a token (401)"),
        }),
      );
      expect(records).toContainEqual(
        expect.objectContaining({ type: "conn-close", conn: 1, reason: expect.stringContaining("(401)") }),
      );

      // With the remote front's own token file (mode 0600): answered, over WebSocket and HTTP upstream.
      for (const url of [remote.wsUrl, remote.httpUrl]) {
        const trace = scratch.path(`tap-${url.slice(0, 2)}.jsonl`);
        const withToken = await startFront(
          scratch,
          [
            "--no-hub",
            "--no-auth",
            "--trace",
            trace,
            "--agent-url",
            url,
            "--agent-token-file",
            remote.tokenFile,
          ],
          [],
        );
        const report = await demoClient(scratch, ["--url", withToken.wsUrl]);
        await stopFront(withToken.child);
        expect(report.ok, url).toBe(true);
        expect(report.submissions[0]?.messageId, url).toBeTruthy();
        expect(withToken.stderr(), url).not.toContain("401");
      }
    } finally {
      await stopFront(remote.child);
    }
  });

  it("refuses a token file others can read, before anything starts", async () => {
    const file = scratch.path("token");
    writeFileSync(file, "secret-token\n", { mode: 0o644 });
    chmodSync(file, 0o644);
    const out = await run(
      process.execPath,
      [
        cliPath(),
        "proxy",
        "--no-hub",
        "--listen",
        "ws://127.0.0.1:0",
        "--agent-url",
        "ws://127.0.0.1:9/acp",
        "--agent-token-file",
        file,
      ],
      { timeout: 30_000, env: scratch.env },
    ).then(
      () => ({ code: 0, stderr: "" }),
      (e: { code: number; stderr: string }) => e,
    );
    expect(out.code).toBe(2);
    expect(out.stderr).toContain("readable by its group (mode 0644)");
    expect(out.stderr).not.toContain("listening");
    expect(out.stderr).not.toContain("trace:");
  });
});

describe("readUpstreamToken", () => {
  it("reads the first line of a private file, and refuses group-readable, empty and header-breaking ones", () => {
    const file = scratch.path("t");
    writeFileSync(file, "  abc.DEF-123  \nsecond line\n", { mode: 0o600 });
    expect(readUpstreamToken(file)).toBe("abc.DEF-123");
    chmodSync(file, 0o640);
    expect(() => readUpstreamToken(file)).toThrow(/readable by its group \(mode 0640\).*chmod 600/);
    chmodSync(file, 0o600);
    writeFileSync(file, "\nabc\n");
    expect(() => readUpstreamToken(file)).toThrow(/holds no token/);
    writeFileSync(file, "a b\n");
    expect(() => readUpstreamToken(file)).toThrow(/cannot go in an Authorization header/);
    expect(() => readUpstreamToken(scratch.path("missing"))).toThrow(
      /cannot use --agent-token-file .*ENOENT/,
    );
  });
});
