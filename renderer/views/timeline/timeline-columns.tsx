/**
 * Columns of the timeline table. One column set serves every row kind: a submission row shows its
 * result and verdict (first, so they stay on screen), prompt, key, ids, connections, pids, latency
 * and waterfall bar (session, attempt count and start time are hidden until chosen); an attempt row
 * its outcome words, connection, id, pid, send time and bar; a request row its method and retry
 * class; an event row what happened to a connection, an Agent or a fault, in its first column. Each
 * column also says its full text (`cellText`: tooltips of cut cells, the Details pane) and, where
 * ordering by it means something, its sort value (`sortValue`).
 */

import { type ReactNode, useContext } from "react";
import type { VerdictHit } from "../../../shared/analyzer/timeline-model.js";
import { verdictDefinition } from "../../../shared/analyzer/verdicts.js";
import { barOf, durationText, latencyText, trackOf, trackText } from "../../../shared/analyzer/waterfall.js";
import { barOnAxis } from "../../../shared/analyzer/waterfall-gaps.js";
import { RETRY_CLASS_MEANING } from "../../../shared/protocol/retry-class.js";
import { Badge, type BadgeTone } from "../../kit/Badge.js";
import { Clock } from "../../kit/ImportedTrace.js";
import { KeyBadge } from "../../kit/KeyBadge.js";
import { attemptLabel, outcomeLabel } from "../../kit/outcome-label.js";
import { RowSchemaBadge } from "../../kit/SchemaViolations.js";
import { type Measure, textWidth, widestText, widestWord } from "../../kit/theme/text-width.js";
import { type VirtualColumn, virtualColumnHelper } from "../../kit/VirtualTable.js";
import { clockTime } from "../../model/text/clock-time.js";
import { visibleText } from "../../model/text/visible-text.js";
import type { TimelineRow } from "../../model/timeline/timeline-rows.js";
import { RowMenuButton } from "../faults/RowFaultMenu.js";
import { hasFaultMenu } from "../faults/row-faults.js";
import { GroupLine, groupLineText } from "./GroupLine.js";
import { ResultWords, shownResult } from "./result-words.js";
import { NO_FACTS, type RowFacts, RowFactsContext, spanOfRow } from "./row-facts.js";
import { SpanCount } from "./SpanCount.js";
import { breaksNote, WaterfallBreaks } from "./WaterfallBreaks.js";

const col = virtualColumnHelper<TimelineRow>();

/** The text size of the table, px at normal text (theme.css `--base-size`; column widths are em of it). */
const BASE_PX = 15;
/** A cell's padding, left and right (layout.css `.vtable__cell`: 0.5em each side). */
const CELL_PAD = BASE_PX;
/** A header's room besides its words: the padding, the sort mark and its gap (timeline.css). */
const HEADER_CHROME = CELL_PAD + 14;

/**
 * The least width of a header: its widest word whole (a header wraps to two lines at its spaces,
 * timeline.css), so no header is cut at any width the column can take.
 */
export function headerMinWidth(header: string, measure?: Measure): number {
  return widestWord(header, { px: BASE_PX, weight: 650 }, measure) + HEADER_CHROME;
}

/**
 * A column by id, header, width and least width (px at normal text), its cell drawn from the row.
 * Neither is less than the header's widest word needs.
 */
function column(
  id: string,
  header: string,
  size: number,
  minSize: number,
  cell: (r: TimelineRow) => ReactNode,
) {
  const least = Math.max(minSize, headerMinWidth(header));
  return col.display({
    id,
    header,
    size: Math.max(size, least),
    minSize: least,
    cell: (c) => cell(c.row.original),
  });
}

export { clockTime } from "../../model/text/clock-time.js";

const ARROW = { "client->agent": "client → agent", "agent->client": "agent → client" } as const;

const SEVERITY_TONE: Readonly<Record<string, BadgeTone>> = {
  ok: "ok",
  violation: "error",
  "client-issue": "warn",
  info: "info",
};
const SEVERITY_ORDER = ["violation", "client-issue", "info", "ok"];

function sortedVerdicts(verdicts: readonly VerdictHit[]): VerdictHit[] {
  return [...verdicts].sort(
    (a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity),
  );
}

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

/** The first column's words for a row, its invisible controls shown (`visibleText`). */
function whatText(r: TimelineRow): string {
  return visibleText(whatWire(r));
}

function whatWire(r: TimelineRow): string {
  switch (r.kind) {
    case "submission":
      return "session/prompt";
    case "request":
      return r.row.method ?? "(unmatched response)";
    case "malformed":
      return "malformed frame";
    case "attempt":
      return `attempt ${r.number}${r.attempt.origin === "inspector" ? " (inspector)" : ""}`;
    case "event":
      return r.event.words;
    case "frame":
      return `${r.role}${r.dir ? `, ${ARROW[r.dir]}` : ""}`;
  }
}

function what(r: TimelineRow) {
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

/** The time a row starts at: its first frame's, or its event's. */
function startTs(r: TimelineRow, facts: RowFacts): number | undefined {
  switch (r.kind) {
    case "submission":
      return r.row.attempts[0]?.sentAt;
    case "attempt":
      return r.attempt.sentAt;
    case "request":
      return r.row.sentAt;
    case "event":
      return r.event.ts;
    default:
      return facts.tsOf(r.seq);
  }
}

function pidsOf(r: TimelineRow, facts: RowFacts): number[] {
  const pids = (pairs: { conn: number; seq: number }[]) => [
    ...new Set(pairs.map((p) => facts.pidAt(p.conn, p.seq)).filter((p): p is number => p !== null)),
  ];
  switch (r.kind) {
    case "submission":
      return pids(r.row.attempts.map((a) => ({ conn: a.conn, seq: a.requestSeq })));
    case "attempt":
      return pids([{ conn: r.attempt.conn, seq: r.attempt.requestSeq }]);
    case "request":
      return pids([{ conn: r.row.conn, seq: r.seq }]);
    case "malformed":
      return pids([{ conn: r.row.conn, seq: r.seq }]);
    case "event":
      return r.event.pid === null ? [] : [r.event.pid];
    case "frame":
      return r.conn === undefined ? [] : pids([{ conn: r.conn, seq: r.seq }]);
  }
}

function connsOf(r: TimelineRow): number[] {
  switch (r.kind) {
    case "submission":
      return [...new Set(r.row.attempts.map((a) => a.conn))];
    case "attempt":
      return [r.attempt.conn];
    case "request":
    case "malformed":
      return [r.row.conn];
    case "event":
      return r.event.conn === null ? [] : [r.event.conn];
    case "frame":
      return r.conn === undefined ? [] : [r.conn];
  }
}

function keyText(r: TimelineRow): string {
  return visibleText(keyWire(r));
}

function keyWire(r: TimelineRow): string {
  if (r.kind !== "submission") return "";
  const s = r.row;
  if (s.key !== null) return s.key;
  if (s.keyStatus === "invalid") return `invalid ${s.invalidKey?.shown ?? ""}: ${s.invalidKey?.reason ?? ""}`;
  return "no key";
}

function detailText(r: TimelineRow, facts: RowFacts): string {
  return visibleText(detailWire(r, facts));
}

function detailWire(r: TimelineRow, facts: RowFacts): string {
  switch (r.kind) {
    case "submission":
      return r.row.promptPreview;
    case "attempt": {
      const sent = facts.timesKnown ? clockTime(r.attempt.sentAt) : "time unknown";
      return `sent ${sent}${r.attempt.latencyMs === null ? "" : `, ${Math.round(r.attempt.latencyMs)} ms`}`;
    }
    case "request":
      return r.row.latencyMs === null ? "" : `${Math.round(r.row.latencyMs)} ms`;
    case "malformed":
      return r.row.reason;
    case "frame":
      return r.preview;
    case "event":
      return "";
  }
}

function resultText(r: TimelineRow): string {
  if (r.kind === "submission") return r.row.result;
  if (r.kind === "attempt") return attemptLabel(r.attempt).label;
  if (r.kind === "request") return outcomeLabel(r.row.outcome).label;
  if (r.kind === "frame" && r.dropped) return "dropped";
  return "";
}

function verdictText(r: TimelineRow): string {
  if (r.kind === "submission")
    return sortedVerdicts(r.row.verdicts)
      .map((v) => v.name)
      .join(", ");
  if (r.kind === "request")
    return [r.row.retryClass, ...sortedVerdicts(r.row.verdicts).map((v) => v.name)].join(", ");
  return "";
}

/** The window a row's bar is drawn in: a submission's for its attempts, the shown rows' for the rest. */
function windowFor(r: TimelineRow, facts: RowFacts) {
  if (r.kind === "attempt") return facts.windowOf(r.submission);
  return r.depth === 0 || r.kind === "request" ? facts.topWindow : null;
}

function waterfallText(r: TimelineRow, facts: RowFacts): string {
  const span = spanOfRow(r, facts);
  const w = windowFor(r, facts);
  if (!span || !w)
    return r.kind === "event" || r.kind === "frame" || r.kind === "malformed" ? "" : latencyText(null);
  const offset = `+${durationText(span.start - w.start)}`;
  const scope = r.kind === "attempt" ? "of its submission's attempts" : "of the rows shown";
  if (r.kind === "event") return `at ${offset} ${scope}`;
  return `starts at ${offset} ${scope}: ${latencyText(span)}`;
}

/** A column's full text for a row, as its tooltip and the Details pane show it, its invisible controls shown. */
export function cellText(columnId: string, r: TimelineRow, facts: RowFacts): string {
  return visibleText(cellWords(columnId, r, facts));
}

function cellWords(columnId: string, r: TimelineRow, facts: RowFacts): string {
  switch (columnId) {
    case "what":
      return whatText(r);
    case "time": {
      const ts = startTs(r, facts);
      if (ts === undefined) return "";
      return facts.timesKnown ? clockTime(ts) : "time unknown";
    }
    case "verdict":
      return verdictText(r);
    case "session":
      return r.kind === "submission" || r.kind === "request" ? visibleText(r.row.sessionId ?? "") : "";
    case "key":
      return keyText(r);
    case "detail":
      return detailText(r, facts);
    case "attempts":
      return r.kind === "submission" ? String(r.row.attempts.length) : "";
    case "ids":
      if (r.kind === "submission") return r.row.attempts.map((a) => String(a.id)).join(", ");
      if (r.kind === "attempt") return String(r.attempt.id);
      if (r.kind === "request") return String(r.row.jsonRpcId);
      return "";
    case "conns":
      return connsOf(r)
        .map((c) => `#${c}`)
        .join(" ");
    case "pid":
      return pidsOf(r, facts).join(" ");
    case "latency": {
      if (r.kind === "event" || r.kind === "frame" || r.kind === "malformed") return "";
      return latencyText(spanOfRow(r, facts));
    }
    case "waterfall":
      return waterfallText(r, facts);
    case "result":
      return r.kind === "submission" ? `${resultText(r)}\n${groupLineText(r.row)}` : resultText(r);
    default:
      return "";
  }
}

const VERDICT_RANK = (v: VerdictHit) => SEVERITY_ORDER.indexOf(v.severity);

/** A column's sort value for a top-level row (null: sorts last), for the columns sorting makes sense on. */
export function sortValue(columnId: string, r: TimelineRow, facts: RowFacts): number | string | null {
  switch (columnId) {
    case "what":
    case "session":
    case "result":
    case "key": {
      const t = cellText(columnId, r, facts);
      return t === "" ? null : t;
    }
    case "verdict": {
      const vs = r.kind === "submission" || r.kind === "request" ? sortedVerdicts(r.row.verdicts) : [];
      const worst = vs[0];
      // Worst severity first when ascending: violation, client-issue, info, ok; then by name.
      return worst ? `${VERDICT_RANK(worst)} ${worst.name}` : null;
    }
    case "attempts":
      return r.kind === "submission" ? r.row.attempts.length : null;
    case "conns":
      return connsOf(r)[0] ?? null;
    case "pid":
      return pidsOf(r, facts)[0] ?? null;
    case "latency": {
      const s = spanOfRow(r, facts);
      if (!s || r.kind === "event") return null;
      if (s.state === "pending") return Number.POSITIVE_INFINITY;
      return s.end === null ? null : s.end - s.start;
    }
    default:
      return null;
  }
}

/** The ids of the columns a header click sorts by ("time" sorts in trace order). */
export const SORTABLE_COLUMNS: ReadonlySet<string> = new Set([
  "what",
  "time",
  "verdict",
  "session",
  "key",
  "attempts",
  "conns",
  "pid",
  "latency",
  "result",
]);

function Pid({ r }: { r: TimelineRow }) {
  const facts = useContext(RowFactsContext);
  return <>{pidsOf(r, facts).join(" ")}</>;
}

function Time({ r }: { r: TimelineRow }) {
  const facts = useContext(RowFactsContext);
  const ts = startTs(r, facts);
  return ts === undefined ? null : <Clock ts={ts} />;
}

function Latency({ r }: { r: TimelineRow }) {
  const facts = useContext(RowFactsContext);
  const text = cellText("latency", r, facts);
  return text === "time unknown" ? <span className="muted">{text}</span> : text;
}

/** A bar in the waterfall track: its start offset and duration on its window's track (DevTools Network style). */
function Waterfall({ r }: { r: TimelineRow }) {
  const facts = useContext(RowFactsContext);
  const span = spanOfRow(r, facts);
  const w = windowFor(r, facts);
  if (!span || !w) {
    return r.kind === "submission" || r.kind === "attempt" || r.kind === "request" ? (
      <span className="muted">time unknown</span>
    ) : null;
  }
  // On the window's track, not the window: a live trace's growing window moves no shown bar.
  // Top-level rows share an axis whose long idle gaps are cut (breaks marked with their duration).
  const axis = r.kind !== "attempt" ? facts.topAxis : null;
  const bar = axis ? barOnAxis(span, axis, w.end) : barOf(span, trackOf(w), w.end);
  const label = waterfallText(r, facts);
  if (r.kind === "event") {
    return (
      <span className="wf" role="img" aria-label={label}>
        {axis && <WaterfallBreaks axis={axis} />}
        <span className={`wf__tick wf__tick--${r.event.tone}`} style={{ left: `${bar.left * 100}%` }} />
      </span>
    );
  }
  return (
    <span className="wf" role="img" aria-label={label}>
      {axis && <WaterfallBreaks axis={axis} />}
      <span
        className={`wf__bar wf__bar--${bar.state}${bar.open ? " wf__bar--open" : ""}`}
        style={{ left: `${bar.left * 100}%`, width: `${bar.width * 100}%` }}
      />
    </span>
  );
}

/**
 * The Waterfall header's second line: the length of the track the top-level rows' bars are drawn
 * on, so the column's empty right part reads as time still to come, not as a gap.
 */
function WaterfallTrack() {
  const { topWindow: w, topAxis } = useContext(RowFactsContext);
  const track = topAxis ? topAxis.track : w ? trackOf(w) : null;
  const len = track ? track.end - track.start : 0;
  if (!(len > 0)) return null;
  const text = trackText(len);
  const cut = breaksNote(topAxis);
  return (
    <span
      className="vtable__th-note"
      title={`The column's width is ${text}, from the start of the earliest row shown${cut ? `; long idle gaps are cut to a fixed-width break (hatched)${cut}` : ""}; an attempt's bars use its submission's own track.`}
    >
      0–{text}
      {topAxis && topAxis.breaks.length > 0 ? ` · ${topAxis.breaks.length} cut` : ""}
    </span>
  );
}

/** Second lines under the Timeline's headers, by column id. */
export const TIMELINE_HEADER_NOTES: Readonly<Record<string, ReactNode>> = { waterfall: <WaterfallTrack /> };

/**
 * The Result column's width (px at normal text): room for an attempt's longest words on two lines;
 * with Method (`METHOD_WIDTH`), Verdict (`VERDICT_WIDTH`) and Prompt (135, "Deploy the site"
 * whole) it fits beside the side column at 1280 px.
 */
export const RESULT_WIDTH = 425;

/** Average width of a character of the Result chips' bold text, in px at normal text (on the safe side). */
const CHAR_PX = 8.3;

/**
 * How many lines a row's Result takes in a column `width` px wide (1 or 2): a submission's always
 * two (its result words over its key group line, `GroupLine`); an attempt's two when its shown
 * words do not fit on one line. A row of two lines is taller, so the words that carry the claim
 * ("answer dropped by the inspector: the client never saw it") are on screen, not cut.
 */
export function resultLines(r: TimelineRow, width: number): 1 | 2 {
  if (r.kind === "submission") return 2;
  if (r.kind !== "attempt") return 1;
  const chip = r.kind === "attempt" ? 40 : 16; // cell padding, and the chip's icon, padding and border
  return shownResult(resultText(r)).length * CHAR_PX > width - chip ? 2 : 1;
}

/** The Method cell's room besides its words at a depth: padding, the indent, the expander and its gap (layout.css `.tl-what`). */
const whatChrome = (depth: number) => CELL_PAD + depth * 1.2 * BASE_PX + 1.3 * BASE_PX;

/**
 * The methods of every session's life (start, restore, prompt, cancel, close): the Method column's
 * default width holds the widest of them whole on one line. A longer name (the method catalogue has
 * names up to "session/request_permission") takes a second line (`whatLines`), never an ellipsis.
 */
export const LIFECYCLE_METHODS: readonly string[] = [
  "initialize",
  "authenticate",
  "session/new",
  "session/load",
  "session/resume",
  "session/prompt",
  "session/cancel",
  "session/close",
];

/** The Method column's width (px at normal text): the widest lifecycle method, whole, at the top level. */
export const METHOD_WIDTH = widestText(LIFECYCLE_METHODS, { px: BASE_PX }) + whatChrome(0) + 1;

/**
 * How many lines a row's Method cell takes in a column `width` px wide (1 or 2): two when its words
 * and indent do not fit on one line (they wrap, timeline.css). Event rows spill over the empty
 * cells beside them, on one line.
 */
export function whatLines(r: TimelineRow, width: number, measure?: Measure): 1 | 2 {
  if (r.kind === "event") return 1;
  return textWidth(whatText(r), { px: BASE_PX }, measure) + whatChrome(r.depth) > width ? 2 : 1;
}

/** A badge's text style and its room besides its words: icon, gap, padding and border (layout.css `.badge`). */
const BADGE_TEXT = { px: 0.9 * BASE_PX, weight: 600 } as const;
const badgeWidth = (words: string, measure?: Measure) =>
  textWidth(words, BADGE_TEXT, measure) +
  textWidth("✓", BADGE_TEXT, measure) +
  Math.ceil(1.3 * BADGE_TEXT.px) +
  2;

/** The words of a row's Verdict badges, in the order they show. */
function verdictBadges(r: TimelineRow): string[] {
  if (r.kind === "submission") return sortedVerdicts(r.row.verdicts).map((v) => v.name);
  if (r.kind === "request") return [r.row.retryClass, ...sortedVerdicts(r.row.verdicts).map((v) => v.name)];
  return [];
}

/**
 * The verdicts of the demo's four stories (single, deduplicated, withdrawn, duplicate-insert): the
 * Verdict column's default width holds the widest of them whole on one line; a longer name wraps.
 */
const STORY_VERDICTS = ["single", "deduplicated", "withdrawn", "duplicate-insert"] as const;

/** The Verdict column's width (px at normal text): the story verdicts' widest badge, whole. */
export const VERDICT_WIDTH = Math.max(...STORY_VERDICTS.map((v) => badgeWidth(v))) + CELL_PAD + 1;

/**
 * How many lines a row's Verdict cell takes in a column `width` px wide: one per badge (more than
 * one badge are stacked), and two for a badge too wide for the column (its name wraps at its
 * hyphens, "key-reused-" / "different-prompt", timeline.css), so no verdict is cut.
 */
export function verdictLines(r: TimelineRow, width: number = VERDICT_WIDTH, measure?: Measure): number {
  const badges = verdictBadges(r);
  if (badges.length === 0) return 1;
  return badges.reduce((n, b) => n + (badgeWidth(b, measure) + CELL_PAD > width ? 2 : 1), 0);
}

/** The Result cell: the Client's side of a submission, an attempt's words, a request's outcome. */
function Result({ r }: { r: TimelineRow }) {
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

/**
 * The timeline's columns (module scope, as react-table requires stable columns). The sortable ones
 * get an accessor only so react-table offers to sort them: the Timeline orders its whole row list
 * itself (`sortValue`), react-table never sees more than the visible rows.
 */
export const TIMELINE_COLUMNS: VirtualColumn<TimelineRow>[] = col
  .columns([
    col.display({
      id: "menu",
      header: () => <span className="visually-hidden">Faults</span>,
      size: 36,
      enableResizing: false,
      enableHiding: false,
      cell: (c) => (hasFaultMenu(c.row.original) ? <RowMenuButton row={c.row.original} /> : null),
    }),
    column("what", "Method / row", METHOD_WIDTH, 80, what),
    column("result", "Result", RESULT_WIDTH, 60, (r) =>
      r.kind === "submission" ? (
        <Result r={r} />
      ) : (
        <>
          <RowSchemaBadge r={r} />
          <Result r={r} />
        </>
      ),
    ),
    column("verdict", "Verdict / retry class", VERDICT_WIDTH, 50, (r) => {
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
    }),
    column("detail", "Prompt / detail", 135, 50, (r) => {
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
    }),
    column("key", "Key", 100, 40, (r) => {
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
    }),
    column("session", "Session", 90, 40, (r) => cellText("session", r, NO_FACTS)),
    column("attempts", "Attempts", 70, 30, (r) => cellText("attempts", r, NO_FACTS)),
    column("ids", "Ids", 60, 30, (r) => cellText("ids", r, NO_FACTS)),
    column("conns", "Conn", 55, 30, (r) => cellText("conns", r, NO_FACTS)),
    column("pid", "Agent pid", 80, 30, (r) => <Pid r={r} />),
    column("time", "Time", 100, 50, (r) => <Time r={r} />),
    column("latency", "Latency", 90, 40, (r) => <Latency r={r} />),
    column("waterfall", "Waterfall", 140, 40, (r) => <Waterfall r={r} />),
  ])
  .map((c) =>
    c.id !== undefined && SORTABLE_COLUMNS.has(c.id) ? { ...c, accessorFn: (r: TimelineRow) => r.seq } : c,
  );

/** Which columns are hidden until the user shows them (the column menu). */
export const TIMELINE_HIDDEN_BY_DEFAULT: readonly string[] = [
  "time",
  "session",
  "attempts",
  // a submission's key, attempt count and connections are in its row's group line (GroupLine)
  "key",
  "ids",
  "conns",
];

/** The columns that stay at the left edge when the Timeline scrolls sideways: the fault menu and Method. */
export const TIMELINE_PINNED: readonly string[] = ["menu", "what"];

/** Below this window width, presenter mode starts without the Latency and Waterfall columns. */
export const PRESENT_NARROW_PX = 1440;

/**
 * The columns hidden until the user shows them, for a mode and a window width: in presenter mode
 * on a window narrower than 1440 px (a 1280 px projector) Latency and Waterfall too, so the story's
 * columns (Result, Verdict, Prompt, Key, Ids, Conn, Agent pid) fill the width with none off screen;
 * an attempt's Prompt / detail cell still says its latency ("sent 10:42:03, 2503 ms"). The column
 * menu shows them unticked, and a tick brings them back (remembered).
 */
export function timelineHiddenByDefault(present: boolean, windowWidth: number): readonly string[] {
  return present && windowWidth < PRESENT_NARROW_PX
    ? [...TIMELINE_HIDDEN_BY_DEFAULT, "latency", "waterfall"]
    : TIMELINE_HIDDEN_BY_DEFAULT;
}
