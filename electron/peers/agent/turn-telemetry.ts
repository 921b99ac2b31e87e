/**
 * What the demo agent tells of its own work as OpenTelemetry spans (`demo-agent --otel`): one span
 * per prompt turn with children for the dedup lookup and the insert. Without `--otel` it is the
 * no-op below, so the agent's code path is the same either way.
 */

/** One span being timed. */
export interface TurnSpan {
  /** A child span of this one. */
  child(name: string): TurnSpan;
  /** Ends the span, with attributes and whether it failed. */
  end(attributes?: Record<string, string | number | boolean>, error?: string): void;
}

/** Starts the span of a prompt turn. */
export interface TurnTelemetry {
  /** `params` are the request's: a W3C `traceparent` in `params._meta` becomes the span's parent. */
  turn(sessionId: string, params: unknown): TurnSpan;
  /** Sends what is still queued and stops (called once, before the process exits). */
  flush(): Promise<void>;
}

const NO_SPAN: TurnSpan = { child: () => NO_SPAN, end: () => {} };

/** The agent without `--otel`: nothing is timed or sent. */
export const NO_TURN_TELEMETRY: TurnTelemetry = { turn: () => NO_SPAN, flush: async () => {} };
