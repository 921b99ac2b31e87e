/**
 * The tap side of the hub connection: records go into a bounded backlog and out in batches while a
 * hub is attached; fault rules and attach changes come back. hub-finder.ts finds the hub and times
 * the retries, tap-socket.ts speaks the wire, link-backlog.ts keeps what the hub has not acknowledged.
 */
import { randomUUID } from "node:crypto";
import type { FaultRule } from "../../../shared/faults/fault-rule.js";
import { checkFaultRule } from "../../../shared/faults/rule-validation.js";
import { HUB_PROTOCOL_VERSION } from "../../../shared/hub/protocol-version.js";
import type { HubToTap } from "../../../shared/hub/tap-wire.js";
import type { TraceHeader, TraceRecord } from "../../../shared/trace/record.js";
import { rendezvousPath } from "../../hub-client/hub-paths.js";
import { HubFinder } from "./hub-finder.js";
import { LinkBacklog } from "./link-backlog.js";
import { TapSocket } from "./tap-socket.js";
import { TapStateRecords } from "./tap-state-records.js";

/** How a tap links to the hub. Only `header` is required. */
export interface HubLinkOptions {
  /** The tap's trace header, sent on every (re)attach. */
  readonly header: TraceHeader;
  /** Stable id of this tap across reconnects (random by default). */
  readonly tapId?: string;
  /** Rendezvous file to discover the hub by (default: the per-user one, see hub-paths.ts). */
  readonly rendezvousPath?: string;
  /** A fixed hub instead of discovery. */
  readonly hub?: { readonly port: number; readonly token: string };
  /** Records kept while no hub takes them (default 20 000); the oldest are dropped beyond. */
  readonly maxBacklog?: number;
  /** Bytes of record text kept until a hub acknowledges them (default 32 MiB); the oldest are dropped beyond. */
  readonly maxBacklogBytes?: number;
  /**
   * Keep records produced while no hub is attached (default true, bounded as above). A proxy passes
   * false: holding records for a hub that may never come would make every session without a hub
   * pay for it in memory and garbage collection. Records skipped this way are counted and reported
   * to the next hub as a gap; records already sent to a hub that then died are still resent.
   */
  readonly holdWhileDetached?: boolean;
  /** Records per batch message (default 1 000). */
  readonly maxBatch?: number;
  /** Coalescing window before a batch is sent, ms (default 20). */
  readonly flushMs?: number;
  /** Backoff between discovery attempts, ms (default 250 doubling to 5 000). */
  readonly retryMinMs?: number;
  readonly retryMaxMs?: number;
  /** Diagnostics (never the session's stdout). */
  readonly onLog?: (line: string) => void;
}

/** Counters of a hub link, for tests, benches and the tap's own notes. */
export interface HubLinkStats {
  readonly attached: boolean;
  readonly traceId?: string;
  readonly backlog: number;
  readonly dropped: number;
  readonly sent: number;
  readonly acked: number;
  readonly attaches: number;
}

/** The tap side of the hub connection. Nothing here throws into the tap or blocks it. */
export interface HubLink {
  /** Queues one record for the hub (never blocks, never throws). */
  send(record: TraceRecord): void;
  /** Calls `fn` with the armed rules whenever they change; with `[]` when the hub goes away. */
  onFaultRules(fn: (rules: readonly FaultRule[]) => void): () => void;
  /** Calls `fn` on every attach (with the hub's trace id) and detach. */
  onAttach(fn: (attached: boolean, traceId?: string) => void): () => void;
  stats(): HubLinkStats;
  /** Waits up to `flushTimeoutMs` (default 1 000) for the backlog to be acknowledged, then disconnects. */
  close(flushTimeoutMs?: number): Promise<void>;
}

/** Creates a hub link: it finds the hub by the rendezvous file, attaches, streams, and re-attaches to any later hub. */
export function createHubLink(options: HubLinkOptions): HubLink {
  const tapId = options.tapId ?? randomUUID();
  const maxBatch = options.maxBatch ?? 1_000;
  const flushMs = options.flushMs ?? 20;
  const log = (line: string) => {
    try {
      options.onLog?.(line);
    } catch {}
  };
  const backlog = new LinkBacklog(options.maxBacklog ?? 20_000, options.maxBacklogBytes);
  const holdWhileDetached = options.holdWhileDetached ?? true;
  const state = new TapStateRecords();
  const ruleListeners = new Set<(rules: readonly FaultRule[]) => void>();
  const attachListeners = new Set<(attached: boolean, traceId?: string) => void>();
  let ws: TapSocket | undefined;
  let attached = false;
  let traceId: string | undefined;
  let closed = false;
  let flushTimer: NodeJS.Timeout | undefined;
  let drained: (() => void) | undefined;
  const counters = { sent: 0, acked: 0, attaches: 0 };
  const finder = new HubFinder({
    rendezvousPath: options.rendezvousPath ?? rendezvousPath(),
    hub: options.hub,
    retryMinMs: options.retryMinMs ?? 250,
    retryMaxMs: options.retryMaxMs ?? 5_000,
    wantsHub: () => !closed && !ws,
    connect: () => connect(),
    log,
  });

  const emit = <A extends unknown[]>(set: Set<(...a: A) => void>, ...args: A) => {
    for (const fn of set) {
      try {
        fn(...args);
      } catch (err) {
        log(`hub link listener failed: ${String(err)}`);
      }
    }
  };

  function connect(): void {
    if (closed || ws) return;
    const target = finder.find();
    if (!target) {
      finder.retryLater();
      return;
    }
    const hello = {
      t: "hello",
      v: HUB_PROTOCOL_VERSION,
      tapId,
      header: options.header,
      pid: process.pid,
    } as const;
    const socket: TapSocket = new TapSocket(target, hello, {
      onMessage,
      onClose: () => {
        if (ws !== socket) return;
        ws = undefined;
        backlog.resetInFlight();
        if (attached) {
          attached = false;
          traceId = undefined;
          log("hub link: detached");
          emit(ruleListeners, []);
          emit(attachListeners, false, undefined);
          finder.resetBackoff();
        }
        finder.retryLater();
      },
      log,
    });
    ws = socket;
  }

  function onMessage(m: HubToTap): void {
    switch (m.t) {
      case "welcome":
        attached = true;
        traceId = m.traceId;
        finder.resetBackoff();
        counters.attaches++;
        backlog.ack(m.lastSeq);
        log(`hub link: attached to hub ${m.hubId} as trace ${m.traceId}`);
        {
          // What the hub lacks of the tap's state (agents spawned, connections opened while no hub
          // was there, or told a hub that is gone), older than anything still queued: sent first.
          // The records dropped so far go with them, so the hub's gap notes for the holes among
          // them say why (the hub writes down every hole in its copy).
          const missing = state.between(m.lastSeq, backlog.firstSeq ?? Number.POSITIVE_INFINITY);
          if (missing.length > 0 && ws?.open) {
            const { dropped } = backlog.take(0);
            ws.send({ t: "records", records: missing, ...(dropped > 0 && { dropped }) });
          }
        }
        emit(attachListeners, true, m.traceId);
        flush();
        return;
      case "ack": {
        const before = backlog.size;
        backlog.ack(m.upTo);
        counters.acked += before - backlog.size;
        if (backlog.size === 0) drained?.();
        else flush();
        return;
      }
      case "fault-rules": {
        const valid = m.rules.filter((r) => checkFaultRule(r));
        emit(ruleListeners, valid);
        // the listeners installed them (and carried out the immediate ones): say so to the hub
        const refused = m.rules.filter((r) => !valid.includes(r)).map((r) => String(r?.id));
        ws?.send({ t: "fault-ack", ids: valid.map((r) => r.id), ...(refused.length > 0 && { refused }) });
        return;
      }
      case "error":
        log(`hub link: hub refused: ${m.message}`);
        return;
    }
  }

  function flush(): void {
    if (flushTimer) {
      clearTimeout(flushTimer);
      flushTimer = undefined;
    }
    if (!attached || !ws?.open) return;
    // keep at most a few batches in flight so a slow hub applies backpressure to the link, not to the tap
    while (backlog.inFlight < maxBatch * 4 && ws.bufferedAmount < 4 << 20) {
      const { records, dropped } = backlog.take(maxBatch);
      if (records.length === 0 && dropped === 0) break;
      ws.send({ t: "records", records, ...(dropped > 0 && { dropped }) });
      counters.sent += records.length;
      if (records.length === 0) break;
    }
  }

  function scheduleFlush(): void {
    if (flushTimer || !attached) return;
    flushTimer = setTimeout(flush, flushMs);
    flushTimer.unref();
  }

  finder.watchRendezvous();
  connect();

  return {
    send(record) {
      if (closed) return;
      state.note(record);
      if (!attached && !holdWhileDetached) {
        backlog.skip();
        return;
      }
      try {
        backlog.push(record);
        scheduleFlush();
      } catch (err) {
        log(`hub link: ${String(err)}`);
      }
    },
    onFaultRules(fn) {
      ruleListeners.add(fn);
      return () => ruleListeners.delete(fn);
    },
    onAttach(fn) {
      attachListeners.add(fn);
      return () => attachListeners.delete(fn);
    },
    stats() {
      return {
        attached,
        ...(traceId !== undefined && { traceId }),
        backlog: backlog.size,
        dropped: backlog.dropped,
        ...counters,
      };
    },
    async close(flushTimeoutMs = 1_000) {
      if (closed) return;
      // The link's socket and timers are unref'd so it never keeps a tap alive, but a tap closing
      // it may have nothing else left (its agent gone, its pipes closed): without a held timer,
      // Node's loop would run dry during this bounded wait and the process end with status 0
      // before its exit status is decided (a kill-agent's SIGKILL seen as a clean exit).
      const hold = setTimeout(() => {}, flushTimeoutMs + 1_000);
      try {
        if (attached && backlog.size > 0) {
          flush();
          await new Promise<void>((resolve) => {
            drained = resolve;
            setTimeout(resolve, flushTimeoutMs).unref();
          });
        }
        closed = true;
        finder.close();
        if (flushTimer) clearTimeout(flushTimer);
        const socket = ws;
        ws = undefined;
        if (socket) await socket.close();
      } finally {
        clearTimeout(hold);
      }
    },
  };
}
