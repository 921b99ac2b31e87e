/**
 * The toolbar's status: the hub connection and the shown trace's agent; `TraceFacts` (protocol
 * version, connections, records) sits at the right end of the tab bar, as a status line.
 */

import { Badge, type BadgeTone } from "../../kit/Badge.js";
import type { ConnectionState } from "../../model/bridge/inspector-bridge.js";
import { useInspector } from "../../model/store/inspector-store.js";
import { livenessOf } from "../../model/traces/liveness.js";
import { agentWords, connectionWords } from "./trace-words.js";

const CONNECTION: Readonly<Record<ConnectionState, { tone: BadgeTone; label: string }>> = {
  connecting: { tone: "info", label: "connecting" },
  connected: { tone: "ok", label: "connected" },
  reconnecting: { tone: "warn", label: "reconnecting" },
  unauthorized: { tone: "error", label: "token refused" },
  "refused-full": { tone: "error", label: "refused: hub full" },
  saved: { tone: "info", label: "saved page" },
};

const SHELL_TITLE = {
  electron: "in-process hub",
  browser: "hub over WebSocket",
  saved:
    "a page saved by export --html: the trace it carries and nothing else (no hub, no live taps, no faults)",
} as const;

function AgentFact() {
  const agent = useInspector((s) => s.view.agents.at(-1));
  const liveness = livenessOf(useInspector((s) => s.traces.find((t) => t.id === s.traceId)?.status));
  const words = agentWords(agent, liveness);
  return (
    <span className="toolbar__agent" title={words}>
      {words}
    </span>
  );
}

/** The shown trace's protocol version, connections and record count, in one muted line. */
export function TraceFacts() {
  const connections = useInspector((s) => s.view.connections);
  const records = useInspector((s) => s.view.records);
  const liveness = livenessOf(useInspector((s) => s.traces.find((t) => t.id === s.traceId)?.status));
  const open = connections.filter((c) => c.closedSeq === null).length;
  const version = connections.findLast((c) => c.protocolVersion !== null)?.protocolVersion;
  return (
    <output className="trace-facts" aria-label="Trace facts">
      <span>protocol {version === undefined ? "?" : `v${version}`}</span>
      <span>{connectionWords(open, connections.length, liveness)}</span>
      <span className="trace-size">{records} records</span>
    </output>
  );
}

/** Connection badge and facts about the shown trace. */
export function ConnectionStatus() {
  const connection = useInspector((s) => s.connection);
  const shell = useInspector((s) => s.shell);
  const gaps = useInspector((s) => s.gaps);
  const c = CONNECTION[connection];
  return (
    <output className="toolbar__group toolbar__status" aria-label="Connection">
      <Badge tone={c.tone} title={SHELL_TITLE[shell]}>
        {c.label}
      </Badge>
      <AgentFact />
      {gaps > 0 ? (
        <Badge
          tone="warn"
          title="Events left the hub's memory before this window got them and the traces are not (yet) reloaded from the hub's files; export has the full trace."
        >
          {gaps} gap{gaps === 1 ? "" : "s"}
        </Badge>
      ) : null}
    </output>
  );
}
