import { describe, expect, it } from "vitest";
import { parseListenUrl } from "./listen-url.js";

describe("parseListenUrl", () => {
  it("binds loopback, defaults the path to /acp and the port to 0", () => {
    expect(parseListenUrl("ws://127.0.0.1:8080")).toEqual({ host: "127.0.0.1", port: 8080, path: "/acp" });
    expect(parseListenUrl("http://localhost/x")).toEqual({ host: "127.0.0.1", port: 0, path: "/x" });
  });

  it.each([
    ["ws://0.0.0.0:1", "loopback"],
    ["ws://example.com:1", "loopback"],
    ["tcp://127.0.0.1:1", "ws:// or http://"],
    ["nonsense", "expects a URL"],
  ])("rejects %s", (value, message) => {
    expect(() => parseListenUrl(value)).toThrow(message);
  });
});
