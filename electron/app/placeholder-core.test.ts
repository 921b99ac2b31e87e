import { describe, expect, it } from "vitest";
import type { AppEvent } from "../../shared/app/app-event.js";
import type { AppCore } from "./app-core.js";
import { createPlaceholderCore } from "./placeholder-core.js";

/** Collects events until `done` says stop, bounded by the test timeout. */
function collect(core: AppCore, fromSeq: number, done: (events: AppEvent[]) => boolean): Promise<AppEvent[]> {
  const seen: AppEvent[] = [];
  return new Promise((resolve) => {
    const off = core.subscribe(fromSeq, (b) => {
      seen.push(...b.events);
      if (done(seen)) {
        off();
        resolve(seen);
      }
    });
  });
}

const trace = [
  '{"format":"acp-retry-inspector-trace","version":1,"tool":"t","startedAt":"2025-01-01T00:00:00Z"}',
  '{"type":"frame","seq":1,"ts":1,"conn":1,"dir":"client->agent","raw":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"method\\":\\"initialize\\"}"}',
  "not json",
  '{"type":"agent-stderr","seq":2,"ts":2,"text":"hello"}',
].join("\n");

describe("placeholder core", () => {
  it("starts with a status and an explanatory note, queued for a late subscriber", async () => {
    const core = createPlaceholderCore({ label: "x", tool: "t" });
    const events = await collect(core, 0, (e) => e.length >= 2);
    expect(events.map((e) => e.kind)).toEqual(["status", "record"]);
  });

  it("imports a trace, reports bad lines, and exports it back", async () => {
    const core = createPlaceholderCore({ label: "x", tool: "t" });
    const result = await core.invoke("importTrace", { fileName: "a.jsonl", text: trace });
    expect(result).toEqual({ records: 2, problems: [expect.stringContaining("line 3")] });
    const full = await core.invoke("exportTrace", { redacted: false });
    expect(full.text).toContain("initialize");
    const redacted = await core.invoke("exportTrace", { redacted: true });
    expect(redacted.text).not.toContain("initialize");
    expect(redacted.fileName).toMatch(/redacted\.jsonl$/);
  });

  it("rejects a file that is not a trace and invalid calls", async () => {
    const core = createPlaceholderCore({ label: "x", tool: "t" });
    await expect(core.invoke("importTrace", { fileName: "a.txt", text: "hello" })).rejects.toThrow(/a\.txt/);
    await expect(core.invoke("setPaused", { paused: 1 })).rejects.toThrow(/boolean/);
  });

  it("publishes clear, pause and fault events in order", async () => {
    const core = createPlaceholderCore({ label: "x", tool: "t" });
    await core.invoke("clear", {});
    await core.invoke("injectFault", { action: "kill-agent" });
    await core.invoke("setPaused", { paused: true });
    const events = await collect(core, 2, (e) => e.length >= 3);
    expect(events.map((e) => e.kind)).toEqual(["cleared", "record", "status"]);
    expect(events[2]).toMatchObject({ status: { paused: true } });
  });
});
