/**
 * Applies a parsed query to rows of any view. A view says, per row, which values the row has for a
 * field (`valuesOf`) and the lower-cased text free-text terms look in (`textOf`, built once per row
 * and cached by the view, not per keystroke). How terms combine:
 * - different fields and free-text terms: all must hold (AND);
 * - the same field named more than once without `-`: any of them (OR), `method:a method:b`;
 * - a `-` term: the row must not match it, each one (`-verdict:a -verdict:b`: neither);
 * - a row without a value for a field (a lifecycle record has no method) fails a positive term on
 *   it and passes a negated one.
 * Every comparison ignores case. Pure.
 */
import { type FilterField, fieldDefinition } from "./filter-fields.js";
import type { FilterQuery } from "./parse-filter.js";

/** A row's values for a field (empty: it has none). */
export type ValuesOf = (field: FilterField) => readonly string[];
/** A row's lower-cased search text. */
export type TextOf = () => string;

/** A test of one of a row's values (as `ValuesOf` gives it) against a term. */
export type ValueTest = (value: string) => boolean;

/** One field's terms of a query: a row passes when a value passes one of `any` (if any) and none of `none`. */
export interface FieldGroup {
  readonly field: FilterField;
  readonly any: ValueTest[];
  readonly none: ValueTest[];
}

/** A query made ready to test many rows quickly. */
export interface CompiledFilter {
  /** False when the query applies no term (every row passes). */
  readonly active: boolean;
  /** The fields the query names, so a view can skip work for the others. */
  readonly fields: ReadonlySet<FilterField>;
  /** True when the query uses free text (the view's text is needed). */
  readonly usesText: boolean;
  /** The field terms by field (for a view that keeps an index of its rows' values). */
  readonly groups: readonly FieldGroup[];
  test(valuesOf: ValuesOf, textOf: TextOf): boolean;
  /** The free-text terms alone against a row's lower-cased text (what `test` does after the fields). */
  testText(text: string): boolean;
  /**
   * `testText` of `parts.join("\n")`, without joining: a term with no newline is in the joined text
   * exactly when it is in one part (a view keeps a row's large text apart from its small one).
   */
  testTextParts(parts: readonly string[]): boolean;
}

/**
 * True when every row `narrower` passes also passes `wider`, as far as the terms show: the same
 * field terms, each positive text term of `wider` inside one of `narrower`'s (typing on, "fil" to
 * "file"), and each negated text term of `wider` also in `narrower`. A view filtering as the user
 * types can then test only the rows the previous query passed. False when it cannot tell.
 */
export function narrows(narrower: FilterQuery, wider: FilterQuery): boolean {
  const key = (t: FilterQuery["terms"][number]) =>
    `${t.negated ? "-" : ""}${t.field}:${t.value.toLowerCase()}`;
  const fieldsOf = (q: FilterQuery) =>
    q.terms
      .filter((t) => t.field !== null)
      .map(key)
      .sort()
      .join("\n");
  if (fieldsOf(narrower) !== fieldsOf(wider)) return false;
  const texts = (q: FilterQuery, negated: boolean) =>
    q.terms.filter((t) => t.field === null && t.negated === negated).map((t) => t.value.toLowerCase());
  const nAll = texts(narrower, false);
  const nNone = new Set(texts(narrower, true));
  return (
    texts(wider, false).every((w) => nAll.some((n) => n.includes(w))) &&
    texts(wider, true).every((w) => nNone.has(w))
  );
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** What a field's query value becomes before comparison (short forms, `#1`). */
function normalise(field: FilterField, value: string): string {
  const v = value.toLowerCase();
  if (field === "direction") return v === "client" ? "client->agent" : v === "agent" ? "agent->client" : v;
  if (field === "connection") return v.startsWith("#") ? v.slice(1) : v;
  return v;
}

function valueTest(field: FilterField, raw: string): ValueTest {
  const q = normalise(field, raw);
  if (fieldDefinition(field).match === "contains") return (v) => v.toLowerCase().includes(q);
  if (q.includes("*")) {
    const re = new RegExp(`^${q.split("*").map(escapeRegExp).join(".*")}$`, "su");
    return (v) => re.test(v.toLowerCase());
  }
  return (v) => v.toLowerCase() === q;
}

/** Compiles a query. */
export function compileFilter(query: FilterQuery): CompiledFilter {
  const groups = new Map<FilterField, FieldGroup>();
  const textAll: string[] = [];
  const textNone: string[] = [];
  for (const t of query.terms) {
    if (t.field === null) {
      (t.negated ? textNone : textAll).push(t.value.toLowerCase());
      continue;
    }
    let g = groups.get(t.field);
    if (!g) {
      g = { field: t.field, any: [], none: [] };
      groups.set(t.field, g);
    }
    (t.negated ? g.none : g.any).push(valueTest(t.field, t.value));
  }
  const list = [...groups.values()];
  const usesText = textAll.length + textNone.length > 0;
  return {
    active: query.terms.length > 0,
    fields: new Set(groups.keys()),
    usesText,
    groups: list,
    test(valuesOf, textOf) {
      for (const g of list) {
        const values = valuesOf(g.field);
        if (g.any.length > 0 && !values.some((v) => g.any.some((t) => t(v)))) return false;
        if (g.none.length > 0 && values.some((v) => g.none.some((t) => t(v)))) return false;
      }
      return !usesText || testText(textOf());
    },
    testText,
    testTextParts(parts) {
      for (const t of textAll) if (!inParts(parts, t)) return false;
      for (const t of textNone) if (inParts(parts, t)) return false;
      return true;
    },
  };
  function testText(text: string): boolean {
    for (const t of textAll) if (!text.includes(t)) return false;
    for (const t of textNone) if (text.includes(t)) return false;
    return true;
  }
}

/** Whether `parts.join("\n")` contains `term`. */
function inParts(parts: readonly string[], term: string): boolean {
  if (term === "" || term.includes("\n")) return parts.join("\n").includes(term);
  for (const p of parts) if (p.includes(term)) return true;
  return false;
}

/** A compiled query that lets every row through. */
export const PASS_ALL: CompiledFilter = compileFilter({ text: "", terms: [], problems: [] });
