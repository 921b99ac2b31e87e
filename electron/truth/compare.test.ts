/**
 * The oracle's comparison can fail: claims as `analyze --json` printed them for a lose-and-retry
 * run (43fffac's words, then the outcome model's) against what the agent stored and the client got.
 */

import { describe, expect, test } from "vitest";
import { claimsOf, type JsonAttempt, type JsonSubmission } from "./claims.js";
import { compareClaims } from "./compare.js";

const M = "msg-1";

function submission(attempts: JsonAttempt[], extra: Partial<JsonSubmission> = {}): JsonSubmission {
  return {
    id: 1,
    sessionId: "s",
    key: "k",
    keyStatus: "valid",
    inserts: 1,
    messageIds: [M],
    finalMessageId: M,
    clientMessageId: M,
    result: `inserted once → messageId ${M}`,
    verdicts: [{ name: "deduplicated" }],
    attempts,
    ...extra,
  };
}

const dropped: JsonAttempt = {
  conn: 1,
  id: 3,
  requestSeq: 7,
  outcome: { kind: "dropped", answer: { kind: "inserted", messageId: M } },
  effect: "inserted",
  words: `inserted → messageId ${M}; answer dropped by the inspector: the client never saw it`,
};
const retry: JsonAttempt = {
  conn: 1,
  id: "acp-retry-inspector:retry:1",
  requestSeq: 12,
  outcome: { kind: "inserted", messageId: M },
  effect: "original",
  words: `answered with the original messageId ${M} (no new insert)`,
  origin: "inspector",
  forwarded: true,
};

describe("compareClaims", () => {
  test("43fffac's lose-and-retry words are caught: the client did get the messageId", () => {
    const claims = claimsOf("k", [
      submission([dropped, retry], {
        clientMessageId: null,
        result: `inserted → messageId ${M}, but the client never saw an answer`,
      }),
    ]);
    const found = compareClaims(claims, { inserted: [M], received: [M], errors: [] });
    expect(found.map((f) => f.claim)).toEqual(["the client saw", "result words"]);
  });

  test("the outcome model's lose-and-retry claims agree with ground truth", () => {
    const claims = claimsOf("k", [
      submission([
        {
          ...dropped,
          agentEffect: { kind: "inserted", messageId: M },
          clientSaw: { kind: "forwarded", messageId: M },
          sender: { kind: "client" },
        },
        {
          ...retry,
          agentEffect: { kind: "deduplicated", messageId: M },
          clientSaw: { kind: "forwarded", messageId: M },
          sender: { kind: "inspector" },
        },
      ]),
    ]);
    expect(compareClaims(claims, { inserted: [M], received: [M], errors: [] })).toEqual([]);
  });

  test("a second insert the store holds needs a verdict that says so, and the count", () => {
    const claims = claimsOf("k", [submission([retry])]);
    const found = compareClaims(claims, { inserted: [M, "msg-2"], received: [M], errors: [] });
    expect(found.map((f) => f.claim)).toEqual(["insert count", "verdict", "verdict"]);
  });

  test("an answer lost with its agent leaves the count open: 0 or 1 insert are both true", () => {
    const lost: JsonAttempt = {
      ...dropped,
      outcome: { kind: "lost" },
      effect: "unknown",
      words: "lost: the agent died before answering; whether it inserted is unknown",
    };
    const claims = claimsOf("k", [
      submission([lost], {
        inserts: 0,
        messageIds: [],
        finalMessageId: null,
        clientMessageId: null,
        result: "unknown: no answer reached the client; whether it inserted is unknown",
        verdicts: [{ name: "unresolved" }],
      }),
    ]);
    expect(compareClaims(claims, { inserted: [M], received: [], errors: [] })).toEqual([]);
    expect(compareClaims(claims, { inserted: [], received: [], errors: [] })).toEqual([]);
  });

  test("'not inserted' with an insert in the store is false", () => {
    const error: JsonAttempt = {
      ...dropped,
      outcome: { kind: "error" },
      effect: "error",
      words: "error -32603 (boom): not inserted",
    };
    const claims = claimsOf("k", [
      submission([error], {
        inserts: 0,
        messageIds: [],
        finalMessageId: null,
        clientMessageId: null,
        result: "not inserted (error -32603)",
        verdicts: [{ name: "retried-after-error" }],
      }),
    ]);
    const found = compareClaims(claims, { inserted: [M], received: [], errors: [] });
    expect(found.map((f) => f.claim)).toEqual(["insert count", "result words", "not inserted"]);
  });
});
