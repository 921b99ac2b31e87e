import type { TraceHeader } from "../../shared/trace/record.js";
import type { TraceFanout } from "../trace/trace-fanout.js";

/** The running `--collect-agent-telemetry` receiver, as both kinds of tap use it. */
export interface AgentTelemetry {
  /** The environment for the agent serving connection `conn` (its own token). */
  envFor(conn: number): NodeJS.ProcessEnv;
  /** Stops the receiver and says what it received. */
  close(): Promise<void>;
}

/** Starts the receiver for the agent's own OTLP spans, says where it listens, and notes it in the trace. */
export async function startAgentTelemetry(
  trace: TraceFanout,
  header: TraceHeader,
  say: (message: string) => void,
): Promise<AgentTelemetry> {
  const { AgentTelemetryReceiver } = await import("../agent-telemetry/otlp-receiver.js");
  const receiver = await AgentTelemetryReceiver.start(trace);
  const service = (header.name ?? "agent").split(" @ ", 1)[0] ?? "agent";
  say(
    `agent telemetry: receiving OTLP/HTTP on ${receiver.endpoint}; the agent gets OTEL_EXPORTER_OTLP_ENDPOINT and a token in OTEL_EXPORTER_OTLP_HEADERS`,
  );
  trace.emit({
    type: "note",
    level: "info",
    text: `collecting the agent's telemetry on ${receiver.endpoint}`,
  });
  let warned = false;
  return {
    envFor(conn) {
      const { env, replaced } = receiver.envFor(conn, process.env, service);
      if (replaced.length > 0 && !warned) {
        warned = true;
        say(`agent telemetry: replaced the inherited ${replaced.join(", ")} for the agent`);
      }
      return env;
    },
    async close() {
      await receiver.close();
      say(receiver.describe());
    },
  };
}
