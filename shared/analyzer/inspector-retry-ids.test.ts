/**
 * The tap numbers its inspector retries per client connection (`acp-retry-inspector:retry:1`, 2,
 * ... on each), so one trace of a tap serving several clients holds the same retry id on several
 * connections. A forwarded answer belongs to the retry of ITS connection: the truth oracle's finding
 * `1p:drop-response@1.response,lose-and-retry@1.response,lose-and-retry@1.response` (run in a batch
 * with other schedules' clients on one tap) was the analyzer pairing a forwarded answer with another
 * connection's retry of the same id, and so saying "the client never saw an answer" to a client
 * that had it.
 */
import { describe, expect, it } from "vitest";
import { Analyzer } from "./analyzer.js";
import { TraceScript } from "./testing/trace-script.js";
import type { Submission, TimelineModel } from "./timeline-model.js";

const TAP_ID = "acp-retry-inspector:retry:1";

function run(t: TraceScript): TimelineModel {
  const a = new Analyzer();
  for (const r of t.records) a.ingest(r);
  return a.model();
}

function promptParams(session: string, text: string, key: string): Record<string, unknown> {
  return { sessionId: session, prompt: [{ type: "text", text }], idempotencyKey: key };
}

/** The inspector's copy of the Client's prompt `clientId` (request seq `copyOf`), as the tap records it. */
function retrySent(t: TraceScript, conn: number, clientId: number, copyOf: number, params: object): void {
  t.raw(
    conn,
    "client->agent",
    JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, method: "session/prompt", params }),
    {
      origin: "inspector",
      replaces: clientId,
      copyOf,
    },
  );
}

/** The Agent's answer to the copy on `conn` (recorded, not forwarded), then its copy forwarded under `clientId`. */
function retryAnswered(t: TraceScript, conn: number, clientId: number, messageId: string): void {
  t.raw(conn, "agent->client", JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, result: { messageId } }), {
    origin: "inspector",
  });
  const answerSeq = t.records.at(-1)?.seq as number;
  t.raw(conn, "agent->client", JSON.stringify({ jsonrpc: "2.0", id: clientId, result: { messageId } }), {
    origin: "inspector",
    replaces: TAP_ID,
    copyOf: answerSeq,
  });
}

function lastSeq(t: TraceScript): number {
  return t.records.at(-1)?.seq as number;
}

function withKey(m: TimelineModel, key: string): Submission {
  const rows = m.submissions.filter((s) => s.key === key);
  expect(rows).toHaveLength(1);
  return rows[0] as Submission;
}

describe("inspector retries with the same tap id on two connections", () => {
  it("each forwarded answer reaches its own connection's retry, whatever order they interleave in", () => {
    // Schedule A on conn 1: `drop-response, lose-and-retry, lose-and-retry` of key A. Its first answer
    // is dropped; the client times out and resends (id 4); that answer is dropped and retried.
    const KEY_A = "truth-0001-s1-p1";
    const KEY_B = "truth-0001-s2-p1";
    const a = promptParams("sess-a", "prompt a", KEY_A);
    const b = promptParams("sess-b", "prompt b", KEY_B);
    const t = new TraceScript().open(1).open(2);
    t.request(1, "client->agent", 3, "session/prompt", a);
    t.inserted(1, 3, "mA", { dropped: true }); // drop-response
    t.request(1, "client->agent", 4, "session/prompt", a); // the client's resend after its timeout
    const resendA = lastSeq(t);
    t.inserted(1, 4, "mA", { dropped: true }); // lose-and-retry: dropped ...
    retrySent(t, 1, 4, resendA, a); // ... and resent as retry:1 on conn 1
    // Schedule B on conn 2, another client of the same tap: its own lose-and-retry, also retry:1.
    t.request(2, "client->agent", 3, "session/prompt", b);
    const promptB = lastSeq(t);
    t.inserted(2, 3, "mB", { dropped: true });
    retrySent(t, 2, 3, promptB, b);
    // Conn 1's retry is answered and forwarded first, then conn 2's.
    retryAnswered(t, 1, 4, "mA");
    retryAnswered(t, 2, 3, "mB");
    const m = run(t);

    for (const [key, id, messageId] of [
      [KEY_A, 4, "mA"],
      [KEY_B, 3, "mB"],
    ] as const) {
      const s = withKey(m, key);
      expect(s.clientMessageId, key).toBe(messageId);
      expect(s.clientAnswered, key).toBe(true);
      expect(s.result, key).not.toMatch(/never saw/);
      const retry = s.attempts.find((x) => x.sender.kind === "inspector");
      expect(retry?.forwarded, key).toBe(true);
      expect(retry?.clientSaw, key).toEqual({
        kind: "forwarded",
        clientId: id,
        retryId: TAP_ID,
        messageId,
        code: null,
      });
    }
    // The first attempt of A: its answer dropped and never retried, so never seen; the resend got it.
    const sa = withKey(m, KEY_A);
    expect(sa.attempts[0]?.clientSaw).toEqual({ kind: "nothing-ever", why: "answer-dropped" });
    expect(sa.attempts[1]?.clientSaw.kind).toBe("forwarded");
  });

  it("a forwarded answer on one connection is not taken for a pending retry of the same id on another", () => {
    const KEY_A = "truth-0002-s1-p1";
    const KEY_B = "truth-0002-s2-p1";
    const a = promptParams("sess-a", "prompt a", KEY_A);
    const b = promptParams("sess-b", "prompt b", KEY_B);
    const t = new TraceScript().open(1).open(2);
    t.request(2, "client->agent", 3, "session/prompt", b);
    const promptB = lastSeq(t);
    t.inserted(2, 3, "mB", { dropped: true });
    retrySent(t, 2, 3, promptB, b);
    // Conn 1's retry:1 is sent after conn 2's.
    t.request(1, "client->agent", 3, "session/prompt", a);
    const promptA = lastSeq(t);
    t.inserted(1, 3, "mA", { dropped: true });
    retrySent(t, 1, 3, promptA, a);
    // Only conn 2's retry is answered (conn 1's is still with its Agent at the end of the trace).
    retryAnswered(t, 2, 3, "mB");
    const m = run(t);
    const sa = withKey(m, KEY_A);
    expect(sa.clientMessageId).toBeNull();
    expect(sa.attempts.find((x) => x.sender.kind === "inspector")?.forwarded).toBe(false);
    expect(sa.attempts[0]?.clientSaw).toEqual({ kind: "nothing-yet" });
    const sb = withKey(m, KEY_B);
    expect(sb.clientMessageId).toBe("mB");
    expect(sb.clientAnswered).toBe(true);
  });
});
