/**
 * Edits of the query text, so the filter bar's shortcuts (dropdowns, verdict counts) and the search
 * box share one source of truth: the text. Also the search box's suggestions of field names and
 * known values for the term at the caret. Pure.
 */
import { FILTER_FIELDS, type FilterField, fieldNamed } from "./filter-fields.js";
import { type FilterQuery, parseFilter } from "./parse-filter.js";

/** A value as it is written in a query: quoted when it holds white space, a quote or nothing. */
export function quoteValue(value: string): string {
  return value === "" || /[\s"]/u.test(value) ? `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"` : value;
}

/** `field:value` (or `-field:value`) as written in a query. */
export function formatTerm(field: FilterField, value: string, negated = false): string {
  return `${negated ? "-" : ""}${field}:${quoteValue(value)}`;
}

/** The value a field is set to when the query names it exactly once, not negated; "" otherwise. */
export function singleValue(query: FilterQuery, field: FilterField): string {
  const terms = query.terms.filter((t) => t.field === field);
  const only = terms[0];
  return terms.length === 1 && only && !only.negated ? only.value : "";
}

/** Cuts the ranges out of a text and tidies the white space left behind. */
function cut(text: string, ranges: readonly { start: number; end: number }[]): string {
  let out = text;
  for (const r of [...ranges].sort((a, b) => b.start - a.start))
    out = out.slice(0, r.start) + out.slice(r.end);
  return out.replace(/\s+/gu, " ").trim();
}

/**
 * The query text with `field` set to `value`: every term naming the field, negated or not, is
 * removed and `field:value` added at the end; an empty value just removes them.
 */
export function withFieldValue(text: string, field: FilterField, value: string): string {
  const q = parseFilter(text);
  const rest = cut(
    text,
    q.terms.filter((t) => t.field === field),
  );
  if (value === "") return rest;
  return rest === "" ? formatTerm(field, value) : `${rest} ${formatTerm(field, value)}`;
}

/** The query text with its free-text terms replaced by `words` (field terms kept). */
export function withFreeText(text: string, words: string): string {
  const q = parseFilter(text);
  const rest = cut(
    text,
    q.terms.filter((t) => t.field === null),
  );
  return [rest, words.trim()].filter((s) => s !== "").join(" ");
}

/** One suggestion: the text that replaces the term at the caret, and what it is. */
export interface Suggestion {
  readonly insert: string;
  readonly label: string;
  readonly detail: string;
}

/** Suggestions for the term at the caret and the range of text they replace. */
export interface Suggestions {
  readonly from: number;
  readonly to: number;
  readonly items: readonly Suggestion[];
}

/** Values seen in the shown trace, per field (methods, sessions, keys, connections...). */
export type KnownValues = Partial<Record<FilterField, readonly string[]>>;

const MAX_SUGGESTIONS = 12;

/**
 * What to offer at the caret: field names while a term has no colon yet (`me` → `method:`), known
 * values after one (`verdict:du` → `verdict:duplicate-insert`). A `-` in front is kept.
 */
export function suggest(text: string, caret: number, known: KnownValues = {}): Suggestions {
  let from = caret;
  while (from > 0 && !/\s/u.test(text[from - 1] as string)) from--;
  let to = caret;
  while (to < text.length && !/\s/u.test(text[to] as string)) to++;
  const word = text.slice(from, caret);
  const neg = word.startsWith("-") ? "-" : "";
  const body = word.slice(neg.length);
  if (body.includes('"') && !body.includes(":")) return { from, to, items: [] };
  const colon = body.indexOf(":");
  if (colon < 0) {
    const p = body.toLowerCase();
    const items = FILTER_FIELDS.filter((f) => f.name.startsWith(p) || f.aliases.some((a) => a.startsWith(p)))
      .filter((f) => `${f.name}:` !== body)
      .map((f) => ({ insert: `${neg}${f.name}:`, label: `${neg}${f.name}:`, detail: f.description }));
    return { from, to, items: items.slice(0, MAX_SUGGESTIONS) };
  }
  const def = fieldNamed(body.slice(0, colon));
  if (!def) return { from, to, items: [] };
  const partial = body
    .slice(colon + 1)
    .replace(/^"/, "")
    .toLowerCase();
  const pool = [...new Set([...(def.values ?? []), ...(known[def.name] ?? [])])];
  const starts = pool.filter((v) => v.toLowerCase().startsWith(partial));
  const inside = pool.filter(
    (v) => !v.toLowerCase().startsWith(partial) && v.toLowerCase().includes(partial),
  );
  const items = [...starts, ...inside]
    .filter((v) => v.toLowerCase() !== partial)
    .slice(0, MAX_SUGGESTIONS)
    .map((v) => ({
      insert: `${neg}${formatTerm(def.name, v)}`,
      label: `${neg}${def.name}:${v}`,
      detail: "",
    }));
  return { from, to, items };
}

/** The text with a suggestion put in place, and the caret after it (a value gets a space after it). */
export function applySuggestion(
  text: string,
  s: Suggestions,
  item: Suggestion,
): { text: string; caret: number } {
  const tail = text.slice(s.to);
  const spacer = item.insert.endsWith(":") ? "" : tail.startsWith(" ") ? "" : " ";
  const next = text.slice(0, s.from) + item.insert + spacer + tail;
  return { text: next, caret: s.from + item.insert.length + spacer.length };
}
