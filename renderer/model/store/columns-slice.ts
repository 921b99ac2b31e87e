/**
 * The zustand slice for how the user set up the tables: each table's column widths, hidden columns
 * and sort (table-prefs.ts), and whether the Timeline shows lifecycle events. Remembered in
 * localStorage (when there is one), per table; a stored value that cannot be read is ignored.
 */
import type { StateCreator } from "zustand";
import { NO_PREFS, parseTablePrefs, serializeTablePrefs, type TablePrefs } from "./table-prefs.js";

/** The tables whose setup is remembered. */
export type TableId = "timeline" | "records";

const TABLES: readonly TableId[] = ["timeline", "records"];
const PREFS_KEY = (table: TableId) => `acp-inspector-columns-${table}`;
const LIFECYCLE_KEY = "acp-inspector-lifecycle-events";

/** Column setup state and its setters. */
export interface ColumnsSlice {
  readonly tablePrefs: Readonly<Record<TableId, TablePrefs>>;
  /** Lifecycle and fault events as Timeline rows (off until the user turns it on; remembered). */
  readonly showLifecycle: boolean;
  setTablePrefs(table: TableId, prefs: TablePrefs): void;
  setShowLifecycle(show: boolean): void;
}

/** The storage part the slice uses (a `Storage`). */
type PrefsStorage = Pick<Storage, "getItem" | "setItem">;

function read(storage: PrefsStorage | undefined, key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(storage: PrefsStorage | undefined, key: string, value: string): void {
  try {
    storage?.setItem(key, value);
  } catch {
    // Full or refused storage: the setup still holds for this window.
  }
}

/** Creates the slice, reading and writing `storage` (none: nothing is remembered). */
export const columnsSlice =
  (storage: PrefsStorage | undefined): StateCreator<ColumnsSlice, [], [], ColumnsSlice> =>
  (set) => ({
    tablePrefs: Object.fromEntries(
      TABLES.map((t) => [t, storage ? parseTablePrefs(read(storage, PREFS_KEY(t))) : NO_PREFS]),
    ) as Record<TableId, TablePrefs>,
    // Off until the user turns it on: event rows change which rows a short window shows.
    showLifecycle: read(storage, LIFECYCLE_KEY) === "1",
    setTablePrefs: (table, prefs) => {
      write(storage, PREFS_KEY(table), serializeTablePrefs(prefs));
      set((s) => ({ tablePrefs: { ...s.tablePrefs, [table]: prefs } }));
    },
    setShowLifecycle: (showLifecycle) => {
      write(storage, LIFECYCLE_KEY, showLifecycle ? "1" : "0");
      set({ showLifecycle });
    },
  });
