/** Connection and Agent process rows: created on first sight, updated by lifecycle records. */
import type {
  AgentExitRecord,
  AgentSpawnRecord,
  AgentStderrRecord,
  ConnCloseRecord,
  ConnOpenRecord,
} from "../trace/record.js";
import type { ChangeSet } from "./change-set.js";
import type { AgentRow, ConnectionRow } from "./timeline-model.js";

/** What row keepers share with the analyzer: the current revision, row ids and the change set. */
export interface RowContext {
  revision(): number;
  newRowId(): number;
  readonly changes: ChangeSet;
  /** False when the trace's times are synthetic (an import that lacks timestamps): no latency is computed. */
  timesKnown?(): boolean;
}

/** The connections and Agent processes of a trace. */
export class LifecycleRows {
  readonly connections: ConnectionRow[] = [];
  readonly agents: AgentRow[] = [];
  private readonly connByNumber = new Map<number, ConnectionRow>();
  private readonly agentByPid = new Map<number, AgentRow>();

  constructor(private readonly ctx: RowContext) {}

  /** The row of connection `conn` (created on first sight), marked changed. */
  conn(conn: number): ConnectionRow {
    let c = this.connByNumber.get(conn);
    if (!c) {
      c = {
        id: this.ctx.newRowId(),
        rev: this.ctx.revision(),
        conn,
        transport: null,
        peer: null,
        openedSeq: null,
        openedAt: null,
        closedSeq: null,
        closeReason: null,
        protocolVersion: null,
        frames: 0,
      };
      this.connByNumber.set(conn, c);
      this.connections.push(c);
    }
    c.rev = this.ctx.revision();
    this.ctx.changes.connections.add(c);
    return c;
  }

  /** Applies a `conn-open` record. */
  opened(r: ConnOpenRecord): void {
    const c = this.conn(r.conn);
    c.transport = r.transport;
    c.peer = r.peer ?? null;
    c.openedSeq = r.seq;
    c.openedAt = r.ts;
  }

  /** Applies a `conn-close` record. */
  closed(r: ConnCloseRecord): void {
    const c = this.conn(r.conn);
    c.closedSeq = r.seq;
    // A record may come without a reason (older or hand-written traces): none is shown then.
    c.closeReason = typeof r.reason === "string" && r.reason !== "" ? r.reason : null;
  }

  /** The protocol version agreed on connection `conn` so far, without marking it changed. */
  versionOf(conn: number): number | null {
    return this.connByNumber.get(conn)?.protocolVersion ?? null;
  }

  /** The numbers of the connections not closed yet. */
  openConnections(): number[] {
    return this.connections.filter((c) => c.closedSeq === null).map((c) => c.conn);
  }

  /** Applies an `agent-spawn` record. */
  spawned(r: AgentSpawnRecord): void {
    const a = this.newAgent(r.pid, r.command, r.seq, r.ts);
    this.agentByPid.set(r.pid, a);
  }

  /** Applies an `agent-exit` record. */
  exited(r: AgentExitRecord): void {
    const a = this.agent(r.pid);
    a.exitSeq = r.seq;
    a.exitCode = r.code;
    a.exitSignal = r.signal;
  }

  /** Counts an `agent-stderr` line (for the latest Agent when the record names no pid). */
  stderr(r: AgentStderrRecord): void {
    const a = r.pid !== undefined ? this.agent(r.pid) : this.agents[this.agents.length - 1];
    if (!a) return;
    a.stderrLines++;
    a.rev = this.ctx.revision();
    this.ctx.changes.agents.add(a);
  }

  private agent(pid: number): AgentRow {
    let a = this.agentByPid.get(pid);
    if (!a) {
      a = this.newAgent(pid, [], null, null);
      this.agentByPid.set(pid, a);
    }
    a.rev = this.ctx.revision();
    this.ctx.changes.agents.add(a);
    return a;
  }

  private newAgent(pid: number, command: readonly string[], seq: number | null, ts: number | null): AgentRow {
    const a: AgentRow = {
      id: this.ctx.newRowId(),
      rev: this.ctx.revision(),
      pid,
      command,
      spawnSeq: seq,
      spawnedAt: ts,
      exitSeq: null,
      exitCode: null,
      exitSignal: null,
      stderrLines: 0,
    };
    this.agents.push(a);
    this.ctx.changes.agents.add(a);
    return a;
  }
}
