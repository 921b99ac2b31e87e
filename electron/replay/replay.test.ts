import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliPath } from "../tools/testing/cli.js";

/** `replay` through the built CLI: real tap, real demo-agent, real demo-client for the recording. */
const work = mkdtempSync(join(tmpdir(), "acp-ri-replay-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const node = process.execPath;
const cli = (args: string[], timeout = 60_000) =>
  spawnSync(node, [cliPath(), ...args], { encoding: "utf8", timeout, cwd: work });
const agent = (store: string, ...more: string[]) => [
  node,
  cliPath(),
  "demo-agent",
  "--store",
  join(work, store),
  ...more,
];

interface Submission {
  key: string | null;
  sessionId: string;
  inserts: number;
  verdicts: { name: string }[];
  attempts: { outcome: { kind: string }; origin?: string }[];
}
interface Analysis {
  header: { replayOf?: { trace: string; sha256: string } };
  submissions: Submission[];
  traceNotes: { text: string }[];
}
const analyze = (trace: string): Analysis => JSON.parse(cli(["analyze", "--json", trace]).stdout) as Analysis;
const firstFrames = (trace: string) =>
  readFileSync(trace, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => JSON.parse(l) as { type: string; dir?: string; raw?: string; origin?: string });

const source = join(work, "source.jsonl");
beforeAll(() => {
  const rec = cli([
    "demo-client",
    "--prompt",
    "deploy it",
    "--prompt",
    "and test",
    "--",
    node,
    cliPath(),
    "proxy",
    "--no-hub",
    "--trace",
    source,
    "--fault",
    "lose-and-retry:method=session/prompt",
    "--",
    ...agent("source-store"),
  ]);
  expect(rec.status, rec.stderr).toBe(0);
}, 90_000);

describe("replay TRACE -- AGENT (issue 32 item 1)", () => {
  it("replays a lose-and-retry session: the same keys, the answer lost again, deduplicated by the correct agent and inserted twice by the naive one", () => {
    const src = analyze(source);
    const srcKeys = src.submissions.map((s) => s.key);
    expect(src.submissions[0]?.verdicts.map((v) => v.name)).toEqual(["deduplicated"]);

    const good = join(work, "good.jsonl");
    const r1 = cli(["replay", source, "--no-hub", "--trace", good, "--", ...agent("good-store")]);
    expect(r1.status, r1.stderr).toBe(0);
    expect(r1.stderr).toContain(`trace: ${good}`);
    const a = analyze(good);
    const sha256 = createHash("sha256").update(readFileSync(source)).digest("hex");
    expect(a.header.replayOf).toEqual({ trace: source, sha256 });
    expect(a.submissions.map((s) => s.key)).toEqual(srcKeys);
    // The new agent's session replaced the recorded one in every frame after session/new.
    expect(a.submissions[0]?.sessionId).not.toBe(src.submissions[0]?.sessionId);
    expect(a.traceNotes.map((n) => n.text).join("\n")).toContain(
      `session ${src.submissions[0]?.sessionId} of the recording is ${a.submissions[0]?.sessionId}`,
    );
    const lost = a.submissions[0]?.attempts[0]?.outcome.kind;
    expect(lost).toBe("dropped");
    expect(a.submissions[0]?.attempts[1]?.origin).toBe("inspector");
    expect(a.submissions[0]?.verdicts.map((v) => v.name)).toEqual(["deduplicated"]);
    expect(a.submissions[1]?.verdicts.map((v) => v.name)).toEqual(["single"]);

    const naive = join(work, "naive.jsonl");
    const r2 = cli([
      "replay",
      source,
      "--no-hub",
      "--trace",
      naive,
      "--",
      ...agent("naive-store", "--mode", "naive"),
    ]);
    expect(r2.status, r2.stderr).toBe(0);
    const b = analyze(naive);
    expect(b.submissions.map((s) => s.key)).toEqual(srcKeys);
    expect(b.submissions[0]?.attempts[0]?.outcome.kind).toBe("dropped");
    expect(b.submissions[0]?.verdicts.map((v) => v.name)).toEqual(["duplicate-insert"]);
    expect(b.submissions[0]?.inserts).toBe(2);
  }, 90_000);

  it("replays a restart-and-retry session: the agent is restarted at the same key again, and diff gates the naive build", () => {
    const rr = join(work, "restart.jsonl");
    const rec = cli([
      "demo-client",
      "--prompt",
      "deploy it",
      "--",
      node,
      cliPath(),
      "proxy",
      "--no-hub",
      "--trace",
      rr,
      "--fault",
      "restart-and-retry:method=session/prompt",
      "--",
      ...agent("rr-source-store"),
    ]);
    expect(rec.status, rec.stderr).toBe(0);
    const key = analyze(rr).submissions[0]?.key;
    const good = join(work, "restart-good.jsonl");
    const naive = join(work, "restart-naive.jsonl");
    expect(cli(["replay", rr, "--no-hub", "--trace", good, "--", ...agent("rr-good")]).status).toBe(0);
    const r = cli([
      "replay",
      rr,
      "--no-hub",
      "--trace",
      naive,
      "--",
      ...agent("rr-naive", "--mode", "naive"),
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain(`--fault restart-and-retry:method=session/prompt,key=${key},count=1`);
    expect(firstFrames(naive).filter((x) => x.type === "agent-spawn")).toHaveLength(2);
    expect(analyze(good).submissions.map((s) => [s.key, s.verdicts.map((v) => v.name)])).toEqual([
      [key, ["deduplicated"]],
    ]);
    expect(analyze(naive).submissions.map((s) => [s.key, s.verdicts.map((v) => v.name)])).toEqual([
      [key, ["duplicate-insert"]],
    ]);
    // diff (issue 32 item 3) by key: worse against the naive build, not against the correct one.
    expect(cli(["diff", rr, naive]).status).toBe(1);
    expect(cli(["diff", rr, good]).status).toBe(0);
  }, 90_000);

  it("--faults none sends the same frames with no fault: one attempt per key (--timing recorded, gaps capped)", () => {
    const out = join(work, "nofault.jsonl");
    const r = cli([
      "replay",
      source,
      "--faults",
      "none",
      "--timing",
      "recorded",
      "--max-gap-ms",
      "5",
      "--no-hub",
      "--trace",
      out,
      "--",
      ...agent("nofault-store"),
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(firstFrames(out).filter((x) => x.type === "fault")).toEqual([]);
    expect(analyze(out).submissions.map((s) => s.verdicts.map((v) => v.name))).toEqual([
      ["single"],
      ["single"],
    ]);
  }, 60_000);

  it("a trace with no client frames is exit 2 with the words, and no agent is started", () => {
    const empty = join(work, "no-client.jsonl");
    const lines = readFileSync(source, "utf8").trim().split("\n");
    writeFileSync(
      empty,
      `${[lines[0], ...lines.slice(1).filter((l) => !l.includes('"client->agent"'))].join("\n")}\n`,
    );
    const r = cli([
      "replay",
      empty,
      "--no-hub",
      "--trace",
      join(work, "never.jsonl"),
      "--",
      ...agent("never"),
    ]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("no client frames");
    const unreadable = cli(["replay", join(work, "missing.jsonl"), "--", "true"]);
    expect(unreadable.status).toBe(2);
    expect(unreadable.stderr).toContain("cannot read");
  });

  it("a truncated trace is replayed as far as it reads, and exits 1 saying it was incomplete", () => {
    const cut = join(work, "truncated.jsonl");
    const text = readFileSync(source, "utf8");
    const lines = text.split("\n");
    const upTo = lines.findIndex((l) => l.includes('"dropped":true'));
    writeFileSync(cut, `${lines.slice(0, upTo).join("\n")}\n${(lines[upTo] as string).slice(0, 40)}`);
    const out = join(work, "truncated-replay.jsonl");
    const r = cli(["replay", cut, "--no-hub", "--trace", out, "--", ...agent("cut-store")]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/could not be read \(first: line \d+/);
    expect(r.stderr).toContain("incomplete");
    expect(analyze(out).submissions.map((s) => s.key)).toEqual(analyze(source).submissions.map((s) => s.key));
  }, 60_000);

  it("an agent that cannot be started is exit 1 with the reason, and the trace says what happened", () => {
    const out = join(work, "dead.jsonl");
    const r = cli(["replay", source, "--no-hub", "--trace", out, "--", join(work, "no-such-agent")]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/stopped: the tap exited/);
    expect(firstFrames(out).some((x) => x.type === "note" || x.type === "conn-close")).toBe(true);
  }, 30_000);

  it.each([
    ["zed-copy-all.json", "Zed"],
    ["sacp-trace.jsons", "sacp"],
    ["acp-inspector.jsonl", "venikman ACP-inspector"],
    ["chrome-websocket.har", "HAR (WebSocket)"],
    ["streamable-http.har", "HAR (Streamable HTTP)"],
    ["acp-devtools-export.json", "acp-devtools"],
  ])(
    "replays the foreign fixture %s against demo-agent with its sessions mapped and keys kept",
    (file, _label) => {
      const fixture = join(import.meta.dirname, "../../e2e/fixtures/imports", file);
      const src = analyze(fixture);
      const out = join(work, `${file}.replay.jsonl`);
      const r = cli(["replay", fixture, "--no-hub", "--trace", out, "--", ...agent(`${file}-store`)]);
      expect(r.status, r.stderr).toBe(0);
      const a = analyze(out);
      const keyed = (x: Analysis) => [...new Set(x.submissions.map((s) => s.key).filter((k) => k !== null))];
      expect(keyed(a)).toEqual(keyed(src));
      const recorded = new Set(src.submissions.map((s) => s.sessionId));
      expect(a.submissions.length).toBeGreaterThan(0);
      for (const s of a.submissions) expect(recorded.has(s.sessionId)).toBe(false);
      expect(a.traceNotes.some((n) => / of the recording is /.test(n.text))).toBe(true);
    },
    60_000,
  );

  it("answers the agent's permission requests as recorded, then by --permissions, and the trace says which", () => {
    // A small agent of the test's own (not this project's code): asks permission in every prompt and
    // answers the prompt with a messageId naming the option it got (or the error).
    const agentScript = join(work, "asking-agent.mjs");
    writeFileSync(
      agentScript,
      `import { createInterface } from "node:readline";
const out = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\\n");
const waiting = new Map();
let ask = 100;
createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize") out({ id: m.id, result: { protocolVersion: 2, info: { name: "asker", version: "1" }, capabilities: { session: {} } } });
  else if (m.method === "session/new") out({ id: m.id, result: { sessionId: "asker-session" } });
  else if (m.method === "session/prompt") {
    const id = ask++;
    waiting.set(id, m.id);
    out({ id, method: "session/request_permission", params: { sessionId: m.params.sessionId, toolCall: { toolCallId: "t" }, options: [{ optionId: "ok", name: "Allow", kind: "allow_once" }, { optionId: "no", name: "Reject", kind: "reject_once" }] } });
  } else if (waiting.has(m.id)) {
    const got = m.result ? m.result.outcome.optionId ?? m.result.outcome.outcome : "error";
    out({ id: waiting.get(m.id), result: { messageId: "m-" + got } });
  }
});
`,
    );
    const rec = (id: number, dir: string, msg: object, seq: number) =>
      JSON.stringify({
        seq,
        ts: seq,
        type: "frame",
        conn: 1,
        dir,
        raw: JSON.stringify({ jsonrpc: "2.0", id, ...msg }),
      });
    const prompt = (key: string) => ({
      method: "session/prompt",
      params: { sessionId: "old-session", prompt: [{ type: "text", text: key }], idempotencyKey: key },
    });
    const perm = {
      method: "session/request_permission",
      params: { options: [{ optionId: "ok", kind: "allow_once" }] },
    };
    const src = join(work, "asks.jsonl");
    writeFileSync(
      src,
      `${[
        JSON.stringify({
          format: "acp-retry-inspector-trace",
          version: 1,
          tool: "t",
          startedAt: "2026-01-01T00:00:00Z",
        }),
        rec(1, "client->agent", { method: "initialize", params: { protocolVersion: 2 } }, 1),
        rec(1, "agent->client", { result: { protocolVersion: 2 } }, 2),
        rec(2, "client->agent", { method: "session/new", params: { cwd: "/", mcpServers: [] } }, 3),
        rec(2, "agent->client", { result: { sessionId: "old-session" } }, 4),
        rec(3, "client->agent", prompt("k-1"), 5),
        rec(0, "agent->client", perm, 6),
        rec(0, "client->agent", { result: { outcome: { outcome: "selected", optionId: "ok" } } }, 7),
        rec(3, "agent->client", { result: { messageId: "m-ok" } }, 8),
        rec(4, "client->agent", prompt("k-2"), 9),
        rec(4, "agent->client", { result: { messageId: "m-?" } }, 10),
      ].join("\n")}\n`,
    );
    const messageIds = (trace: string) =>
      firstFrames(trace)
        .filter((x) => x.type === "frame" && x.dir === "agent->client" && x.raw?.includes("messageId"))
        .map((x) => JSON.parse(x.raw ?? "{}").result.messageId);
    const notes = (trace: string) => analyze(trace).traceNotes.map((n) => n.text);

    const deny = join(work, "asks-deny.jsonl");
    const r1 = cli([
      "replay",
      src,
      "--permissions",
      "deny",
      "--no-hub",
      "--trace",
      deny,
      "--",
      node,
      agentScript,
    ]);
    expect(r1.status, r1.stderr).toBe(0);
    expect(messageIds(deny)).toEqual(["m-ok", "m-no"]);
    expect(notes(deny)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/answered the agent's session\/request_permission \(id 100\) as recorded/),
        expect.stringMatching(
          /answered the agent's session\/request_permission \(id 101\) by --permissions deny/,
        ),
      ]),
    );
    const strict = join(work, "asks-recorded.jsonl");
    const r2 = cli(["replay", src, "--no-hub", "--trace", strict, "--", node, agentScript]);
    expect(r2.status, r2.stderr).toBe(0);
    expect(messageIds(strict)).toEqual(["m-ok", "m-error"]);
    expect(notes(strict)).toEqual(
      expect.arrayContaining([expect.stringMatching(/\(id 101\) with an error/)]),
    );
  }, 60_000);
});

/** Starts `args` of the CLI in the background; resolves with the process and the first match of `pattern` on its stderr. */
async function background(args: string[], pattern: RegExp): Promise<{ child: ChildProcess; match: string }> {
  const child = spawn(node, [cliPath(), ...args], { cwd: work, stdio: ["ignore", "ignore", "pipe"] });
  started.push(child);
  const match = await new Promise<string>((resolve, reject) => {
    let text = "";
    const t = setTimeout(() => reject(new Error(`no ${pattern} on stderr: ${text}`)), 20_000);
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      text += chunk;
      const m = pattern.exec(text);
      if (m) {
        clearTimeout(t);
        resolve(m[1] ?? m[0]);
      }
    });
    child.once("exit", () => reject(new Error(`exited before ${pattern}: ${text}`)));
  });
  return { child, match };
}
const started: ChildProcess[] = [];
afterAll(() => {
  for (const c of started) if (c.exitCode === null && c.signalCode === null) c.kill("SIGTERM");
});
/** Stops a background process and waits for it. */
const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else {
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    }
  });
/** Like `cli`, without blocking this process (a background peer must keep running). */
const cliAsync = (args: string[]) =>
  new Promise<{ status: number | null; stderr: string }>((resolve) => {
    const child = spawn(node, [cliPath(), ...args], { cwd: work, stdio: ["ignore", "ignore", "pipe"] });
    started.push(child);
    let stderr = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (c: string) => {
      stderr += c;
    });
    child.on("close", (status) => resolve({ status, stderr }));
  });

describe("replay across transports (issue 32: --url, WebSocket recordings)", () => {
  it("--url: replays a stdio recording against a remote agent over WebSocket (the tap's --agent-url front), faults and keys kept", async () => {
    const remote = await background(
      ["demo-agent", "--store", join(work, "remote-store"), "--listen", "ws://127.0.0.1:0"],
      /listening (ws:\/\/\S+)/,
    );
    const tokenFile = join(work, "remote.token");
    writeFileSync(tokenFile, "not-needed-by-demo-agent\n");
    chmodSync(tokenFile, 0o600);
    const out = join(work, "url.jsonl");
    const r = await cliAsync([
      "replay",
      source,
      "--no-hub",
      "--trace",
      out,
      "--url",
      remote.match,
      "--agent-token-file",
      tokenFile,
    ]);
    await stop(remote.child);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("not-needed-by-demo-agent");
    const a = analyze(out);
    const src = analyze(source);
    expect(a.header.replayOf?.trace).toBe(source);
    expect(a.traceNotes.map((n) => n.text)).toContain(`forwarding to the agent at ${remote.match}`);
    expect(a.submissions.map((s) => s.key)).toEqual(src.submissions.map((s) => s.key));
    expect(a.submissions[0]?.sessionId).not.toBe(src.submissions[0]?.sessionId);
    expect(a.submissions[0]?.attempts[0]?.outcome.kind).toBe("dropped");
    expect(a.submissions[0]?.verdicts.map((v) => v.name)).toEqual(["deduplicated"]);
    expect(
      firstFrames(out).filter((x) => x.type === "frame" && x.dir === "client->agent").length,
    ).toBeGreaterThan(3);
    // Usage errors: both an agent and --url, a token file without --url.
    expect(cli(["replay", source, "--url", remote.match, "--", "true"]).status).toBe(2);
    expect(cli(["replay", source, "--agent-token-file", tokenFile, "--", "true"]).status).toBe(2);
  }, 90_000);

  it("replays a trace recorded over WebSocket (proxy --listen, demo-client --url) against a stdio agent", async () => {
    const wsTrace = join(work, "ws-source.jsonl");
    const front = await background(
      [
        "proxy",
        "--no-hub",
        "--trace",
        wsTrace,
        "--listen",
        "ws://127.0.0.1:0",
        "--fault",
        "lose-and-retry:method=session/prompt",
        "--",
        ...agent("ws-source-store"),
      ],
      /listening (ws:\/\/\S+) \(WebSocket\)/,
    );
    const rec = await cliAsync([
      "demo-client",
      "--url",
      front.match,
      "--token-file",
      `${wsTrace}.token`,
      "--prompt",
      "deploy it",
      "--prompt",
      "and test",
    ]);
    await stop(front.child);
    expect(rec.status, rec.stderr).toBe(0);
    const src = analyze(wsTrace);
    expect(src.submissions[0]?.verdicts.map((v) => v.name)).toEqual(["deduplicated"]);
    const out = join(work, "ws-to-stdio.jsonl");
    const r = cli(["replay", wsTrace, "--no-hub", "--trace", out, "--", ...agent("ws-to-stdio-store")]);
    expect(r.status, r.stderr).toBe(0);
    const a = analyze(out);
    expect(a.submissions.map((s) => s.key)).toEqual(src.submissions.map((s) => s.key));
    expect(a.submissions[0]?.attempts[0]?.outcome.kind).toBe("dropped");
    expect(a.submissions.map((s) => s.verdicts.map((v) => v.name))).toEqual([["deduplicated"], ["single"]]);
  }, 90_000);
});

describe("replay --faults PLAN.json (a fault plan file)", () => {
  it("a plan that drops the 2nd prompt's answer makes the loss happen in a replay of a fault-free recording", () => {
    const clean = join(work, "clean.jsonl");
    const rec = cli([
      "demo-client",
      "--prompt",
      "one",
      "--prompt",
      "two",
      "--prompt",
      "three",
      "--",
      node,
      cliPath(),
      "proxy",
      "--no-hub",
      "--trace",
      clean,
      "--",
      ...agent("clean-store"),
    ]);
    expect(rec.status, rec.stderr).toBe(0);
    const src = analyze(clean);
    expect(src.submissions.map((s) => s.attempts[0]?.outcome.kind)).not.toContain("dropped");
    const plan = join(work, "plan.json");
    writeFileSync(
      plan,
      JSON.stringify({ faults: [{ action: "drop-response", match: { method: "session/prompt" }, nth: 2 }] }),
    );
    const out = join(work, "planned.jsonl");
    const r = cli([
      "replay",
      clean,
      "--faults",
      plan,
      "--answer-timeout-ms",
      "3000",
      "--no-hub",
      "--trace",
      out,
      "--",
      ...agent("planned-store"),
    ]);
    expect(r.status, r.stderr).toBe(0);
    const key2 = src.submissions[1]?.key;
    expect(r.stderr).toContain(
      `arming the planned fault as --fault drop-response:method=session/prompt,key=${key2}`,
    );
    const a = analyze(out);
    expect(a.submissions.map((s) => s.key)).toEqual(src.submissions.map((s) => s.key));
    expect(a.submissions.map((s) => s.attempts[0]?.outcome.kind)).toEqual([
      expect.not.stringMatching(/^dropped$/),
      "dropped",
      expect.not.stringMatching(/^dropped$/),
    ]);
    expect(firstFrames(out).filter((x) => x.type === "fault")).toHaveLength(1);
  }, 60_000);

  it("a plan the fault vocabulary refuses is a usage error that says why, before any agent starts", () => {
    const bad = (name: string, text: string) => {
      const file = join(work, name);
      writeFileSync(file, text);
      return cli([
        "replay",
        source,
        "--faults",
        file,
        "--no-hub",
        "--trace",
        join(work, `${name}.out`),
        "--",
        "true",
      ]);
    };
    const unknown = bad("bad-action.json", JSON.stringify({ faults: [{ action: "melt-agent" }] }));
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/faults\[0\]: action must be one of .*drop-response/);
    const tooFar = bad(
      "bad-nth.json",
      JSON.stringify({ faults: [{ action: "drop-response", match: { method: "session/prompt" }, nth: 9 }] }),
    );
    expect(tooFar.status).toBe(2);
    expect(tooFar.stderr).toContain("fewer than 9 session/prompt request(s)");
    const notJson = bad("bad.json", "{");
    expect(notJson.status).toBe(2);
    expect(notJson.stderr).toContain("not JSON");
    expect(cli(["replay", source, "--faults", join(work, "no-plan.json"), "--", "true"]).stderr).toContain(
      "not a readable plan file",
    );
  });
});

describe("replay: an agent that exits at once", () => {
  it("is exit 1 with the reason on stderr, and the trace has the agent's exit", () => {
    const out = join(work, "exits.jsonl");
    const r = cli(["replay", source, "--no-hub", "--trace", out, "--", node, "-e", "process.exit(3)"]);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /stopped: the tap exited .* after \d+ of \d+ client frames \(tap: exit status 3\)/,
    );
    expect(firstFrames(out).some((x) => x.type === "agent-exit")).toBe(true);
  }, 30_000);
});

describe("replay: the wait for the recorded answers before closing", () => {
  it("lasts while answers keep coming, each at most --answer-timeout-ms apart, not N ms in all", () => {
    // The test's own slow agent: answers its queue of prompts one every 250 ms.
    const slow = join(work, "slow-agent.mjs");
    writeFileSync(
      slow,
      `import { createInterface } from "node:readline";
const out = (m) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\\n");
const queue = [];
setInterval(() => { const id = queue.shift(); if (id !== undefined) out({ id, result: { messageId: "m" + id } }); }, 250);
createInterface({ input: process.stdin }).on("line", (line) => {
  const m = JSON.parse(line);
  if (m.method === "initialize") out({ id: m.id, result: { protocolVersion: 2 } });
  else if (m.method === "session/new") out({ id: m.id, result: { sessionId: "slow" } });
  else if (m.method === "session/prompt") queue.push(m.id);
}).on("close", () => process.exit(0));
`,
    );
    const frame = (seq: number, dir: string, msg: object) =>
      JSON.stringify({
        seq,
        ts: seq,
        type: "frame",
        conn: 1,
        dir,
        raw: JSON.stringify({ jsonrpc: "2.0", ...msg }),
      });
    const lines = [
      JSON.stringify({
        format: "acp-retry-inspector-trace",
        version: 1,
        tool: "t",
        startedAt: "2026-01-01T00:00:00Z",
      }),
      frame(1, "client->agent", { id: 1, method: "initialize", params: { protocolVersion: 2 } }),
      frame(2, "agent->client", { id: 1, result: { protocolVersion: 2 } }),
      frame(3, "client->agent", { id: 2, method: "session/new", params: { cwd: "/", mcpServers: [] } }),
      frame(4, "agent->client", { id: 2, result: { sessionId: "old" } }),
    ];
    const prompts = 8;
    for (let i = 0; i < prompts; i++)
      lines.push(
        frame(5 + i, "client->agent", {
          id: 10 + i,
          method: "session/prompt",
          params: { sessionId: "old", prompt: [], idempotencyKey: `slow-${i}` },
        }),
      );
    for (let i = 0; i < prompts; i++)
      lines.push(
        frame(5 + prompts + i, "agent->client", { id: 10 + i, result: { messageId: `m${10 + i}` } }),
      );
    const src = join(work, "slow.jsonl");
    writeFileSync(src, `${lines.join("\n")}\n`);
    const out = join(work, "slow-replay.jsonl");
    const r = cli([
      "replay",
      src,
      "--answer-timeout-ms",
      "1000",
      "--no-hub",
      "--trace",
      out,
      "--",
      node,
      slow,
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toContain("closed after");
    const answers = firstFrames(out).filter((x) => x.type === "frame" && x.dir === "agent->client");
    expect(answers).toHaveLength(2 + prompts);
  }, 30_000);
});
