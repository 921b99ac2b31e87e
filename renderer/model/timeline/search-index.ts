/**
 * An index of one list of top-level Timeline rows for the shared filter, so a search over a
 * million-frame trace (77k rows) answers within a keystroke. It gives exactly what testing each row
 * with `matchesFilter` gives, in the same order:
 * - the rows' search texts sit in an array beside the rows (built in idle time as rows arrive, see
 *   search-prep.ts), so free text is an `includes` per part of a row's text and no lookup;
 * - per field, a map from each value a row has to the rows that have it, made the first time a
 *   query names the field: a field term tests each distinct value once (8 sessions, not 56k rows);
 * - the last answer is kept: a query that narrows it (typing on, "fil" then "file") tests only the
 *   rows it passed.
 * One index per rows array: a new view makes new rows, and a new index (the texts of unchanged rows
 * are reused from their cache, see `searchTextOf`).
 */

import type { WaterfallSpan } from "../../../shared/analyzer/waterfall.js";
import type { FilterField } from "../../../shared/filter/filter-fields.js";
import { narrows } from "../../../shared/filter/match-filter.js";
import {
  compiledFilter,
  type RawOf,
  rowValues,
  type SearchText,
  searchTextOf,
  type TimelineFilter,
  type TopRow,
} from "../filter/timeline-filter.js";

/** The rows (by index) that have each value of a field. */
type Postings = Map<string, number[]>;

/** The index of one rows array. */
export class SearchIndex<T extends TopRow> {
  private readonly texts: (SearchText | undefined)[];
  private readonly postings = new Map<FilterField, Postings>();
  private readonly spans: (WaterfallSpan | null | undefined)[] = [];
  private last: { readonly filter: TimelineFilter; readonly passed: readonly number[] } | undefined;

  constructor(readonly rows: readonly T[]) {
    this.texts = new Array<SearchText | undefined>(rows.length);
  }

  /** Row `i`'s lower-cased search text (its parts, `searchTextOf`). */
  text(i: number, rawOf: RawOf): SearchText {
    let t = this.texts[i];
    if (t === undefined) {
      t = searchTextOf(this.rows[i] as T, rawOf);
      this.texts[i] = t;
    }
    return t;
  }

  /**
   * Builds the texts not built yet from row `from` on while `more()` says to go on (checked every
   * 64 rows); returns where it stopped, or -1 when every row has its text.
   */
  prepare(rawOf: RawOf, from: number, more: () => boolean): number {
    for (let i = from; i < this.rows.length; i++) {
      if ((i & 63) === 0 && !more()) return i;
      if (this.texts[i] === undefined) this.text(i, rawOf);
    }
    return -1;
  }

  /** Which rows have which values of a field; made once per field. */
  private postingsOf(field: FilterField): Postings {
    let p = this.postings.get(field);
    if (p) return p;
    p = new Map();
    for (let i = 0; i < this.rows.length; i++) {
      for (const v of rowValues(this.rows[i] as T, field)) {
        const list = p.get(v);
        if (list === undefined) p.set(v, [i]);
        else if (list[list.length - 1] !== i) list.push(i);
      }
    }
    this.postings.set(field, p);
    return p;
  }

  /** The rows that pass the filter, in order. */
  filter(f: TimelineFilter, rawOf: RawOf): T[] {
    return this.passing(f, rawOf).map((i) => this.rows[i] as T);
  }

  /**
   * The time spans of the rows the filter passes (every row's without one), for the waterfall's
   * window: `spanOf` of each, kept per row (one index is one trace's rows, so one `spanOf`).
   */
  spansOf(
    f: TimelineFilter | undefined,
    rawOf: RawOf,
    spanOf: (row: T) => WaterfallSpan | null,
  ): (WaterfallSpan | null)[] {
    const out: (WaterfallSpan | null)[] = [];
    const at = (i: number) => {
      let s = this.spans[i];
      if (s === undefined) {
        s = spanOf(this.rows[i] as T);
        this.spans[i] = s;
      }
      out.push(s);
    };
    if (f === undefined) for (let i = 0; i < this.rows.length; i++) at(i);
    else for (const i of this.passing(f, rawOf)) at(i);
    return out;
  }

  /** The indexes of the rows that pass the filter, in order (the last answer again for the same filter). */
  private passing(f: TimelineFilter, rawOf: RawOf): readonly number[] {
    if (this.last !== undefined && this.last.filter === f) return this.last.passed;
    const c = compiledFilter(f);
    const n = this.rows.length;
    // Which rows the field terms let through (null: all of them).
    let allowed: Uint8Array | null = null;
    for (const g of c.groups) {
      const p = this.postingsOf(g.field);
      if (g.any.length > 0) {
        const some = new Uint8Array(n);
        for (const [v, list] of p) {
          if (!g.any.some((t) => t(v))) continue;
          if (allowed === null) for (const i of list) some[i] = 1;
          else for (const i of list) some[i] = allowed[i] as number;
        }
        allowed = some;
      }
      if (g.none.length > 0) {
        if (allowed === null) allowed = new Uint8Array(n).fill(1);
        for (const [v, list] of p) {
          if (!g.none.some((t) => t(v))) continue;
          for (const i of list) allowed[i] = 0;
        }
      }
    }
    const passed: number[] = [];
    const test = (i: number) =>
      (allowed === null || allowed[i] === 1) && (!c.usesText || c.testTextParts(this.text(i, rawOf)));
    if (this.last !== undefined && narrows(f, this.last.filter)) {
      for (const i of this.last.passed) if (test(i)) passed.push(i);
    } else {
      for (let i = 0; i < n; i++) if (test(i)) passed.push(i);
    }
    this.last = { filter: f, passed };
    return passed;
  }
}

const indexes = new WeakMap<readonly TopRow[], SearchIndex<TopRow>>();

/** The index of a rows array (made the first time it is asked for). */
export function searchIndexOf<T extends TopRow>(rows: readonly T[]): SearchIndex<T> {
  let index = indexes.get(rows);
  if (!index) {
    index = new SearchIndex<TopRow>(rows);
    indexes.set(rows, index);
  }
  return index as SearchIndex<T>;
}
