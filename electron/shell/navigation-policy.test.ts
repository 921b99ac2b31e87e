import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExternalLinks } from "./external-links.js";
import { type GuardedContents, guardContents } from "./navigation-policy.js";

const RENDERER = "app://inspector/index.html";

/** A stand-in for an Electron WebContents: keeps the handlers the policy registers so a test can fire them. */
function fakeContents() {
  let windowOpen: ((d: { url: string }) => { action: "deny" }) | undefined;
  const listeners = new Map<string, (event: { preventDefault(): void }, url?: string) => void>();
  const contents = {
    setWindowOpenHandler(h: (d: { url: string }) => { action: "deny" }) {
      windowOpen = h;
    },
    on(event: string, listener: (event: { preventDefault(): void }, url?: string) => void) {
      listeners.set(event, listener);
      return contents;
    },
  } as unknown as GuardedContents;
  const fire = (event: string, url?: string) => {
    let prevented = false;
    listeners.get(event)?.({ preventDefault: () => (prevented = true) }, url);
    return prevented;
  };
  return { contents, open: (url: string) => windowOpen?.({ url }), fire };
}

describe("navigation policy", () => {
  it("denies every new window and offers only allow-listed https links to the browser, after confirmation", async () => {
    const asked: string[] = [];
    const opened: string[] = [];
    const links = new ExternalLinks({
      confirm: async (url) => {
        asked.push(url);
        return true;
      },
      open: async (url) => {
        opened.push(url);
      },
    });
    const c = fakeContents();
    guardContents(c.contents, RENDERER, links);
    expect(c.open("https://example.com/")).toEqual({ action: "deny" });
    expect(c.open("http://agentclientprotocol.com/")).toEqual({ action: "deny" });
    expect(c.open("https://agentclientprotocol.com/rfds")).toEqual({ action: "deny" });
    await expect.poll(() => opened).toEqual(["https://agentclientprotocol.com/rfds"]);
    expect(asked).toEqual(["https://agentclientprotocol.com/rfds"]);
  });

  it("keeps the window on the renderer's page: navigation, redirects and webviews are cancelled", () => {
    const c = fakeContents();
    const links = new ExternalLinks({ confirm: async () => false, open: async () => {} });
    guardContents(c.contents, RENDERER, links);
    expect(c.fire("will-navigate", RENDERER)).toBe(false);
    expect(c.fire("will-navigate", "https://example.com/")).toBe(true);
    expect(c.fire("will-navigate", "http://127.0.0.1:4567/")).toBe(true);
    expect(c.fire("will-redirect")).toBe(true);
    expect(c.fire("will-attach-webview")).toBe(true);
  });
});

describe("main.ts", () => {
  it("hands links to the system browser only through this policy", () => {
    const main = readFileSync(join(import.meta.dirname, "main.ts"), "utf8");
    expect(main.match(/shell\.openExternal\(/g)).toHaveLength(1);
    expect(main).toMatch(/new ExternalLinks\(\{[\s\S]*open: \(url\) => shell\.openExternal\(url\)/);
    expect(main).toContain("guardContents(contents, RENDERER_URL, links)");
    expect(main).not.toContain("setWindowOpenHandler");
    expect(main).not.toContain('"will-navigate"');
  });
});
