/**
 * The pure mapping from the analyzer's rows to span descriptions: a submission's root span, one
 * span per attempt, one per other request, and span events for lifecycle records.
 */
import type { Attempt, Outcome, RequestRow, Submission, VerdictHit } from "../analyzer/timeline-model.js";
import type { VerdictSeverity } from "../analyzer/verdicts.js";
import { sha1 } from "../keys/sha1.js";
import { utf8 } from "../keys/uuid.js";
import { retryClassOf } from "../protocol/method-catalogue.js";
import type { AgentExitRecord, FaultRecord } from "../trace/record.js";
import { ACP, SEMCONV, SEMCONV_VALUES, SPAN_NAMES } from "./attribute-names.js";
import type {
  SpanAttributes,
  SpanAttributeValue,
  SpanDescription,
  SpanEventDescription,
  SpanStart,
  SpanStatusDescription,
} from "./span-description.js";

/** What the mapping may add beyond the rows. */
export interface MappingOptions {
  /** Export the first prompt's preview (`acp.prompt.preview`); off unless `--otlp-include-prompts`. */
  readonly includePrompts: boolean;
  /** The tap's name (the trace header's `name`), as `gen_ai.agent.name`. */
  readonly tapName?: string;
}

type Attrs = Record<string, SpanAttributeValue>;

function put(attrs: Attrs, name: string, value: SpanAttributeValue | null | undefined): void {
  if (value !== null && value !== undefined) attrs[name] = value;
}

/** The first 16 hex digits of the SHA-1 of a key's UTF-8 bytes: a key is never exported itself. */
export function keyHash(key: string): string {
  return Array.from(sha1(utf8(key)).slice(0, 8), (b) => b.toString(16).padStart(2, "0")).join("");
}

const SEVERITY_RANK: Readonly<Record<VerdictSeverity, number>> = {
  ok: 0,
  info: 1,
  "client-issue": 2,
  violation: 3,
};

/** The verdict that matters most: an Agent violation over a Client issue over a v1 note over an ok verdict. */
export function leadingVerdict(verdicts: readonly VerdictHit[]): VerdictHit | undefined {
  let best: VerdictHit | undefined;
  for (const v of verdicts) if (!best || SEVERITY_RANK[v.severity] > SEVERITY_RANK[best.severity]) best = v;
  return best;
}

function rpcAttributes(attrs: Attrs, method: string, id: string | number | null): void {
  attrs[SEMCONV.rpcSystemName] = SEMCONV_VALUES.jsonrpc;
  attrs[SEMCONV.rpcMethod] = method;
  attrs[SEMCONV.jsonrpcProtocolVersion] = "2.0";
  // semconv: no jsonrpc.request.id for a null id.
  if (id !== null) attrs[SEMCONV.jsonrpcRequestId] = String(id);
}

/** Outcome attributes and status, shared by attempts and requests. */
function outcomeAttributes(attrs: Attrs, outcome: Outcome): SpanStatusDescription {
  attrs[ACP.outcome] = outcome.kind;
  const answer = outcome.kind === "dropped" ? outcome.answer : outcome;
  switch (answer?.kind) {
    case "inserted":
      put(attrs, ACP.messageId, answer.messageId);
      put(attrs, ACP.stopReason, answer.stopReason);
      break;
    case "error":
    case "cancelled": {
      const code = answer.kind === "error" ? answer.code : -32800;
      attrs[ACP.errorCode] = code;
      attrs[SEMCONV.rpcResponseStatusCode] = String(code);
      attrs[SEMCONV.errorType] = String(code);
      break;
    }
    default:
      break;
  }
  if (outcome.kind === "lost") attrs[ACP.outcomeDetail] = outcome.reason;
  if (outcome.kind === "dropped") attrs[ACP.outcomeDetail] = `${outcome.frame} dropped by fault injection`;
  if (outcome.kind === "error") return { code: "error", message: `${outcome.code} ${outcome.message}` };
  return { code: "unset" };
}

/** The root span of a submission as it starts (its first attempt's request). */
export function submissionStart(s: Submission, opts: MappingOptions): SpanStart {
  const attrs: Attrs = {
    [SEMCONV.genAiOperationName]: SEMCONV_VALUES.invokeAgent,
    [ACP.keyStatus]: s.keyStatus,
    [ACP.retryClass]: retryClassOf("session/prompt", "request"),
  };
  if (s.sessionId !== null) {
    attrs[SEMCONV.genAiConversationId] = s.sessionId;
    attrs[ACP.sessionId] = s.sessionId;
  }
  put(attrs, ACP.seq, s.attempts[0]?.requestSeq);
  if (s.key !== null) attrs[ACP.keyHash] = keyHash(s.key);
  put(attrs, SEMCONV.genAiAgentName, opts.tapName);
  if (opts.includePrompts) attrs[ACP.promptPreview] = s.promptPreview;
  return {
    name: opts.tapName ? `${SPAN_NAMES.submission} ${opts.tapName}` : SPAN_NAMES.submission,
    kind: "internal",
    startTime: s.attempts[0]?.sentAt ?? 0,
    attributes: attrs,
  };
}

/** The attributes and status a submission's root span ends with: verdict, inserts, attempts. */
export function submissionEnd(
  s: Submission,
  settled: boolean,
): { attributes: SpanAttributes; status: SpanStatusDescription } {
  const attrs: Attrs = {
    [ACP.inserts]: s.inserts,
    [ACP.attempts]: s.attempts.length,
    [ACP.settled]: settled,
    [ACP.verdicts]: s.verdicts.map((v) => v.name),
  };
  const lead = leadingVerdict(s.verdicts);
  attrs[ACP.verdict] = lead?.name ?? "pending";
  if (lead) attrs[ACP.verdictSeverity] = lead.severity;
  // What the Client got (its own answer's, or one the inspector forwarded), never a dropped answer's.
  put(attrs, ACP.messageId, s.clientMessageId);
  const status: SpanStatusDescription =
    lead?.severity === "violation" ? { code: "error", message: lead.detail } : { code: "unset" };
  return { attributes: attrs, status };
}

/** One attempt of a submission as a span, from its request to its answer (or to `endTime`). */
export function attemptSpan(
  s: Submission,
  a: Attempt,
  index: number,
  endTime: number,
  origin: "client" | "tap" | "inspector",
): SpanDescription {
  const attrs: Attrs = {
    [ACP.connection]: a.conn,
    [ACP.attemptIndex]: index,
    [ACP.origin]: origin,
    [ACP.seq]: a.requestSeq,
  };
  rpcAttributes(attrs, "session/prompt", a.id);
  attrs[ACP.retryClass] = retryClassOf("session/prompt", "request");
  if (s.sessionId !== null) attrs[SEMCONV.genAiConversationId] = s.sessionId;
  if (a.cancelSeq !== null) attrs[ACP.cancelled] = true;
  const status = outcomeAttributes(attrs, a.outcome);
  return {
    name: "session/prompt",
    kind: "client",
    startTime: a.sentAt,
    endTime: Math.max(endTime, a.sentAt),
    attributes: attrs,
    status,
    events: [],
  };
}

/** A request other than a Client's `session/prompt` (or an unmatched response) as a span. */
export function requestSpan(r: RequestRow, endTime: number, origin: "client" | "tap"): SpanDescription {
  const attrs: Attrs = { [ACP.connection]: r.conn, [ACP.direction]: r.dir, [ACP.origin]: origin };
  put(attrs, ACP.seq, r.requestSeq ?? r.responseSeq);
  rpcAttributes(attrs, r.method ?? "", r.jsonRpcId);
  if (r.method === null) {
    delete attrs[SEMCONV.rpcMethod];
    attrs[ACP.unmatched] = true;
  }
  attrs[ACP.retryClass] = r.retryClass;
  if (typeof r.sessionId === "string") {
    attrs[SEMCONV.genAiConversationId] = r.sessionId;
    attrs[ACP.sessionId] = r.sessionId;
  }
  put(attrs, ACP.createdSessionId, r.createdSessionId);
  if (r.verdicts.length > 0) {
    attrs[ACP.verdicts] = r.verdicts.map((v) => v.name);
    put(attrs, ACP.verdict, leadingVerdict(r.verdicts)?.name);
  }
  const status = outcomeAttributes(attrs, r.outcome);
  return {
    name: r.method ?? SPAN_NAMES.unmatchedResponse,
    kind: "client",
    startTime: r.sentAt,
    endTime: Math.max(endTime, r.sentAt),
    attributes: attrs,
    status,
    events: [],
  };
}

/** An Agent exit or an applied fault as a span event. */
export function lifecycleEvent(r: AgentExitRecord | FaultRecord): SpanEventDescription {
  const attrs: Attrs = { [ACP.seq]: r.seq };
  if (r.type === "agent-exit") {
    attrs[ACP.pid] = r.pid;
    put(attrs, ACP.exitCode, r.code);
    put(attrs, ACP.exitSignal, r.signal);
    put(attrs, ACP.connection, r.conn);
    return { name: SPAN_NAMES.agentExit, time: r.ts, attributes: attrs };
  }
  attrs[ACP.faultAction] = r.action;
  put(attrs, ACP.faultRuleId, r.ruleId);
  put(attrs, ACP.connection, r.conn);
  put(attrs, ACP.faultFrameSeq, r.frameSeq);
  put(attrs, ACP.faultDetail, r.detail);
  return { name: SPAN_NAMES.fault, time: r.ts, attributes: attrs };
}
