import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import * as acpV1 from "@agentclientprotocol/sdk";
import * as acpV2 from "@agentclientprotocol/sdk/experimental/v2";
import { afterAll, describe, expect, it } from "vitest";
import type { FrameRecord, TraceRecord } from "../../../shared/trace/record.js";
import { scriptedAgent, startProxy, traceEvents, traceRecords, within } from "../../tap/testing/proxy-run.js";
import { TRACE_DIR_ENV } from "../../trace/default-trace-path.js";
import { parseProxyArgs } from "./proxy.js";

const dir = mkdtempSync(join(tmpdir(), "acp-ri-proxy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const tracePath = () => join(dir, `t${++n}.jsonl`);
const SDK_AGENT = join(import.meta.dirname, "../../tap/testing/sdk-agent.mjs");
const frames = (records: TraceRecord[]) => records.filter((r): r is FrameRecord => r.type === "frame");

describe("parseProxyArgs", () => {
  it("splits options from the agent command", () => {
    expect(parseProxyArgs(["--trace", "t.jsonl", "--", "agent", "--flag"])).toEqual({
      trace: "t.jsonl",
      command: ["agent", "--flag"],
    });
    expect(parseProxyArgs(["--trace=t", "agent"])).toEqual({ trace: "t", command: ["agent"] });
    expect(parseProxyArgs(["agent", "--trace", "x"])).toEqual({ command: ["agent", "--trace", "x"] });
  });

  it("rejects a missing command, a missing --trace value and unknown options", () => {
    expect(() => parseProxyArgs(["--trace", "t"])).toThrow(/no agent command/);
    expect(() => parseProxyArgs(["--trace"])).toThrow(/needs a file path/);
    expect(() => parseProxyArgs(["--bogus", "--", "a"])).toThrow(/unknown option/);
  });

  it("takes --fault (repeatable), --no-hub, --listen and --agent-url", () => {
    expect(
      parseProxyArgs(["--fault", "kill-agent", "--fault=delay:delay-ms=5", "--no-hub", "--", "agent"]),
    ).toEqual({ faults: ["kill-agent", "delay:delay-ms=5"], noHub: true, command: ["agent"] });
    expect(parseProxyArgs(["--listen", "ws://127.0.0.1:0", "--agent-url", "ws://127.0.0.1:9/acp"])).toEqual({
      listen: "ws://127.0.0.1:0",
      agentUrl: "ws://127.0.0.1:9/acp",
      command: [],
    });
    expect(() => parseProxyArgs(["--agent-url", "ws://x/acp"])).toThrow(/needs --listen/);
    expect(() =>
      parseProxyArgs(["--listen", "ws://127.0.0.1:0", "--agent-url", "ws://x", "--", "a"]),
    ).toThrow(/not both/);
    expect(parseProxyArgs(["--listen", "ws://127.0.0.1:0", "--agent-url", "http://127.0.0.1:9/acp"])).toEqual(
      {
        listen: "ws://127.0.0.1:0",
        agentUrl: "http://127.0.0.1:9/acp",
        command: [],
      },
    );
    expect(() => parseProxyArgs(["--listen", "ws://127.0.0.1:0", "--agent-url", "ftp://x"])).toThrow(
      /ws:\/\/, wss:\/\/, http:\/\/ or https:\/\//,
    );
    expect(() => parseProxyArgs(["--fault"])).toThrow(/--fault needs a value/);
  });
});

describe("proxy with real SDK peers", () => {
  it.each(["v1", "v2"] as const)("carries a %s session unchanged and records every frame", async (v) => {
    const trace = tracePath();
    const run = startProxy(["--trace", trace], [process.execPath, SDK_AGENT, v]);
    const acp = v === "v2" ? acpV2 : acpV1;
    const stream = acp.ndJsonStream(
      Writable.toWeb(run.child.stdin) as WritableStream<Uint8Array>,
      Readable.toWeb(run.child.stdout) as ReadableStream<Uint8Array>,
    );
    const updates: unknown[] = [];
    const session = within(
      (acp.client() as acpV1.ClientApp)
        .onNotification("session/update", (ctx) => {
          updates.push(ctx.params);
        })
        .connectWith(stream as acpV1.Stream, async (agent) => {
          const init =
            v === "v2"
              ? await agent.request("initialize", {
                  protocolVersion: 2,
                  info: { name: "test", version: "1" },
                  capabilities: {},
                } as never)
              : await agent.request("initialize", { protocolVersion: 1, clientCapabilities: {} });
          const s = await agent.request("session/new", { cwd: dir, mcpServers: [] });
          const r = await agent.request("session/prompt", {
            sessionId: s.sessionId,
            prompt: [{ type: "text", text: "hi" }],
          });
          return { init, r };
        }),
      15_000,
      "the SDK session",
    );
    const { init, r } = await session;
    expect(init.protocolVersion).toBe(v === "v2" ? 2 : 1);
    expect(r).toEqual(v === "v2" ? { messageId: "m1" } : { stopReason: "end_turn" });
    expect(JSON.stringify(updates)).toContain("echo: hi");
    run.child.stdin.end();
    const done = await within(run.done, 10_000, "the proxy to exit");
    expect(done.code).toBe(0);

    const records = await traceRecords(trace);
    const f = frames(records);
    const methods = f.map(
      (x) => `${x.dir} ${(JSON.parse(x.raw) as { method?: string }).method ?? "response"}`,
    );
    expect(methods).toEqual([
      "client->agent initialize",
      "agent->client response",
      "client->agent session/new",
      "agent->client response",
      "client->agent session/prompt",
      "agent->client session/update",
      "agent->client response",
    ]);
    expect(f.every((x) => x.flags === undefined && x.conn === 1)).toBe(true);
    expect(records.map((x) => x.type)).toEqual([
      "conn-open",
      "agent-spawn",
      ...f.map(() => "frame"),
      "conn-close",
      "agent-exit",
    ]);
    expect(records.map((x) => x.seq)).toEqual(records.map((_, i) => i + 1));
  });
});

describe("proxy process behaviour", () => {
  it("forwards flagged lines untouched and records them flagged", async () => {
    const trace = tracePath();
    const run = startProxy(["--trace", trace], scriptedAgent("echo"));
    const input = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"x"}\r\n'),
      Buffer.from("stdout noise\n[1,2]\n\n"),
      Buffer.from([0xc3, 0x28, 0x0a]),
      Buffer.from('{"jsonrpc":"2.0","method":"tail"}'),
    ]);
    run.child.stdin.end(input);
    const done = await within(run.done, 10_000, "the proxy to exit");
    expect(done.stdout.equals(input)).toBe(true);
    const f = frames(await traceRecords(trace)).filter((x) => x.dir === "client->agent");
    expect(f.map((x) => [x.raw, x.encoding, x.flags])).toEqual([
      ['{"jsonrpc":"2.0","id":1,"method":"x"}\r', undefined, undefined],
      ["stdout noise", undefined, ["malformed"]],
      ["[1,2]", undefined, ["malformed"]],
      ["", undefined, ["malformed"]],
      [Buffer.from([0xc3, 0x28]).toString("base64"), "base64", ["malformed", "not-utf8"]],
      ['{"jsonrpc":"2.0","method":"tail"}', undefined, ["unterminated"]],
    ]);
  });

  it("exits with the agent's exit status after the client closes stdin", async () => {
    const trace = tracePath();
    const run = startProxy(["--trace", trace], scriptedAgent("exit", "3"));
    run.child.stdin.end('{"jsonrpc":"2.0","method":"bye"}\n');
    const done = await within(run.done, 10_000, "the proxy to exit");
    expect(done.code).toBe(3);
    const records = await traceRecords(trace);
    expect(records.at(-1)).toMatchObject({ type: "agent-exit", code: 3, signal: null });
    expect(records.find((r) => r.type === "conn-close")).toMatchObject({ reason: "client closed stdin" });
  });

  it("forwards SIGTERM to the agent and exits with the status the agent chose", async () => {
    const trace = tracePath();
    const run = startProxy(["--trace", trace], scriptedAgent("await-signal", "42"));
    await within(run.stdoutContains('{"ready":true}'), 10_000, "the agent to be ready");
    run.child.kill("SIGTERM");
    const done = await within(run.done, 10_000, "the proxy to exit");
    expect(done.code).toBe(42);
    expect(done.stdout.toString()).toContain('{"signal":"SIGTERM"}');
    const records = await traceRecords(trace);
    expect(records.some((r) => r.type === "note" && r.text.includes("received SIGTERM"))).toBe(true);
    expect(records.find((r) => r.type === "agent-exit")).toMatchObject({ code: 42 });
  });

  it("dies of the same signal when the agent dies of a forwarded SIGINT", async () => {
    const trace = tracePath();
    const run = startProxy(["--trace", trace], scriptedAgent("await-signal"));
    await within(run.stdoutContains('{"ready":true}'), 10_000, "the agent to be ready");
    run.child.kill("SIGINT");
    const done = await within(run.done, 10_000, "the proxy to exit");
    expect(done.signal).toBe("SIGINT");
    const records = await traceRecords(trace);
    expect(records.find((r) => r.type === "agent-exit")).toMatchObject({ code: null, signal: "SIGINT" });
  });

  it("exits 127 with a clear message when the agent command does not exist", async () => {
    const trace = tracePath();
    const run = startProxy(["--trace", trace], [join(dir, "no-such-agent")]);
    const done = await within(run.done, 10_000, "the proxy to exit");
    expect(done.code).toBe(127);
    expect(done.stderr).toContain("cannot start agent");
    expect(done.stderr).toContain("command not found (ENOENT)");
    const records = await traceRecords(trace);
    expect(records.map((r) => r.type)).toEqual(["conn-open", "note", "conn-close"]);
    expect(records[1]).toMatchObject({ level: "error" });
  });

  it("passes the agent's stderr through and records it line by line", async () => {
    const trace = tracePath();
    const run = startProxy(["--trace", trace], scriptedAgent("stderr", "first line", "zweite Zeile ü"));
    run.child.stdin.end();
    const done = await within(run.done, 10_000, "the proxy to exit");
    expect(done.stderr).toContain("first line\nzweite Zeile ü\n");
    const lines = (await traceRecords(trace)).flatMap((r) => (r.type === "agent-stderr" ? [r.text] : []));
    expect(lines).toEqual(["first line", "zweite Zeile ü"]);
  });

  it.each([
    [
      "a path under a regular file (cannot open)",
      () => {
        const file = join(dir, "not-a-dir");
        writeFileSync(file, "");
        return { path: join(file, "trace.jsonl"), message: /ENOTDIR/, untouched: [] as string[] };
      },
    ],
    [
      "a symbolic link (never followed)",
      () => {
        const target = join(dir, "precious.txt");
        writeFileSync(target, "precious\n");
        const path = join(dir, "link.jsonl");
        symlinkSync(target, path);
        return { path, message: /it is a symbolic link/, untouched: [target] };
      },
    ],
    [
      "/dev/full (an existing device)",
      () => ({ path: "/dev/full", message: /it already exists|belongs to another user/, untouched: [] }),
    ],
  ])("keeps forwarding when the trace file is %s and says so once on stderr", async (_, given) => {
    const { path, message, untouched } = given();
    const before = untouched.map((f) => readFileSync(f, "utf8"));
    const run = startProxy(["--no-hub", "--trace", path], scriptedAgent("echo"));
    const input = `${'{"jsonrpc":"2.0","method":"ping"}\n'.repeat(20_000)}`;
    run.child.stdin.end(input);
    const done = await within(run.done, 15_000, "the proxy to exit");
    expect(done.code).toBe(0);
    expect(done.stdout.toString()).toBe(input);
    expect(done.stderr).toMatch(/cannot write trace file .*; still forwarding, without a trace/);
    expect(done.stderr).toMatch(message);
    expect(done.stderr.match(/cannot write trace file/g)).toHaveLength(1);
    expect(untouched.map((f) => readFileSync(f, "utf8"))).toEqual(before);
  });

  it("given the --trace of an earlier or running proxy, writes FILE-2 (then -3) beside it, says so, and replaces nothing", async () => {
    const path = join(dir, "same.jsonl");
    writeFileSync(path, "an earlier trace\n");
    const runs: string[] = [];
    for (const expected of ["same-2.jsonl", "same-3.jsonl"]) {
      const run = startProxy(["--no-hub", "--trace", path], scriptedAgent("echo"));
      run.child.stdin.end('{"jsonrpc":"2.0","method":"hello"}\n');
      const done = await within(run.done, 15_000, "the proxy to exit");
      expect(done.code).toBe(0);
      expect(done.stderr).toContain(
        `trace: ${path} already exists (an earlier trace, or a proxy still running with the same --trace); it is never replaced: writing ${join(dir, expected)} instead`,
      );
      expect(done.stderr).not.toMatch(/without a trace/);
      runs.push(readFileSync(join(dir, expected), "utf8"));
    }
    expect(readFileSync(path, "utf8")).toBe("an earlier trace\n");
    for (const text of runs) expect(text).toContain('"method\\":\\"hello\\"');
  });

  it("writes its trace file 0600", async () => {
    const trace = tracePath();
    const run = startProxy(["--no-hub", "--trace", trace], scriptedAgent("echo"));
    run.child.stdin.end('{"jsonrpc":"2.0","method":"hello"}\n');
    expect((await within(run.done, 10_000, "the proxy to exit")).code).toBe(0);
    expect(statSync(trace).mode & 0o777).toBe(0o600);
  });

  it("runs untraced, with one warning, when the default trace folder is a symbolic link", async () => {
    const target = join(dir, "link-target");
    mkdirSync(target);
    const link = join(dir, "linked-traces");
    symlinkSync(target, link);
    const run = startProxy(["--no-hub"], scriptedAgent("echo"), { ...process.env, [TRACE_DIR_ENV]: link });
    run.child.stdin.end('{"jsonrpc":"2.0","method":"hello"}\n');
    const done = await within(run.done, 10_000, "the proxy to exit");
    expect(done.code).toBe(0);
    expect(done.stdout.toString()).toBe('{"jsonrpc":"2.0","method":"hello"}\n');
    expect(done.stderr).toBe(
      `acp-retry-inspector: cannot use the folder ${link}: it is a symbolic link; still forwarding, without a trace\n`,
    );
    expect(readdirSync(target)).toEqual([]);
  });

  it("writes to a new file in the default trace folder when --trace is not given", async () => {
    const traceDir = join(dir, "default", "traces");
    const run = startProxy(["--no-hub"], scriptedAgent("echo"), {
      ...process.env,
      [TRACE_DIR_ENV]: traceDir,
    });
    run.child.stdin.end('{"jsonrpc":"2.0","method":"hello"}\n');
    const done = await within(run.done, 10_000, "the proxy to exit");
    expect(done.code).toBe(0);
    const files = readdirSync(traceDir);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{8}T\d{6}Z-\d+\.jsonl$/);
    expect(done.stderr).toContain(join(traceDir, files[0]!));
    const events = await traceEvents(join(traceDir, files[0]!));
    expect(events[0]).toMatchObject({ kind: "header", header: { transport: "stdio" } });
    // private: the folders it created 0700, the file 0600
    expect(statSync(traceDir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, "default")).mode & 0o777).toBe(0o700);
    expect(statSync(join(traceDir, files[0]!)).mode & 0o777).toBe(0o600);
  });

  it("streams a line longer than MAX_FRAME_BYTES through and records its prefix as oversize", async () => {
    const trace = tracePath();
    const run = startProxy(["--trace", trace], scriptedAgent("echo"));
    const size = 33 * 1024 * 1024;
    // Three-byte characters: the 64 KiB prefix ends inside one, so the record must cut before it.
    const big = Buffer.alloc(size + 1, "€");
    big[size] = 0x0a;
    const after = Buffer.from('{"jsonrpc":"2.0","method":"after"}\n');
    run.child.stdin.write(big);
    run.child.stdin.end(after);
    const done = await within(run.done, 50_000, "the proxy to exit");
    expect(done.stdout.equals(Buffer.concat([big, after]))).toBe(true);
    const f = frames(await traceRecords(trace));
    const prefix = "€".repeat(Math.floor((64 * 1024) / 3));
    expect(f.map((x) => [x.dir, x.flags, x.bytes, x.raw === prefix])).toEqual([
      ["client->agent", ["oversize"], size, true],
      ["client->agent", undefined, undefined, false],
      ["agent->client", ["oversize"], size, true],
      ["agent->client", undefined, undefined, false],
    ]);
  }, 60_000);
});
