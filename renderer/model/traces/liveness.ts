/** Whether a trace can still change, and the words that follow from it. Pure. */
import type { TapStatus } from "../../../shared/hub/tap-summary.js";

/**
 * Whether the shown trace can still change: `live` while its tap is attached, `ended` once the tap
 * is gone (it ended or detached), `file` for an import. Only a live trace's open things are known
 * to be open now; the others show what the evidence recorded and no more.
 */
export type Liveness = "live" | "ended" | "file";

/** The liveness of an entry's status (`ended` when nothing is known). */
export function livenessOf(status: TapStatus | "file" | undefined): Liveness {
  if (status === "running" || status === "waiting") return "live";
  return status === "file" ? "file" : "ended";
}

/** The picker's agent words for an imported or ended trace: no pid reads as a live agent. */
export function pastAgentWords(pids: readonly number[], liveness: Liveness): string | undefined {
  if (liveness === "live" || pids.length === 0) return undefined;
  return `agent pid ${pids.join(", ")}, no exit recorded`;
}
