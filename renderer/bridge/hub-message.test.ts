import { describe, expect, it } from "vitest";
import { takeToken } from "./choose-bridge.js";
import { hubSocketUrl } from "./hub-bridge.js";
import { FeedCursor, parseHubMessage } from "./hub-message.js";

describe("hub messages in the renderer", () => {
  it("parses the hub's UI messages and ignores everything else", () => {
    expect(parseHubMessage('{"t":"events","events":[]}')).toEqual({ t: "events", events: [] });
    expect(parseHubMessage('{"t":"fault-rules","rules":[]}')).toMatchObject({ t: "fault-rules" });
    for (const junk of ["", "null", "[]", '{"t":"events"}', '{"t":"nope"}', "{", 42]) {
      expect(parseHubMessage(junk)).toBeUndefined();
    }
  });

  it("resubscribes after the last seq it saw, and from the start for a new hub", () => {
    const c = new FeedCursor();
    c.see({ t: "hello", v: 1, hubId: "a", latestSeq: 0, oldestSeq: 1 });
    c.see({ t: "events", events: [{ seq: 7, kind: "tap-gap", traceId: "x", dropped: 1, at: 0 }] });
    expect(c.after).toBe(7);
    c.see({ t: "hello", v: 1, hubId: "a", latestSeq: 9, oldestSeq: 1 });
    expect(c.after).toBe(7);
    c.see({ t: "hello", v: 1, hubId: "b", latestSeq: 3, oldestSeq: 1 });
    expect(c.after).toBe(0);
  });

  it("builds the socket URL on the page's host and takes the token out of the page URL", () => {
    expect(hubSocketUrl("http://127.0.0.1:4567/index.html?x=1#a", "t/k+n")).toBe(
      "ws://127.0.0.1:4567/ws/ui?token=t%2Fk%2Bn",
    );
    expect(hubSocketUrl("http://127.0.0.1:4567/", undefined)).toBe("ws://127.0.0.1:4567/ws/ui");
    expect(takeToken("http://127.0.0.1:1/?token=abc&view=seq#x")).toEqual({
      token: "abc",
      cleanUrl: "http://127.0.0.1:1/?view=seq#x",
    });
    expect(takeToken("http://127.0.0.1:1/?token=").token).toBeUndefined();
  });
});
