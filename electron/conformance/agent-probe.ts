/** The first connection of a run: `initialize` at v2, to learn whether the agent can take the cases at all. */

import type { AgentProbe } from "../../shared/conformance/conformance-result.js";
import { dialerFor } from "./agent-dialers.js";
import { describeStartup, readStartup } from "./agent-startup.js";
import { CaseDeadline, PROBE_SETUP_FLOOR_MS } from "./case-deadline.js";
import type { ResolvedOptions } from "./conformance-options.js";
import { SuiteClient } from "./suite-client.js";

/** Opens one connection, sends `initialize` with protocolVersion 2, and closes it again. */
export async function probeAgent(options: ResolvedOptions): Promise<AgentProbe> {
  const dialer = dialerFor(options, "probe");
  const deadline = new CaseDeadline(options.caseTimeoutMs);
  let probe: AgentProbe;
  let client: SuiteClient | undefined;
  try {
    const connection = await dialer.open(1);
    client = new SuiteClient(connection.stream, deadline, 1);
    // Starting the agent is set-up (`CaseDeadline.setup`), with the probe's own bound.
    const init = await deadline.setup(
      client.initialize(),
      "the answer to initialize on connection #1",
      Math.max(PROBE_SETUP_FLOOR_MS, options.caseTimeoutMs),
    );
    probe = judge(init);
  } catch (err) {
    const problem = err instanceof Error ? err.message : String(err);
    probe = { status: "failed", protocolVersion: null, problem };
  }
  client?.close();
  const traceFile = await dialer.finish().catch(() => undefined);
  if (probe.status !== "failed") return { ...probe, traceFile };
  // Once, here: the spawn error or the agent's own words, not "closed before initialize" in every row.
  const startup = await readStartup(traceFile);
  return { ...probe, problem: describeStartup(startup, probe.problem ?? "no answer"), startup, traceFile };
}

/** Capabilities past this size (JSON text) are kept as their size only. */
const CAPABILITIES_MAX_BYTES = 64 * 1024;

/** The capabilities object of an `initialize` result, bounded; undefined when it sent none. */
export function capabilitiesOf(init: Record<string, unknown>): Record<string, unknown> | undefined {
  const raw = init.capabilities ?? init.agentCapabilities;
  if (raw === null || typeof raw !== "object" || Array.isArray(raw)) return undefined;
  let text: string;
  try {
    text = JSON.stringify(raw);
  } catch {
    return { unreadable: true };
  }
  if (text.length > CAPABILITIES_MAX_BYTES) return { truncated: true, bytes: text.length };
  return JSON.parse(text) as Record<string, unknown>;
}

function judge(init: Record<string, unknown>): AgentProbe {
  const version = typeof init.protocolVersion === "number" ? init.protocolVersion : null;
  const rawInfo = (init.info ?? init.agentInfo) as { name?: unknown; version?: unknown } | undefined;
  const info = rawInfo
    ? {
        name: typeof rawInfo.name === "string" ? rawInfo.name : undefined,
        version: typeof rawInfo.version === "string" ? rawInfo.version : undefined,
      }
    : undefined;
  const caps = capabilitiesOf(init);
  const sent = caps ? { capabilities: caps } : {};
  if (version !== 2) {
    return {
      ...sent,
      status: "not-v2",
      protocolVersion: version,
      info,
      problem: `v2 not supported: the agent answered initialize with protocolVersion ${String(version)}; idempotency keys are a v2 feature`,
    };
  }
  const capabilities = init.capabilities as { session?: unknown } | undefined;
  if (!capabilities || typeof capabilities.session !== "object" || capabilities.session === null) {
    return {
      ...sent,
      status: "not-v2",
      protocolVersion: 2,
      info,
      problem:
        "v2 sessions not supported: the agent does not advertise capabilities.session, so it need not honour keys",
    };
  }
  return { ...sent, status: "v2", protocolVersion: 2, info };
}
