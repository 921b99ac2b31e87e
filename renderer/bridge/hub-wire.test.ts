import { describe, expect, it } from "vitest";
import { takeToken } from "./choose-bridge.js";
import { hubSocketUrl, parseHubMessage } from "./hub-wire.js";

describe("hub wire", () => {
  it("builds the socket URL on the page's host with the token", () => {
    expect(hubSocketUrl("http://127.0.0.1:4567/index.html?x=1#a", "t/k+n")).toBe(
      "ws://127.0.0.1:4567/ws?token=t%2Fk%2Bn",
    );
  });

  it("parses batches and results and ignores everything else", () => {
    expect(parseHubMessage('{"type":"batch","batch":{"events":[],"gap":true}}')).toEqual({
      type: "batch",
      batch: { events: [], gap: true },
    });
    expect(parseHubMessage('{"type":"result","id":3,"ok":false,"error":"no"}')).toMatchObject({ ok: false });
    expect(parseHubMessage('{"type":"result","id":3,"ok":true,"value":1}')).toMatchObject({ value: 1 });
    for (const junk of ["", "null", "[]", '{"type":"batch"}', '{"type":"result"}', "{", 42]) {
      expect(parseHubMessage(junk)).toBeUndefined();
    }
  });

  it("takes the token out of the page URL and keeps everything else", () => {
    expect(takeToken("http://127.0.0.1:1/?token=abc&view=seq#x")).toEqual({
      token: "abc",
      cleanUrl: "http://127.0.0.1:1/?view=seq#x",
    });
    expect(takeToken("http://127.0.0.1:1/?token=").token).toBeUndefined();
    expect(takeToken("http://127.0.0.1:1/").token).toBeUndefined();
  });
});
