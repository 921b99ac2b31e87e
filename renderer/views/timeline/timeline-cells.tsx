/**
 * The Timeline's cells, one component per column that draws more than its text: the Method cell
 * with its expander and indent, Result, Verdict / retry class, Prompt / detail, Key, Agent pid,
 * Time and Latency (the Waterfall's is `WaterfallCell.tsx`). Every word from the wire is shown as
 * text (`visibleText`), never as HTML.
 */

import { type ReactNode, useContext } from "react";
import type { VerdictHit } from "../../../shared/analyzer/timeline-model.js";
import { verdictDefinition } from "../../../shared/analyzer/verdicts.js";
import { RETRY_CLASS_MEANING } from "../../../shared/protocol/retry-class.js";
import { Badge, type BadgeTone } from "../../kit/Badge.js";
import { Clock } from "../../kit/ImportedTrace.js";
import { KeyBadge } from "../../kit/KeyBadge.js";
import { attemptLabel, outcomeLabel } from "../../kit/outcome-label.js";
import { RowSchemaBadge } from "../../kit/SchemaViolations.js";
import { visibleText } from "../../model/text/visible-text.js";
import type { TimelineRow } from "../../model/timeline/timeline-rows.js";
import { cellText } from "./cell-text.js";
import { verdictLines, whatLines } from "./column-fit.js";
import { METHOD_WIDTH } from "./column-widths.js";
import { GroupLine } from "./GroupLine.js";
import { ResultWords } from "./result-words.js";
import { NO_FACTS, RowFactsContext } from "./row-facts.js";
import { detailText, pidsOf, sortedVerdicts, startTs, whatText } from "./row-words.js";
import { SpanCount } from "./SpanCount.js";

const SEVERITY_TONE: Readonly<Record<string, BadgeTone>> = {
  ok: "ok",
  violation: "error",
  "client-issue": "warn",
  info: "info",
};

/** The verdict chip: the worst verdict of a row, with its explanation on hover. */
export function VerdictBadges({ verdicts }: { verdicts: readonly VerdictHit[] }) {
  if (verdicts.length === 0) return null;
  return (
    <>
      {sortedVerdicts(verdicts).map((v) => (
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

/** The Method / row cell: the expander, the indent of the row's depth and its words (an event's in its tone). */
export function what(r: TimelineRow) {
  const expander = r.expandable ? (
    <span className="tl-expander" aria-hidden="true" />
  ) : (
    <span className="tl-expander tl-expander--leaf" aria-hidden="true" />
  );
  if (r.kind === "event") {
    return (
      <span className={`tl-what tl-depth-${r.depth} tl-event tl-event--${r.event.tone}`}>
        {expander}
        <span className="tl-event__mark" aria-hidden="true" />
        <span className="tl-event__words" title={whatText(r)}>
          {whatText(r)}
        </span>
      </span>
    );
  }
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
      {whatWords(r)}
    </span>
  );
}

/**
 * A row's method words; one too long for the Method column's default width may break after its
 * first "/" ("fs/" over "read_text_file"), not at its last letter (a two-line row, `whatLines`). Short
 * ones, the rows a live trace adds by the thousand, stay one text node.
 */
function whatWords(r: TimelineRow): ReactNode {
  const text = whatText(r);
  if (!text.includes("/") || whatLines(r, METHOD_WIDTH) === 1) return text;
  const slash = text.indexOf("/") + 1;
  return (
    <>
      {text.slice(0, slash)}
      <wbr />
      {text.slice(slash)}
    </>
  );
}

/** The Result cell: the Client's side of a submission, an attempt's words, a request's outcome. */
export function Result({ r }: { r: TimelineRow }) {
  // The Client's side: a dropped answer's messageId is not shown as if the Client had it. A
  // submission's schema badge goes on its first line, so it never covers the group line below.
  if (r.kind === "submission")
    return (
      <span className="tl-result tl-result--group">
        <span className="tl-result__words">
          <RowSchemaBadge r={r} />
          <ResultWords text={r.row.result} />
        </span>
        <GroupLine s={r.row} />
      </span>
    );
  if (r.kind === "frame" && r.dropped) return <Badge tone="error">dropped</Badge>;
  if (r.kind === "attempt") {
    const o = attemptLabel(r.attempt);
    return (
      <Badge tone={o.tone} title={o.title} wrap>
        <span>
          <ResultWords text={o.label} />
        </span>
      </Badge>
    );
  }
  if (r.kind !== "request") return null;
  const o = outcomeLabel(r.row.outcome);
  return (
    <Badge tone={o.tone} title={o.title}>
      {o.label}
    </Badge>
  );
}

/** The Result column's cell: a row's schema badge (a submission's is inside its Result) and its Result. */
export function resultCell(r: TimelineRow) {
  return r.kind === "submission" ? (
    <Result r={r} />
  ) : (
    <>
      <RowSchemaBadge r={r} />
      <Result r={r} />
    </>
  );
}

/** The Verdict / retry class cell: a submission's verdicts, a request's retry class and verdicts. */
export function verdictCell(r: TimelineRow): ReactNode {
  // The badges' wrapper stacks them, or lets one wrap at its hyphens, in a taller row; a
  // one-line row's badge needs none (one element less for each new row a live trace mounts).
  if (r.kind === "submission") {
    const badges = <VerdictBadges verdicts={r.row.verdicts} />;
    return verdictLines(r) > 1 ? <span className="tl-verdicts">{badges}</span> : badges;
  }
  if (r.kind !== "request") return "";
  const retryClass = (
    <Badge tone="neutral" title={RETRY_CLASS_MEANING[r.row.retryClass]}>
      {r.row.retryClass}
    </Badge>
  );
  if (verdictLines(r) === 1) return retryClass;
  return (
    <span className="tl-verdicts">
      {retryClass}
      <VerdictBadges verdicts={r.row.verdicts} />
    </span>
  );
}

/** The Prompt / detail cell: a prompt, an attempt's send time and latency, a frame's raw preview. */
export function detailCell(r: TimelineRow): ReactNode {
  switch (r.kind) {
    case "submission":
      return (
        <>
          <SpanCount r={r} />
          {detailText(r, NO_FACTS)}
        </>
      );
    case "attempt":
      return (
        <>
          <SpanCount r={r} />
          sent <Clock ts={r.attempt.sentAt} />
          {r.attempt.latencyMs === null ? "" : `, ${Math.round(r.attempt.latencyMs)} ms`}
        </>
      );
    case "frame":
      return <code className="tl-raw">{visibleText(r.preview)}</code>;
    default:
      return detailText(r, NO_FACTS);
  }
}

/** The Key cell: a submission's idempotency key badge, "invalid …" with its reason, or "no key". */
export function keyCell(r: TimelineRow): ReactNode {
  if (r.kind !== "submission") return "";
  const s = r.row;
  if (s.key !== null) return <KeyBadge idempotencyKey={s.key} />;
  if (s.keyStatus === "invalid") {
    return (
      <Badge tone="error" title={visibleText(s.invalidKey?.reason ?? "")}>
        invalid {visibleText(s.invalidKey?.shown ?? "")}
      </Badge>
    );
  }
  return <span className="muted">no key</span>;
}

/** The Agent pid cell: the pids the row's frames went to. */
export function Pid({ r }: { r: TimelineRow }) {
  const facts = useContext(RowFactsContext);
  return <>{pidsOf(r, facts).join(" ")}</>;
}

/** The Time cell: the clock time the row starts at. */
export function Time({ r }: { r: TimelineRow }) {
  const facts = useContext(RowFactsContext);
  const ts = startTs(r, facts);
  return ts === undefined ? null : <Clock ts={ts} />;
}

/** The Latency cell: the row's latency, "time unknown" muted. */
export function Latency({ r }: { r: TimelineRow }) {
  const facts = useContext(RowFactsContext);
  const text = cellText("latency", r, facts);
  return text === "time unknown" ? <span className="muted">{text}</span> : text;
}
