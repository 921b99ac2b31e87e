/**
 * What the hub (and each UI) knows about one tap: its identity from the trace header, and the
 * parts that change over its life (agent pids, open connections, whether it is still attached),
 * derived from the lifecycle records it relays. The same `TapLife` runs in the hub's tap registry
 * and in the renderer, so `acp-retry-inspector taps` and the trace picker say the same thing.
 */
import type { TraceRecord } from "../trace/record.js";

/**
 * `running`: attached, with an agent process alive or a client connected; `waiting`: attached with
 * neither (a `--listen` front before its first client, a stdio tap before its agent started);
 * `ended`: detached after its agents exited and its connections closed; `detached`: the tap went
 * away with an agent or a connection still open as far as the records say (killed, or cut off).
 */
export type TapStatus = "running" | "waiting" | "ended" | "detached";

/** How the last agent process ended. */
export interface AgentExit {
  readonly pid: number;
  readonly code: number | null;
  readonly signal: string | null;
}

/** One tap as `listTaps` reports it. */
export interface TapSummary {
  /** The hub's trace id (`GET /api/traces/<id>` exports it). */
  readonly traceId: string;
  readonly tapId: string;
  /** The header's name, or one derived from its agent command and folder. */
  readonly name: string;
  /** The tap's start, ISO 8601 (the header's `startedAt`). */
  readonly startedAt: string;
  readonly transport: string | null;
  /** The agent command (argv) the tap spawns, when it spawns one. */
  readonly command: readonly string[] | null;
  readonly cwd: string | null;
  /** The tap (`proxy`) process. */
  readonly tapPid: number | null;
  readonly status: TapStatus;
  /** True while the tap is connected to the hub. */
  readonly attached: boolean;
  /** Agent processes alive, oldest first. */
  readonly agentPids: readonly number[];
  readonly lastExit: AgentExit | null;
  readonly connections: { readonly open: number; readonly total: number };
  /** Records of this trace the hub holds. */
  readonly records: number;
  /** When the tap (last) attached to this hub, ISO 8601. */
  readonly attachedAt: string;
  /** When it detached, ISO 8601; null while attached. */
  readonly detachedAt: string | null;
}

/** A tap's lifecycle as its records tell it: agent processes, connections, records seen. */
export class TapLife {
  private readonly agents = new Set<number>();
  private readonly open = new Set<number>();
  private total = 0;
  private exit: AgentExit | null = null;
  private count = 0;

  /** Takes one record (any type; only lifecycle records change more than the count). */
  ingest(r: TraceRecord): void {
    this.count++;
    switch (r.type) {
      case "conn-open":
        if (!this.open.has(r.conn)) this.total++;
        this.open.add(r.conn);
        break;
      case "conn-close":
        this.open.delete(r.conn);
        break;
      case "agent-spawn":
        this.agents.add(r.pid);
        break;
      case "agent-exit":
        this.agents.delete(r.pid);
        this.exit = { pid: r.pid, code: r.code, signal: r.signal };
        break;
    }
  }

  /** Counts `n` records whose content does not matter here (e.g. frames read back from a file). */
  countOnly(n: number): void {
    this.count += n;
  }

  /** Records taken. */
  get records(): number {
    return this.count;
  }

  /** Agent pids alive, connections, the last exit. */
  snapshot(): Pick<TapSummary, "agentPids" | "connections" | "lastExit"> {
    return {
      agentPids: [...this.agents],
      connections: { open: this.open.size, total: this.total },
      lastExit: this.exit,
    };
  }

  /** The status word, given whether the tap is attached now. */
  status(attached: boolean): TapStatus {
    const busy = this.agents.size > 0 || this.open.size > 0;
    if (attached) return busy ? "running" : "waiting";
    return busy ? "detached" : "ended";
  }
}

/** One line saying how the agent stands: `agent pid 4242`, `agent exited (code 0)`, `agent killed (SIGKILL)`. */
export function describeAgent(s: Pick<TapSummary, "agentPids" | "lastExit">): string {
  if (s.agentPids.length > 0) return `agent pid ${s.agentPids.join(", ")}`;
  const e = s.lastExit;
  if (!e) return "no agent yet";
  return e.signal ? `agent killed (${e.signal})` : `agent exited (code ${e.code ?? "?"})`;
}
