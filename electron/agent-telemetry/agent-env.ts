/**
 * The `OTEL_*` variables `proxy --collect-agent-telemetry` gives the agent it spawns, so the
 * agent's OpenTelemetry SDK exports to the tap's receiver (the ACP "Agent Telemetry Export" draft
 * RFD's scheme: docs/otel.md#the-agents-own-telemetry---collect-agent-telemetry). Environment only,
 * never argv: the token in the headers must not show in `ps`.
 */

/** The signals the receiver takes, and their OTLP/HTTP paths. */
export const SIGNAL_PATHS = { TRACES: "/v1/traces", METRICS: "/v1/metrics", LOGS: "/v1/logs" } as const;

/** The encodings the receiver reads. */
const HTTP_PROTOCOLS = new Set(["http/protobuf", "http/json"]);

/** Every variable the receiver sets (in this order); an inherited value of one of them is replaced. */
export function agentTelemetryVariables(
  endpoint: string,
  token: string,
  protocol: string,
): [string, string][] {
  const headers = `authorization=Bearer%20${token}`;
  const vars: [string, string][] = [
    ["OTEL_EXPORTER_OTLP_ENDPOINT", endpoint],
    ["OTEL_EXPORTER_OTLP_PROTOCOL", protocol],
    ["OTEL_EXPORTER_OTLP_HEADERS", headers],
  ];
  for (const [signal, path] of Object.entries(SIGNAL_PATHS))
    vars.push(
      [`OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`, `${endpoint}${path}`],
      [`OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`, protocol],
      [`OTEL_EXPORTER_OTLP_${signal}_HEADERS`, headers],
    );
  return vars;
}

/** The environment of an agent whose telemetry the tap collects, and the inherited variables it replaced (names only). */
export function agentTelemetryEnv(
  base: NodeJS.ProcessEnv,
  endpoint: string,
  token: string,
  serviceName: string,
): { env: NodeJS.ProcessEnv; replaced: string[] } {
  // An encoding the user chose is kept when the receiver reads it (http/json); else the RFD's http/protobuf.
  const asked = base.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? base.OTEL_EXPORTER_OTLP_PROTOCOL;
  const protocol = asked !== undefined && HTTP_PROTOCOLS.has(asked) ? asked : "http/protobuf";
  const env: NodeJS.ProcessEnv = { ...base };
  const replaced: string[] = [];
  for (const [name, value] of agentTelemetryVariables(endpoint, token, protocol)) {
    const before = base[name];
    if (before !== undefined && before !== value) replaced.push(name);
    env[name] = value;
  }
  if (env.OTEL_SERVICE_NAME === undefined || env.OTEL_SERVICE_NAME === "")
    env.OTEL_SERVICE_NAME = serviceName;
  return { env, replaced };
}
