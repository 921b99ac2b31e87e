/**
 * The taps this hub run has seen, live and recent, for `listTaps`: each tap's identity from its
 * hello and trace header, and its agent pids, connections and status from the lifecycle records
 * the hub relays (`TapLife`). A tap that re-attaches to a new hub continuing its file has its
 * earlier lifecycle read back from that file, so its pids survive a hub restart.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";
import { TapLife, type TapSummary } from "../../shared/hub/tap-summary.js";
import { decodeRecord } from "../../shared/trace/codec.js";
import type { TraceHeader, TraceRecord } from "../../shared/trace/record.js";
import { traceName } from "../../shared/trace/tap-name.js";

/** What the tap endpoint tells the registry. */
export interface TapWatcher {
  /** A tap said hello; `storedSeq` is the last of its records the hub's file already held. */
  attached(
    traceId: string,
    tapId: string,
    header: TraceHeader,
    pid: number | undefined,
    storedSeq: number,
  ): void;
  /** The records of one batch the hub stored and relayed, in order. */
  records(traceId: string, records: readonly TraceRecord[]): void;
  /** A tap connection closed. */
  detached(traceId: string): void;
}

interface TapEntry {
  readonly traceId: string;
  readonly tapId: string;
  readonly header: TraceHeader;
  readonly pid: number | undefined;
  readonly life: TapLife;
  /** Open tap connections (a reconnect can overlap the old socket's close). */
  sockets: number;
  attachedAt: number;
  detachedAt: number | null;
  /** Records that arrived while the file's earlier lifecycle was read back, applied after it. */
  held: TraceRecord[] | null;
}

/** Lifecycle record types; only lines naming one are parsed when a file is read back. */
const LIFECYCLE = /"type":"(agent-spawn|agent-exit|conn-open|conn-close)"/;
const SEQ = /"seq":(\d+)/;

/** The registry; `pathOf` finds a trace's file in the hub's folder. */
export class TapRegistry implements TapWatcher {
  private readonly taps = new Map<string, TapEntry>();

  constructor(
    private readonly pathOf: (traceId: string) => string | undefined,
    /** Ended taps kept for `listTaps` (the oldest are forgotten first). */
    private readonly keepEnded = 100,
  ) {}

  attached(
    traceId: string,
    tapId: string,
    header: TraceHeader,
    pid: number | undefined,
    storedSeq: number,
  ): void {
    let t = this.taps.get(traceId);
    if (!t) {
      t = {
        traceId,
        tapId,
        header,
        pid,
        life: new TapLife(),
        sockets: 0,
        attachedAt: Date.now(),
        detachedAt: null,
        held: storedSeq > 0 ? [] : null,
      };
      this.taps.set(traceId, t);
      if (storedSeq > 0) void this.readBack(t, storedSeq);
    }
    t.sockets++;
    t.attachedAt = Date.now();
    t.detachedAt = null;
  }

  records(traceId: string, records: readonly TraceRecord[]): void {
    const t = this.taps.get(traceId);
    if (!t) return;
    if (t.held) t.held.push(...records);
    else for (const r of records) t.life.ingest(r);
  }

  detached(traceId: string): void {
    const t = this.taps.get(traceId);
    if (!t) return;
    t.sockets = Math.max(0, t.sockets - 1);
    if (t.sockets === 0) t.detachedAt = Date.now();
    this.forgetOld();
  }

  /** Every tap, newest start first. */
  list(): TapSummary[] {
    return [...this.taps.values()]
      .map((t) => summary(t))
      .sort((a, b) => b.startedAt.localeCompare(a.startedAt) || b.attachedAt.localeCompare(a.attachedAt));
  }

  private forgetOld(): void {
    const ended = [...this.taps.values()].filter((t) => t.sockets === 0);
    for (const t of ended.slice(0, Math.max(0, ended.length - this.keepEnded))) this.taps.delete(t.traceId);
  }

  /** Reads the lifecycle records up to `upTo` from the file the tap continues, then applies what waited. */
  private async readBack(t: TapEntry, upTo: number): Promise<void> {
    const path = this.pathOf(t.traceId);
    try {
      if (!path) return;
      const lines = createInterface({
        input: createReadStream(path, "utf8"),
        crlfDelay: Number.POSITIVE_INFINITY,
      });
      let first = true;
      for await (const line of lines) {
        if (first) {
          first = false;
          continue;
        }
        // `"seq":` unescaped is only ever the record's own key (a frame's raw text has its quotes escaped)
        const seq = Number(SEQ.exec(line)?.[1] ?? Number.NaN);
        if (Number.isNaN(seq)) continue;
        if (seq > upTo) break; // appended by this hub since the tap attached: relayed live
        if (!LIFECYCLE.test(line)) {
          t.life.countOnly(1);
          continue;
        }
        const d = decodeRecord(line);
        if (d.kind === "record") t.life.ingest(d.record);
      }
    } catch {
      // an unreadable file leaves the tap with what it relays from now on
    } finally {
      const held = t.held ?? [];
      t.held = null;
      for (const r of held) t.life.ingest(r);
    }
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function summary(t: TapEntry): TapSummary {
  const h = t.header;
  const command = Array.isArray(h.agent?.command)
    ? h.agent.command.filter((a) => typeof a === "string")
    : null;
  const attached = t.sockets > 0;
  return {
    traceId: t.traceId,
    tapId: t.tapId,
    name: traceName(h, t.traceId),
    startedAt: typeof h.startedAt === "string" ? h.startedAt : iso(t.attachedAt),
    transport: typeof h.transport === "string" ? h.transport : null,
    command,
    cwd: typeof h.agent?.cwd === "string" ? h.agent.cwd : null,
    tapPid: typeof h.tapPid === "number" ? h.tapPid : (t.pid ?? null),
    status: t.life.status(attached),
    attached,
    ...t.life.snapshot(),
    records: t.life.records,
    attachedAt: iso(t.attachedAt),
    detachedAt: t.detachedAt === null ? null : iso(t.detachedAt),
  };
}
