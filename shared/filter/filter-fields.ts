/**
 * The fields a filter query can name (`method:session/prompt`), how each one's value is compared,
 * and the values known in advance. One catalogue for the Timeline, Records and Sequence views and
 * for the search box's suggestions. Pure: no React, no Node.
 */
import type { OutcomeKind } from "../analyzer/timeline-model.js";
import { VERDICT_NAMES } from "../analyzer/verdicts.js";

/** Every field name a query can use. */
export type FilterField =
  | "method"
  | "session"
  | "key"
  | "outcome"
  | "verdict"
  | "direction"
  | "connection"
  | "id"
  | "origin";

/**
 * How a field's value is compared, always ignoring case:
 * - `exact`: the whole value, `*` matching any run of characters (`method:session/*`);
 * - `contains`: a part of the value (`key:abc` matches key `xabcx`).
 */
export type FieldMatch = "exact" | "contains";

/** One field of the catalogue. */
export interface FieldDefinition {
  readonly name: FilterField;
  /** Other names for it (`conn`, `dir`). */
  readonly aliases: readonly string[];
  readonly match: FieldMatch;
  /** The values it can take, when the list is closed (a value outside it is reported). */
  readonly values?: readonly string[];
  /** What it stands for, in a few words (shown in suggestions and the docs). */
  readonly description: string;
}

/** The outcome kinds, and `unresolved`: a row the Client has no definite answer to yet, or still being retried. */
const OUTCOMES: readonly (OutcomeKind | "unresolved")[] = [
  "pending",
  "inserted",
  "answered",
  "error",
  "cancelled",
  "lost",
  "dropped",
  "unresolved",
];

/** The directions, with the short forms `client` (sent by the Client) and `agent` (sent by the Agent). */
export const DIRECTION_VALUES = ["client->agent", "agent->client"] as const;

/** Every field, in the order suggestions list them. */
export const FILTER_FIELDS: readonly FieldDefinition[] = [
  {
    name: "method",
    aliases: [],
    match: "exact",
    description: "JSON-RPC method; session/prompt for submissions; * is a wildcard",
  },
  { name: "session", aliases: [], match: "contains", description: "part of the sessionId" },
  { name: "key", aliases: [], match: "contains", description: "part of the idempotencyKey" },
  { name: "outcome", aliases: [], match: "exact", values: OUTCOMES, description: "how a request ended" },
  {
    name: "verdict",
    aliases: [],
    match: "exact",
    values: VERDICT_NAMES,
    description: "the analyzer's verdict",
  },
  {
    name: "direction",
    aliases: ["dir"],
    match: "exact",
    values: [...DIRECTION_VALUES, "client", "agent"],
    description: "client->agent or agent->client (client and agent for short)",
  },
  {
    name: "connection",
    aliases: ["conn"],
    match: "exact",
    description: "connection number (1 or #1)",
  },
  { name: "id", aliases: [], match: "exact", description: "JSON-RPC id" },
  {
    name: "origin",
    aliases: [],
    match: "exact",
    values: ["peer", "tap", "inspector"],
    description:
      "who wrote it: peer (the Client or Agent), tap (e.g. a replayed initialize) or inspector (its retry)",
  },
];

const BY_NAME = new Map<string, FieldDefinition>();
for (const f of FILTER_FIELDS) {
  BY_NAME.set(f.name, f);
  for (const a of f.aliases) BY_NAME.set(a, f);
}

/** The field a name or alias stands for (any case), or undefined. */
export function fieldNamed(name: string): FieldDefinition | undefined {
  return BY_NAME.get(name.toLowerCase());
}

/** The definition of a field. */
export function fieldDefinition(field: FilterField): FieldDefinition {
  return BY_NAME.get(field) as FieldDefinition;
}

/** Edit distance, for "did you mean" (short strings only). */
function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0] as number;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j] as number;
      row[j] = Math.min(cur + 1, (row[j - 1] as number) + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length] as number;
}

/** The field name closest to a misspelt one (at most 2 edits, or a prefix), or undefined. */
export function nearestField(name: string): FilterField | undefined {
  const n = name.toLowerCase();
  let best: { field: FilterField; d: number } | undefined;
  for (const [alias, def] of BY_NAME) {
    const d = alias.startsWith(n) || n.startsWith(alias) ? 1 : distance(n, alias);
    if (d <= 2 && (!best || d < best.d)) best = { field: def.name, d };
  }
  return best?.field;
}
