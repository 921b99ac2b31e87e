import { join } from "node:path";

/** What `schedule.json` of a run folder holds (written by the client suite, read by `conformance-agent`). */
export interface RunSchedule {
  /** `proxy --fault` rules, for every connection until one of them fired. */
  readonly faults: readonly string[];
  /** Extra `demo-agent` arguments, e.g. `--turn-ms 200`. */
  readonly agentArgs: readonly string[];
}

/** The file a connection's claim is, e.g. `conn-2.claim`; it holds the pid of the process serving it. */
export function claimFile(runDir: string, conn: number): string {
  return join(runDir, `conn-${conn}.claim`);
}
