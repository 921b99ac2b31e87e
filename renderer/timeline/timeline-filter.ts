/**
 * The timeline's filters: method, session, key, verdict, outcome, direction and free text. A row
 * passes when every filter set matches; free text searches the row's fields and its frames' bytes.
 */
import type {
  MalformedRow,
  OutcomeKind,
  RequestRow,
  Submission,
} from "../../shared/analyzer/timeline-model.js";
import type { VerdictName } from "../../shared/analyzer/verdicts.js";
import type { Direction } from "../../shared/trace/record.js";

/** What the filter bar holds; empty strings mean "any". */
export interface TimelineFilter {
  /** Exact JSON-RPC method (`session/prompt` for submissions). */
  readonly method: string;
  /** Part of the sessionId. */
  readonly session: string;
  /** Part of the idempotency key. */
  readonly key: string;
  readonly verdict: VerdictName | "";
  readonly outcome: OutcomeKind | "";
  readonly direction: Direction | "";
  /** Free text, case-insensitive. */
  readonly text: string;
}

/** No filter at all. */
export const NO_FILTER: TimelineFilter = {
  method: "",
  session: "",
  key: "",
  verdict: "",
  outcome: "",
  direction: "",
  text: "",
};

/** True when any filter is set. */
export function isFiltering(f: TimelineFilter): boolean {
  return Object.values(f).some((v) => v !== "");
}

/** A top-level timeline row's source. */
export type TopRow =
  | { readonly kind: "submission"; readonly row: Submission }
  | { readonly kind: "request"; readonly row: RequestRow }
  | { readonly kind: "malformed"; readonly row: MalformedRow };

/** The raw bytes of a frame by seq (the trace session's records). */
export type RawOf = (seq: number) => string | undefined;

/** Frame seqs a top-level row covers (its attempts' or its request's frames). */
export function frameSeqsOf(top: TopRow): number[] {
  switch (top.kind) {
    case "submission":
      return top.row.attempts.flatMap((a) => a.frameSeqs);
    case "request":
      return [top.row.requestSeq, top.row.responseSeq].filter((s): s is number => s !== null);
    case "malformed":
      return [top.row.seq];
  }
}

const searchCache = new WeakMap<object, string>();

/** The lower-cased text free-text search looks in: the row's fields and its frames; cached per row copy. */
export function searchTextOf(top: TopRow, rawOf: RawOf): string {
  const cached = searchCache.get(top.row);
  if (cached !== undefined) return cached;
  const parts: string[] = [];
  if (top.kind === "submission") {
    const s = top.row;
    parts.push("session/prompt", s.sessionId ?? "", s.key ?? "", s.promptPreview, ...s.messageIds);
    for (const v of s.verdicts) parts.push(v.name);
  } else if (top.kind === "request") {
    const r = top.row;
    parts.push(r.method ?? "", String(r.jsonRpcId), r.retryClass, r.sessionId ?? "");
    for (const v of r.verdicts) parts.push(v.name);
  } else {
    parts.push(top.row.reason, top.row.preview);
  }
  for (const seq of frameSeqsOf(top)) parts.push(rawOf(seq) ?? "");
  const text = parts.join("\n").toLowerCase();
  searchCache.set(top.row, text);
  return text;
}

/** Whether a top-level row passes the filter. */
export function matchesFilter(top: TopRow, f: TimelineFilter, rawOf: RawOf): boolean {
  const { kind, row } = top;
  if (f.method !== "") {
    const method = kind === "submission" ? "session/prompt" : kind === "request" ? row.method : null;
    if (method !== f.method) return false;
  }
  if (f.session !== "") {
    const session = kind === "malformed" ? null : row.sessionId;
    if (!session?.includes(f.session)) return false;
  }
  if (f.key !== "") {
    const key = kind === "submission" ? (row.key ?? row.invalidKey?.shown ?? null) : null;
    if (!key?.includes(f.key)) return false;
  }
  if (f.verdict !== "") {
    if (kind === "malformed" || !row.verdicts.some((v) => v.name === f.verdict)) return false;
  }
  if (f.outcome !== "") {
    if (kind === "malformed") return false;
    const kinds = kind === "submission" ? row.attempts.map((a) => a.outcome.kind) : [row.outcome.kind];
    if (!kinds.includes(f.outcome)) return false;
  }
  if (f.direction !== "") {
    const dir = kind === "submission" ? "client->agent" : row.dir;
    if (dir !== f.direction) return false;
  }
  if (f.text !== "" && !searchTextOf(top, rawOf).includes(f.text.toLowerCase())) return false;
  return true;
}
