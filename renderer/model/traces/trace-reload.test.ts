import { describe, expect, it } from "vitest";
import { TraceScript } from "../../../shared/analyzer/testing/trace-script.js";
import type { HubEvent } from "../../../shared/hub/hub-event.js";
import type { HubGap } from "../../../shared/hub/ui-wire.js";
import type { TraceRecord } from "../../../shared/trace/record.js";
import { TraceCatalog } from "./trace-catalog.js";
import {
  missedEvents,
  PendingReloads,
  REBUILD_CHUNK_LINES,
  rebuildTrace,
  reloadingNotice,
  reloadNotice,
  reloadTargets,
} from "./trace-reload.js";

const noPause = async () => {};

function gap(traceIds: string[], after = 0, oldestSeq = 1235): HubGap {
  return { t: "gap", after, oldestSeq, traceIds };
}

/** A trace with `n` numbered requests (1 + n records: the conn-open, then one frame per request). */
function script(n: number): TraceScript {
  const sc = new TraceScript().open(1);
  for (let i = 1; i <= n; i++) sc.request(1, "client->agent", i, "session/list", { cursor: `c${i}` });
  return sc;
}

function recordEvents(traceId: string, records: readonly TraceRecord[], from: number): HubEvent[] {
  return records.map((record, i) => ({ seq: from + i, kind: "record" as const, traceId, record }));
}

describe("which traces a gap reloads", () => {
  it("counts the missed events and takes the hub's traces, then this window's other live ones", () => {
    expect(missedEvents(gap([], 0, 1235))).toBe(1234);
    expect(missedEvents(gap([], 10, 11))).toBe(0);
    const catalog = new TraceCatalog();
    catalog.applyHubEvents(recordEvents("mine", script(1).records, 1));
    catalog.applyHubEvents(recordEvents("t2", script(1).records, 5));
    catalog.addImported("file.jsonl", script(1).header());
    expect(reloadTargets(gap(["t1", "t2"]), catalog)).toEqual(["t1", "t2", "mine"]);
    expect(reloadTargets(gap([]), new TraceCatalog())).toEqual([]);
  });
});

describe("rebuilding a loaded trace from the hub's file", () => {
  it("feeds the header and every record through the analyzer, in chunks with pauses between", async () => {
    const sc = script(REBUILD_CHUNK_LINES + 10);
    let pauses = 0;
    const { loaded, problems } = await rebuildTrace("t1", `${sc.jsonl()}not json\n`, undefined, async () => {
      pauses++;
    });
    expect(pauses).toBe(1);
    expect(problems).toHaveLength(1);
    expect(loaded.source).toBe("live");
    expect(loaded.header).toEqual(sc.header());
    expect(loaded.records).toHaveLength(sc.records.length);
    expect(loaded.lastSeq).toBe(sc.records.at(-1)!.seq);
    loaded.publish();
    expect(loaded.view.requests).toHaveLength(REBUILD_CHUNK_LINES + 10);
  });

  it("keeps what the user cleared and refuses text that is not a trace", async () => {
    const sc = script(6);
    const previous = new TraceCatalog();
    previous.applyHubEvents(recordEvents("t1", sc.records.slice(0, 4), 1));
    previous.get("t1")!.clear();
    const { loaded } = await rebuildTrace("t1", sc.jsonl(), previous.get("t1"), noPause);
    expect(loaded.records.map((r) => r.seq)).toEqual(sc.records.slice(4).map((r) => r.seq));
    await expect(rebuildTrace("t1", "hello\n", undefined, noPause)).rejects.toThrow(/not a trace/);
  });
});

describe("reloads in flight", () => {
  it("replays the live events that arrived meanwhile without duplicating records the file has", async () => {
    const sc = script(10);
    const catalog = new TraceCatalog();
    // The window saw the first 3 records, missed some, then gets records 7.. live.
    catalog.applyHubEvents(recordEvents("t1", sc.records.slice(0, 3), 1));
    const pending = new PendingReloads();
    const gen = pending.begin(["t1"]);
    const live = recordEvents("t1", sc.records.slice(6, 10), 100);
    pending.note(live);
    pending.note(recordEvents("other", sc.records, 1));
    catalog.applyHubEvents(live);
    expect(pending.firstRecordSeq("t1")).toBe(sc.records[6]!.seq);
    expect(pending.firstRecordSeq("other")).toBeUndefined();

    // The file was read when the hub had written 9 of the 11 records.
    const partial = new TraceScript();
    partial.records.push(...sc.records.slice(0, 9));
    const { loaded } = await rebuildTrace("t1", partial.jsonl(), catalog.get("t1"), noPause);
    const current = catalog.get("t1")!;
    current.missing = 4;
    const fresh = pending.finish("t1", gen, loaded, current, true)!;
    expect(fresh).toBe(loaded);
    expect(fresh.records.map((r) => r.seq)).toEqual(sc.records.slice(0, 10).map((r) => r.seq));
    expect(fresh.attached).toBe(true);
    expect(fresh.missing).toBe(4);
    expect(fresh.label).toBe("t1");
    expect(pending.isCurrent("t1", gen)).toBe(false);
    // Later live records go straight to the loaded trace; repeats are skipped.
    expect(fresh.ingest(sc.records[10]!)).toBe(true);
    expect(fresh.ingest(sc.records[10]!)).toBe(false);
    fresh.publish();
    expect(fresh.view.requests).toHaveLength(10);
  });

  it("takes the attached state from the hub, then from the events that followed, else from the window", async () => {
    const sc = script(2);
    const pending = new PendingReloads();
    const rebuilt = async () => (await rebuildTrace("t1", sc.jsonl(), undefined, noPause)).loaded;
    let gen = pending.begin(["t1"]);
    pending.note([{ seq: 9, kind: "tap-detached", traceId: "t1", reason: "closed", at: 0 }]);
    expect(pending.finish("t1", gen, await rebuilt(), undefined, true)!.attached).toBe(false);
    gen = pending.begin(["t1"]);
    const current = await rebuilt();
    current.attached = true;
    expect(pending.finish("t1", gen, await rebuilt(), current, undefined)!.attached).toBe(true);
  });

  it("lets a newer gap supersede an older reload of the same trace, and drops failed ones", async () => {
    const sc = script(2);
    const pending = new PendingReloads();
    const first = pending.begin(["t1", "t2"]);
    const second = pending.begin(["t1"]);
    const s = (await rebuildTrace("t1", sc.jsonl(), undefined, noPause)).loaded;
    expect(pending.finish("t1", first, s, undefined, undefined)).toBeUndefined();
    expect(pending.drop("t1", first)).toBe(false);
    expect(pending.drop("t2", first)).toBe(true);
    expect(pending.isCurrent("t2", first)).toBe(false);
    expect(pending.finish("t1", second, s, undefined, undefined)).toBe(s);
  });

  it("keeps a Clear pressed while the file was read", async () => {
    const sc = script(6);
    const catalog = new TraceCatalog();
    catalog.applyHubEvents(recordEvents("t1", sc.records.slice(0, 2), 1));
    const pending = new PendingReloads();
    const gen = pending.begin(["t1"]);
    const { loaded } = await rebuildTrace("t1", sc.jsonl(), catalog.get("t1"), noPause);
    const live = recordEvents("t1", sc.records.slice(5), 50);
    pending.note(live);
    catalog.applyHubEvents(live);
    catalog.get("t1")!.clear();
    const fresh = pending.finish("t1", gen, loaded, catalog.get("t1"), true)!;
    expect(fresh.records).toEqual([]);
    expect(fresh.ingest(sc.records.at(-1)!)).toBe(false);
  });
});

describe("reload notices", () => {
  it("says what was missed and what was reloaded, or what failed", () => {
    expect(reloadingNotice(1234, 2)).toEqual({
      tone: "info",
      text: "Missed 1,234 events; reloading 2 traces from the hub's files…",
    });
    expect(reloadNotice(1234, 2, [])).toEqual({
      tone: "info",
      text: "Reloaded 2 traces from the hub's files after missing 1,234 events",
    });
    expect(reloadNotice(1, 0, [])).toBeUndefined();
    expect(reloadNotice(1, 0, [{ traceId: "t1", problem: "no such trace" }])).toEqual({
      tone: "error",
      text: "Missed 1 event. Could not reload 1 trace from the hub's files (t1: no such trace).",
    });
    expect(reloadNotice(5, 1, [{ traceId: "t2", problem: "offline" }])?.text).toBe(
      "Reloaded 1 trace from the hub's files after missing 5 events. Could not reload 1 trace from the hub's files (t2: offline).",
    );
  });
});
