import { describe, expect, it } from "vitest";
import { IngestTurns } from "./ingest-turns.js";

/** A hand-cranked event loop: `turn()` ends the current turn and runs what waited for the next one. */
function manualLoop() {
  let pending: (() => void)[] = [];
  return {
    nextTurn: (fn: () => void) => {
      pending.push(fn);
    },
    turn() {
      const fns = pending;
      pending = [];
      for (const fn of fns) fn();
    },
    get scheduled() {
      return pending.length;
    },
  };
}

function tap(turns: IngestTurns, name: string, log: string[]) {
  const lane = turns.lane<string>(
    (m) => log.push(`${name}:${m}`),
    () => log.push(`${name} paused`),
    () => log.push(`${name} resumed`),
  );
  return lane;
}

describe("IngestTurns", () => {
  it("handles messages at once while the turn has room", () => {
    const loop = manualLoop();
    const log: string[] = [];
    const a = tap(new IngestTurns(10, loop.nextTurn), "a", log);
    a.take("xxx");
    a.take("yyy");
    a.take("zzz");
    expect(log).toEqual(["a:xxx", "a:yyy", "a:zzz"]);
  });

  it("pauses a tap past the turn's budget and hands its messages on in order in later turns", () => {
    const loop = manualLoop();
    const log: string[] = [];
    const a = tap(new IngestTurns(4, loop.nextTurn), "a", log);
    a.take("11");
    a.take("22");
    a.take("33"); // the turn has spent 4 bytes: this one waits
    a.take("44");
    a.take("55");
    expect(log).toEqual(["a:11", "a:22", "a paused"]);
    loop.turn();
    expect(log.slice(3)).toEqual(["a:33", "a:44"]);
    loop.turn();
    expect(log.slice(5)).toEqual(["a:55", "a resumed"]);
    loop.turn();
    a.take("66");
    expect(log.slice(7)).toEqual(["a:66"]);
  });

  it("shares one budget among taps and serves the waiting ones in the order they waited", () => {
    const loop = manualLoop();
    const log: string[] = [];
    const turns = new IngestTurns(2, loop.nextTurn);
    const a = tap(turns, "a", log);
    const b = tap(turns, "b", log);
    a.take("aa");
    b.take("bb");
    a.take("AA");
    expect(log).toEqual(["a:aa", "b paused", "a paused"]);
    loop.turn();
    expect(log.slice(3)).toEqual(["b:bb", "b resumed"]);
    loop.turn();
    expect(log.slice(5)).toEqual(["a:AA", "a resumed"]);
    expect(loop.scheduled).toBe(1); // only the end of this turn; nothing waits any more
    loop.turn();
    expect(loop.scheduled).toBe(0);
  });

  it("drain() hands on everything queued at once (the tap's connection closed)", () => {
    const loop = manualLoop();
    const log: string[] = [];
    const a = tap(new IngestTurns(1, loop.nextTurn), "a", log);
    a.take("1");
    a.take("2");
    a.take("3");
    a.drain();
    expect(log).toEqual(["a:1", "a paused", "a:2", "a:3"]);
    loop.turn();
    loop.turn();
    expect(log.slice(4)).toEqual(["a resumed"]);
  });
});
