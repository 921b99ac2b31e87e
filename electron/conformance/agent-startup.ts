/**
 * Why an agent never answered the probe's `initialize`, read from the probe's trace: the tap's note
 * when the command could not be started (spawn error), how the agent process ended, and its first
 * stderr lines. Reported once, at the top of the report, instead of in every case's row.
 */

import type { AgentStartup } from "../../shared/conformance/conformance-result.js";
import { readTrace } from "../trace/trace-reader.js";

/** How many stderr lines the report keeps. */
export const STARTUP_STDERR_LINES = 10;

/** What the probe's trace says about the agent's start; unreadable traces say nothing. */
export async function readStartup(traceFile: string | undefined): Promise<AgentStartup> {
  let spawnError: string | undefined;
  let exit: string | undefined;
  const stderr: string[] = [];
  if (traceFile === undefined) return { stderr };
  try {
    for await (const ev of readTrace(traceFile)) {
      if (ev.kind !== "record") continue;
      const r = ev.record;
      // Once the suite closed the connection (after its wait ran out), what follows is teardown, not the cause.
      if (r.type === "conn-close" && r.reason !== "agent exited") break;
      if (r.type === "note" && r.level === "error" && /^cannot start agent/.test(r.text))
        spawnError ??= r.text;
      else if (r.type === "agent-exit")
        exit ??= r.signal ? `was killed by ${r.signal}` : `exited with code ${String(r.code)}`;
      else if (r.type === "agent-stderr" && stderr.length < STARTUP_STDERR_LINES && r.text.trim() !== "")
        stderr.push(r.text);
    }
  } catch {
    // No trace: the probe's own error is all there is.
  }
  return { ...(spawnError && { spawnError }), ...(exit && { exit }), stderr };
}

/**
 * The one line that says why the agent did not start, e.g. `the agent exited with code 1 before
 * answering initialize; its stderr: <first line>` (the other lines are in `AgentStartup.stderr`).
 */
export function describeStartup(startup: AgentStartup, probeError: string): string {
  if (startup.spawnError) return `the agent could not be started: ${startup.spawnError}`;
  const said = startup.stderr.length > 0 ? `; its stderr: ${startup.stderr[0]}` : "";
  if (startup.exit) return `the agent ${startup.exit} before answering initialize${said}`;
  return `initialize failed: ${probeError}${said}`;
}
