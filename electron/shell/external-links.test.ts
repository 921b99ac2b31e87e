import { describe, expect, it } from "vitest";
import { allowedExternalLink, ExternalLinks, type ExternalOpener } from "./external-links.js";

/** A stand-in for Electron's dialog and shell.openExternal that records what was asked and opened. */
function opener(answer: boolean | (() => Promise<boolean>)) {
  const asked: string[] = [];
  const opened: string[] = [];
  const o: ExternalOpener = {
    confirm: (url) => {
      asked.push(url);
      return typeof answer === "boolean" ? Promise.resolve(answer) : answer();
    },
    open: async (url) => {
      opened.push(url);
    },
  };
  return { o, asked, opened };
}

describe("external links", () => {
  it("allows only https pages of the allow-listed hosts", () => {
    expect(allowedExternalLink("https://agentclientprotocol.com/rfds/idempotency")?.href).toBe(
      "https://agentclientprotocol.com/rfds/idempotency",
    );
    expect(allowedExternalLink("https://www.agentclientprotocol.com/")).toBeDefined();
    for (const url of [
      "http://agentclientprotocol.com/",
      "https://agentclientprotocol.com.evil.example/",
      "https://evil.example/?agentclientprotocol.com",
      "https://agentclientprotocol.com@evil.example/",
      "https://user:pw@agentclientprotocol.com/",
      "https://agentclientprotocol.com:8443/",
      "https://docs.agentclientprotocol.com.evil/",
      "https://example.com/",
      "file:///etc/passwd",
      "javascript:alert(1)",
      "smb://agentclientprotocol.com/share",
      "http://127.0.0.1:4567/#token=x",
      "not a url",
    ])
      expect(allowedExternalLink(url), url).toBeUndefined();
  });

  it("opens an allowed link only after the user confirmed it", async () => {
    const yes = opener(true);
    expect(await new ExternalLinks(yes.o).request("https://agentclientprotocol.com/x")).toBe(true);
    expect(yes.asked).toEqual(["https://agentclientprotocol.com/x"]);
    expect(yes.opened).toEqual(["https://agentclientprotocol.com/x"]);

    const no = opener(false);
    expect(await new ExternalLinks(no.o).request("https://agentclientprotocol.com/x")).toBe(false);
    expect(no.asked).toHaveLength(1);
    expect(no.opened).toEqual([]);
  });

  it("never asks about a link off the list", async () => {
    const yes = opener(true);
    expect(await new ExternalLinks(yes.o).request("https://example.com/")).toBe(false);
    expect(await new ExternalLinks(yes.o).request("http://agentclientprotocol.com/")).toBe(false);
    expect(yes.asked).toEqual([]);
    expect(yes.opened).toEqual([]);
  });

  it("shows one dialog at a time: a page cannot stack them", async () => {
    let answer: (v: boolean) => void = () => {};
    const slow = opener(() => new Promise<boolean>((resolve) => (answer = resolve)));
    const links = new ExternalLinks(slow.o);
    const first = links.request("https://agentclientprotocol.com/a");
    expect(await links.request("https://agentclientprotocol.com/b")).toBe(false);
    answer(true);
    expect(await first).toBe(true);
    expect(slow.asked).toEqual(["https://agentclientprotocol.com/a"]);
    expect(slow.opened).toEqual(["https://agentclientprotocol.com/a"]);
  });
});
