import type { WebSocket } from "ws";
import { HUB_PROTOCOL_VERSION } from "../../shared/hub/protocol-version.js";
import { decodeTapMessage, type HubToTap } from "../../shared/hub/tap-wire.js";
import { checkHeader } from "../../shared/trace/header-check.js";
import type { EventFeed } from "./event-feed.js";
import type { FaultBoard } from "./fault-board.js";
import { IngestTurns } from "./ingest-turns.js";
import type { TapWatcher } from "./tap-registry.js";
import type { LiveTrace, StoredRecords, TraceStore } from "./trace-store.js";
import { UiPreviews } from "./ui-previews.js";

/**
 * The lines UIs get for stored records: the same lines, except that a large frame's is its preview
 * (ui-previews.ts), so the ring and every window hold at most a preview of it.
 */
export function linesForUi(
  stored: StoredRecords,
  previews: UiPreviews,
): { lines: readonly string[]; bytes: Buffer } {
  let lines: string[] | undefined;
  for (let i = 0; i < stored.entries.length; i++) {
    const line = stored.lines[i] as string;
    const ui = previews.lineFor(line, stored.entries[i]);
    if (ui === line) continue;
    lines ??= stored.lines.slice();
    lines[i] = ui;
  }
  return lines ? { lines, bytes: Buffer.from(lines.join("\n")) } : stored;
}

/** What the tap endpoint needs from the hub. */
export interface TapEndpointDeps {
  readonly hubId: string;
  readonly store: TraceStore;
  readonly feed: EventFeed;
  readonly board: FaultBoard;
  /** Counts records in, for stats. */
  readonly countRecords: (n: number) => void;
  /** Told of every tap coming and going, and of the records it stored (the tap registry). */
  readonly taps: TapWatcher;
}

/** How long a tap has to say hello before the hub closes the connection. */
const HELLO_TIMEOUT_MS = 10_000;

/** Tap message bytes handled per event-loop turn before the others wait (see IngestTurns). */
const INGEST_BYTES_PER_TURN = 1 << 20;

/**
 * The hub side of the tap connections: a tap says `hello` (its id and trace header), then streams
 * `records` batches; the hub appends them to that tap's trace file, publishes them to UIs, acks
 * each batch, and pushes the fault rules armed for that tap on connect and on every change; the tap
 * acknowledges each list (`fault-ack`).
 */
export class TapEndpoint {
  /** Attached taps, each with its trace id (fault rules are sent to their targets only). */
  private readonly sockets = new Map<WebSocket, string>();
  private readonly turns = new IngestTurns(INGEST_BYTES_PER_TURN);
  /** Each trace's previews, with the keys seen so far (kept across a tap's reconnects). */
  private readonly previews = new Map<string, UiPreviews>();

  constructor(private readonly deps: TapEndpointDeps) {
    deps.board.onChange(() => this.sendRules());
  }

  /** Number of taps attached right now. */
  get attached(): number {
    return this.sockets.size;
  }

  /** Serves one tap WebSocket (already authenticated). */
  accept(ws: WebSocket): void {
    const { deps } = this;
    let trace: LiveTrace | undefined;
    let tapId: string | undefined;
    const send = (m: HubToTap) => ws.send(JSON.stringify(m));
    const fail = (message: string) => {
      send({ t: "error", message });
      ws.close(1008, message.slice(0, 120));
    };
    const helloTimer = setTimeout(() => fail("no hello"), HELLO_TIMEOUT_MS);
    const handle = (data: Buffer) => {
      const m = decodeTapMessage(data.toString());
      if (typeof m === "string") return fail(m);
      if (m.t === "hello") {
        if (trace) return fail("hello sent twice");
        if (m.v !== HUB_PROTOCOL_VERSION)
          return fail(`hub protocol ${m.v} not supported (${HUB_PROTOCOL_VERSION})`);
        // Checked field by field like a record: a wrong optional field is dropped and named in headerFaults.
        const checked = checkHeader(m.header);
        if ("problem" in checked) return fail(`hello: ${checked.problem}`);
        const header = checked.header;
        clearTimeout(helloTimer);
        tapId = m.tapId;
        trace = deps.store.attach(m.tapId, header);
        this.sockets.set(ws, trace.traceId);
        send({
          t: "welcome",
          v: HUB_PROTOCOL_VERSION,
          hubId: deps.hubId,
          traceId: trace.traceId,
          lastSeq: trace.lastSeq,
        });
        send(deps.board.message(trace.traceId));
        deps.feed.publish({
          kind: "tap-attached",
          traceId: trace.traceId,
          tapId: m.tapId,
          header,
          at: Date.now(),
        });
        deps.taps.attached(trace.traceId, m.tapId, header, m.pid, trace.lastSeq);
        deps.board.refresh();
        return;
      }
      if (!trace) return fail("hello first");
      if (m.t === "fault-ack") return deps.board.ack(trace.traceId, m.ids, m.refused);
      const live = trace;
      if (m.dropped)
        this.side(live.traceId, () =>
          deps.feed.publish({
            kind: "tap-gap",
            traceId: live.traceId,
            dropped: m.dropped ?? 0,
            at: Date.now(),
          }),
        );
      // Checked as they are stored: an invalid record is kept as the tap sent it and relayed, so the
      // file and every UI flag it; only valid records reach the registry and the fault board.
      const stored = trace.append(m.records, (upTo) => send({ t: "ack", upTo }), m.dropped);
      deps.countRecords(stored.lines.length);
      // The records are stored: what follows are sides (UIs, the registry and OTLP, the fault
      // board), each caught, so one failing never ends the tap's connection or the hub (issue 31).
      if (stored.lines.length > 0)
        this.side(live.traceId, () => {
          const previews = this.previews.get(live.traceId) ?? new UiPreviews();
          this.previews.set(live.traceId, previews);
          const ui = linesForUi(stored, previews);
          deps.feed.publishRecords(live.traceId, ui.lines, ui.bytes);
        });
      this.side(live.traceId, () => deps.taps.records(live.traceId, stored.records));
      for (const record of stored.records) {
        // a delay's later `fate` record is the same application, not another one
        if (record.type === "fault" && record.ruleId && record.fate === undefined) {
          const ruleId = record.ruleId;
          this.side(live.traceId, () => deps.board.consume(ruleId, live.traceId, record.ts));
        }
      }
    };
    const lane = this.turns.lane(
      handle,
      () => ws.pause(),
      () => ws.resume(),
    );
    ws.on("message", (data, isBinary) => {
      if (isBinary) return fail("binary frames are not part of the protocol");
      lane.take(data as Buffer);
    });
    ws.on("close", (code) => {
      clearTimeout(helloTimer);
      lane.drain();
      this.sockets.delete(ws);
      if (trace && tapId) {
        deps.store.detach(tapId);
        deps.taps.detached(trace.traceId);
        deps.board.refresh();
        deps.feed.publish({
          kind: "tap-detached",
          traceId: trace.traceId,
          reason: `closed (${code})`,
          at: Date.now(),
        });
      }
    });
    ws.on("error", () => {});
  }

  /** Side failures so far; the first of each trace is told on stderr. */
  private readonly sideFailures = new Map<string, number>();

  /** Runs one side of storing a batch; a throw is counted and told once per trace, never passed on. */
  private side(traceId: string, run: () => void): void {
    try {
      run();
    } catch (err) {
      const n = (this.sideFailures.get(traceId) ?? 0) + 1;
      this.sideFailures.set(traceId, n);
      if (n === 1)
        process.stderr.write(
          `acp-retry-inspector: hub: trace ${traceId}: a batch's relay failed (${err instanceof Error ? err.name : "error"}); its records are stored, the hub goes on\n`,
        );
    }
  }

  /** Closes every tap connection (hub shutdown). */
  closeAll(): void {
    for (const ws of this.sockets.keys()) ws.close(1001, "hub shutting down");
  }

  /** Sends each attached tap the rules armed for it. */
  private sendRules(): void {
    for (const [ws, traceId] of this.sockets) {
      const m: HubToTap = this.deps.board.message(traceId);
      ws.send(JSON.stringify(m));
    }
  }
}
