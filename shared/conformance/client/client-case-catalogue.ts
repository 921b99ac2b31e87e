/**
 * The client suite's runs and cases. A run is one run of the client under test against the suite's
 * agent (the reference agent behind the tap) with a fault schedule per connection the client opens;
 * a case is one requirement judged from a run's trace. Several cases read the same run (one client
 * run per fault schedule), and each case checks exactly one requirement, so its tier decides whether
 * it counts towards the exit status. Pure data.
 */

import type { ClientCaseName } from "../conformance-result.js";
import { requirement } from "../requirement-catalogue.js";

/** The name of one run (its trace is `<traces dir>/<run>.jsonl`). */
export type ClientRunName = "plain" | "lost-answer" | "disconnect" | "restart" | "session-new-lost";

/**
 * One run: the faults the tap applies. Each rule fires once per run: the connections the client
 * opens get the rules until one of them fired (a client whose first connection fails before its
 * prompt meets the fault on the next one).
 */
export interface ClientRunDefinition {
  readonly name: ClientRunName;
  readonly title: string;
  /** `proxy --fault` rules. */
  readonly faults: readonly string[];
  /**
   * The run only shows the rule once the client's own attempt timeout ran out (an answer dropped
   * while the connection stays up): the suite waits longer than that timeout.
   */
  readonly waitsForClientTimeout?: boolean;
}

/** One case of the client suite. */
export interface ClientCaseDefinition {
  readonly name: ClientCaseName;
  readonly title: string;
  readonly run: ClientRunName;
  /** The one requirement it checks (`CLIENT_REQUIREMENTS`). */
  readonly requirement: string;
}

/** Every run, the probe run first. */
export const CLIENT_RUNS: readonly ClientRunDefinition[] = [
  { name: "plain", title: "no faults", faults: [] },
  {
    name: "lost-answer",
    title: "the answer to the first session/prompt is dropped (the agent inserted it)",
    faults: ["drop-response:method=session/prompt"],
    waitsForClientTimeout: true,
  },
  {
    name: "disconnect",
    title: "the connection is closed instead of answering the first session/prompt",
    faults: ["disconnect-client:method=session/prompt,on=response"],
  },
  {
    name: "restart",
    title: "the agent is killed (SIGKILL) instead of answering the first session/prompt",
    faults: ["kill-agent:method=session/prompt,on=response"],
  },
  {
    name: "session-new-lost",
    title: "the answer to the first session/new is dropped",
    faults: ["drop-response:method=session/new"],
    waitsForClientTimeout: true,
  },
];

/** Every case, in report order. */
export const CLIENT_CASES: readonly ClientCaseDefinition[] = [
  {
    name: "key-length",
    title: "every idempotencyKey is a string of 1 to 255 characters",
    run: "plain",
    requirement: "client.key.length",
  },
  {
    name: "new-key-same-text",
    title: "the same text submitted again gets a new key",
    run: "plain",
    requirement: "client.key.new-submission",
  },
  {
    name: "key-same-prompt",
    title: "a key is never sent with a different prompt",
    run: "plain",
    requirement: "client.key.same-prompt",
  },
  {
    name: "retry-same-key",
    title: "a prompt whose answer was dropped is resent with the same key",
    run: "lost-answer",
    requirement: "client.retry.same-key",
  },
  {
    name: "resend-lost-answer",
    title: "a keyed prompt whose answer was dropped is resent",
    run: "lost-answer",
    requirement: "client.retry.resend",
  },
  {
    name: "unkeyed-not-resent",
    title: "a prompt without a key whose answer was dropped is not resent",
    run: "lost-answer",
    requirement: "client.resend.unkeyed",
  },
  {
    name: "reconnect-same-key",
    title: "after the connection was lost, the prompt is resent with the same key",
    run: "disconnect",
    requirement: "client.retry.same-key",
  },
  {
    name: "resume-after-disconnect",
    title: "after the connection was lost, the client resumes the session, then resends",
    run: "disconnect",
    requirement: "client.resume.before-resend",
  },
  {
    name: "restart-same-key",
    title: "after the agent was killed, the prompt is resent with the same key",
    run: "restart",
    requirement: "client.retry.same-key",
  },
  {
    name: "resume-after-restart",
    title: "after the agent was killed, the client resumes the session on the new agent, then resends",
    run: "restart",
    requirement: "client.resume.before-resend",
  },
  {
    name: "session-new-not-resent",
    title: "a session/new whose answer was dropped is not resent",
    run: "session-new-lost",
    requirement: "client.resend.session-new",
  },
];

/** Every client case name, in report order. */
export const CLIENT_CASE_NAMES: readonly ClientCaseName[] = CLIENT_CASES.map((c) => c.name);

/** Whether `name` names a client case (for `--only`). */
export function isClientCaseName(name: string): name is ClientCaseName {
  return CLIENT_CASE_NAMES.includes(name as ClientCaseName);
}

/** Whether a case decides the exit status: its requirement is MANDATORY. */
export function clientCaseRequired(c: ClientCaseDefinition): boolean {
  return requirement(c.requirement).tier === "MANDATORY";
}

/** The run `name`. */
export function clientRun(name: ClientRunName): ClientRunDefinition {
  const found = CLIENT_RUNS.find((r) => r.name === name);
  if (!found) throw new Error(`unknown client run ${name}`);
  return found;
}
