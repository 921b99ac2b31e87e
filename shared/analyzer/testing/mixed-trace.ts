/**
 * A deterministic trace that walks every path of the analyzer: each turn is one scenario picked by a
 * seeded generator (retries, lost and dropped answers, cancels, invalid keys, key leaks, resends,
 * v1 answers, replays, Agent requests, unknown methods, malformed and flagged frames, Agent exits).
 * Golden-output tests use it to hold the analyzer's output fixed across rewrites.
 */
import type { Direction } from "../../trace/record.js";
import { FLAGGED_FRAMES, MALFORMED_LINES } from "./bad-frames.js";
import { TraceScript } from "./trace-script.js";

const C2A: Direction = "client->agent";
const A2C: Direction = "agent->client";

/** mulberry32: a small seeded generator, the same numbers on every platform. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = "fix the failing test then refactor   the parser and\tdocument its edge cases".split(" ");

/** Builds `turns` scenarios from `seed` into one trace (about 8 records per turn). */
export function mixedTrace(turns: number, seed = 1): TraceScript {
  const rnd = seeded(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const hex = (n: number) => {
    let s = "";
    for (let i = 0; i < n; i++) s += "0123456789abcdef"[Math.floor(rnd() * 16)];
    return s;
  };
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-8${hex(3)}-${hex(12)}`;
  const words = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");

  const t = new TraceScript(1_700_000_000_000, 1);
  let conn = 1;
  let nextId = 1;
  let pid = 100;
  let agentReq = 1;
  let mid = 1;
  const id = () => (rnd() < 0.2 ? `r-${nextId++}` : nextId++);
  const reconnect = () => {
    t.close(conn, pick(["EOF", "client closed", "ECONNRESET"]));
    conn++;
    nextId = 1;
    t.open(conn, pick(["stdio", "ws", "http"]));
  };
  const sessions = ["s-a", "s-b", "s-c", "s-d"];
  const recentKeys: string[] = [];

  t.spawn(pid, ["mixed-agent", "--seed", String(seed)]);
  t.open(conn, "stdio");
  t.request(conn, C2A, 0, "initialize", { protocolVersion: 2, clientCapabilities: {} });
  t.result(conn, A2C, 0, { protocolVersion: 2 });

  for (let turn = 0; turn < turns; turn++) {
    const s = pick(sessions);
    const key = uuid();
    const text = words(3 + Math.floor(rnd() * 30));
    const m = `msg-${mid++}`;
    recentKeys.push(key);
    if (recentKeys.length > 20) recentKeys.shift();
    switch (Math.floor(rnd() * 24)) {
      case 0: {
        // single
        const i = id();
        t.prompt(conn, i, s, text, key).userMessage(conn, s, m, text).inserted(conn, i, m);
        break;
      }
      case 1: {
        // lost, resumed, retried, deduplicated (with replayed history during the resume)
        const i = id();
        t.prompt(conn, i, s, text, key).userMessage(conn, s, m, text);
        reconnect();
        const r = id();
        t.request(conn, C2A, r, pick(["session/resume", "session/load"]), { sessionId: s });
        t.userMessage(conn, s, `hist-${mid++}`, "old");
        t.result(conn, A2C, r, {});
        const j = id();
        t.prompt(conn, j, s, text, key).inserted(conn, j, m);
        break;
      }
      case 2: {
        // duplicate insert
        const i = id();
        const j = id();
        t.prompt(conn, i, s, text, key).inserted(conn, i, m);
        t.prompt(conn, j, s, text, key).inserted(conn, j, `msg-${mid++}`);
        break;
      }
      case 3: {
        // error then retry inserted
        const i = id();
        const j = id();
        t.prompt(conn, i, s, text, key).error(conn, i, pick([-32603, -32000, -32602]), "boom");
        t.prompt(conn, j, s, text, key).inserted(conn, j, m);
        break;
      }
      case 4: {
        // invalid keys and their answers
        const bad = pick(["", "x".repeat(256), 42, ["k"], { k: 1 }, true, "🙂".repeat(256)]);
        const i = id();
        t.prompt(conn, i, s, text, bad);
        const answer = Math.floor(rnd() * 4);
        if (answer === 0) t.error(conn, i, -32602, "invalid key");
        else if (answer === 1) t.inserted(conn, i, m);
        else if (answer === 2) t.error(conn, i, -32800, "cancelled");
        else t.error(conn, i, -32000, "other");
        break;
      }
      case 5: {
        // key leaks: inside text, as a whole value, an 8-15 char key, a too-short key
        const i = id();
        const leaked = pick([key, pick(recentKeys)]);
        const shortKey = pick([`k${hex(9)}`, `k${hex(4)}`]);
        t.prompt(conn, i, s, text, rnd() < 0.5 ? key : shortKey).inserted(conn, i, m);
        t.notify(conn, A2C, "session/update", {
          sessionId: s,
          update: {
            sessionUpdate: "agent_message_chunk",
            content: { type: "text", text: `${words(4)} ${leaked} ${words(3)}` },
          },
        });
        t.notify(conn, A2C, "session/update", {
          sessionId: s,
          update: { sessionUpdate: "agent_thought_chunk", content: { type: "text", text: shortKey } },
        });
        t.result(conn, A2C, `unmatched-${hex(2)}`, { echo: [{ deep: { k: shortKey } }] });
        break;
      }
      case 6: {
        // cancel with two pending attempts: same or different answers
        const i = id();
        const j = id();
        t.prompt(conn, i, s, text, key).prompt(conn, j, s, text, key).cancelRequest(conn, i);
        t.error(conn, i, -32800, "cancelled");
        if (rnd() < 0.5) t.error(conn, j, -32800, "cancelled");
        else t.inserted(conn, j, m);
        break;
      }
      case 7: {
        // same key, different prompt (or the same one with keys in another order)
        const i = id();
        const j = id();
        t.prompt(conn, i, s, text, key).inserted(conn, i, m);
        if (rnd() < 0.5) t.prompt(conn, j, s, `${text} again`, key);
        else
          t.request(conn, C2A, j, "session/prompt", {
            idempotencyKey: key,
            prompt: [{ text, type: "text" }],
            sessionId: s,
          });
        t.inserted(conn, j, m);
        break;
      }
      case 8: {
        // unresolved: dropped request, or lost with the connection
        const i = id();
        if (rnd() < 0.5) t.prompt(conn, i, s, text, key, { dropped: true });
        else {
          t.prompt(conn, i, s, text, key);
          reconnect();
        }
        break;
      }
      case 9: {
        // unkeyed prompt, lost, resent without a key
        const i = id();
        t.prompt(conn, i, s, "please resend me");
        if (rnd() < 0.5) t.inserted(conn, i, m, { dropped: true });
        else reconnect();
        const j = id();
        t.prompt(conn, j, s, "please resend me").inserted(conn, j, `msg-${mid++}`);
        break;
      }
      case 10: {
        // session/new and session/fork: answered, dropped then resent
        const method = pick(["session/new", "session/fork"]);
        const params = method === "session/new" ? { cwd: "/work", mcpServers: [] } : { sessionId: s };
        const i = id();
        t.request(conn, C2A, i, method, params);
        t.result(conn, A2C, i, { sessionId: `new-${hex(6)}` }, { dropped: rnd() < 0.6 });
        const j = id();
        t.request(conn, C2A, j, method, params).result(conn, A2C, j, { sessionId: `new-${hex(6)}` });
        break;
      }
      case 11: {
        // v1: unkeyed prompts answered with a stopReason, or an empty result
        const i = id();
        t.prompt(conn, i, s, text);
        t.notify(conn, A2C, "session/update", {
          sessionId: s,
          update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: words(5) } },
        });
        t.result(conn, A2C, i, rnd() < 0.7 ? { stopReason: "end_turn" } : null);
        break;
      }
      case 12: {
        // v1 keyed twice: two inserts without messageIds
        const i = id();
        const j = id();
        t.prompt(conn, i, s, text, key).result(conn, A2C, i, { stopReason: "end_turn" });
        t.prompt(conn, j, s, text, key).result(conn, A2C, j, { stopReason: "cancelled" });
        break;
      }
      case 13: {
        // Agent requests answered by the Client, one cancelled by the Agent
        const a = agentReq++;
        const method = pick([
          "fs/read_text_file",
          "session/request_permission",
          "terminal/create",
          "x/custom",
        ]);
        t.request(conn, A2C, a, method, { sessionId: s, path: `/p/${hex(4)}` });
        if (rnd() < 0.3) t.notify(conn, A2C, "$/cancel_request", { requestId: a });
        if (rnd() < 0.7) t.result(conn, C2A, a, { content: words(4) });
        else t.send(conn, C2A, { jsonrpc: "2.0", id: a, error: { code: -32601, message: "nope" } });
        break;
      }
      case 14: {
        // unknown methods, notifications, a null-id error, a cancel of a non-prompt request
        const i = id();
        t.request(conn, C2A, i, pick(["session/list", "x/unknown", "session/set_mode"]), { sessionId: s });
        t.cancelRequest(conn, i);
        t.result(conn, A2C, i, { ok: true });
        t.notify(conn, C2A, pick(["session/cancel", "x/ping", "mcp/message"]), { sessionId: s });
        t.send(conn, A2C, { jsonrpc: "2.0", id: null, error: { code: -32700, message: "parse error" } });
        t.cancelRequest(conn, "nobody");
        t.notify(conn, C2A, "$/cancel_request", { requestId: { bad: true } });
        t.notify(conn, C2A, "$/cancel_request", []);
        break;
      }
      case 15: {
        // malformed frames
        t.raw(conn, pick([C2A, A2C]), pick(MALFORMED_LINES));
        break;
      }
      case 16: {
        // flagged frames
        const f = pick(FLAGGED_FRAMES);
        t.raw(conn, f.dir, f.raw, f.extra);
        break;
      }
      case 17: {
        // Agent exits with prompts pending, restarts; stderr lines with and without a pid
        const i = id();
        t.prompt(conn, i, s, text, key).stderr(pid, `panic: ${words(3)}`);
        t.record({ type: "agent-stderr", text: "no pid" });
        t.exit(pid, rnd() < 0.5 ? 1 : null, rnd() < 0.5 ? null : "SIGKILL");
        pid++;
        t.spawn(pid, ["mixed-agent", "--restart"]);
        reconnect();
        break;
      }
      case 18: {
        // user_message_chunk attributed to the oldest pending prompt, later claimed by another
        const i = id();
        const j = id();
        t.prompt(conn, i, s, text, key).prompt(conn, j, s, text, uuid());
        t.notify(conn, A2C, "session/update", {
          sessionId: s,
          update: { sessionUpdate: "user_message_chunk", messageId: m, content: { type: "text", text } },
        });
        t.inserted(conn, j, m).inserted(conn, i, `msg-${mid++}`);
        break;
      }
      case 19: {
        // fault and note records, a prompt dropped in flight and its retry
        t.record({ type: "fault", action: "drop-response", ruleId: "r1", conn });
        t.record({ type: "note", level: "warn", text: "trace gap" });
        const i = id();
        const j = id();
        t.prompt(conn, i, s, text, key).inserted(conn, i, m, { dropped: true });
        t.prompt(conn, j, s, text, key).inserted(conn, j, m);
        break;
      }
      case 20: {
        // odd prompt params: not an object, prompt not an array, non-text blocks, no sessionId
        const i = id();
        const params = pick<unknown>([
          "text",
          null,
          { sessionId: s, prompt: "flat", idempotencyKey: key },
          { prompt: [{ type: "image", data: "AAAA" }, { type: "text", text }, null], idempotencyKey: key },
          { sessionId: s, prompt: [{ type: "resource_link", uri: "file:///a" }], idempotencyKey: null },
        ]);
        t.send(conn, C2A, { jsonrpc: "2.0", id: i, method: "session/prompt", params });
        t.inserted(conn, i, m);
        break;
      }
      case 21: {
        // initialize on a fresh connection: requested version kept until the answer agrees
        reconnect();
        t.request(conn, C2A, 0, "initialize", { protocolVersion: pick([1, 2]) });
        if (rnd() < 0.7) t.result(conn, A2C, 0, { protocolVersion: pick([1, 2]) });
        break;
      }
      case 22: {
        // a per-connection Agent (remote front) exits and loses only its connection
        const i = id();
        t.prompt(conn, i, s, text, key);
        t.record({ type: "agent-exit", pid, code: 0, signal: null, conn });
        pid++;
        t.record({ type: "agent-spawn", pid, command: ["per-conn"], conn });
        break;
      }
      default: {
        // the bench's everyday turn: prompt, user message, chunks, a state update
        const i = id();
        t.prompt(conn, i, s, text, key).userMessage(conn, s, m, text).inserted(conn, i, m);
        for (let c = 0; c < 3; c++)
          t.notify(conn, A2C, "session/update", {
            sessionId: s,
            update: {
              sessionUpdate: "agent_message_chunk",
              messageId: `a-${turn}`,
              content: { type: "text", text: words(6) },
            },
          });
        t.notify(conn, A2C, "session/update", {
          sessionId: s,
          update: { sessionUpdate: "state_update", state: "idle" },
        });
      }
    }
  }
  return t;
}
