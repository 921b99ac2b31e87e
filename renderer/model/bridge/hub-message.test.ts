import { describe, expect, it } from "vitest";
import { HUB_SUBPROTOCOL, socketProtocols, uiLink } from "../../../shared/hub/hub-auth.js";
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

  it("builds the socket URL on the page's host, with no token in it", () => {
    expect(hubSocketUrl("http://127.0.0.1:4567/index.html?x=1#token=t")).toBe("ws://127.0.0.1:4567/ws/ui");
    expect(hubSocketUrl("http://127.0.0.1:4567/")).toBe("ws://127.0.0.1:4567/ws/ui");
  });

  it("takes the token out of the page URL's fragment, keeping the rest of the URL", () => {
    expect(takeToken("http://127.0.0.1:1/#token=abc")).toEqual({
      token: "abc",
      cleanUrl: "http://127.0.0.1:1/",
    });
    expect(takeToken("http://127.0.0.1:1/?view=seq#token=a%2Bb&tab=x")).toEqual({
      token: "a+b",
      cleanUrl: "http://127.0.0.1:1/?view=seq#tab=x",
    });
    expect(takeToken("http://127.0.0.1:1/#token=").token).toBeUndefined();
    // A query token is not a token the page takes (the hub refuses such URLs anyway).
    expect(takeToken("http://127.0.0.1:1/?token=abc").token).toBeUndefined();
  });

  it("offers the token as a subprotocol beside the fixed one, never in a URL", () => {
    expect(socketProtocols("t0k")).toEqual([HUB_SUBPROTOCOL, "acp-ri.token.t0k"]);
    expect(uiLink("http://127.0.0.1:5", "t0k")).toBe("http://127.0.0.1:5/#token=t0k");
  });
});
