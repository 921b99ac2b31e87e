/**
 * How the user set up a table: column widths, hidden columns and the sort, remembered per table in
 * localStorage. Reading is resilient: a stored value that is not what this code wrote (bad JSON,
 * wrong types, absurd widths) is dropped field by field, never thrown.
 */

/** One column the table is sorted by. */
export interface ColumnSort {
  readonly id: string;
  readonly desc: boolean;
}

/** A table's column setup. */
export interface TablePrefs {
  /** Widths by column id, in px at the normal text size. */
  readonly sizing: Readonly<Record<string, number>>;
  /** `false` for a hidden column; absent: the table's default. */
  readonly visibility: Readonly<Record<string, boolean>>;
  /** At most one column; empty: the table's natural order. */
  readonly sorting: readonly ColumnSort[];
}

/** No setup: default widths, default columns, natural order. */
export const NO_PREFS: TablePrefs = { sizing: {}, visibility: {}, sorting: [] };

/** The narrowest and widest a stored width may be. */
export const WIDTH_LIMITS = { min: 20, max: 2000 } as const;

const ID = /^[A-Za-z0-9_-]{1,40}$/;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The stored text of a table's setup, read back; anything unreadable becomes the default. */
export function parseTablePrefs(text: string | null): TablePrefs {
  if (text === null) return NO_PREFS;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return NO_PREFS;
  }
  if (!isRecord(value)) return NO_PREFS;
  const sizing: Record<string, number> = {};
  if (isRecord(value.sizing)) {
    for (const [id, w] of Object.entries(value.sizing)) {
      if (
        ID.test(id) &&
        typeof w === "number" &&
        Number.isFinite(w) &&
        w >= WIDTH_LIMITS.min &&
        w <= WIDTH_LIMITS.max
      )
        sizing[id] = w;
    }
  }
  const visibility: Record<string, boolean> = {};
  if (isRecord(value.visibility)) {
    for (const [id, v] of Object.entries(value.visibility))
      if (ID.test(id) && typeof v === "boolean") visibility[id] = v;
  }
  const sorting: ColumnSort[] = [];
  if (Array.isArray(value.sorting)) {
    const first: unknown = value.sorting[0];
    if (
      isRecord(first) &&
      typeof first.id === "string" &&
      ID.test(first.id) &&
      typeof first.desc === "boolean"
    )
      sorting.push({ id: first.id, desc: first.desc });
  }
  return { sizing, visibility, sorting };
}

/** The text `parseTablePrefs` reads back. */
export function serializeTablePrefs(prefs: TablePrefs): string {
  return JSON.stringify({
    sizing: prefs.sizing,
    visibility: prefs.visibility,
    sorting: prefs.sorting.slice(0, 1),
  });
}

/** A width kept within the limits and a column's own. */
export function clampWidth(
  w: number,
  min: number = WIDTH_LIMITS.min,
  max: number = WIDTH_LIMITS.max,
): number {
  return Math.round(Math.min(Math.max(w, min, WIDTH_LIMITS.min), max, WIDTH_LIMITS.max));
}
