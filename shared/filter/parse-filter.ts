/**
 * Reads the search box's query, DevTools style: `method:session/prompt key:abc -verdict:single "two words"`.
 * Terms are separated by white space; `field:value` names a field, anything else is text to find;
 * `-` in front negates a term; double quotes keep spaces in a value (`key:"a b"`, `"two words"`;
 * `\"` is a quote inside them). Nothing is thrown: every mistake becomes a `FilterProblem` with the
 * place it is at, in words, and the query still does what the rest of it says. Pure.
 */
import { FILTER_FIELDS, type FilterField, fieldNamed, nearestField } from "./filter-fields.js";

/** One term of a query. `field` null: free text. `start`/`end`: where it is in the query text. */
export interface FilterTerm {
  readonly field: FilterField | null;
  readonly value: string;
  readonly negated: boolean;
  readonly start: number;
  readonly end: number;
}

/** A mistake in the query, with where it is and what was done about it. */
export interface FilterProblem {
  readonly start: number;
  readonly end: number;
  readonly message: string;
}

/** A parsed query: its text, the terms it applies, and what is wrong with it. */
export interface FilterQuery {
  readonly text: string;
  readonly terms: readonly FilterTerm[];
  readonly problems: readonly FilterProblem[];
}

/** The query that filters nothing. */
export const EMPTY_QUERY: FilterQuery = { text: "", terms: [], problems: [] };

/** A field name: a letter, then letters, digits, `_` or `-` (so `12:03:04` and `:x` are text). */
const FIELD_NAME = /^[A-Za-z][\w-]*$/;
const SPACE = /\s/u;

const FIELD_LIST = FILTER_FIELDS.map((f) => f.name).join(", ");

/** The first few values of a list, and how many more there are. */
function listSome(values: readonly string[], field: string): string {
  const MAX = 6;
  if (values.length <= MAX) return values.join(", ");
  return `${values.slice(0, MAX).join(", ")} and ${values.length - MAX} more (type ${field}: for all of them)`;
}

/** Reads a quoted run starting at `i` (on the opening quote); returns the text and the index after it. */
function readQuoted(s: string, i: number): { text: string; next: number; closed: boolean } {
  let out = "";
  let j = i + 1;
  while (j < s.length) {
    const c = s[j] as string;
    if (c === "\\" && (s[j + 1] === '"' || s[j + 1] === "\\")) {
      out += s[j + 1];
      j += 2;
      continue;
    }
    if (c === '"') return { text: out, next: j + 1, closed: true };
    out += c;
    j++;
  }
  return { text: out, next: j, closed: false };
}

/** Reads a bare word (quoted runs inside it join it) from `i` up to white space. */
function readWord(
  s: string,
  i: number,
  stopAtColon: boolean,
): { text: string; next: number; closed: boolean } {
  let out = "";
  let j = i;
  let closed = true;
  while (j < s.length) {
    const c = s[j] as string;
    if (SPACE.test(c)) break;
    if (stopAtColon && c === ":") break;
    if (c === '"') {
      const q = readQuoted(s, j);
      out += q.text;
      j = q.next;
      if (!q.closed) closed = false;
      continue;
    }
    out += c;
    j++;
  }
  return { text: out, next: j, closed };
}

/** Parses a query. Never throws. */
export function parseFilter(text: string): FilterQuery {
  const terms: FilterTerm[] = [];
  const problems: FilterProblem[] = [];
  const s = text;
  let i = 0;
  while (i < s.length) {
    if (SPACE.test(s[i] as string)) {
      i++;
      continue;
    }
    const start = i;
    let negated = false;
    if (s[i] === "-") {
      negated = true;
      i++;
      if (i >= s.length || SPACE.test(s[i] as string)) {
        problems.push({
          start,
          end: i,
          message: "“-” alone negates nothing: put it right before a term (-verdict:single); ignored",
        });
        continue;
      }
    }
    // A name up to a colon, when it looks like a field name; otherwise the whole word is text.
    const head = readWord(s, i, true);
    if (s[head.next] === ":" && FIELD_NAME.test(head.text) && !s.slice(i, head.next).includes('"')) {
      const name = head.text;
      const valueAt = head.next + 1;
      const v = readWord(s, valueAt, false);
      const end = v.next;
      if (!v.closed)
        problems.push({ start, end, message: "missing closing quote: the value runs to the end" });
      const def = fieldNamed(name);
      if (!def) {
        // Not a field: said in words, and searched as the text it is.
        const near = nearestField(name);
        const asText = `${name}:${v.text}`;
        problems.push({
          start,
          end,
          message: `“${name}” is not a filter field${near ? ` (did you mean ${near}?)` : ""}; searching for the text “${asText}” instead. Fields: ${FIELD_LIST}`,
        });
        terms.push({ field: null, value: asText, negated, start, end });
        i = end;
        continue;
      }
      if (v.text === "") {
        problems.push({ start, end, message: `${def.name}: needs a value (${def.description}); ignored` });
        i = end;
        continue;
      }
      if (def.values && !v.text.includes("*") && !def.values.includes(v.text.toLowerCase())) {
        problems.push({
          start,
          end,
          message: `no ${def.name} “${v.text}”, so no row matches it; ${def.name}s: ${listSome(def.values, def.name)}`,
        });
      }
      if (def.name === "connection" && !/^#?\d+$/.test(v.text)) {
        problems.push({
          start,
          end,
          message: `connection “${v.text}” is not a number (1 or #1), so no row matches it`,
        });
      }
      terms.push({ field: def.name, value: v.text, negated, start, end });
      i = end;
      continue;
    }
    const w = readWord(s, i, false);
    const end = w.next;
    if (!w.closed) problems.push({ start, end, message: "missing closing quote: the text runs to the end" });
    if (w.text === "") {
      problems.push({ start, end, message: "empty quotes find nothing; ignored" });
    } else {
      terms.push({ field: null, value: w.text, negated, start, end });
    }
    i = end;
  }
  return { text, terms, problems };
}

/** True when the query applies at least one term. */
export function isActive(q: FilterQuery): boolean {
  return q.terms.length > 0;
}
