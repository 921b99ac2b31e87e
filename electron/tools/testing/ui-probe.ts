import { WebSocket } from "ws";
import type { HubEvent } from "../../../shared/hub/hub-event.js";
import { UI_PATH } from "../../../shared/hub/protocol-version.js";
import type { HubToUi, UiToHub } from "../../../shared/hub/ui-wire.js";

/** A minimal headless UI client: subscribes to a hub and keeps every message (tests, bench, scripts). */
export interface UiProbe {
  readonly messages: HubToUi[];
  /** Number of events received so far. */
  readonly eventCount: number;
  /** Every event kept so far, in order (those of all `events` messages). */
  events(): HubEvent[];
  /** The records of the record events kept so far, in order. */
  records(): unknown[];
  send(m: UiToHub): void;
  /** Resolves with the first message (already received or future) that satisfies `pred`; rejects after `timeoutMs`. */
  waitFor(pred: (m: HubToUi) => boolean, timeoutMs?: number): Promise<HubToUi>;
  /** Resolves once at least `n` events arrived; rejects after `timeoutMs`. */
  waitForEvents(n: number, timeoutMs?: number): Promise<void>;
  close(): void;
}

/** Connects a probe to the hub on `port` with `token` (keeping `events` messages unless told not to); resolves once open. */
export async function connectUiProbe(port: number, token: string, keepEvents = true): Promise<UiProbe> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${UI_PATH}`, {
    headers: { Authorization: `Bearer ${token}` },
    perMessageDeflate: false,
  });
  const messages: HubToUi[] = [];
  let eventCount = 0;
  const waiters = new Set<() => void>();
  ws.on("message", (data) => {
    const m = JSON.parse(data.toString()) as HubToUi;
    if (m.t === "events") eventCount += m.events.length;
    if (m.t !== "events" || keepEvents) messages.push(m);
    for (const w of [...waiters]) w();
  });
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  const until = (check: () => boolean, timeoutMs: number, what: string) =>
    new Promise<void>((resolve, reject) => {
      if (check()) return resolve();
      const timer = setTimeout(() => {
        waiters.delete(w);
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}`));
      }, timeoutMs);
      const w = () => {
        if (!check()) return;
        clearTimeout(timer);
        waiters.delete(w);
        resolve();
      };
      waiters.add(w);
    });
  const events = () => messages.flatMap((m) => (m.t === "events" ? (m.events as HubEvent[]) : []));
  return {
    messages,
    events,
    records: () => events().flatMap((e) => (e.kind === "record" ? [e.record as unknown] : [])),
    get eventCount() {
      return eventCount;
    },
    send: (m) => ws.send(JSON.stringify(m)),
    async waitFor(pred, timeoutMs = 5_000) {
      let found: HubToUi | undefined;
      await until(
        () => {
          found = messages.find(pred);
          return found !== undefined;
        },
        timeoutMs,
        "a matching hub message",
      );
      return found as HubToUi;
    },
    waitForEvents: (n, timeoutMs = 5_000) => until(() => eventCount >= n, timeoutMs, `${n} events`),
    close: () => ws.close(),
  };
}
