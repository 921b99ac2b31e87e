import { describe, expect, it } from "vitest";
import { isTrustedSender } from "./sender-check.js";

const trusted = { webContentsId: 7, origin: "app://inspector" };
const ok = { webContentsId: 7, frameUrl: "app://inspector/index.html", isMainFrame: true };

describe("isTrustedSender", () => {
  it("accepts our window's main frame on our origin", () => {
    expect(isTrustedSender(ok, trusted)).toBe(true);
  });

  it("rejects other windows, iframes, foreign origins, missing frames and an unknown window", () => {
    expect(isTrustedSender({ ...ok, webContentsId: 8 }, trusted)).toBe(false);
    expect(isTrustedSender({ ...ok, isMainFrame: false }, trusted)).toBe(false);
    expect(isTrustedSender({ ...ok, frameUrl: "https://evil.example/" }, trusted)).toBe(false);
    expect(isTrustedSender({ ...ok, frameUrl: "app://inspector.evil/index.html" }, trusted)).toBe(false);
    expect(isTrustedSender({ ...ok, frameUrl: "file:///etc/passwd" }, trusted)).toBe(false);
    expect(isTrustedSender({ ...ok, frameUrl: undefined }, trusted)).toBe(false);
    expect(isTrustedSender({ ...ok, frameUrl: "not a url" }, trusted)).toBe(false);
    expect(isTrustedSender(ok, undefined)).toBe(false);
  });
});
