import { describe, expect, it } from "vitest";
import { describeArmedFault } from "../../shared/faults/armed-fault.js";
import { type BoardTap, FaultBoard } from "./fault-board.js";

const taps: BoardTap[] = [
  { traceId: "T-a", name: "tap-a", agentPids: [11], attached: true },
  { traceId: "T-b", name: "tap-b", agentPids: [22], attached: true },
  { traceId: "T-old", name: "gone", agentPids: [], attached: false },
];

function board() {
  return new FaultBoard("x", { list: () => taps });
}

describe("FaultBoard", () => {
  it("sends a rule to its target only, and shows it armed once that tap acknowledged", async () => {
    const b = board();
    const r = b.arm({ action: "drop-response", match: { method: "session/prompt" }, target: { tap: "T-b" } });
    if (!r.ok) throw new Error(r.error);
    expect(b.rulesFor("T-b").map((x) => x.id)).toEqual([r.rule.id]);
    expect(b.rulesFor("T-a")).toEqual([]);
    expect(b.views().faults[0]?.state).toBe("waiting");
    const acked = b.whenAcked(r.rule.id, 5_000);
    b.ack("T-a", [r.rule.id]); // not a target: changes nothing
    expect(b.views().faults[0]?.state).toBe("waiting");
    b.ack("T-b", [r.rule.id]);
    expect(await acked).toEqual({ ok: true });
    expect(describeArmedFault(b.views().faults[0]!)).toBe(
      "Drop the next session/prompt response · tap tap-b (pid 22) · armed · 1 left",
    );
  });

  it("fault-rules has one shape for a tap and for a UI: a tap's holds only the rules that target it", () => {
    const b = board();
    const forB = b.arm({ action: "drop-response", target: { tap: "T-b" } });
    const forAll = b.arm({ action: "delay", delayMs: 5, target: { all: true } });
    if (!forB.ok || !forAll.ok) throw new Error("not armed");
    const ui = b.message();
    const tapA = b.message("T-a");
    expect(Object.keys(tapA).sort()).toEqual(Object.keys(ui).sort());
    expect(ui.rules.map((r) => r.id)).toEqual([forB.rule.id, forAll.rule.id]);
    expect(ui.faults.map((f) => f.rule.id)).toEqual([forB.rule.id, forAll.rule.id]);
    expect(tapA.rules.map((r) => r.id)).toEqual([forAll.rule.id]);
    expect(tapA.faults.map((f) => f.rule.id)).toEqual([forAll.rule.id]);
    expect(b.message("T-b").rules).toEqual(b.rulesFor("T-b"));
  });

  it("says so when a rule's tap is no longer attached, instead of a plain armed", () => {
    let attached = true;
    const b = new FaultBoard("x", { list: () => [{ ...taps[0]!, attached }] });
    const r = b.arm({ action: "drop-response", target: { tap: "T-a" } });
    if (!r.ok) throw new Error(r.error);
    b.ack("T-a", [r.rule.id]);
    let published = 0;
    b.onChange(() => published++);
    attached = false;
    b.refresh();
    expect(published).toBe(1);
    expect(describeArmedFault(b.views().faults[0]!)).toBe(
      "Drop the next response · tap tap-a (pid 11) · armed · 1 left · tap tap-a is not attached",
    );
    expect(b.arm({ action: "drop-response", target: { tap: "T-a" } }).ok).toBe(false);
  });

  it("all live taps means the ones attached when armed; no target, or a tap not attached, is refused", () => {
    const b = board();
    const all = b.arm({ action: "delay", delayMs: 5, target: { all: true } });
    expect(all.ok && b.views().faults[0]?.taps.map((t) => t.traceId)).toEqual(["T-a", "T-b"]);
    expect(b.rulesFor("T-old")).toEqual([]);
    expect(b.arm({ action: "drop-response" })).toMatchObject({
      ok: false,
      error: expect.stringContaining("target"),
    });
    expect(b.arm({ action: "drop-response", target: { tap: "T-old" } })).toMatchObject({
      ok: false,
      error: expect.stringContaining("no tap T-old is attached"),
    });
  });

  it("a rule not acknowledged in time says which tap; a refusal says so", async () => {
    const b = board();
    const r = b.arm({ action: "drop-request", target: { all: true } });
    if (!r.ok) throw new Error(r.error);
    b.ack("T-a", [r.rule.id]);
    expect(await b.whenAcked(r.rule.id, 30)).toEqual({
      ok: false,
      error: `tap tap-b did not acknowledge rule ${r.rule.id} within 30 ms`,
    });
    const bad = b.arm({ action: "drop-request", target: { tap: "T-a" } });
    if (!bad.ok) throw new Error(bad.error);
    b.ack("T-a", [], [bad.rule.id]);
    expect(await b.whenAcked(bad.rule.id, 1_000)).toMatchObject({
      ok: false,
      error: `tap tap-a refused rule ${bad.rule.id}`,
    });
  });

  it("counts firings from the target only; a used-up rule leaves the armed list with where it fired", () => {
    const b = board();
    const r = b.arm({ action: "drop-response", count: 2, target: { tap: "T-a" } });
    if (!r.ok) throw new Error(r.error);
    b.ack("T-a", [r.rule.id]);
    b.consume(r.rule.id, "T-b", Date.UTC(2026, 0, 1)); // not its target: ignored
    expect(b.views().faults[0]).toMatchObject({ fired: 0, rule: { count: 2 } });
    b.consume(r.rule.id, "T-a", Date.UTC(2026, 0, 1, 12));
    expect(b.views().faults[0]).toMatchObject({ fired: 1, rule: { count: 1 }, state: "armed" });
    b.consume(r.rule.id, "T-a", Date.UTC(2026, 0, 1, 12, 0, 5));
    const v = b.views();
    expect(v.faults).toEqual([]);
    expect(v.recent[0]).toMatchObject({
      state: "used",
      fired: 2,
      lastFired: { at: "2026-01-01T12:00:05.000Z", traceId: "T-a", name: "tap-a" },
    });
    expect(describeArmedFault(v.recent[0]!)).toMatch(/fired at \d\d:\d\d:05 on tap tap-a$/);
  });

  it("an immediate rule leaves the armed list once every target acknowledged (and so carried it out)", () => {
    const b = board();
    const r = b.arm({ action: "kill-agent", target: { tap: "T-a" } });
    if (!r.ok) throw new Error(r.error);
    expect(r.immediate).toBe(true);
    expect(b.list()).toHaveLength(1);
    b.ack("T-a", [r.rule.id]);
    expect(b.list()).toEqual([]);
    expect(b.views().recent[0]?.rule.id).toBe(r.rule.id);
  });
});
