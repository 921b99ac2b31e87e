import { describe, expect, it } from "vitest";
import { decodeHubToTap, decodeTapMessage } from "./tap-wire.js";
import { decodeUiMessage } from "./ui-wire.js";

const header = { format: "acp-retry-inspector-trace", version: 1, tool: "t", startedAt: "x" };

describe("hub wire decoding", () => {
  it("accepts a hello and a records batch from a tap", () => {
    expect(decodeTapMessage(JSON.stringify({ t: "hello", v: 1, tapId: "abcdef12-3", header }))).toMatchObject(
      {
        t: "hello",
      },
    );
    const batch = {
      t: "records",
      records: [{ type: "note", seq: 1, ts: 1, level: "info", text: "x" }],
      dropped: 2,
    };
    expect(decodeTapMessage(JSON.stringify(batch))).toEqual(batch);
  });

  it("passes a batch with invalid records on to the hub, which checks each one as it stores it", () => {
    const batch = { t: "records", records: [{ seq: 1 }, { type: "frame", seq: 2, ts: 1, raw: 42 }, 7] };
    expect(decodeTapMessage(JSON.stringify(batch))).toEqual(batch);
  });

  it.each([
    ["[]", "not a JSON object"],
    ["{", "not a JSON object"],
    [JSON.stringify({ t: "hello", v: 1, tapId: "../../etc", header }), "tapId"],
    [JSON.stringify({ t: "hello", v: 1, tapId: "abcdefgh" }), "trace header"],
    [JSON.stringify({ t: "records", records: { seq: 1 } }), "records must be an array"],
    [JSON.stringify({ t: "records", records: [], dropped: -1 }), "dropped"],
    [JSON.stringify({ t: "spawn", command: ["sh"] }), "unknown tap message"],
  ])("rejects tap message %s", (text, error) => {
    expect(decodeTapMessage(text)).toContain(error);
  });

  it("decodes hub messages on the tap side and ignores junk", () => {
    expect(decodeHubToTap(JSON.stringify({ t: "ack", upTo: 4 }))).toEqual({ t: "ack", upTo: 4 });
    expect(decodeHubToTap(JSON.stringify({ t: "ack" }))).toBeUndefined();
    expect(decodeHubToTap("nope")).toBeUndefined();
  });

  it("decodes UI messages and rejects unknown ones", () => {
    expect(decodeUiMessage(JSON.stringify({ t: "subscribe", after: 0 }))).toEqual({
      t: "subscribe",
      after: 0,
    });
    expect(decodeUiMessage(JSON.stringify({ t: "subscribe", after: -1 }))).toContain("non-negative");
    expect(decodeUiMessage(JSON.stringify({ t: "spawn-agent", command: "rm" }))).toContain(
      "unknown UI message",
    );
    expect(decodeUiMessage(JSON.stringify({ t: "fault-clear", ref: 3 }))).toContain("ref");
  });
});
