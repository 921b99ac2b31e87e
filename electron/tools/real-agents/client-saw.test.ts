/**
 * The real-agents check judges only what the client saw: a v1 agent's answer carries no messageId
 * (demo-client records it as null), yet it is an answer, and claims about the agent's store are
 * not held against the analyzer (the store of an agent nobody here wrote is not ours to read).
 */

import { describe, expect, test } from "vitest";
import { claimsOf, type JsonAttempt, type JsonSubmission } from "../../truth/claims.js";
import type { ClientSubmissionTruth } from "../../truth/client-truth.js";
import { compareClientSaw } from "./client-saw.js";

const v1Answer = { kind: "inserted", messageId: null };
const dropped: JsonAttempt = {
  conn: 1,
  id: 3,
  requestSeq: 8,
  outcome: { kind: "dropped", answer: v1Answer },
  effect: "inserted",
  words: "inserted (v1 answer); answer dropped by the inspector",
};
const retry: JsonAttempt = {
  conn: 1,
  id: "acp-retry-inspector:retry:1",
  requestSeq: 15,
  outcome: v1Answer,
  effect: "inserted",
  words: "inserted (v1 answer); forwarded to the client under its id 3",
  origin: "inspector",
  forwarded: true,
};

function row(result: string, extra: Partial<JsonSubmission> = {}): JsonSubmission {
  return {
    id: 1,
    sessionId: "s",
    key: "k",
    keyStatus: "valid",
    inserts: 2,
    messageIds: [],
    finalMessageId: null,
    clientMessageId: null,
    result,
    verdicts: [],
    attempts: [dropped, retry],
    ...extra,
  };
}

const answeredWithoutId: ClientSubmissionTruth = {
  key: "k",
  received: [],
  idless: 1,
  errors: [],
  attempts: 1,
  status: "answered",
};

describe("compareClientSaw", () => {
  test("words saying the client never saw an answer are false when it got a v1 answer without a messageId", () => {
    const claims = claimsOf("k", [
      row("2 inserts, but the client never saw an answer", { clientAnswered: false }),
    ]);
    const found = compareClientSaw(claims, answeredWithoutId);
    expect(found.map((f) => f.claim).sort()).toEqual(["result words", "the client saw"]);
    expect(found.every((f) => f.truth.startsWith("the client's record"))).toBe(true);
  });

  test("true words about the client pass, and store claims (2 inserts, no verdict) are not judged", () => {
    const claims = claimsOf("k", [row("2 inserts (v1 answers, no messageId)", { clientAnswered: true })]);
    expect(compareClientSaw(claims, answeredWithoutId)).toEqual([]);
  });

  test("a messageId the client never received is a false 'the client saw'", () => {
    const claims = claimsOf("k", [row("inserted", { clientMessageId: "m-9", clientAnswered: true })]);
    const found = compareClientSaw(claims, answeredWithoutId);
    expect(found.map((f) => f.claim)).toEqual(["the client saw"]);
    expect(found[0]?.said).toContain("m-9");
  });
});
