/**
 * Columns of the timeline table. One column set serves every row kind: a submission row shows its
 * session, key, prompt, attempts, ids, connections, final messageId and verdict; an attempt row its
 * connection, id, send time, latency and outcome; a request row its method and retry-class badge.
 */

import type { VerdictHit } from "../../shared/analyzer/timeline-model.js";
import { verdictDefinition } from "../../shared/analyzer/verdicts.js";
import { RETRY_CLASS_MEANING } from "../../shared/protocol/retry-class.js";
import { Badge, type BadgeTone } from "../components/Badge.js";
import { KeyBadge } from "../components/KeyBadge.js";
import { virtualColumnHelper } from "../components/VirtualTable.js";
import { Clock } from "../traces/imported-trace.js";
import { attemptLabel, outcomeLabel } from "./outcome-label.js";
import { RowMenuButton } from "./RowFaultMenu.js";
import { hasFaultMenu } from "./row-faults.js";
import type { TimelineRow } from "./timeline-rows.js";

const col = virtualColumnHelper<TimelineRow>();

export { clockTime } from "./clock-time.js";

const ARROW = { "client->agent": "client → agent", "agent->client": "agent → client" } as const;

const SEVERITY_TONE: Readonly<Record<string, BadgeTone>> = {
  ok: "ok",
  violation: "error",
  "client-issue": "warn",
  info: "info",
};

/** The verdict chip: the worst verdict of a row, with its explanation on hover. */
export function VerdictBadges({ verdicts }: { verdicts: readonly VerdictHit[] }) {
  if (verdicts.length === 0) return null;
  const order = ["violation", "client-issue", "info", "ok"];
  const sorted = [...verdicts].sort((a, b) => order.indexOf(a.severity) - order.indexOf(b.severity));
  return (
    <>
      {sorted.map((v) => (
        <Badge
          key={v.name}
          tone={SEVERITY_TONE[v.severity] ?? "neutral"}
          title={verdictDefinition(v.name).explanation}
        >
          {v.name}
        </Badge>
      ))}
    </>
  );
}

function what(r: TimelineRow) {
  const expander = r.expandable ? (
    <span className="tl-expander" aria-hidden="true" />
  ) : (
    <span className="tl-expander tl-expander--leaf" aria-hidden="true" />
  );
  const label =
    r.kind === "submission"
      ? "session/prompt"
      : r.kind === "request"
        ? (r.row.method ?? "(unmatched response)")
        : r.kind === "malformed"
          ? "malformed frame"
          : r.kind === "attempt"
            ? `attempt ${r.number}${r.attempt.origin === "inspector" ? " (inspector)" : ""}`
            : `${r.role}${r.dir ? `, ${ARROW[r.dir]}` : ""}`;
  return (
    <span
      className={`tl-what tl-depth-${r.depth}`}
      title={
        r.kind === "attempt" && r.attempt.origin === "inspector"
          ? "sent by the inspector, not the client"
          : undefined
      }
    >
      {expander}
      {label}
    </span>
  );
}

/** The timeline's columns (module scope, as react-table requires stable columns). */
export const TIMELINE_COLUMNS = col.columns([
  col.display({
    id: "menu",
    header: () => <span className="visually-hidden">Faults</span>,
    size: 36,
    cell: (c) => (hasFaultMenu(c.row.original) ? <RowMenuButton row={c.row.original} /> : null),
  }),
  col.display({ id: "what", header: "Method / row", size: 220, cell: (c) => what(c.row.original) }),
  col.display({
    id: "verdict",
    header: "Verdict / retry class",
    size: 200,
    cell: (c) => {
      const r = c.row.original;
      if (r.kind === "submission") return <VerdictBadges verdicts={r.row.verdicts} />;
      if (r.kind !== "request") return "";
      return (
        <>
          <Badge tone="neutral" title={RETRY_CLASS_MEANING[r.row.retryClass]}>
            {r.row.retryClass}
          </Badge>
          <VerdictBadges verdicts={r.row.verdicts} />
        </>
      );
    },
  }),
  col.display({
    id: "session",
    header: "Session",
    size: 90,
    cell: (c) => {
      const r = c.row.original;
      return r.kind === "submission" || r.kind === "request" ? (r.row.sessionId ?? "") : "";
    },
  }),
  col.display({
    id: "key",
    header: "Key",
    size: 140,
    cell: (c) => {
      const r = c.row.original;
      if (r.kind !== "submission") return "";
      const s = r.row;
      if (s.key !== null) return <KeyBadge idempotencyKey={s.key} />;
      if (s.keyStatus === "invalid") {
        return (
          <Badge tone="error" title={s.invalidKey?.reason}>
            invalid {s.invalidKey?.shown}
          </Badge>
        );
      }
      return <span className="muted">no key</span>;
    },
  }),
  col.display({
    id: "detail",
    header: "Prompt / detail",
    size: 190,
    cell: (c) => {
      const r = c.row.original;
      switch (r.kind) {
        case "submission":
          return r.row.promptPreview;
        case "attempt":
          return (
            <>
              sent <Clock ts={r.attempt.sentAt} />
              {r.attempt.latencyMs === null ? "" : `, ${Math.round(r.attempt.latencyMs)} ms`}
            </>
          );
        case "request":
          return r.row.latencyMs === null ? "" : `${Math.round(r.row.latencyMs)} ms`;
        case "malformed":
          return r.row.reason;
        case "frame":
          return <code className="tl-raw">{r.preview}</code>;
      }
    },
  }),
  col.display({
    id: "attempts",
    header: "Attempts",
    size: 70,
    cell: (c) => {
      const r = c.row.original;
      return r.kind === "submission" ? r.row.attempts.length : "";
    },
  }),
  col.display({
    id: "ids",
    header: "Ids",
    size: 60,
    cell: (c) => {
      const r = c.row.original;
      if (r.kind === "submission") return r.row.attempts.map((a) => String(a.id)).join(", ");
      if (r.kind === "attempt") return String(r.attempt.id);
      if (r.kind === "request") return String(r.row.jsonRpcId);
      return "";
    },
  }),
  col.display({
    id: "conns",
    header: "Conn",
    size: 55,
    cell: (c) => {
      const r = c.row.original;
      if (r.kind === "submission") return [...new Set(r.row.attempts.map((a) => `#${a.conn}`))].join(" ");
      if (r.kind === "attempt") return `#${r.attempt.conn}`;
      if (r.kind === "request" || r.kind === "malformed") return `#${r.row.conn}`;
      return r.conn === undefined ? "" : `#${r.conn}`;
    },
  }),
  col.display({
    id: "result",
    header: "Result",
    size: 150,
    cell: (c) => {
      const r = c.row.original;
      // The Client's side: a dropped answer's messageId is not shown as if the Client had it.
      if (r.kind === "submission") return <span title={r.row.result}>{r.row.result}</span>;
      const outcome =
        r.kind === "attempt" ? r.attempt.outcome : r.kind === "request" ? r.row.outcome : undefined;
      if (r.kind === "frame" && r.dropped) return <Badge tone="error">dropped</Badge>;
      if (!outcome) return "";
      const o = r.kind === "attempt" ? attemptLabel(r.attempt) : outcomeLabel(outcome);
      return (
        <Badge tone={o.tone} title={o.title}>
          {o.label}
        </Badge>
      );
    },
  }),
]);
