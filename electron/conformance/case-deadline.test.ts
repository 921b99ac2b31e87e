/** The case's clock stands still while a connection starts (set-up), and set-up has a bound of its own. */
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { CaseDeadline } from "./case-deadline.js";

const never = () => new Promise<never>(() => undefined);

describe("CaseDeadline set-up", () => {
  it("does not count set-up against the case's limit: a wait already running outlives its old end", async () => {
    const d = new CaseDeadline(300);
    const work = d.within(
      sleep(700).then(() => "answered"),
      "the answer",
    );
    await d.setup(sleep(600), "the answer to initialize on connection #2");
    // Without the pause the case's 300 ms would have ended during the set-up.
    expect(d.remainingMs).toBeGreaterThan(150);
    expect(d.setupMs).toBeGreaterThanOrEqual(500);
    await expect(work).resolves.toBe("answered");
  });

  it("still ends the case once its own time is used up, and says so", async () => {
    const d = new CaseDeadline(100);
    await d.setup(sleep(50), "start");
    await expect(d.within(never(), "the retry")).rejects.toThrow(
      /^timed out after \d+ ms waiting for the retry, when the case's 100 ms limit ran out$/,
    );
  });

  it("bounds a set-up on its own, with a reason naming that bound", async () => {
    const d = new CaseDeadline(10_000);
    await expect(d.setup(never(), "the answer to initialize on connection #1", 50)).rejects.toThrow(
      /^timed out after \d+ ms waiting for the answer to initialize on connection #1 \(set-up may take 50 ms besides the case's limit\)$/,
    );
    // The clock runs again afterwards.
    expect(d.remainingMs).toBeLessThanOrEqual(10_000);
    expect(d.setupLimitMs).toBe(60_000);
  });

  it("a linked safety net stands still with the case", async () => {
    const guard = new CaseDeadline(200);
    const d = new CaseDeadline(100, guard);
    await d.setup(sleep(300), "start");
    expect(guard.remainingMs).toBeGreaterThan(50);
  });
});
