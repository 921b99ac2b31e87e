import { describe, expect, it } from "vitest";
import { AgentKeyLedger, promptFingerprint } from "./agent-key-ledger.js";
import { derivedMessageId } from "./peer-choices.js";

describe("AgentKeyLedger", () => {
  it("rejects malformed keys and treats null and missing as no key", async () => {
    const ledger = new AgentKeyLedger();
    expect((await ledger.admit("s", "")).kind).toBe("invalid");
    expect((await ledger.admit("s", "x".repeat(256))).kind).toBe("invalid");
    expect((await ledger.admit("s", 7)).kind).toBe("invalid");
    expect((await ledger.admit("s", { k: 1 })).kind).toBe("invalid");
    expect((await ledger.admit("s", null)).kind).toBe("unkeyed");
    expect((await ledger.admit("s", undefined)).kind).toBe("unkeyed");
    expect((await ledger.admit("s", "x".repeat(255))).kind).toBe("new");
  });

  it("admits one insert per key; retries wait for a pending claim and then get the messageId", async () => {
    const ledger = new AgentKeyLedger();
    const first = await ledger.admit("s", "k");
    expect(first).toEqual({ kind: "new", key: "k", messageId: derivedMessageId("s", "k") });
    const retry = await ledger.admit("s", "k");
    if (retry.kind !== "wait") throw new Error(`expected wait, got ${retry.kind}`);
    await ledger.inserted("s", "k");
    expect(await retry.outcome).toEqual({ kind: "inserted", messageId: derivedMessageId("s", "k") });
    expect(await ledger.admit("s", "k")).toEqual({ kind: "retry", messageId: derivedMessageId("s", "k") });
    expect((await ledger.admit("other", "k")).kind).toBe("new");
  });

  it("forgets a withdrawn claim and answers its waiters with -32800", async () => {
    const ledger = new AgentKeyLedger();
    await ledger.admit("s", "k");
    const retry = await ledger.admit("s", "k");
    await ledger.withdrawn("s", "k");
    if (retry.kind !== "wait") throw new Error("expected wait");
    expect(await retry.outcome).toMatchObject({ kind: "withdrawn", code: -32800 });
    expect((await ledger.admit("s", "k")).kind).toBe("new");
  });

  it("rebuilds recorded keys from history once, on the first keyed prompt", async () => {
    let reads = 0;
    const ledger = new AgentKeyLedger({
      history: {
        userMessages: async () => {
          reads++;
          return [{ messageId: "m1", key: "k1" }, { messageId: "m2" }];
        },
      },
    });
    const [a, b] = await Promise.all([ledger.admit("s", "k1"), ledger.admit("s", "k2")]);
    expect(a).toEqual({ kind: "retry", messageId: "m1" });
    expect(b.kind).toBe("new");
    expect(reads).toBe(1);
  });

  it("under the reject policy answers a different prompt with mismatch and keeps the record", async () => {
    const ledger = new AgentKeyLedger({ reusedKey: "reject" });
    const one = promptFingerprint([{ type: "text", text: "one" }]);
    const two = promptFingerprint([{ text: "two", type: "text" }]);
    await ledger.admit("s", "k", one);
    await ledger.inserted("s", "k");
    expect((await ledger.admit("s", "k", two)).kind).toBe("mismatch");
    expect((await ledger.admit("s", "k", one)).kind).toBe("retry");
    const lenient = new AgentKeyLedger();
    await lenient.admit("s", "k", one);
    await lenient.inserted("s", "k");
    expect((await lenient.admit("s", "k", two)).kind).toBe("retry");
  });

  it("fingerprints ignore key order", () => {
    expect(promptFingerprint({ a: 1, b: [1, { c: 2, d: 3 }] })).toBe(
      promptFingerprint({ b: [1, { d: 3, c: 2 }], a: 1 }),
    );
  });
});

describe("promptFingerprint on hostile depth", () => {
  it("fingerprints a prompt nested 100,000 deep without overflowing the stack (issue 31)", () => {
    const depth = 100_000;
    const deep = JSON.parse(`${"[".repeat(depth)}${"]".repeat(depth)}`);
    const text = promptFingerprint(deep);
    expect(text.length).toBe(2 * depth);
    expect(promptFingerprint([{ b: 1, a: undefined }, undefined])).toBe('[{"b":1},null]');
  });
});
