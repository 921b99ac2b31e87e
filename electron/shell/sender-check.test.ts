import { describe, expect, it } from "vitest";
import { checkedRegistrar, type InvokeEvent, isTrustedSender } from "./sender-check.js";

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

describe("checkedRegistrar", () => {
  /** An Electron invoke event as the registrar reads it; `sent` collects what the handler sends back. */
  function event(over: { id?: number; url?: string; parent?: unknown; frame?: null; destroyed?: boolean }) {
    const sent: unknown[] = [];
    const ev: InvokeEvent = {
      sender: {
        id: over.id ?? 7,
        isDestroyed: () => over.destroyed ?? false,
        send: (_channel, payload) => void sent.push(payload),
      },
      senderFrame:
        over.frame === null
          ? null
          : { url: over.url ?? "app://inspector/index.html", parent: over.parent ?? null },
    };
    return { ev, sent };
  }

  function registered(current: () => typeof trusted | undefined) {
    let listener: ((event: InvokeEvent, ...args: unknown[]) => unknown) | undefined;
    const calls: unknown[][] = [];
    const registrar = checkedRegistrar((_channel, l) => {
      listener = l;
    }, current);
    registrar.handle("ch", (caller, args) => {
      calls.push([...args]);
      caller.send("back", "pong");
      return "ran";
    });
    return { calls, call: (ev: InvokeEvent, ...args: unknown[]) => listener?.(ev, ...args) };
  }

  it("passes our window's calls on, with their arguments, and sends back to that window", () => {
    const { calls, call } = registered(() => trusted);
    const { ev, sent } = event({});
    expect(call(ev, "op", { a: 1 })).toBe("ran");
    expect(calls).toEqual([["op", { a: 1 }]]);
    expect(sent).toEqual(["pong"]);
  });

  it("refuses a foreign window, an iframe, a foreign origin, a gone frame and a closed window, before the handler", () => {
    let current: typeof trusted | undefined = trusted;
    const { calls, call } = registered(() => current);
    const refused = [
      event({ id: 8 }),
      event({ parent: {} }),
      event({ url: "https://evil.example/" }),
      event({ url: "app://inspector.evil/index.html" }),
      event({ frame: null }),
    ];
    for (const { ev } of refused) expect(() => call(ev, "hubStatus")).toThrow("IPC refused");
    current = undefined;
    expect(() => call(event({}).ev, "hubStatus")).toThrow("IPC refused");
    expect(calls).toEqual([]);
  });

  it("sends nothing to a window destroyed while its call ran", () => {
    const { call } = registered(() => trusted);
    const { ev, sent } = event({ destroyed: true });
    expect(call(ev)).toBe("ran");
    expect(sent).toEqual([]);
  });
});
