import type { Readable, Writable } from "node:stream";
import type { TraceFanout } from "../../trace/trace-fanout.js";
import { LineSplitter } from "../frames/line-splitter.js";

/** Longest agent stderr line recorded whole; longer lines are recorded as a prefix. */
export const MAX_STDERR_LINE_BYTES = 64 * 1024;

/** Destinations that failed; each gets one `error` listener, however many agents write to it. */
const brokenDests = new WeakMap<Writable, { broken: boolean }>();

/** Whether `dest` has failed; the first call for a `dest` starts watching it. */
function destState(dest: Writable): { broken: boolean } {
  let state = brokenDests.get(dest);
  if (state === undefined) {
    const s = { broken: false };
    // our own stderr outlives every agent: one listener for all (not one per agent, which a
    // `--listen` front serving many connections piled up: MaxListenersExceededWarning)
    dest.on("error", () => {
      s.broken = true;
    });
    brokenDests.set(dest, s);
    state = s;
  }
  return state;
}

/**
 * Passes the agent's stderr through unchanged and records it one `agent-stderr` record per line
 * (recorded and committed to the trace file first, then passed on). Pauses the agent's stderr while our own stderr is full.
 */
export function relayStderr(
  source: Readable,
  dest: Writable,
  trace: TraceFanout,
  pid: number,
  onEnd: () => void,
): void {
  const splitter = new LineSplitter(MAX_STDERR_LINE_BYTES, MAX_STDERR_LINE_BYTES);
  const destStatus = destState(dest);
  const resume = () => source.resume();
  const record = (bytes: Buffer) => {
    const text = bytes.toString("utf8");
    trace.emit({ type: "agent-stderr", pid, text: text.endsWith("\n") ? text.slice(0, -1) : text });
  };
  const recordAll = (events: ReturnType<LineSplitter["push"]>) => {
    for (const ev of events) {
      if (ev.kind === "line") record(ev.bytes);
      else if (ev.kind === "oversize-end") record(ev.prefix);
    }
  };
  source.on("data", (chunk: Buffer) => {
    recordAll(splitter.push(chunk));
    if (destStatus.broken || dest.destroyed) return;
    trace.commit();
    if (!dest.write(chunk)) {
      source.pause();
      dest.once("drain", resume);
    }
  });
  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    dest.off("drain", resume);
    recordAll(splitter.end());
    onEnd();
  };
  source.on("end", end);
  source.on("close", end);
  source.on("error", end);
}
