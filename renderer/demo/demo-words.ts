/**
 * The demo panel's status line, from the hub's demo status and the trace the views show: it names
 * the scenario and its step, and it says only what is true now (no client or deploy count while a
 * fresh tap starts; it says so when the views show another trace than the demo's).
 */
import type { DemoStatus, ScenarioProgress } from "../../shared/demo/demo-wire.js";

/** The scenario and its step, short: `“Lost response…” step 2 of 4`, `“…” finished (4 steps)`. */
export function scenarioWords(p: ScenarioProgress | null): string {
  if (!p) return "no scenario played";
  const at = `step ${p.step + 1} of ${p.steps}`;
  switch (p.phase) {
    case "acting":
    case "shown":
      return `“${p.title}” ${at}`;
    case "waiting":
      return `“${p.title}” ${at}, waiting for ${p.waitingFor ?? "the step's condition"}`;
    case "finished":
      return `“${p.title}” finished (${p.steps} steps)`;
    case "stopped":
      return `“${p.title}” stopped at ${at}`;
    case "failed":
      return `“${p.title}” failed at ${at}`;
  }
}

/** True when the views show a trace, and it is not the demo's. */
export function showsAnotherTrace(status: DemoStatus, shownTraceId: string | undefined): boolean {
  return status.traceId !== null && shownTraceId !== undefined && shownTraceId !== status.traceId;
}

/** The panel's status line; `shownTraceId` is the trace the views show. */
export function demoStatusLine(status: DemoStatus, shownTraceId: string | undefined): string {
  const parts = [
    `Demo ${status.state}${status.error ? ` (${status.error})` : ""}`,
    scenarioWords(status.scenario),
  ];
  if (status.state === "starting") {
    // a scenario about to play already says it waits for them
    parts.push(
      status.scenario?.phase === "waiting"
        ? `mode ${status.mode}`
        : `a fresh tap and agent are starting in mode ${status.mode}`,
    );
    return parts.join(" · ");
  }
  if (status.state === "stopped") return parts.join(" · ");
  parts.push(
    status.agentPid === null ? "agent not running" : `agent pid ${status.agentPid}`,
    `mode ${status.mode}`,
    `client ${status.client.state}${status.client.conn > 0 ? ` on connection #${status.client.conn}` : ""}`,
    `${status.deploys} ${status.deploys === 1 ? "deploy" : "deploys"}`,
  );
  if (showsAnotherTrace(status, shownTraceId)) parts.push("the views show another trace than the demo's");
  return parts.join(" · ");
}
