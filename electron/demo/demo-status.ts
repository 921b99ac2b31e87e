/** Building the `demo-status` message UIs show: the demo's state, its client's last submissions, the scenario's progress. */
import { DEMO_WIRE_VERSION, type DemoStatus, type ScenarioProgress } from "../../shared/demo/demo-wire.js";
import type { AgentMode } from "../../shared/demo/scenario.js";
import type { TrackedSubmission } from "../../shared/keys/client-submission-tracker.js";
import type { LiveDemoClient } from "./live-client.js";
import type { TraceWatch } from "./trace-watch.js";

/** How many of the latest submissions the status lists. */
const SHOWN_SUBMISSIONS = 10;

/** What the status is built from. */
export interface DemoStatusSources {
  readonly state: DemoStatus["state"];
  readonly error: string | undefined;
  readonly mode: AgentMode;
  readonly tapPid: number | null;
  readonly client: LiveDemoClient | undefined;
  readonly watch: TraceWatch;
  /** The submissions a scenario named, by label. */
  readonly labels: ReadonlyMap<string, TrackedSubmission>;
  readonly scenario: ScenarioProgress | null;
}

/** The demo's state, as UIs show it. */
export function demoStatus(d: DemoStatusSources): DemoStatus {
  const client = d.client;
  const subs = client?.tracker.all() ?? [];
  const labelOf = new Map([...d.labels].map(([label, s]) => [s.index, label]));
  const analyzed = d.watch.analyzed();
  return {
    v: DEMO_WIRE_VERSION,
    state: d.state,
    ...(d.error !== undefined && { error: d.error }),
    mode: d.mode,
    tapPid: d.tapPid,
    agentPid: d.watch.agentPid,
    traceId: d.watch.traceId,
    client: client?.status() ?? { state: "idle", conn: 0, sessionId: null },
    submissions: subs.slice(-SHOWN_SUBMISSIONS).map((s) => ({
      index: s.index,
      ...(labelOf.has(s.index) && { label: labelOf.get(s.index) }),
      text: client?.textOf(s.index) ?? "",
      key: s.key,
      status: s.status,
      attempts: s.attempts.length,
      messageIds: [...s.messageIds],
      ...(s.error && { error: `${s.error.code} ${s.error.message}` }),
      ...(s.key !== null &&
        analyzed[s.key] && {
          inspected: {
            inserts: analyzed[s.key]?.inserts ?? 0,
            verdicts: [...(analyzed[s.key]?.verdicts ?? [])],
          },
        }),
    })),
    deploys: client?.observer.observed.deploys.length ?? 0,
    log: [...(client?.recentLog ?? [])],
    scenario: d.scenario,
  };
}
