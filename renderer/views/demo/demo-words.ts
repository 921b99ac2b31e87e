/**
 * The demo panel's status line, from the hub's demo status and the trace the views show: it names
 * the scenario and its step, and it says only what is true now (no client or deploy count while a
 * fresh tap starts; it says so when the views show another trace than the demo's); and each
 * submission's line, shortened on screen and whole in its tooltip.
 */
import type { DemoStatus, DemoSubmissionView, ScenarioProgress } from "../../../shared/demo/demo-wire.js";

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

/** One part of the status line: the demo's state, its scenario and step, or a fact about the demo's peers. */
export interface StatusPart {
  readonly kind: "state" | "scenario" | "fact";
  readonly text: string;
}

/**
 * The panel's status line in parts, `shownTraceId` being the trace the views show. The panel shows
 * them joined by " · " (presenter mode leaves the scenario part to the caption beside it).
 */
export function demoStatusParts(status: DemoStatus, shownTraceId: string | undefined): StatusPart[] {
  const fact = (text: string): StatusPart => ({ kind: "fact", text });
  const parts: StatusPart[] = [
    { kind: "state", text: `Demo ${status.state}${status.error ? ` (${status.error})` : ""}` },
    { kind: "scenario", text: scenarioWords(status.scenario) },
  ];
  if (status.state === "starting") {
    // a scenario about to play already says it waits for them
    parts.push(
      fact(
        status.scenario?.phase === "waiting"
          ? `mode ${status.mode}`
          : `a fresh tap and agent are starting in mode ${status.mode}`,
      ),
    );
    return parts;
  }
  if (status.state === "stopped") return parts;
  parts.push(
    fact(status.agentPid === null ? "agent not running" : `agent pid ${status.agentPid}`),
    fact(`mode ${status.mode}`),
    fact(
      `client ${status.client.state}${status.client.conn > 0 ? ` on connection #${status.client.conn}` : ""}`,
    ),
    fact(`${status.deploys} ${status.deploys === 1 ? "deploy" : "deploys"}`),
  );
  if (showsAnotherTrace(status, shownTraceId))
    parts.push(fact("the views show another trace than the demo's"));
  return parts;
}

/** One part of a submission's line; `muted` parts (its key, an error) are shown in a quieter colour. */
export interface SubmissionPart {
  readonly text: string;
  readonly muted?: boolean;
}

/**
 * A submission's line in parts, each after the one before with " · " (the key after the prompt
 * with a space). `id` writes a key or messageId (the panel shortens them; whole by default).
 */
export function submissionParts(
  s: DemoSubmissionView,
  id: (id: string) => string = (x) => x,
): SubmissionPart[] {
  const parts: SubmissionPart[] = [
    { text: `${s.label ? s.label : `#${s.index}`}: ${s.text}` },
    { text: s.key ? `key ${id(s.key)}` : "no key", muted: true },
    { text: `${s.status}, ${s.attempts} ${s.attempts === 1 ? "attempt" : "attempts"}` },
  ];
  if (s.messageIds.length > 0) parts.push({ text: `messageId ${s.messageIds.map(id).join(", ")}` });
  if (s.error) parts.push({ text: s.error, muted: true });
  if (s.inspected)
    parts.push({
      text: `inspector: ${s.inspected.inserts} ${s.inspected.inserts === 1 ? "insert" : "inserts"}${
        s.inspected.verdicts.length > 0 ? `, ${s.inspected.verdicts.join(", ")}` : ""
      }`,
    });
  return parts;
}

/** The separator before part `i` of a submission's line. */
export const submissionSeparator = (i: number): string => (i === 0 ? "" : i === 1 ? " " : " · ");

/** A submission's line in whole (its key and messageIds uncut): the tooltip of the line the panel may cut. */
export function submissionWords(s: DemoSubmissionView): string {
  return submissionParts(s)
    .map((p, i) => submissionSeparator(i) + p.text)
    .join("");
}
