import { describe, expect, it } from "vitest";
import { Analyzer } from "./analyzer.js";
import { TraceScript } from "./testing/trace-script.js";
import type { Submission, TimelineModel } from "./timeline-model.js";

const S = "sess-1";
const KEY = "5f0c7b1e-8a44-4c1e-9d0b-2f3a4b5c6d7e";
const TAP_ID = "acp-retry-inspector:retry:1";

function run(t: TraceScript): TimelineModel {
  const a = new Analyzer();
  for (const r of t.records) a.ingest(r);
  return a.model();
}

function only(m: TimelineModel): Submission {
  expect(m.submissions).toHaveLength(1);
  return m.submissions[0] as Submission;
}

/** The inspector's copy of prompt `id` (seq `copyOf`), with `key` or without one. */
function copy(t: TraceScript, id: number, copyOf: number, text: string, key?: string): TraceScript {
  const params: Record<string, unknown> = { sessionId: S, prompt: [{ type: "text", text }] };
  if (key !== undefined) params.idempotencyKey = key;
  return t.raw(
    1,
    "client->agent",
    JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, method: "session/prompt", params }),
    {
      origin: "inspector",
      replaces: id,
      copyOf,
    },
  );
}

describe("attempts made by the inspector", () => {
  it("lose-and-retry, keyed: joins the submission, is marked, its forwarded answer is the one the client saw", () => {
    const t = new TraceScript().open(1).prompt(1, 3, S, "deploy", KEY); // seq 2
    t.inserted(1, 3, "m1", { dropped: true });
    copy(t, 3, 2, "deploy", KEY);
    t.raw(1, "agent->client", JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, result: { messageId: "m1" } }), {
      origin: "inspector",
    });
    const answerSeq = t.records.at(-1)?.seq as number;
    t.raw(1, "agent->client", JSON.stringify({ jsonrpc: "2.0", id: 3, result: { messageId: "m1" } }), {
      origin: "inspector",
      replaces: TAP_ID,
      copyOf: answerSeq,
    });
    const m = run(t);
    const s = only(m);
    expect(s.attempts.map((a) => a.origin ?? "client")).toEqual(["client", "inspector"]);
    expect(s.attempts[1]).toMatchObject({
      id: TAP_ID,
      forwarded: true,
      outcome: { kind: "inserted", messageId: "m1" },
    });
    expect(s.verdicts.map((v) => v.name)).toEqual(["deduplicated"]);
    expect(m.requests.filter((r) => r.unmatched)).toEqual([]); // the rewritten copy is not an unmatched answer
  });

  it("an answer the tap did not forward is not one the client saw", () => {
    const t = new TraceScript().open(1).prompt(1, 3, S, "deploy", KEY);
    t.inserted(1, 3, "m1", { dropped: true });
    copy(t, 3, 2, "deploy", KEY);
    t.raw(1, "agent->client", JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, result: { messageId: "m1" } }), {
      origin: "inspector",
    });
    const s = only(run(t));
    expect(s.attempts[1]?.forwarded).toBe(false);
    expect(s.verdicts.map((v) => v.name)).toEqual(["unresolved"]);
  });

  it("unkeyed: the copy joins the client's submission by the id it replaces, and is never the client's resend", () => {
    const t = new TraceScript().open(1).prompt(1, 3, S, "deploy"); // seq 2
    t.inserted(1, 3, "m1");
    copy(t, 3, 2, "deploy");
    t.raw(1, "agent->client", JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, result: { messageId: "m2" } }), {
      origin: "inspector",
    });
    const m = run(t);
    const s = only(m);
    expect(s.keyStatus).toBe("absent");
    expect(s.attempts.map((a) => a.origin ?? "client")).toEqual(["client", "inspector"]);
    expect(s.inserts).toBe(2);
    expect(s.resendOf).toBeNull();
    expect(m.verdictCounts["unkeyed-resend"]).toBe(0);
    expect(m.verdictCounts["duplicate-insert"]).toBe(0); // no key: nothing to de-duplicate
  });

  it("a tap-made session/new copy is never the client's duplicating resend", () => {
    const t = new TraceScript().open(1);
    t.request(1, "client->agent", 1, "session/new", { cwd: "/w" });
    t.close(1);
    t.open(2);
    t.raw(
      2,
      "client->agent",
      JSON.stringify({ jsonrpc: "2.0", id: TAP_ID, method: "session/new", params: { cwd: "/w" } }),
      { origin: "inspector", replaces: 1 },
    );
    expect(run(t).verdictCounts["duplicating-resend"]).toBe(0);
  });
});
