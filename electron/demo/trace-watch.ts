/**
 * Follows the demo's own trace on the hub, exactly as a UI does: the hub's `/ws/ui` feed from the
 * moment the watch starts, keeping the records of the trace whose header names the demo agent's
 * command, and judging them with the real analyzer. Also tracks which agent process is alive.
 */
import { WebSocket } from "ws";
import { Analyzer } from "../../shared/analyzer/analyzer.js";
import type { AnalyzedSubmission } from "../../shared/demo/demo-facts.js";
import { UI_PATH } from "../../shared/hub/protocol-version.js";
import type { HubToUi } from "../../shared/hub/ui-wire.js";
import type { TraceRecord } from "../../shared/trace/record.js";

/** Where the hub is. */
export interface HubAddress {
  readonly port: number;
  readonly token: string;
}

/** One tap run's trace as seen through the hub. */
export class TraceWatch {
  private socket: WebSocket | undefined;
  private analyzer = new Analyzer();
  private matcher: ((command: readonly string[]) => boolean) | undefined;
  private trace: string | null = null;
  private agents: number[] = [];
  private faults = 0;
  private closed = false;

  constructor(
    private readonly hub: HubAddress,
    private readonly onChange: () => void,
  ) {}

  /** Connects and subscribes from the hub's latest event; resolves once subscribed. */
  open(timeoutMs = 10_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${this.hub.port}${UI_PATH}`, {
        headers: { Authorization: `Bearer ${this.hub.token}` },
        perMessageDeflate: false,
      });
      this.socket = ws;
      const timer = setTimeout(() => reject(new Error("the hub did not greet the demo")), timeoutMs);
      ws.on("message", (data) => {
        const m = JSON.parse(data.toString()) as HubToUi;
        if (m.t === "hello") {
          ws.send(JSON.stringify({ t: "subscribe", after: m.latestSeq }));
          clearTimeout(timer);
          resolve();
        } else if (m.t === "events") {
          for (const e of m.events) {
            if (e.kind === "tap-attached" && this.matcher?.(e.header.agent?.command ?? []))
              this.begin(e.traceId);
            else if (e.kind === "record" && e.traceId === this.trace) this.ingest(e.record);
          }
          this.onChange();
        }
      });
      ws.on("error", (err) => {
        clearTimeout(timer);
        reject(err);
      });
      ws.on("close", () => {
        if (!this.closed) this.onChange();
      });
    });
  }

  /** From now on, follow the next tap whose agent command satisfies `matches` (forgetting the previous run). */
  follow(matches: (command: readonly string[]) => boolean): void {
    this.matcher = matches;
    this.trace = null;
    this.analyzer = new Analyzer();
    this.agents = [];
    this.faults = 0;
  }

  /** The trace being followed, once its tap attached. */
  get traceId(): string | null {
    return this.trace;
  }

  /** The newest agent process that has not exited. */
  get agentPid(): number | null {
    return this.agents.at(-1) ?? null;
  }

  /** Fault applications recorded so far. */
  get faultsApplied(): number {
    return this.faults;
  }

  /** The analyzer's judgement of every keyed submission, by key. */
  analyzed(): Record<string, AnalyzedSubmission> {
    const out: Record<string, AnalyzedSubmission> = {};
    for (const s of this.analyzer.model().submissions) {
      if (s.key === null) continue;
      out[s.key] = {
        verdicts: s.verdicts.map((v) => v.name),
        outcomes: s.attempts.map((a) => a.outcome.kind),
        inserts: s.inserts,
      };
    }
    return out;
  }

  /** Disconnects from the hub. */
  close(): void {
    this.closed = true;
    this.socket?.close();
  }

  private begin(traceId: string): void {
    this.trace = traceId;
    this.matcher = undefined;
  }

  private ingest(record: TraceRecord): void {
    this.analyzer.ingest(record);
    if (record.type === "agent-spawn") this.agents.push(record.pid);
    else if (record.type === "agent-exit") this.agents = this.agents.filter((p) => p !== record.pid);
    else if (record.type === "fault") this.faults++;
  }
}
