import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClientReport } from "../peers/client/demo-client.js";
import { tapped } from "../tap/testing/peers.js";
import { cliPath } from "../tools/testing/cli.js";

/**
 * `replay --as agent` (issue 32 item 2) through the built CLI: recordings of demo-client and
 * demo-agent made by the real tap, then replayed to a real demo-client (behind the tap where the
 * trace is judged).
 */
const work = mkdtempSync(join(tmpdir(), "acp-ri-replay-agent-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const node = process.execPath;
const cli = (args: string[], input?: string) =>
  spawnSync(node, [cliPath(), ...args], { encoding: "utf8", timeout: 90_000, cwd: work, input });
const demoAgent = (store: string) => [node, cliPath(), "demo-agent", "--store", join(work, store)];
const replayAgent = (trace: string, state: string, ...more: string[]) => [
  node,
  cliPath(),
  "replay",
  "--as",
  "agent",
  trace,
  "--state",
  join(work, state),
  ...more,
];
/** demo-client with a short attempt timeout (the replay loses an answer on purpose) and a patient setup. */
const demoClient = (pending: string, agent: string[], ...more: string[]) => {
  const r = cli([
    "demo-client",
    "--json",
    "--quiet",
    "--pending",
    join(work, pending),
    "--setup-timeout",
    "30000",
    "--timeout",
    "2500",
    "--prompt",
    "deploy it",
    ...more,
    "--",
    ...agent,
  ]);
  return { status: r.status, stderr: r.stderr, report: JSON.parse(r.stdout) as ClientReport };
};

interface Analysis {
  submissions: {
    key: string | null;
    attempts: unknown[];
    verdicts: { name: string }[];
  }[];
}
const analyze = (trace: string): Analysis => JSON.parse(cli(["analyze", "--json", trace]).stdout) as Analysis;
const agentStderr = (trace: string) =>
  readFileSync(trace, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { type?: string; text?: string })
    .filter((r) => r.type === "agent-stderr")
    .map((r) => r.text)
    .join("\n");

/** A recording of demo-client and demo-agent through the tap, with `fault`; and the recorded messageId. */
function record(name: string, fault: string): { trace: string; messageId: string } {
  const trace = join(work, `${name}.jsonl`);
  const r = demoClient(`${name}-pending.json`, tapped(trace, ["--fault", fault], demoAgent(`${name}-store`)));
  expect(r.status, r.stderr).toBe(0);
  const messageId = r.report.submissions[0]?.messageId;
  expect(typeof messageId).toBe("string");
  return { trace, messageId: messageId as string };
}

let lost: { trace: string; messageId: string };
beforeAll(() => {
  lost = record("lose", "lose-and-retry:method=session/prompt");
}, 90_000);

describe("replay --as agent TRACE (issue 32 item 2)", () => {
  it("loses the recorded lost answer again; demo-client resends with the same key and gets the recorded messageId", () => {
    const trace = join(work, "as-agent.jsonl");
    const r = demoClient("c1.json", tapped(trace, [], replayAgent(lost.trace, "s1.json")));
    expect(r.status, r.stderr).toBe(0);
    const sub = r.report.submissions[0];
    expect(sub?.attempts.map((a) => a.outcome?.kind)).toEqual(["timeout", "answered"]);
    expect(sub?.messageId).toBe(lost.messageId);
    // On the wire (the tap's trace): one key, two attempts, one messageId.
    const a = analyze(trace);
    expect(a.submissions).toHaveLength(1);
    expect(a.submissions[0]?.key).toBe(sub?.key);
    expect(a.submissions[0]?.attempts).toHaveLength(2);
    expect(a.submissions[0]?.verdicts.map((v) => v.name)).toEqual(["deduplicated"]);
    expect(agentStderr(trace)).toContain("lost again (its answer was dropped by lose-and-retry)");
  }, 90_000);

  it("a client that resends under a new key: the recording cannot answer it (-32603, marked in the trace), and analyze says new-key-on-resend when a tap in front drops the answer", () => {
    const trace = join(work, "new-key.jsonl");
    const r = demoClient(
      "c2.json",
      tapped(
        trace,
        ["--fault", "drop-response:method=session/prompt"],
        replayAgent(lost.trace, "s2.json", "--faults", "none"),
      ),
      "--misbehave",
      "new-key-on-retry",
      "--retries",
      "1",
    );
    expect(r.status).toBe(1);
    expect(r.stderr).not.toContain("Error:");
    const names = analyze(trace).submissions.flatMap((s) => s.verdicts.map((v) => v.name));
    expect(names).toContain("new-key-on-resend");
    const text = readFileSync(trace, "utf8");
    expect(text).toContain("replay --as agent: cannot answer session/prompt");
    expect(text).toContain('\\"code\\":-32603');
    expect(agentStderr(trace)).toContain("not re-applied (--faults none); for a tap in front: proxy --fault");
  }, 90_000);

  it("a recorded restart: the replay ends by SIGKILL where the agent did; demo-client respawns it and gets the next part (the recorded messageId)", () => {
    const restarted = record("restart", "restart-and-retry:method=session/prompt");
    const r = demoClient("c3.json", replayAgent(restarted.trace, "s3.json"));
    expect(r.status, r.stderr).toBe(0);
    expect(r.report.connections).toBe(2);
    const attempts = r.report.submissions[0]?.attempts ?? [];
    expect(attempts.map((a) => a.conn)).toEqual([1, 2]);
    expect(attempts[0]?.outcome?.kind).not.toBe("answered");
    expect(r.report.submissions[0]?.messageId).toBe(restarted.messageId);
    const state = JSON.parse(readFileSync(join(work, "s3.json"), "utf8")) as { respawn: boolean };
    expect(state.respawn).toBe(false);
  }, 120_000);

  it("as the agent of conformance, a case runs: the recorded submission and its retry pass, the probe's new key is beyond the recording", () => {
    const r = cli([
      "conformance",
      "--json",
      "--quiet",
      "--only",
      "retry-same-connection",
      "--traces-dir",
      join(work, "conformance"),
      "--",
      ...replayAgent(lost.trace, "s5.json", "--faults", "none"),
    ]);
    expect(r.status, r.stderr).toBe(1);
    const report = JSON.parse(r.stdout) as { cases: { name: string; status: string; reason: string }[] };
    expect(report.cases.map((c) => [c.name, c.status])).toEqual([["retry-same-connection", "fail"]]);
    expect(report.cases[0]?.reason).toContain(
      "the probe prompt was answered with error -32603 replay --as agent: cannot answer session/prompt",
    );
  }, 90_000);

  it("a request the recording cannot answer gets -32603 naming the method and why; bad TRACE is a usage error", () => {
    const lines = [
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: 2 } },
      { jsonrpc: "2.0", id: 2, method: "session/list", params: {} },
      { jsonrpc: "2.0", id: 3, method: "initialize", params: { protocolVersion: 2 } },
    ];
    const r = cli(
      ["replay", "--as", "agent", lost.trace, "--state", join(work, "s4.json")],
      `${lines.map((l) => JSON.stringify(l)).join("\n")}\nnot json\n`,
    );
    expect(r.status, r.stderr).toBe(0);
    const out = r.stdout
      .trim()
      .split("\n")
      .map(
        (l) => JSON.parse(l) as { id: unknown; result?: unknown; error?: { code: number; message: string } },
      );
    expect(out[0]).toMatchObject({ id: 1, result: { protocolVersion: 2 } });
    expect(out[1]).toMatchObject({ id: 2, error: { code: -32603 } });
    expect(out[1]?.error?.message).toBe(
      "replay --as agent: cannot answer session/list: the recording has no session/list request",
    );
    expect(out[2]?.error?.message).toContain("all 1 recorded initialize request(s) are used");
    expect(out[3]).toMatchObject({ id: null, error: { code: -32600 } });

    const missing = cli(["replay", "--as", "agent", join(work, "nope.jsonl")]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("cannot read");
    const bad = cli(["replay", "--as", "client", lost.trace]);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--as expects agent");
  }, 60_000);
});
