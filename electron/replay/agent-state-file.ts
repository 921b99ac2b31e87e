/**
 * `replay --as agent --state FILE`: where the replay stands, kept across agent respawns. A process
 * that ends the way the recorded agent did (a re-applied kill or restart) writes `respawn: true`;
 * the next process started within `RESPAWN_WINDOW_MS` with the same trace continues from there
 * (the next part of the recording). Any other start begins at the start of the recording.
 */
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { MatchPosition } from "../../shared/replay/agent-matcher.js";
import { userDir } from "../platform/user-dirs.js";
import { ensurePrivateDir } from "../trace/private-files.js";

/** How long after a recorded exit a new process counts as its respawn. */
export const RESPAWN_WINDOW_MS = 60_000;

/** The state file's content. */
export interface AgentReplayState {
  readonly version: 1;
  /** sha256 of the trace replayed: a state of another trace is not used. */
  readonly sha256: string;
  readonly position: MatchPosition;
  /** True when the last process ended as the recorded agent did, for a respawn to continue. */
  readonly respawn: boolean;
  /** When it was written (epoch ms). */
  readonly savedAt: number;
}

/** The default state file of a trace: `<state folder>/replay-agent/<sha256 prefix>.json`. */
export function defaultStatePath(sha256: string): string {
  const dir = join(userDir("state"), "replay-agent");
  ensurePrivateDir(dir);
  return join(dir, `${sha256.slice(0, 16)}.json`);
}

/** The position to start from, and a sentence saying why (fresh start or continued respawn). */
export function loadStartPosition(
  path: string,
  sha256: string,
  now: number,
): { position: MatchPosition | null; why: string } {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return { position: null, why: "no state file: from the start of the recording" };
  }
  let s: Partial<AgentReplayState>;
  try {
    s = JSON.parse(text.slice(0, 10_000_000)) as Partial<AgentReplayState>;
  } catch {
    return { position: null, why: `state file ${path} is not JSON: ignored, from the start` };
  }
  if (s === null || typeof s !== "object" || s.sha256 !== sha256)
    return { position: null, why: "state file of another trace: from the start of the recording" };
  if (s.respawn !== true) return { position: null, why: "the last run ended normally: from the start" };
  if (typeof s.savedAt !== "number" || now - s.savedAt > RESPAWN_WINDOW_MS)
    return { position: null, why: `the recorded exit was over ${RESPAWN_WINDOW_MS} ms ago: from the start` };
  const p = s.position;
  if (!p || !Array.isArray(p.used) || !Array.isArray(p.keys))
    return { position: null, why: "state file damaged: from the start" };
  const used = p.used.filter((n): n is number => Number.isInteger(n));
  const keys = p.keys.filter(
    (k): k is [string, string | null] =>
      Array.isArray(k) && typeof k[0] === "string" && (typeof k[1] === "string" || k[1] === null),
  );
  return {
    position: { used, keys },
    why: `respawned after a recorded exit: ${used.length} request(s) already replayed`,
  };
}

/** Writes the state (a temporary file renamed over the old one, so a reader never sees half). */
export function saveState(path: string, state: AgentReplayState): void {
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(state), { mode: 0o600 });
  renameSync(tmp, path);
}
