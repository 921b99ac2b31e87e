/**
 * The shared filter (shared/filter/) applied to the timeline's top-level rows. A row passes when
 * the query holds for it: its fields (method, session, key, outcome, verdict, direction,
 * connection, id, origin) and, for free text, its words and its frames' bytes.
 */
import type { MalformedRow, RequestRow, Submission } from "../../../shared/analyzer/timeline-model.js";
import { withFieldValue } from "../../../shared/filter/edit-filter.js";
import { FILTER_FIELDS, type FilterField } from "../../../shared/filter/filter-fields.js";
import { type CompiledFilter, compileFilter } from "../../../shared/filter/match-filter.js";
import { EMPTY_QUERY, type FilterQuery, isActive, parseFilter } from "../../../shared/filter/parse-filter.js";
import { isUnresolvedRequest, isUnresolvedSubmission } from "../timeline/unresolved.js";

/** The filter every view applies: the parsed query of the search box (its `text` is the source of truth). */
export type TimelineFilter = FilterQuery;

/** No filter at all. */
export const NO_FILTER: TimelineFilter = EMPTY_QUERY;

/** A change to the filter: `text` replaces the whole query; a field sets that field's term ("" removes it). */
export type FilterPatch = { readonly text?: string } & Partial<Record<FilterField, string>>;

/** The filter after a patch (the shortcuts edit the query text, so the search box shows what they did). */
export function patchFilter(f: TimelineFilter, patch: FilterPatch): TimelineFilter {
  let text = patch.text ?? f.text;
  for (const def of FILTER_FIELDS) {
    const value = patch[def.name];
    if (typeof value === "string") text = withFieldValue(text, def.name, value);
  }
  return text === f.text ? f : parseFilter(text);
}

/** The filter a patch makes from nothing (`filterOf({ method: "session/prompt" })`). */
export function filterOf(patch: FilterPatch): TimelineFilter {
  return patchFilter(NO_FILTER, patch);
}

/** True when the filter applies any term. */
export function isFiltering(f: TimelineFilter): boolean {
  return isActive(f);
}

const compiled = new WeakMap<TimelineFilter, CompiledFilter>();

/** The compiled form of a filter, made once per filter. */
export function compiledFilter(f: TimelineFilter): CompiledFilter {
  let c = compiled.get(f);
  if (!c) {
    c = compileFilter(f);
    compiled.set(f, c);
  }
  return c;
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

/**
 * A row's lower-cased search text in two parts, the row's own words and its frames' bytes: the
 * whole text is `parts.join("\n")` (`compiledFilter(f).testTextParts` tests it without joining).
 * Apart, the frames' part stays one byte per character when the words have a character that needs
 * two (the Result's "→"): the 1M bench trace's 77,142 rows' texts take 67 MB instead of 83 MB.
 */
export type SearchText = readonly [words: string] | readonly [words: string, frames: string];

const searchCache = new WeakMap<object, SearchText>();

/** The lower-cased text free-text search looks in: the row's fields and its frames; cached per row copy. */
export function searchTextOf(top: TopRow, rawOf: RawOf): SearchText {
  const cached = searchCache.get(top.row);
  if (cached !== undefined) return cached;
  const parts: string[] = [];
  if (top.kind === "submission") {
    const s = top.row;
    parts.push("session/prompt", s.sessionId ?? "", s.key ?? "", s.promptPreview, s.result, ...s.messageIds);
    for (const a of s.attempts) parts.push(a.words);
    for (const v of s.verdicts) parts.push(v.name);
  } else if (top.kind === "request") {
    const r = top.row;
    parts.push(r.method ?? "", String(r.jsonRpcId), r.retryClass, r.sessionId ?? "");
    for (const v of r.verdicts) parts.push(v.name);
  } else {
    parts.push(top.row.reason, top.row.preview);
  }
  const frames = frameSeqsOf(top).map((seq) => rawOf(seq) ?? "");
  // Lower-cased apart, the same as the whole: a newline is neither cased nor case-ignorable, so no
  // case mapping (Greek final sigma is the one that looks around) sees across it.
  const words = parts.join("\n").toLowerCase();
  const text: SearchText = frames.length === 0 ? [words] : [words, frames.join("\n").toLowerCase()];
  searchCache.set(top.row, text);
  return text;
}

const NONE: readonly string[] = [];

/** A top-level row's values for one field (empty: the row has none). */
export function rowValues(top: TopRow, field: FilterField): readonly string[] {
  if (top.kind === "submission") {
    const s = top.row;
    switch (field) {
      case "method":
        return ["session/prompt"];
      case "session":
        return s.sessionId === null ? NONE : [s.sessionId];
      case "key": {
        const key = s.key ?? s.invalidKey?.shown ?? null;
        return key === null ? NONE : [key];
      }
      case "outcome": {
        const kinds = s.attempts.map((a) => a.outcome.kind as string);
        return isUnresolvedSubmission(s) ? [...kinds, "unresolved"] : kinds;
      }
      case "verdict":
        return s.verdicts.map((v) => v.name);
      case "direction":
        return ["client->agent"];
      case "connection":
        return s.attempts.map((a) => String(a.conn));
      case "id":
        return s.attempts.map((a) => String(a.id));
      case "origin":
        return s.attempts.map((a) => a.origin ?? "peer");
    }
  }
  if (top.kind === "request") {
    const r = top.row;
    switch (field) {
      case "method":
        return r.method === null ? NONE : [r.method];
      case "session":
        return r.sessionId == null ? NONE : [r.sessionId];
      case "key":
        return NONE;
      case "outcome":
        return isUnresolvedRequest(r) ? [r.outcome.kind, "unresolved"] : [r.outcome.kind];
      case "verdict":
        return r.verdicts.map((v) => v.name);
      case "direction":
        return [r.dir];
      case "connection":
        return [String(r.conn)];
      case "id":
        return [String(r.jsonRpcId)];
      case "origin":
        return [r.origin ?? "peer"];
    }
  }
  const m = top.row;
  if (field === "direction") return [m.dir];
  if (field === "connection") return [String(m.conn)];
  return NONE;
}

/** Whether a top-level row passes the filter. */
export function matchesFilter(top: TopRow, f: TimelineFilter, rawOf: RawOf): boolean {
  return compiledFilter(f).test(
    (field) => rowValues(top, field),
    () => searchTextOf(top, rawOf).join("\n"),
  );
}
