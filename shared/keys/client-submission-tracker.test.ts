import { describe, expect, it } from "vitest";
import { ClientSubmissionTracker, type TrackerSnapshot } from "./client-submission-tracker.js";

function memoryStore() {
  let saved: TrackerSnapshot | undefined;
  return {
    load: () => saved,
    save: (s: TrackerSnapshot) => {
      saved = s;
    },
    get saved() {
      return saved;
    },
  };
}

describe("ClientSubmissionTracker", () => {
  it("creates one key per submission at submit time and persists it before resolving", async () => {
    const store = memoryStore();
    const tracker = new ClientSubmissionTracker({ store });
    const a = await tracker.submit([{ type: "text", text: "same" }]);
    const b = await tracker.submit([{ type: "text", text: "same" }]);
    expect(a.key).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.key).not.toBe(a.key);
    expect(store.saved?.submissions.map((s) => s.key)).toEqual([a.key, b.key]);
  });

  it("numbers submissions from 1, as people count", async () => {
    const tracker = new ClientSubmissionTracker();
    const a = await tracker.submit([{ type: "text", text: "a" }]);
    const b = await tracker.submit([{ type: "text", text: "b" }]);
    expect([a.index, b.index]).toEqual([1, 2]);
  });

  it("keeps the key across attempts, settles on an answer and fails on a final error", async () => {
    const tracker = new ClientSubmissionTracker();
    const s = await tracker.submit([{ type: "text", text: "x" }]);
    await tracker.attemptSettled(s, tracker.attemptSent(s, 1, 1), { kind: "timeout" });
    await tracker.attemptSettled(s, tracker.attemptSent(s, 1, 2), {
      kind: "error",
      code: -32603,
      message: "x",
    });
    expect(tracker.pending()).toEqual([s]);
    await tracker.attemptSettled(s, tracker.attemptSent(s, 2, 1), { kind: "answered", messageId: "m" });
    expect(s.status).toBe("answered");
    expect(s.messageId).toBe("m");
    const t = await tracker.submit([{ type: "text", text: "y" }]);
    await tracker.attemptSettled(t, tracker.attemptSent(t, 2, 2), {
      kind: "error",
      code: -32602,
      message: "bad",
    });
    expect(t.status).toBe("failed");
  });

  it("settles on an answer that carries no messageId (a v1 Agent) without inventing one", async () => {
    const tracker = new ClientSubmissionTracker();
    const s = await tracker.submit([{ type: "text", text: "v1" }]);
    const first = tracker.attemptSent(s, 1, 1);
    await tracker.attemptSettled(s, first, { kind: "timeout" });
    await tracker.attemptSettled(s, tracker.attemptSent(s, 1, 2), { kind: "answered", messageId: null });
    await tracker.attemptAnsweredLate(s, first, null);
    expect(s.status).toBe("answered");
    expect(s.messageId).toBeUndefined();
    expect(s.messageIds).toEqual([]);
    expect(first.lateMessageId).toBeNull();
  });

  it("restores pending input after a restart and marks old input stale", async () => {
    const store = memoryStore();
    let now = 1000;
    const first = new ClientSubmissionTracker({ store, now: () => now });
    const s = await first.submit([{ type: "text", text: "x" }]);
    await first.setSessionId("sess");
    const second = new ClientSubmissionTracker({ store, now: () => now });
    await second.restore();
    expect(second.sessionId).toBe("sess");
    expect(second.pending().map((p) => p.key)).toEqual([s.key]);
    now += 10_000;
    expect((await second.markStale(5_000)).length).toBe(1);
    expect(second.pending()).toEqual([]);
  });

  it("sends no key when keyed is false", async () => {
    const tracker = new ClientSubmissionTracker({ keyed: false });
    expect((await tracker.submit([{ type: "text", text: "x" }])).key).toBeNull();
  });
});
