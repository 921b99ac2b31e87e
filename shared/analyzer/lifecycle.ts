/** Connection and Agent process rows: created on first sight, updated by lifecycle records. */
import type { AgentRow, ConnectionRow } from "./timeline-model.js";

/** A new connection row, before anything is known about it but its number. */
export function newConnectionRow(id: number, conn: number, rev: number): ConnectionRow {
  return {
    id,
    rev,
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
}

/** A new Agent row for a spawned (or, when only its stderr or exit was seen, assumed) process. */
export function newAgentRow(
  id: number,
  rev: number,
  pid: number,
  command: readonly string[],
  spawn: { seq: number; ts: number } | null,
): AgentRow {
  return {
    id,
    rev,
    pid,
    command,
    spawnSeq: spawn?.seq ?? null,
    spawnedAt: spawn?.ts ?? null,
    exitSeq: null,
    exitCode: null,
    exitSignal: null,
    stderrLines: 0,
  };
}
