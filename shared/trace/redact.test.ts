import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { Analyzer } from "../analyzer/analyzer.js";
import { TraceScript } from "../analyzer/testing/trace-script.js";
import type { TimelineModel } from "../analyzer/timeline-model.js";
import { encodeHeader, encodeRecord } from "./codec.js";
import type { TraceHeader, TraceRecord } from "./record.js";
import { redactTrace } from "./redact.js";
import { plantedTrace, survivingSecrets } from "./testing/planted-secrets.js";

const S = "sess-1";
const KEY = "5f0c7b1e-8a44-4c1e-9d0b-2f3a4b5c6d7e";
const KEY2 = "b7d1e2f3-0000-4a4a-8b8b-123456789abc";
const SECRET = "PINEAPPLE-ZEBRA please refactor the billing module";
const C2A = "client->agent" as const;
const A2C = "agent->client" as const;

/** A trace that exercises every content field the redactor knows and most verdicts. */
function richTrace(): TraceScript {
  return (
    new TraceScript()
      .spawn(100)
      .open(1)
      .request(1, C2A, 0, "initialize", { protocolVersion: 2 })
      .result(1, A2C, 0, { protocolVersion: 2 })
      // deduplicated keyed retry over a connection break
      .prompt(1, 1, S, SECRET, KEY)
      .userMessage(1, S, "m1", SECRET)
      .notify(1, A2C, "session/update", {
        sessionId: S,
        update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `SECRET ${SECRET}` } },
      })
      .close(1)
      .open(2)
      .prompt(2, 1, S, SECRET, KEY)
      .inserted(2, 1, "m1")
      // same key, a different prompt of the same length: must stay "different" after redaction
      .prompt(2, 2, "sess-2", SECRET, KEY)
      .inserted(2, 2, "m5")
      .prompt(2, 20, "sess-2", SECRET.replace("PINEAPPLE", "PINEAPPLZ"), KEY)
      .inserted(2, 20, "m5")
      // a key leaked inside agent text
      .prompt(2, 3, S, "PINEAPPLE second submission", KEY2)
      .inserted(2, 3, "m2")
      .notify(2, A2C, "session/update", {
        sessionId: S,
        update: {
          sessionUpdate: "agent_message_chunk",
          content: { type: "text", text: `PINEAPPLE echo: ${KEY2}` },
        },
      })
      // unkeyed resend after a dropped answer
      .prompt(2, 4, S, "PINEAPPLE unkeyed")
      .inserted(2, 4, "m3", { dropped: true })
      .prompt(2, 5, S, "PINEAPPLE unkeyed")
      .inserted(2, 5, "m4")
      // session/new resent after its answer was lost
      .request(2, C2A, 6, "session/new", { cwd: "/home/u/proj", mcpServers: [] })
      .result(2, A2C, 6, { sessionId: "s-new" }, { dropped: true })
      .request(2, C2A, 7, "session/new", { cwd: "/home/u/proj", mcpServers: [] })
      .result(2, A2C, 7, { sessionId: "s-new2" })
      // file, terminal and tool content
      .request(2, A2C, 8, "fs/read_text_file", { sessionId: S, path: "/x/a.ts" })
      .result(2, C2A, 8, { content: "const PINEAPPLE = 1;" })
      .request(2, A2C, 9, "fs/write_text_file", { sessionId: S, path: "/x/b.ts", content: "PINEAPPLE()" })
      .request(2, A2C, 10, "terminal/create", { sessionId: S, command: "echo", args: ["PINEAPPLE"] })
      .request(2, A2C, 11, "terminal/output", { sessionId: S, terminalId: "t1" })
      .result(2, C2A, 11, { output: "PINEAPPLE\n", truncated: false })
      .notify(2, A2C, "session/update", {
        sessionId: S,
        update: {
          sessionUpdate: "tool_call",
          toolCallId: "tc1",
          title: "Edit PINEAPPLE",
          rawInput: { file: "PINEAPPLE.ts", n: 3 },
          content: [{ type: "diff", path: "/x/a.ts", oldText: "PINEAPPLE", newText: "PINEAPPLE2" }],
        },
      })
      .error(2, 12, -32602, "bad params", {})
      .stderr(100, "agent log: PINEAPPLE received")
      .raw(2, A2C, "PINEAPPLE not json")
      .raw(2, A2C, Buffer.from("PINEAPPLE\xff").toString("base64"), {
        encoding: "base64",
        flags: ["not-utf8"],
      })
      .exit(100, 1)
  );
}

function analyze(header: TraceHeader, records: readonly TraceRecord[]): TimelineModel {
  const a = new Analyzer();
  a.ingestHeader(header);
  for (const r of records) a.ingest(r);
  return a.model();
}

/** Everything the analyzer concludes, minus the display previews that redaction changes on purpose. */
function conclusions(m: TimelineModel) {
  return {
    verdictCounts: m.verdictCounts,
    submissions: m.submissions.map((s) => ({
      sessionId: s.sessionId,
      key: s.key,
      keyStatus: s.keyStatus,
      invalidKey: s.invalidKey,
      attempts: s.attempts,
      messageIds: s.messageIds,
      inserts: s.inserts,
      finalMessageId: s.finalMessageId,
      resendOf: s.resendOf,
      verdicts: s.verdicts,
    })),
    requests: m.requests,
    connections: m.connections,
    agents: m.agents,
    notifications: m.notifications,
    malformed: m.malformed.map((r) => ({ seq: r.seq, dropped: r.dropped, flags: r.flags })),
  };
}

function jsonl(header: TraceHeader, records: readonly TraceRecord[]): string {
  return encodeHeader(header) + records.map(encodeRecord).join("");
}

describe("redactTrace", () => {
  it("removes every prompt, message, file, terminal, tool and stderr text", () => {
    const t = richTrace();
    const before = t.jsonl();
    expect(before).toContain("PINEAPPLE");
    const { header, records } = redactTrace(t.header(), t.records, { full: false });
    const text = jsonl(header, records);
    expect(text).not.toContain("PINEAPPLE");
    expect(text).not.toContain("ZEBRA");
    expect(text).not.toContain("SECRET");
    expect(header.redacted).toBe(true);
    // the structure and the identifiers stay
    for (const kept of [KEY, "sess-1", "session/prompt", "m1", "m2", "-32602", "/x/a.ts", "tc1", "s-new2"]) {
      expect(text).toContain(kept);
    }
    expect(text).toContain(`[redacted #1: ${SECRET.length} chars]`);
    expect(t.jsonl()).toBe(before);
  });

  it("gives the same verdicts, grouping and outcomes as the original", () => {
    const t = richTrace();
    const original = analyze(t.header(), t.records);
    const { header, records } = redactTrace(t.header(), t.records, { full: false });
    const redacted = analyze(header, records);
    expect(conclusions(redacted)).toEqual(conclusions(original));
    const fired = Object.entries(original.verdictCounts).filter(([, n]) => n > 0);
    expect(fired.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        "deduplicated",
        "key-reused-different-prompt",
        "key-leaked",
        "unkeyed-resend",
        "duplicating-resend",
      ]),
    );
    expect(redacted.submissions[0]?.promptPreview).toBe(`[redacted #1: ${SECRET.length} chars]`);
  });

  it("leaves an export's placeholders as they are when the export is exported again", () => {
    const t = richTrace();
    const once = redactTrace(t.header(), t.records, { full: false });
    const twice = redactTrace(once.header, once.records, { full: false });
    expect(jsonl(twice.header, twice.records)).toBe(jsonl(once.header, once.records));
    expect(conclusions(analyze(twice.header, twice.records))).toEqual(
      conclusions(analyze(t.header(), t.records)),
    );
  });

  it("keeps a leaked key visible inside its placeholder", () => {
    const t = richTrace();
    const { records } = redactTrace(t.header(), t.records, { full: false });
    const leak = records.find((r) => r.type === "frame" && r.raw.includes(`contains key \\"${KEY2}\\"`));
    expect(leak).toBeDefined();
  });

  it("turns malformed and base64 frames into length placeholders, flags kept", () => {
    const t = new TraceScript()
      .raw(1, A2C, "PINEAPPLE not json")
      .raw(1, A2C, "AAECAw==", { encoding: "base64", flags: ["not-utf8"] })
      .raw(1, A2C, '{"jsonrpc":"2.0","id":1,"result":{"te', { flags: ["oversize"], bytes: 99_999 });
    const { records } = redactTrace(t.header(), t.records, { full: false });
    expect(records).toEqual([
      { type: "frame", seq: 1, ts: t.startTs + 1, conn: 1, dir: A2C, raw: "[redacted frame: 18 chars]" },
      {
        type: "frame",
        seq: 2,
        ts: t.startTs + 2,
        conn: 1,
        dir: A2C,
        raw: "[redacted frame: 4 bytes]",
        flags: ["not-utf8"],
      },
      {
        type: "frame",
        seq: 3,
        ts: t.startTs + 3,
        conn: 1,
        dir: A2C,
        raw: "[redacted frame: 99999 chars]",
        flags: ["oversize"],
        bytes: 99_999,
      },
    ]);
  });

  it("keeps frames without content byte-identical", () => {
    const t = new TraceScript().request(1, C2A, 1, "session/cancel", { sessionId: S });
    const { records } = redactTrace(t.header(), t.records, { full: false });
    expect(records[0]).toBe(t.records[0]);
  });

  it("with full: true returns the header and records byte-identical", () => {
    const t = richTrace();
    const { header, records } = redactTrace(t.header(), t.records, { full: true });
    expect(jsonl(header, records)).toBe(t.jsonl());
    expect(header.redacted).toBeUndefined();
  });

  it("never changes the analyzer's conclusions, whatever prompts repeat (property)", () => {
    const prompt = fc.record({
      conn: fc.constantFrom(1, 2),
      text: fc.constantFrom("aa", "ab", "ba", "abc", "PINEAPPLE"),
      key: fc.option(fc.constantFrom(KEY, KEY2, "k-short-1"), { nil: undefined }),
      answer: fc.constantFrom("m1", "m2", "drop", "err", "none"),
    });
    fc.assert(
      fc.property(fc.array(prompt, { maxLength: 12 }), (prompts) => {
        const t = new TraceScript().open(1).open(2);
        prompts.forEach((p, i) => {
          t.prompt(p.conn, i, S, p.text, p.key);
          if (p.answer === "drop") t.inserted(p.conn, i, "m9", { dropped: true });
          else if (p.answer === "err") t.error(p.conn, i, -32603);
          else if (p.answer !== "none") t.inserted(p.conn, i, p.answer);
          if (i % 4 === 3) t.close(p.conn).open(p.conn);
        });
        const original = analyze(t.header(), t.records);
        const { header, records } = redactTrace(t.header(), t.records, { full: false });
        expect(conclusions(analyze(header, records))).toEqual(conclusions(original));
      }),
      { numRuns: 200 },
    );
  });
});

/** The redacted export's text of a trace built by `build`, and the parsed frames of it. */
function exported(t: TraceScript, header: TraceHeader = t.header()) {
  const out = redactTrace(header, t.records, { full: false });
  const text = jsonl(out.header, out.records);
  const frames = out.records.flatMap((r) => (r.type === "frame" ? [JSON.parse(r.raw)] : []));
  return { text, frames, header: out.header, records: out.records };
}

describe("redactTrace: credentials, by name and by shape", () => {
  const TOKEN = "ghp_R4nd0mT0kenValue1234";

  it("replaces MCP server header values in session/new and session/resume, keeping header names", () => {
    const server = (type: string) => ({
      type,
      name: "github",
      url: "https://api.githubcopilot.com/mcp/",
      headers: [
        { name: "Authorization", value: `Bearer ${TOKEN}` },
        { name: "X-Team", value: "team-PLAIN-1" },
      ],
    });
    const t = new TraceScript()
      .request(1, C2A, 1, "session/new", { cwd: "/p", mcpServers: [server("http")] })
      .request(1, C2A, 2, "session/resume", { sessionId: S, cwd: "/p", mcpServers: [server("sse")] });
    const { text, frames } = exported(t);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain("team-PLAIN-1");
    for (const f of frames) {
      const headers = f.params.mcpServers[0].headers;
      expect(headers.map((h: { name: string }) => h.name)).toEqual(["Authorization", "X-Team"]);
      expect(headers[0].value).toBe(`[redacted #1: ${TOKEN.length + 7} chars]`);
      expect(f.params.mcpServers[0].url).toBe("https://api.githubcopilot.com/mcp/");
    }
  });

  it("replaces a header map's values, keeping its keys", () => {
    const t = new TraceScript().request(1, C2A, 1, "_x/connect", {
      headers: { "X-Api-Key": TOKEN, Accept: "a/b" },
    });
    const { frames } = exported(t);
    expect(Object.keys(frames[0].params.headers)).toEqual(["X-Api-Key", "Accept"]);
    expect(JSON.stringify(frames)).not.toContain(TOKEN);
  });

  it("replaces env values of stdio MCP servers", () => {
    const t = new TraceScript().request(1, C2A, 1, "session/new", {
      cwd: "/p",
      mcpServers: [{ name: "db", command: "/bin/mcp-db", args: [], env: [{ name: "DB_URL", value: TOKEN }] }],
    });
    expect(exported(t).text).not.toContain(TOKEN);
  });

  it("replaces URL userinfo and every query value in any string, keeping scheme, host, path and query names", () => {
    const t = new TraceScript()
      .request(1, C2A, 1, "session/new", {
        cwd: "/p",
        mcpServers: [
          {
            type: "http",
            name: "m",
            url: `https://bot:${TOKEN}@mcp.example.com/v1?api_key=${TOKEN}&x=1`,
            headers: [],
          },
        ],
      })
      .error(
        1,
        1,
        -32603,
        `cannot reach wss://agent.example/acp?sig=${TOKEN}#access_token=${TOKEN}: refused`,
      );
    const { text, frames } = exported(t);
    expect(text).not.toContain(TOKEN);
    expect(frames[0].params.mcpServers[0].url).toMatch(
      /^https:\/\/\[redacted #\d+: 28 chars\]@mcp\.example\.com\/v1\?api_key=\[redacted #\d+: 24 chars\]&x=\[redacted #\d+: 1 chars\]$/,
    );
    expect(frames[1].error.message).toMatch(
      /^cannot reach wss:\/\/agent\.example\/acp\?sig=\[redacted #\d+: 24 chars\]#access_token=\[/,
    );
    expect(frames[1].error.message).toMatch(/\]: refused$/);
  });

  it.each([
    "authorization",
    "Proxy-Authorization",
    "apiKey",
    "API_KEY",
    "x-api-key",
    "OPENAI_API_KEY",
    "access_token",
    "refreshToken",
    "client_secret",
    "password",
    "Cookie",
    "set-cookie",
    "credentials",
    "privateKey",
    "auth",
  ])(
    "replaces the value of a field named %s, in any frame, at any depth, whatever its type of value",
    (name) => {
      const t = new TraceScript()
        .request(1, C2A, 1, "authenticate", { methodId: "m", _meta: { [name]: TOKEN } })
        .result(1, A2C, 1, { deep: [{ config: { [name]: { value: TOKEN, list: [TOKEN] } } }] })
        .notify(1, A2C, "_vendor/event", { [name]: TOKEN });
      const { text, frames } = exported(t);
      expect(text).not.toContain(TOKEN);
      expect(frames[0].params.methodId).toBe("m");
      expect(Object.keys(frames[2].params)).toEqual([name]);
    },
  );

  it("keeps names that only look alike, and numbers under secret names (token counts)", () => {
    const t = new TraceScript()
      .request(1, C2A, 1, "session/prompt", {
        sessionId: S,
        idempotencyKey: KEY,
        prompt: [],
        authMethods: ["x-plain"],
      })
      .result(1, A2C, 1, { messageId: "m1", usage: { inputTokens: 120, outputTokens: 7, totalTokens: 127 } });
    const { frames } = exported(t);
    expect(frames[0].params).toMatchObject({ sessionId: S, idempotencyKey: KEY, authMethods: ["x-plain"] });
    expect(frames[1].result.usage).toEqual({ inputTokens: 120, outputTokens: 7, totalTokens: 127 });
  });

  it("replaces the value of a { name, value } pair whose name is a secret", () => {
    const t = new TraceScript().request(1, C2A, 1, "_x/settings", {
      list: [
        { name: "GITHUB_TOKEN", value: TOKEN },
        { key: "apiKey", value: TOKEN },
        { name: "color", value: "blue" },
      ],
    });
    const { text, frames } = exported(t);
    expect(text).not.toContain(TOKEN);
    expect(frames[0].params.list[2]).toEqual({ name: "color", value: "blue" });
  });

  it("replaces Bearer and Basic credentials quoted in kept text", () => {
    const basic = "dXNlcjpwYXNzd29yZA==";
    const t = new TraceScript().error(
      1,
      1,
      -32001,
      `401 for Authorization: Bearer ${TOKEN}, then Basic ${basic}`,
    );
    const { text, frames } = exported(t);
    expect(text).not.toContain(TOKEN);
    expect(text).not.toContain(basic);
    expect(frames[0].error.message).toMatch(
      /^401 for Authorization: Bearer \[redacted #1: 24 chars\], then Basic \[/,
    );
  });

  it("replaces secrets in the agent's argv (header and agent-spawn), notes and close reasons", () => {
    const argv = [
      "my-agent",
      `--api-key=${TOKEN}`,
      "--token",
      TOKEN,
      `OPENAI_API_KEY=${TOKEN}`,
      "--model",
      "m1",
    ];
    const t = new TraceScript()
      .spawn(10, argv)
      .close(1, `cannot reach the agent at wss://u:${TOKEN}@h/acp: ECONNREFUSED`);
    t.records.push({
      type: "note",
      seq: 3,
      ts: t.startTs + 3,
      level: "info",
      text: `forwarding to the agent at wss://h/acp?token=${TOKEN}`,
    });
    const header = { ...t.header(), agent: { command: argv, cwd: "/home/u" } };
    const out = exported(t, header);
    expect(out.text).not.toContain(TOKEN);
    expect(out.header.agent?.command).toEqual([
      "my-agent",
      `--api-key=[redacted #1: 24 chars]`,
      "--token",
      `[redacted #1: 24 chars]`,
      `OPENAI_API_KEY=[redacted #1: 24 chars]`,
      "--model",
      "m1",
    ]);
    expect(out.header.agent?.cwd).toBe("/home/u");
  });

  it("never lets a planted secret through (property)", () => {
    fc.assert(
      fc.property(plantedTrace, (planted) => {
        const out = redactTrace(planted.header, planted.script.records, { full: false });
        expect(survivingSecrets(jsonl(out.header, out.records), planted.secrets)).toEqual([]);
        // the analyzer still concludes the same (display text such as close reasons lost its secrets)
        const verdicts = (m: TimelineModel) => ({
          verdictCounts: m.verdictCounts,
          submissions: m.submissions.map((x) => [
            x.key,
            x.messageIds,
            x.inserts,
            x.verdicts.map((v) => v.name),
          ]),
          requests: m.requests.map((r) => [r.method, r.outcome.kind, r.verdicts.map((v) => v.name)]),
        });
        expect(verdicts(analyze(out.header, out.records))).toEqual(
          verdicts(analyze(planted.header, planted.script.records)),
        );
        // and the planted trace really carried them
        expect(survivingSecrets(planted.jsonl, planted.secrets)).toEqual(planted.secrets);
      }),
      { numRuns: 300 },
    );
  });
});
