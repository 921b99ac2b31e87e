/**
 * What travels between the demo (running next to the hub) and a UI: the demo's status, pushed on
 * every change as a `demo-status` message of the hub's UI wire, and the commands a UI may give
 * it. Commands pick among fixed operations on the demo agent that `serve --demo` (or the app)
 * started from its own command line: none names a command or a path.
 */

import { isJsonObject } from "../protocol/json-object.js";
import { AGENT_MODES, type AgentMode } from "./scenario.js";
import { findScenario } from "./scenarios.js";

/** Version of the demo messages; bumped on incompatible changes. */
export const DEMO_WIRE_VERSION = 1;

/** Longest prompt the demo panel sends. */
export const MAX_DEMO_PROMPT_CHARS = 2_000;
/** Longest auto-advance pause between scenario steps (ms). */
export const MAX_STEP_DELAY_MS = 120_000;

/** One submission of the demo client, as a UI shows it. */
export interface DemoSubmissionView {
  readonly index: number;
  /** The scenario's label ("A", "B"), when a scenario sent it. */
  readonly label?: string;
  readonly text: string;
  readonly key: string | null;
  readonly status: "pending" | "answered" | "failed" | "stale";
  readonly attempts: number;
  readonly messageIds: readonly string[];
  readonly error?: string;
  /** What the inspector's analyzer found for this key in the trace (keyed submissions only). */
  readonly inspected?: { readonly inserts: number; readonly verdicts: readonly string[] };
}

/** Where a played scenario stands. */
export interface ScenarioProgress {
  readonly id: string;
  readonly title: string;
  /** 0-based index of the current step. */
  readonly step: number;
  readonly steps: number;
  readonly caption: string;
  readonly rfd: string;
  /** `acting`: the step runs; `waiting`: it waits for `waitingFor`; `shown`: its expectation is on screen. */
  readonly phase: "acting" | "waiting" | "shown" | "finished" | "stopped" | "failed";
  readonly waitingFor?: string;
  /** Shown once the step played out. */
  readonly expectation?: string;
  /** Why the scenario failed, when it did. */
  readonly error?: string;
  /** Auto-advance pause in ms, or null when the presenter advances with Next. */
  readonly stepDelayMs: number | null;
}

/** The demo's state, as a UI shows it. */
export interface DemoStatus {
  readonly v: number;
  /** `starting`: the tap and agent are coming up; `failed`: they could not (see `error`). */
  readonly state: "starting" | "ready" | "failed" | "stopped";
  readonly error?: string;
  readonly mode: AgentMode;
  /** The tap (`proxy --listen`) process. */
  readonly tapPid: number | null;
  /** The agent process serving the client's current connection, from the trace. */
  readonly agentPid: number | null;
  /** The hub trace this run writes to. */
  readonly traceId: string | null;
  readonly client: {
    readonly state: "idle" | "connecting" | "connected" | "reconnecting" | "closed";
    /** Connection number of the current (or last) connection. */
    readonly conn: number;
    readonly sessionId: string | null;
  };
  readonly submissions: readonly DemoSubmissionView[];
  readonly deploys: number;
  /** The last lines of the client's log. */
  readonly log: readonly string[];
  readonly scenario: ScenarioProgress | null;
}

/** A command from a UI to the demo. */
export type DemoCommand =
  /** Submit a prompt from the demo panel, with or without a key. */
  | { readonly op: "send"; readonly text: string; readonly withKey: boolean }
  /** Play a scenario; `stepDelayMs` null means the presenter advances with `next`. */
  | { readonly op: "play"; readonly scenario: string; readonly stepDelayMs: number | null }
  /** Advance a scenario waiting for the presenter. */
  | { readonly op: "next" }
  /** Stop the scenario being played. */
  | { readonly op: "stop" }
  /** Restart the demo agent (fresh connection and session) in `mode`, or in the current one. */
  | { readonly op: "reset"; readonly mode?: AgentMode };

/** Validates an untrusted command; returns it typed, or a message saying what is wrong. */
export function parseDemoCommand(v: unknown): DemoCommand | { readonly error: string } {
  if (!isJsonObject(v)) return { error: "a demo command must be an object" };
  switch (v.op) {
    case "send":
      if (typeof v.text !== "string" || v.text.trim() === "" || v.text.length > MAX_DEMO_PROMPT_CHARS)
        return { error: `send: text must be 1 to ${MAX_DEMO_PROMPT_CHARS} characters` };
      if (typeof v.withKey !== "boolean") return { error: "send: withKey must be a boolean" };
      return { op: "send", text: v.text, withKey: v.withKey };
    case "play": {
      if (typeof v.scenario !== "string" || !findScenario(v.scenario))
        return { error: `play: no scenario ${JSON.stringify(v.scenario)}` };
      const d = v.stepDelayMs ?? null;
      if (d !== null && (typeof d !== "number" || !Number.isInteger(d) || d < 0 || d > MAX_STEP_DELAY_MS))
        return { error: `play: stepDelayMs must be null or an integer from 0 to ${MAX_STEP_DELAY_MS}` };
      return { op: "play", scenario: v.scenario, stepDelayMs: d };
    }
    case "next":
    case "stop":
      return { op: v.op };
    case "reset":
      if (v.mode !== undefined && !(AGENT_MODES as readonly unknown[]).includes(v.mode))
        return { error: `reset: mode must be one of ${AGENT_MODES.join(", ")}` };
      return v.mode === undefined ? { op: "reset" } : { op: "reset", mode: v.mode as AgentMode };
    default:
      return { error: `unknown demo operation ${JSON.stringify(v.op)}` };
  }
}
