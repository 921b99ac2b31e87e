/**
 * What one frame looks like as an arrow of the sequence view: its kind (request, response,
 * notification, malformed), a label with the method, JSON-RPC id and short key or the outcome,
 * and a tone. Pure: used by the layout, no React.
 */
import type { AttemptTone, Submission, TimelineModel } from "../../../shared/analyzer/timeline-model.js";
import { ErrorCode } from "../../../shared/protocol/error-codes.js";
import { classifyFrame, type Frame, type JsonRpcId } from "../../../shared/protocol/frame.js";
import type { FrameRecord } from "../../../shared/trace/record.js";
import { shortenKey } from "../../kit/KeyBadge.js";

/** The shape family of an arrow: solid + filled head, dashed + open head, thin + open head, zigzag. */
export type ArrowKind = "request" | "response" | "notification" | "malformed";

/** A colour family from the theme; always paired with a label or a shape. */
export type Tone = "fg" | "muted" | "accent" | "ok" | "warn" | "error" | "info";

/** An arrow's description before it is placed. */
export interface FrameArrow {
  readonly arrow: ArrowKind;
  /** First line: method and id, or outcome. */
  readonly label: string;
  /** Second line (submission, attempt, verdicts, update kind), may be empty. */
  readonly detail: string;
  readonly tone: Tone;
  /** For notifications: the method (bursts group `session/update`). */
  readonly method: string | null;
  /** For `session/update`: the `sessionUpdate` kind. */
  readonly updateKind: string | null;
}

function idText(id: JsonRpcId): string {
  return typeof id === "string" ? JSON.stringify(id) : String(id);
}

function asObject(v: unknown): Record<string, unknown> | null {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
}

/** Where a prompt attempt sits in the analyzer's model: its submission and attempt number. */
export interface AttemptPlace {
  readonly submission: Submission;
  /** The submission's place in the model's list, from 1 (row ids are shared with other row kinds). */
  readonly number: number;
  readonly attempt: number;
  /** The attempt's colour, from the analyzer's `tone`. */
  readonly tone: Tone;
}

/** The arrow tone of each attempt tone: about the Agent and the RFD (red only for a violation), never transport. */
const ATTEMPT_TONE: Readonly<Record<AttemptTone, Tone>> = {
  ok: "ok",
  violation: "error",
  warn: "warn",
  unknown: "muted",
  pending: "info",
};

/** Indexes the model's prompt attempts by request seq, and by response seq (the answer's arrow takes the attempt's tone). */
export function attemptPlaces(model: TimelineModel | null): Map<number, AttemptPlace> {
  const places = new Map<number, AttemptPlace>();
  if (!model) return places;
  model.submissions.forEach((submission, n) => {
    submission.attempts.forEach((a, i) => {
      const place = { submission, number: n + 1, attempt: i + 1, tone: ATTEMPT_TONE[a.tone] };
      places.set(a.requestSeq, place);
      if (a.responseSeq !== null) places.set(a.responseSeq, place);
    });
  });
  return places;
}

/** Remembers each connection's open requests so a response can name the method it answers. */
export class RequestMethods {
  private readonly open = new Map<string, string>();

  private static key(conn: number, requestDir: FrameRecord["dir"], id: JsonRpcId): string {
    return `${conn}\u0000${requestDir}\u0000${typeof id}\u0000${String(id)}`;
  }

  /** Notes a request. */
  sent(r: FrameRecord, id: JsonRpcId, method: string): void {
    this.open.set(RequestMethods.key(r.conn, r.dir, id), method);
  }

  /** The method a response answers (and forgets it), or null. */
  answered(r: FrameRecord, id: JsonRpcId): string | null {
    const requestDir = r.dir === "client->agent" ? "agent->client" : "client->agent";
    const k = RequestMethods.key(r.conn, requestDir, id);
    const method = this.open.get(k) ?? null;
    this.open.delete(k);
    return method;
  }
}

function promptDetail(params: Record<string, unknown> | null, place: AttemptPlace | undefined): string {
  const parts: string[] = [];
  if (place) {
    const s = place.submission;
    parts.push(`submission ${place.number} · attempt ${place.attempt} of ${s.attempts.length}`);
    if (s.verdicts.length > 0) parts.push(s.verdicts.map((v) => v.name).join(", "));
  }
  const key = params?.idempotencyKey;
  if (key === undefined || key === null) parts.unshift("no key");
  return parts.join(" · ");
}

function requestArrow(
  f: Extract<Frame, { kind: "request" }>,
  r: FrameRecord,
  places: ReadonlyMap<number, AttemptPlace>,
): FrameArrow {
  const base = `${f.method}  id ${idText(f.id)}`;
  if (f.method === "session/prompt" && r.dir === "client->agent") {
    const params = asObject(f.params);
    const key = params?.idempotencyKey;
    const keyText =
      typeof key === "string" ? `  key ${shortenKey(key)}` : key == null ? "" : "  key (not a string)";
    return {
      arrow: "request",
      label: base + keyText,
      detail: promptDetail(params, places.get(r.seq)),
      tone: "accent",
      method: f.method,
      updateKind: null,
    };
  }
  return { arrow: "request", label: base, detail: "", tone: "fg", method: f.method, updateKind: null };
}

function responseArrow(f: Extract<Frame, { kind: "result" | "error" }>, method: string | null): FrameArrow {
  const answers = method === null ? `unmatched response id ${idText(f.id)}` : `${method}  id ${idText(f.id)}`;
  if (f.kind === "error") {
    const cancelled = f.error.code === ErrorCode.RequestCancelled;
    return {
      arrow: "response",
      label: `${cancelled ? "cancelled" : "error"} ${f.error.code}  ${f.error.message}`,
      detail: `answers ${answers}`,
      tone: cancelled ? "warn" : "error",
      method: null,
      updateKind: null,
    };
  }
  const result = asObject(f.result);
  const messageId = result?.messageId;
  const label =
    typeof messageId === "string"
      ? `messageId ${messageId}`
      : typeof result?.stopReason === "string"
        ? `stopReason ${result.stopReason}`
        : typeof result?.sessionId === "string"
          ? `sessionId ${result.sessionId}`
          : "result";
  return {
    arrow: "response",
    label,
    detail: `answers ${answers}`,
    tone: "ok",
    method: null,
    updateKind: null,
  };
}

function notificationArrow(f: Extract<Frame, { kind: "notification" }>): FrameArrow {
  const params = asObject(f.params);
  if (f.method === "session/update") {
    const update = asObject(params?.update);
    const kind = typeof update?.sessionUpdate === "string" ? update.sessionUpdate : null;
    const mid = typeof update?.messageId === "string" ? `  messageId ${update.messageId}` : "";
    const state = typeof update?.state === "string" ? `  ${update.state}` : "";
    return {
      arrow: "notification",
      label: `session/update  ${kind ?? "?"}${mid}${state}`,
      detail: "",
      tone: kind === "user_message" || kind === "user_message_chunk" ? "info" : "muted",
      method: f.method,
      updateKind: kind,
    };
  }
  const requestId = params?.requestId;
  const label =
    f.method === "$/cancel_request" && (typeof requestId === "string" || typeof requestId === "number")
      ? `$/cancel_request  for id ${idText(requestId)}`
      : f.method;
  const tone: Tone = f.method === "$/cancel_request" || f.method === "session/cancel" ? "warn" : "muted";
  return { arrow: "notification", label, detail: "", tone, method: f.method, updateKind: null };
}

/** Describes one frame record as an arrow; `methods` pairs responses with their requests. */
export function describeFrame(
  r: FrameRecord,
  methods: RequestMethods,
  places: ReadonlyMap<number, AttemptPlace>,
): FrameArrow {
  const flagged = r.encoding === "base64" || (r.flags !== undefined && r.flags.length > 0);
  const f: Frame = flagged
    ? { kind: "malformed", reason: `flagged ${r.flags?.join(", ") ?? ""}` }
    : classifyFrame(r.raw);
  switch (f.kind) {
    case "request":
      if (!r.dropped) methods.sent(r, f.id, f.method);
      return requestArrow(f, r, places);
    case "result":
    case "error": {
      const arrow = responseArrow(f, f.id === null ? null : methods.answered(r, f.id));
      // A prompt's answer speaks about the Agent: a duplicate insert is red, a deduplicated one green.
      const place = r.dir === "agent->client" ? places.get(r.seq) : undefined;
      return place ? { ...arrow, tone: place.tone } : arrow;
    }
    case "notification":
      return notificationArrow(f);
    default: {
      const size = r.bytes ?? r.raw.length;
      const what = r.flags && r.flags.length > 0 ? r.flags.join(", ") : "not JSON-RPC";
      return {
        arrow: "malformed",
        label: `malformed frame (${what})`,
        detail: `${size} ${r.encoding === "base64" ? "base64 chars" : "chars"}`,
        tone: "error",
        method: null,
        updateKind: null,
      };
    }
  }
}
