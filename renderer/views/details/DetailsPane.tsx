/**
 * The right-hand pane for the selected row: a submission's verdicts (with the RFD rule each cites)
 * and the diff of its attempts' params, an attempt's or request's frames, or one frame's bytes.
 * Everything from the wire is rendered as text.
 */
import type { Attempt, Submission } from "../../../shared/analyzer/timeline-model.js";
import { UNKEYED_RETRY_WARNING } from "../../../shared/faults/fault-rule.js";
import { RETRY_CLASS_MEANING } from "../../../shared/protocol/retry-class.js";
import { Badge } from "../../kit/Badge.js";
import { EmptyState } from "../../kit/EmptyState.js";
import { KeyBadge } from "../../kit/KeyBadge.js";
import { attemptLabel, outcomeLabel, transportMark } from "../../kit/outcome-label.js";
import { RawFrameView } from "../../kit/RawFrameView.js";
import { SchemaViolations } from "../../kit/SchemaViolations.js";
import { useInspector, useInspectorContext } from "../../model/store/inspector-store.js";
import { visibleText } from "../../model/text/visible-text.js";
import { diffParams, paramsOf } from "../../model/timeline/params-diff.js";
import { eventsOf } from "../../model/timeline/trace-events.js";
import type { LoadedTrace } from "../../model/traces/loaded-trace.js";
import { RowFields } from "../timeline/RowFields.js";
import { AgentSpans } from "./AgentSpans.js";
import { FrameView } from "./FrameView.js";
import { ParamsDiffView } from "./ParamsDiffView.js";
import { UnmatchedAgentSpans } from "./UnmatchedAgentSpans.js";
import { VerdictExplanation } from "./VerdictExplanation.js";

/** Parses a selection key: `s12`, `s12.a0`, `s12.a0.f40`, `r7`, `r7.f41`, `m9`, `e5` (an event row), `rec55`, `bad0` (a flagged entry). */
export function parseSelectionKey(key: string): {
  kind: string;
  id: number;
  attempt?: number;
  frame?: number;
} {
  const m = /^(rec|bad|s|r|m|e)(\d+)(?:\.a(\d+))?(?:\.f(\d+))?$/.exec(key);
  if (!m) return { kind: "none", id: 0 };
  return {
    kind: m[1] as string,
    id: Number(m[2]),
    ...(m[3] !== undefined && { attempt: Number(m[3]) }),
    ...(m[4] !== undefined && { frame: Number(m[4]) }),
  };
}

/** Why a submission has no verdict: still waiting, settled by a resend, or none of the RFD's cases. */
function noVerdict(s: Submission): string {
  if (s.attempts.some((a) => a.outcome.kind === "pending")) return "No verdict yet (an attempt is pending).";
  if (s.resentAs !== null)
    return "No verdict of its own: the Client resent it, and the resend carries the verdict.";
  return "No verdict: every attempt is answered, and no RFD rule applies to them.";
}

/** How an inspector attempt's answer was handled, in words. */
function inspectorAttemptText(a: Attempt): string {
  return a.clientSaw.kind === "forwarded"
    ? `retry by the inspector; its answer was forwarded to the client under the client's id ${JSON.stringify(a.clientSaw.clientId)}`
    : "retry by the inspector; its answer was recorded and not forwarded (the client never asked)";
}

/** The neutral transport mark beside an attempt's badge ("answer dropped"), when it has one. */
function TransportMark({ a }: { a: Attempt }) {
  const mark = transportMark(a);
  return mark === null ? null : (
    <>
      {" "}
      <Badge tone="neutral" title="What happened on the way, not what the Agent did">
        {mark}
      </Badge>
    </>
  );
}

function SubmissionDetails({ s, session }: { s: Submission; session: LoadedTrace | undefined }) {
  const raw = (seq: number) => {
    const r = session?.recordBySeq(seq);
    return r?.type === "frame" ? r.raw : undefined;
  };
  const diff = diffParams(s.attempts.map((a) => paramsOf(raw(a.requestSeq))));
  return (
    <>
      <h2 className="panel-title">Submission: session/prompt</h2>
      <dl className="facts">
        <dt>Session</dt>
        <dd>{s.sessionId === null ? "(none)" : visibleText(s.sessionId)}</dd>
        <dt>Key</dt>
        <dd>
          {s.key !== null ? (
            <KeyBadge idempotencyKey={s.key} />
          ) : s.keyStatus === "invalid" ? (
            visibleText(`invalid: ${s.invalidKey?.reason} (${s.invalidKey?.shown})`)
          ) : (
            "no key"
          )}
        </dd>
        <dt>Prompt</dt>
        <dd>{visibleText(s.promptPreview)}</dd>
        <dt>Inserted</dt>
        <dd>
          {s.inserts} user message{s.inserts === 1 ? "" : "s"}
          {s.messageIds.length ? ` (${visibleText(s.messageIds.join(", "))})` : ""} seen in the trace
        </dd>
        <dt>Result</dt>
        <dd>{visibleText(s.result)}</dd>
      </dl>
      <h3>Verdicts</h3>
      {s.verdicts.length === 0 ? <p className="muted">{noVerdict(s)}</p> : null}
      {s.verdicts.map((v) => (
        <VerdictExplanation key={v.name} hit={v} />
      ))}
      <SchemaViolations seqs={s.attempts.flatMap((a) => a.frameSeqs)} />
      <h3>Attempts</h3>
      <ol className="attempts">
        {s.attempts.map((a) => {
          const o = attemptLabel(a);
          return (
            <li key={a.requestSeq}>
              connection #{a.conn}, id {String(a.id)}
              {a.latencyMs === null ? "" : `, ${Math.round(a.latencyMs)} ms`}{" "}
              <Badge tone={o.tone} title={o.title}>
                {o.label}
              </Badge>
              <TransportMark a={a} />
              {a.origin === "inspector" ? ` ${inspectorAttemptText(a)}` : null}
            </li>
          );
        })}
      </ol>
      <AgentSpans submission={s} />
      {s.keyStatus !== "valid" && s.attempts.some((a) => a.origin === "inspector") ? (
        <p className="unkeyed-retry-warning" role="note">
          The inspector retried this prompt, which has no valid key: {UNKEYED_RETRY_WARNING}.
        </p>
      ) : null}
      <h3>Params of the attempts</h3>
      <ParamsDiffView diff={diff} attempts={s.attempts.length} />
    </>
  );
}

function Selected({ selectedKey, seq }: { selectedKey: string; seq: number }) {
  const { catalog } = useInspectorContext();
  const traceId = useInspector((s) => s.traceId);
  const view = useInspector((s) => s.view);
  const session = traceId === undefined ? undefined : catalog.get(traceId);
  const key = parseSelectionKey(selectedKey);
  const record = (n: number | null) => (n === null ? undefined : session?.recordBySeq(n));

  if (key.kind === "bad") {
    const e = session?.flagged[key.id];
    if (!e) return null;
    return (
      <>
        <h2 className="panel-title">
          <Badge tone="error">flagged</Badge> Not a valid record{e.seq !== null ? ` (seq ${e.seq})` : ""}
        </h2>
        <p>Kept as it came and left out of the analysis. What is wrong:</p>
        <ul>
          {e.faults.map((f) => (
            <li key={f.field}>
              <code>{f.field}</code> {f.reason}
            </li>
          ))}
        </ul>
        <RawFrameView raw={e.preview} label="The entry (start of its JSON)" />
      </>
    );
  }
  if (key.kind === "e") {
    return (
      <>
        <h2 className="panel-title">Event: {session ? eventsOf(session).at(key.id)?.words : `#${key.id}`}</h2>
        <FrameView record={record(key.id)} label="Record" />
      </>
    );
  }
  if (key.frame !== undefined || key.kind === "rec") {
    const n = key.frame ?? seq;
    return (
      <>
        <h2 className="panel-title">Frame #{n}</h2>
        <FrameView record={record(n)} label="Raw frame" />
      </>
    );
  }
  if (key.kind === "s") {
    const s = view.submissions.find((x) => x.id === key.id);
    if (!s) return null;
    const a = key.attempt === undefined ? undefined : s.attempts[key.attempt];
    if (!a) return <SubmissionDetails s={s} session={session} />;
    const o = attemptLabel(a);
    return (
      <>
        <h2 className="panel-title">
          Attempt {(key.attempt ?? 0) + 1} of {s.attempts.length}{" "}
          <Badge tone={o.tone} title={o.title}>
            {o.label}
          </Badge>
          <TransportMark a={a} />
        </h2>
        <p>{o.title}</p>
        {a.origin === "inspector" ? (
          <p>
            Sent by the inspector, not the client: a copy of the client&apos;s request with only the JSON-RPC
            id changed; {inspectorAttemptText(a)}.
          </p>
        ) : null}
        <AgentSpans submission={s} attempt={key.attempt} />
        <SchemaViolations seqs={a.frameSeqs} />
        <FrameView record={record(a.requestSeq)} label="Request" />
        {a.responseSeq !== null ? <FrameView record={record(a.responseSeq)} label="Response" /> : null}
        {a.cancelSeq !== null ? <FrameView record={record(a.cancelSeq)} label="Cancel" /> : null}
      </>
    );
  }
  if (key.kind === "r") {
    const r = view.requests.find((x) => x.id === key.id);
    if (!r) return null;
    const o = outcomeLabel(r.outcome);
    return (
      <>
        <h2 className="panel-title">
          {r.method === null ? "Unmatched response" : visibleText(r.method)}{" "}
          <Badge tone={o.tone} title={o.title}>
            {o.label}
          </Badge>
        </h2>
        <p>
          Retry class <strong>{r.retryClass}</strong>: {RETRY_CLASS_MEANING[r.retryClass]}.
        </p>
        {r.verdicts.map((v) => (
          <VerdictExplanation key={v.name} hit={v} />
        ))}
        <SchemaViolations seqs={[r.requestSeq, r.responseSeq].filter((q): q is number => q !== null)} />
        <FrameView record={record(r.requestSeq)} label="Request" />
        {r.responseSeq !== null ? <FrameView record={record(r.responseSeq)} label="Response" /> : null}
      </>
    );
  }
  if (key.kind === "m") {
    const m = view.malformed.find((x) => x.id === key.id);
    if (!m) return null;
    return (
      <>
        <h2 className="panel-title">Malformed frame #{m.seq}</h2>
        <p>{visibleText(m.reason)}. The frame is kept verbatim; it was forwarded as it came.</p>
        <FrameView record={record(m.seq)} label="Raw frame" />
      </>
    );
  }
  return null;
}

function isPromptRow(selectedKey: string): boolean {
  const k = parseSelectionKey(selectedKey);
  return k.kind === "s" && k.frame === undefined;
}

/** Details of the selected row, or an explanation of what will appear here. */
export function DetailsPane() {
  const selected = useInspector((s) => s.selected);
  if (!selected) {
    return (
      <>
        <EmptyState title="Nothing selected">
          <p>
            Select a row (click it, or focus the table and use the arrow keys; Right and Left open and close a
            row). A submission shows its verdicts with the RFD rule each one cites and a diff of its attempts'
            params; an attempt or a frame shows the bytes exactly as they crossed the wire.
          </p>
        </EmptyState>
        <UnmatchedAgentSpans />
      </>
    );
  }
  return (
    <>
      <Selected selectedKey={selected.key} seq={selected.seq} />
      <RowFields selectedKey={selected.key} />
      {/* A submission's or attempt's own telemetry section shows them already, beside its spans. */}
      {isPromptRow(selected.key) ? null : <UnmatchedAgentSpans />}
    </>
  );
}
